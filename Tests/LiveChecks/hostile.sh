#!/usr/bin/env bash
# Issue 23's hostile endpoints, as figures: a release-build `scorefeed poll` follows the real
# games of ../shared/nba-pbp from Tests/Support/nba_live_server.py, whose play-by-play AND
# boxscore of every game are hostile (--hostile): 8 GB bodies, bodies that never end, or 16 KB
# of gzip that inflate to 16 MB. For each kind it samples poll's VmRSS from /proc every 0.1 s for
# SECONDS (15), sends SIGTERM and measures how long poll takes to exit, and counts the error
# lines. The issue asks: RSS under 100 MB, exit within 5 s.
# Usage: Tests/LiveChecks/hostile.sh [SECONDS]      (builds the release binary first)
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-15}"
folder=../shared/nba-pbp
[ -d "$folder" ] || { echo "no folder $folder (real NBA play-by-play)"; exit 0; }
swift build -c release --product scorefeed -q 2>&1 | grep -v "^$" || true
bin=.build/release/scorefeed
games=0022400762,0022400723,0022000180
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
failures=0
printf '%-8s %12s %12s %14s %8s %s\n' kind "peak RSS MB" "last RSS MB" "SIGTERM→exit s" errors "first error line"
for kind in huge endless gzip; do
  hostile=$(echo "$games" | tr ',' '\n' | sed "s/.*/playbyplay_&=$kind,boxscore_&=$kind/" | paste -sd, -)
  python3 Tests/Support/nba_live_server.py --folder "$folder" --games "$games" --speed 400 \
    --hostile "$hostile" >"$work/port" 2>/dev/null &
  server=$!
  for _ in $(seq 100); do grep -q PORT "$work/port" 2>/dev/null && break; sleep 0.1; done
  port=$(awk '/PORT/ {print $2}' "$work/port")
  base="http://127.0.0.1:$port/static/json/liveData"
  $bin poll --games "$games" --interval 0.5 --timeout 10 --out "$work/out.jsonl" \
    --url-template "$base/playbyplay/playbyplay_{gameId}.json" \
    --boxscore-template "$base/boxscore/boxscore_{gameId}.json" 2>"$work/$kind.err" &
  poll=$!
  peak=0; last=0
  end=$(( $(date +%s%N) + seconds * 1000000000 ))
  while [ "$(date +%s%N)" -lt "$end" ]; do
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$poll/status" 2>/dev/null || echo 0)
    [ -n "$rss" ] && { last=$rss; [ "$rss" -gt "$peak" ] && peak=$rss; }
    sleep 0.1
  done
  start=$(date +%s%N)
  kill -TERM "$poll"
  wait "$poll"
  took=$(( ($(date +%s%N) - start) / 1000000 ))
  kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; server=""
  errors=$(grep -c "127.0.0.1:$port" "$work/$kind.err")
  printf '%-8s %12.1f %12.1f %14.3f %8d %s\n' "$kind" "$(echo "$peak / 1024" | bc -l)" "$(echo "$last / 1024" | bc -l)" \
    "$(echo "$took / 1000" | bc -l)" "$errors" "$(grep -m1 "127.0.0.1:$port" "$work/$kind.err")"
  if [ "$peak" -ge 102400 ] || [ "$took" -ge 5000 ] || [ "$errors" -eq 0 ]; then failures=$((failures + 1)); fi
done
[ "$failures" -eq 0 ] && echo "hostile: every kind under 100 MB, stopped within 5 s, with its error lines" \
  || echo "hostile: $failures kind(s) over 100 MB, slower than 5 s or without an error line"
exit $((failures > 0))

#!/usr/bin/env bash
# Issue 12's end-to-end checks through the CLI, on every game in a folder of real NBA files
# (default ../shared/nba-pbp; boxscores and summaries are companions, not games):
#   1. import → stream → serve --clock feed gives the same records, byte for byte, as replay --jsonl;
#   2. the same stream again after it (an at-least-once producer) adds nothing;
#   3. all games streamed at once into serve on the system clock: each game's last record is its
#      end with the feed's final, and serve exits 0.
# Usage: Tests/LiveChecks/run.sh [folder]        (builds the debug binary first)
set -uo pipefail
cd "$(dirname "$0")/../.."
folder="${1:-../shared/nba-pbp}"
[ -d "$folder" ] || { echo "no folder $folder (real NBA play-by-play)"; exit 0; }
swift build -q 2>&1 | grep -v "^$" || true
bin=.build/debug/scorefeed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fixtures=()
printf '%-34s %8s %8s %6s %8s %-10s\n' game events replay serve again result
for file in "$folder"/*.json; do
  name=$(basename "$file" .json)
  case "$name" in boxscore_*|stats_summary_*) continue ;; esac
  fixture="$work/$name.json"
  if ! $bin import "$file" -o "$fixture" 2>"$work/$name.import"; then
    printf '%-34s import failed: %s\n' "$name" "$(tail -1 "$work/$name.import")"; failures=$((failures + 1)); continue
  fi
  fixtures+=("$fixture")
  $bin replay --jsonl "$fixture" >"$work/$name.replay" 2>/dev/null
  $bin stream "$fixture" --out "$work/$name.stream" 2>/dev/null
  events=$(($(wc -l <"$work/$name.stream") - 1))
  $bin serve --clock feed <"$work/$name.stream" >"$work/$name.serve" 2>"$work/$name.err"; code=$?
  # The producer sends everything twice: the second copy must add nothing.
  cat "$work/$name.stream" "$work/$name.stream" | $bin serve --clock feed >"$work/$name.twice" 2>/dev/null
  result=same
  cmp -s "$work/$name.replay" "$work/$name.serve" || result=DIFFERENT
  cmp -s "$work/$name.serve" "$work/$name.twice" || result="$result,resent-differs"
  [ $code -eq 0 ] || result="$result,exit$code"
  [ "$result" = same ] || failures=$((failures + 1))
  printf '%-34s %8d %8d %6d %8d %-10s\n' "$name" "$events" "$(wc -l <"$work/$name.replay")" \
    "$(wc -l <"$work/$name.serve")" "$(wc -l <"$work/$name.twice")" "$result"
done
[ ${#fixtures[@]} -gt 0 ] || { echo "no games in $folder"; exit 0; }

echo
echo "all ${#fixtures[@]} games at once into serve on the system clock:"
$bin stream "${fixtures[@]}" 2>/dev/null | $bin serve >"$work/all.system" 2>"$work/all.err"; code=$?
python3 - "$work/all.system" "${fixtures[@]}" <<'PY' || failures=$((failures + 1))
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    game, final = doc["game"]["gameId"], doc.get("final")
    mine = [r for r in records if r.get("game") == game and "request" in r]
    last = mine[-1] if mine else None
    state = last["payload"]["aps"]["content-state"] if last else {}
    ok = bool(last) and last["event"] == "end" and final and [state["awayScore"], state["homeScore"]] == [final["away"], final["home"]]
    bad += not ok
    print(f"  {game}: {len(mine):3d} pushes, last {last['event'] if last else '-'} "
          f"{state.get('awayScore')}-{state.get('homeScore')} (away-home), feed final {final['away']}-{final['home']} {'ok' if ok else 'WRONG'}")
sys.exit(1 if bad else 0)
PY
echo "  serve exit status $code"
[ $code -eq 0 ] || failures=$((failures + 1))
echo
[ $failures -eq 0 ] && echo "all checks hold" || echo "$failures checks failed"
exit $((failures > 0))

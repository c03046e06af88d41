#!/usr/bin/env bash
# Two `scorefeed` binaries on the same streams: `serve --clock feed` in token and broadcast mode,
# on Android and on both platforms, on 120 generated games, the real games in ../shared (when
# present; also with a channel named in each game's header, so broadcast mode sends), the
# generated stream with CRLF endings and with --max-line-bytes 240, and three seeded streams of
# hostile lines (hostile_lines.py); the same with `--state-dir` on the generated and real games,
# and on the real games killed (SIGKILL) after half the stream, then given the whole stream on
# its state dir; and `replay --jsonl` (token and broadcast mode, Android) and `report` (iOS and
# Android) on every fixture and every real game. Prints, for each, whether stdout and stderr
# (each sorted) and the exit status are the same (for a kill, which lands at another moment in
# each run: whether the records, less repeats, and the ends are); exits 1 when any differs.
# usage: Tests/Figures/same_output.sh <binary> <other binary>
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 <binary> <other binary>" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
make_streams "$1"
sed 's/$/\r/' "$work/generated.jsonl" > "$work/crlf.jsonl"
streams=(generated crlf "${streams[@]:1}")
durable=(generated)
if [ -f "$work/real.jsonl" ]; then
  # Each game's header names a channel of its own: broadcast mode sends to it.
  python3 - "$work/real.jsonl" "$work/real-channels.jsonl" <<'PY'
import base64, json, sys
with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        if '"gameId"' in line and '"game":' not in line:
            header = json.loads(line)
            header["channel"] = base64.b64encode(("channel-" + header["gameId"]).encode()).decode()
            line = json.dumps(header, separators=(",", ":")) + "\n"
        out.write(line)
PY
  streams+=(real-channels)
  durable+=(real real-channels)
fi
S="$root/../shared/nba-pbp"
outcome() { # binary stream args...
  local binary=$1 stream=$2
  shift 2
  rm -rf "$work/state"
  "$binary" serve --clock feed "$@" < "$work/$stream.jsonl" > "$work/out" 2> "$work/err"
  local status=$?
  # The journal's byte count depends on when each push was delivered (a delivered line's
  # timestamp, whose digits vary run to run), so two runs of one binary differ in it: masked.
  sed -E -i 's/state dir: [0-9]+ bytes written \([0-9]+ per event: journal [0-9]+/state dir: N bytes written (N per event: journal N/' "$work/err"
  echo "exit $status stdout $(sort "$work/out" | md5sum | cut -c1-12) ($(wc -l < "$work/out") lines) stderr $(sort "$work/err" | md5sum | cut -c1-12) ($(wc -l < "$work/err") lines)"
}
differ=0
for stream in "${streams[@]}"; do
  for args in "--mode token" "--mode broadcast" "--platform android" "--platform ios,android --mode broadcast" "--max-line-bytes 240"; do
    a=$(outcome "$1" "$stream" $args); b=$(outcome "$2" "$stream" $args)
    if [ "$a" = "$b" ]; then echo "same      $stream $args: $a"; else echo "DIFFERENT $stream $args: $a / $b"; differ=1; fi
  done
done
for stream in "${durable[@]}"; do
  for args in "--mode token" "--mode broadcast" "--platform ios,android --mode broadcast"; do
    a=$(outcome "$1" "$stream" --state-dir "$work/state" $args); b=$(outcome "$2" "$stream" --state-dir "$work/state" $args)
    if [ "$a" = "$b" ]; then echo "same      $stream --state-dir $args: $a"; else echo "DIFFERENT $stream --state-dir $args: $a / $b"; differ=1; fi
  done
done
killed() { # binary stream args...: killed after half the stream, then the whole stream again
  local binary=$1 stream=$2 lines
  shift 2
  rm -rf "$work/state"
  lines=$(wc -l < "$work/$stream.jsonl")
  head -n $((lines / 2)) "$work/$stream.jsonl" > "$work/half.jsonl"
  "$binary" serve --clock feed --state-dir "$work/state" "$@" < "$work/half.jsonl" > "$work/out" 2>/dev/null &
  local pid=$!
  sleep 0.02
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  "$binary" serve --clock feed --state-dir "$work/state" "$@" < "$work/$stream.jsonl" >> "$work/out" 2>/dev/null
  echo "records $(sort -u "$work/out" | md5sum | cut -c1-12) ($(sort -u "$work/out" | wc -l) lines, $(sort -u "$work/out" | grep -c '"event":"end"') ends)"
}
if [ -f "$work/real.jsonl" ]; then
  for args in "--mode token" "--mode broadcast" "--platform ios,android --mode broadcast"; do
    a=$(killed "$1" real-channels $args); b=$(killed "$2" real-channels $args)
    if [ "$a" = "$b" ]; then echo "same      real-channels killed mid-stream $args: $a"; else echo "DIFFERENT real-channels killed mid-stream $args: $a / $b"; differ=1; fi
  done
fi
games=("$root"/Fixtures/*.json)
[ -d "$S" ] && games+=($(ls "$S"/*.json | grep -v -e boxscore_ -e stats_summary_))
run() { # binary file command args...
  local binary=$1 file=$2 command=$3
  shift 3
  if [ "$command" = report ]; then
    "$binary" report "$file" -o "$work/page.html" "$@" > "$work/out" 2> "$work/err"
    local status=$?
    cat "$work/page.html" >> "$work/out" 2>/dev/null
    rm -f "$work/page.html"
  else
    "$binary" "$command" "$file" "$@" > "$work/out" 2> "$work/err"
    local status=$?
  fi
  # The summary's wall time is the one line that differs between runs of one binary.
  echo "exit $status stdout $(md5sum < "$work/out" | cut -c1-12) stderr $(grep -v 'wall time' "$work/err" | md5sum | cut -c1-12)"
}
same=0
for file in "${games[@]}"; do
  for how in "replay --jsonl" "replay --jsonl --mode broadcast --channel-id dGVzdA==" "replay --jsonl --platform android" "report" "report --platform android"; do
    a=$(run "$1" "$file" $how); b=$(run "$2" "$file" $how)
    if [ "$a" = "$b" ]; then same=$((same + 1)); else echo "DIFFERENT $(basename "$file") $how: $a / $b"; differ=1; fi
  done
done
echo "replay and report: $same of $((${#games[@]} * 5)) the same"
exit $differ

#!/usr/bin/env bash
# Two `scorefeed` binaries on the same streams: `serve --clock feed` in token and broadcast mode
# on 120 generated games, the real games in ../shared (when present), the generated stream with
# CRLF endings and with --max-line-bytes 240, and three seeded streams of hostile lines
# (hostile_lines.py); and `replay --jsonl` (token and broadcast mode) and `report` on every
# fixture and every real game. Prints, for each, whether stdout and stderr (each sorted) and the
# exit status are the same; exits 1 when any differs.
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
S="$root/../shared/nba-pbp"
outcome() { # binary stream args...
  local binary=$1 stream=$2
  shift 2
  "$binary" serve --clock feed "$@" < "$work/$stream.jsonl" > "$work/out" 2> "$work/err"
  echo "exit $? stdout $(sort "$work/out" | md5sum | cut -c1-12) ($(wc -l < "$work/out") lines) stderr $(sort "$work/err" | md5sum | cut -c1-12) ($(wc -l < "$work/err") lines)"
}
differ=0
for stream in "${streams[@]}"; do
  for args in "--mode token" "--mode broadcast" "--max-line-bytes 240"; do
    a=$(outcome "$1" "$stream" $args); b=$(outcome "$2" "$stream" $args)
    if [ "$a" = "$b" ]; then echo "same      $stream $args: $a"; else echo "DIFFERENT $stream $args: $a / $b"; differ=1; fi
  done
done
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
  for how in "replay --jsonl" "replay --jsonl --mode broadcast --channel-id dGVzdA==" "report"; do
    a=$(run "$1" "$file" $how); b=$(run "$2" "$file" $how)
    if [ "$a" = "$b" ]; then same=$((same + 1)); else echo "DIFFERENT $(basename "$file") $how: $a / $b"; differ=1; fi
  done
done
echo "replay and report: $same of $((${#games[@]} * 3)) the same"
exit $differ

#!/usr/bin/env bash
# `--platform ios,android` against each platform alone, with one binary: `serve --clock feed` in
# token and broadcast mode on 120 generated games, the real games in ../shared (when present) and
# three seeded streams of hostile lines (hostile_lines.py); and `replay --jsonl` (both modes) on
# every fixture and real game. For each: whether the lines without {"platform":"android" are
# `--platform ios`'s and the others `--platform android`'s (serve: sorted, games interleave as
# they come; replay: in order), and that the stderr of both has as many lines as iOS's alone (the
# same rejections, one summary per game). Exits 1 when any differs.
# usage: Tests/Figures/platforms_same.sh <binary>
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 <binary>" >&2; exit 2; }
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
make_streams "$bin"
S="$root/../shared/nba-pbp"
android='^{"platform":"android"'
differ=0
for stream in "${streams[@]}"; do
  for mode in token broadcast; do
    "$bin" serve --clock feed --mode $mode < "$work/$stream.jsonl" > "$work/ios" 2> "$work/ios.err"
    "$bin" serve --clock feed --mode $mode --platform android < "$work/$stream.jsonl" > "$work/android" 2>/dev/null
    "$bin" serve --clock feed --mode $mode --platform ios,android < "$work/$stream.jsonl" > "$work/both" 2> "$work/both.err"
    i=$(grep -v "$android" "$work/both" | sort | md5sum | cut -c1-12); ia=$(sort "$work/ios" | md5sum | cut -c1-12)
    a=$(grep "$android" "$work/both" | sort | md5sum | cut -c1-12); aa=$(sort "$work/android" | md5sum | cut -c1-12)
    lines="$(wc -l < "$work/ios") + $(wc -l < "$work/android") = $(wc -l < "$work/both") lines, stderr $(wc -l < "$work/ios.err")/$(wc -l < "$work/both.err")"
    if [ "$i" = "$ia" ] && [ "$a" = "$aa" ] && [ "$(wc -l < "$work/ios.err")" = "$(wc -l < "$work/both.err")" ]; then echo "same      serve $stream --mode $mode: $lines"; else echo "DIFFERENT serve $stream --mode $mode: ios $i/$ia android $a/$aa"; differ=1; fi
  done
done
games=("$root"/Fixtures/*.json)
[ -d "$S" ] && games+=($(ls "$S"/*.json | grep -v -e boxscore_ -e stats_summary_))
same=0 total=0
for file in "${games[@]}"; do
  for mode in "" "--mode broadcast --channel-id dGVzdA=="; do
    total=$((total + 1))
    "$bin" replay "$file" --jsonl -q $mode > "$work/ios" 2>/dev/null
    "$bin" replay "$file" --jsonl -q --platform android ${mode:+--mode broadcast} > "$work/android" 2>/dev/null
    "$bin" replay "$file" --jsonl -q --platform ios,android $mode > "$work/both" 2>/dev/null
    if grep -v "$android" "$work/both" | cmp -s - "$work/ios" && grep "$android" "$work/both" | cmp -s - "$work/android"; then
      same=$((same + 1))
    else
      echo "DIFFERENT replay $(basename "$file") $mode"; differ=1
    fi
  done
done
echo "replay: $same of $total the same"
exit $differ

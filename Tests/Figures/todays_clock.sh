#!/usr/bin/env bash
# Issue 31 item 5's figures: recordings on today's clock.
#  1. Instant replay keeps the recorded times: `replay --jsonl` of every fixture and real game,
#     in token mode, with --start, and in broadcast mode, by both binaries: files identical.
#  2. replay --speed: how far each date a device reads is from the wall clock when the record
#     comes out (wall_dates.py), every liveData game, both binaries.
#  3. A recorded stream into serve on the system clock (`stream --speed 60 | serve`), and poll
#     on the system clock of the games behind nba_live_server.py at 60x: the same measure.
# usage: Tests/Figures/todays_clock.sh BEFORE AFTER [speed]    (about 4 minutes at speed 60)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
before=${1:?usage: todays_clock.sh BEFORE AFTER [speed]}
after=${2:?usage: todays_clock.sh BEFORE AFTER [speed]}
speed=${3:-60}
S="$root/../shared/nba-pbp"
[ -d "$S" ] || { echo "skipped: $S is absent (the real games live beside the project)"; exit 0; }
command -v python3 >/dev/null || { echo "skipped: python3 is not on the PATH"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"; kill $(jobs -p) 2>/dev/null || true' EXIT
cd "$root"
echo "before: $before; after: $after; $(date -u +%Y-%m-%dT%H:%MZ)"

echo; echo "1. instant replay, recorded times kept"
same=0; differ=0
for file in Fixtures/*.json Fixtures/edge/*.json "$S"/*.json; do
  for options in "" "--start" "--mode broadcast --channel-id dG9kYXk="; do
    # shellcheck disable=SC2086
    "$before" replay "$file" --jsonl -q $options >"$work/b" 2>/dev/null || true
    # shellcheck disable=SC2086
    "$after" replay "$file" --jsonl -q $options >"$work/a" 2>/dev/null || true
    if cmp -s "$work/b" "$work/a"; then same=$((same + 1)); else differ=$((differ + 1)); echo "  differs: $file $options"; fi
  done
done
echo "  $same outputs identical, $differ differ"

games=$(ls "$S"/playbyplay_*.json)
ids=$(for g in $games; do basename "$g" .json | sed 's/playbyplay_//'; done | paste -sd, -)

echo; echo "2. replay --speed $speed (token, --start), each liveData game"
for g in $games; do
  name=$(basename "$g" .json)
  ("$before" replay "$g" --speed "$speed" --jsonl -q --start | python3 "$here/wall_dates.py" "before $name" >"$work/r-b-$name") &
  ("$after" replay "$g" --speed "$speed" --jsonl -q --start | python3 "$here/wall_dates.py" "after $name" >"$work/r-a-$name") &
done
wait
cat "$work"/r-b-* "$work"/r-a-*

echo; echo "3. recorded games on the system clock at ${speed}x: stream | serve, and poll"
for which in before after; do
  bin=${!which}
  ("$bin" stream $games --speed "$speed" | "$bin" serve --clock system 2>/dev/null | python3 "$here/wall_dates.py" "$which: stream --speed $speed | serve --clock system" >"$work/s-$which") &
  python3 "$root/Tests/Support/nba_live_server.py" --folder "$S" --games "$ids" --speed "$speed" --port 0 >"$work/port-$which" &
  server=$!
  until grep -q PORT "$work/port-$which" 2>/dev/null; do sleep 0.2; done
  port=$(awk '/PORT/ {print $2}' "$work/port-$which")
  base="http://127.0.0.1:$port/static/json/liveData"
  ("$bin" poll --games "$ids" --interval 1 --clock system --url-template "$base/playbyplay/playbyplay_{gameId}.json" \
     --boxscore-template "$base/boxscore/boxscore_{gameId}.json" 2>/dev/null \
     | python3 "$here/wall_dates.py" "$which: poll --clock system, games at ${speed}x" >"$work/p-$which"; kill $server) &
done
wait
cat "$work"/s-before "$work"/p-before "$work"/s-after "$work"/p-after

#!/usr/bin/env bash
# Prints every grid figure of issue 13 into this folder (or into $2).
# usage: Tests/Figures/run.sh [scorefeed binary] [out folder] [suffix]
#   default binary: a release build of this checkout; suffix e.g. "-before" for another commit's binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-}
out=${2:-$here}
suffix=${3:-}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
S="$root/../shared/nba-pbp"
[ -d "$S" ] || { echo "skipped: $S is absent (the real games live beside the project)"; exit 0; }
ALSO="$S/stats_0021600270.json,$S/stats_0021900001.json,$S/ind-vs-mem-0022400306.json"
LIVE=$(ls "$S"/playbyplay_*.json | tr '\n' ',' | sed 's/,$//')
EST=("$S/stats_0021600270.json" "$S/stats_0021900001.json" "$S/ind-vs-mem-0022400306.json")
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
for i in $(seq 1 30); do "$bin" generate --seed "$i" -o "$gen/generated-$i.json" >/dev/null 2>&1; done

"$bin" freshness --grid --told --fit-also "$ALSO" "$S"/playbyplay_*.json > "$out/grid-told$suffix.txt"
"$bin" freshness --grid --fit-also "$ALSO" "$S"/playbyplay_*.json > "$out/grid-defaults$suffix.txt"
"$bin" freshness --grid --told --in-sample "$S"/playbyplay_*.json > "$out/grid-told$suffix-in-sample.txt"
"$bin" freshness --grid --in-sample "$S"/playbyplay_*.json > "$out/grid-defaults$suffix-in-sample.txt"
"$bin" freshness --grid --told --fit-also "$LIVE" "${EST[@]}" > "$out/grid-told$suffix-estimated-clocks.txt"
"$bin" freshness --grid --fit-also "$LIVE" "${EST[@]}" > "$out/grid-defaults$suffix-estimated-clocks.txt"
"$bin" freshness --grid --in-sample "$gen"/generated-*.json > "$out/grid-defaults$suffix-generated.txt"
if [ -z "$suffix" ] || [ "$suffix" = "-after" ]; then
  # How the defaults' worst cell moves with the share of the hour's pushes kept for their uses.
  for share in 0 0.2 0.3 0.4 0.5 1; do
    worst() { "$bin" freshness --grid --keep-uses-share "$share" "$@" | grep '^Worst' | sed 's/Worst cell: engine ÷ best baseline //'; }
    printf 'share %-4s liveData: %s | generated: %s | estimated clocks: %s\n' "$share" \
      "$(worst --fit-also "$ALSO" "$S"/playbyplay_*.json)" "$(worst --in-sample "$gen"/generated-*.json)" \
      "$(worst --fit-also "$LIVE" "${EST[@]}")"
  done > "$out/keep-uses-share.txt"
fi
for f in "$out"/grid-*"$suffix"*.txt; do
  printf '%-52s %s\n' "$(basename "$f")" "$(grep '^Worst cell' "$f")"
done

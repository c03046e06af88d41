#!/usr/bin/env bash
# Prints the budget-at-a-join figures (issue 30, item 4) into this folder (or into $2):
#   join-budget.txt            the defaults (priority-5 copies on): what chose the default
#   join-budget-no-copies.txt  the same with --no-copies: what the copies are worth at a join
# usage: Tests/Figures/join_budget.sh [scorefeed binary] [out folder]
#   default binary: a release build of this checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-}
out=${2:-$here}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
S="$root/../shared/nba-pbp"
[ -d "$S" ] || { echo "skipped: $S is absent (the real games live beside the project)"; exit 0; }
ALSO="$S/stats_0021600270.json,$S/stats_0021900001.json,$S/ind-vs-mem-0022400306.json"
"$bin" freshness --join 0.25,0.5,0.75 --fit-also "$ALSO" "$S"/playbyplay_*.json > "$out/join-budget.txt"
"$bin" freshness --join 0.25,0.5,0.75 --no-copies --fit-also "$ALSO" "$S"/playbyplay_*.json > "$out/join-budget-no-copies.txt"
for f in "$out/join-budget.txt" "$out/join-budget-no-copies.txt"; do
  echo "$(basename "$f"):"
  sed -n '/^Summary/,/^Least/p' "$f"
done

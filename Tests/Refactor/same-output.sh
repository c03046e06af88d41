#!/usr/bin/env bash
# Checks that two scorefeed binaries print the same bytes: `replay --jsonl`, the replay summary
# (all but its wall time) and `--report-json` on every fixture and every real game in
# ../shared/nba-pbp, in token mode and in broadcast mode (MODES="token" for one).
# With GRIDS=1 it also compares every freshness grid of Tests/Figures/run.sh.
# usage: [GRIDS=1] Tests/Refactor/same-output.sh <before binary> [after binary]
#   default after binary: a release build of this checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
before=${1:?usage: same-output.sh <before binary> [after binary]}
after=${2:-}
if [ -z "$after" ]; then
  (cd "$root" && swift build -c release >/dev/null)
  after="$root/.build/release/scorefeed"
fi
games=()
while IFS= read -r f; do games+=("$f"); done < <(find "$root/Fixtures" -name '*.json' | sort)
S="$root/../shared/nba-pbp"
if [ -d "$S" ]; then
  while IFS= read -r f; do games+=("$f"); done < <(ls "$S"/*.json | sort)
else
  echo "note: $S is absent; fixtures only"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
same=0 differ=0
for game in "${games[@]}"; do
 for mode in ${MODES:-token broadcast}; do
  flags=()
  [ "$mode" = broadcast ] && flags=(--mode broadcast --channel-id dGVzdA==)
  for side in before after; do
    bin=${!side}
    mkdir -p "$work/$side"
    "$bin" replay "$game" --jsonl "${flags[@]}" --report-json "$work/$side/report.json" >"$work/$side/jsonl" 2>"$work/$side/stderr" || true
    grep -v '^  wall time' "$work/$side/stderr" >"$work/$side/summary" || true
  done
  name="${game#"$root/"} ($mode)"
  if cmp -s "$work/before/jsonl" "$work/after/jsonl" && cmp -s "$work/before/summary" "$work/after/summary" \
     && cmp -s "$work/before/report.json" "$work/after/report.json"; then
    printf 'same    %6d records  %s\n' "$(wc -l <"$work/after/jsonl")" "$name"
    same=$((same + 1))
  else
    printf 'DIFFERS %6d records  %s\n' "$(wc -l <"$work/after/jsonl")" "$name"
    diff <(head -c 2000 "$work/before/summary") <(head -c 2000 "$work/after/summary") | head -5 || true
    differ=$((differ + 1))
  fi
 done
done
if [ "${GRIDS:-0}" = 1 ]; then
  for side in before after; do
    mkdir -p "$work/grids-$side"
    "$here/../Figures/run.sh" "${!side}" "$work/grids-$side" "" >/dev/null
  done
  for f in "$work"/grids-before/*.txt; do
    if cmp -s "$f" "$work/grids-after/$(basename "$f")"; then
      printf 'same    grid %s\n' "$(basename "$f")"; same=$((same + 1))
    else
      printf 'DIFFERS grid %s\n' "$(basename "$f")"; differ=$((differ + 1))
    fi
  done
fi
echo "$same identical, $differ differ"
[ "$differ" -eq 0 ]

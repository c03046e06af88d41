#!/usr/bin/env bash
# What following each game once for both lock screens costs: `serve --clock feed --out /dev/null`
# on 120 generated games as one stream, with --platform ios, android and ios,android, each with
# and without --state-dir, run alternately in one sitting, best of N; then the dual run's time
# against the two single runs' sum (below 1: the one fold saves).
# usage: Tests/Figures/platforms_cost.sh <binary> [runs]   (default 5 runs)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 <binary> [runs]" >&2; exit 2; }
binary=$1
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 120); do "$binary" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"$binary" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
declare -A best
for run in $(seq 1 "$runs"); do
  for platform in ios android ios,android; do
    for state in none dir; do
      extra=()
      if [ "$state" = dir ]; then rm -rf "$work/state"; extra=(--state-dir "$work/state"); fi
      start=$(date +%s.%N)
      "$binary" serve --clock feed --platform "$platform" --out /dev/null "${extra[@]}" < "$work/generated.jsonl" 2>/dev/null
      took=$(echo "$(date +%s.%N) - $start" | bc)
      key="$platform $state"
      if [ -z "${best[$key]:-}" ] || [ "$(echo "$took < ${best[$key]}" | bc)" = 1 ]; then best[$key]=$took; fi
    done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l < "$work/generated.jsonl") lines; best of $runs"
for state in none dir; do
  ios=${best["ios $state"]} android=${best["android $state"]} both=${best["ios,android $state"]}
  printf '%-12s ios %.3f s   android %.3f s   ios,android %.3f s   ÷ ios %.2fx   ÷ (ios + android) %.2fx\n' \
    "$([ "$state" = dir ] && echo "--state-dir" || echo "no state")" "$ios" "$android" "$both" \
    "$(echo "$both / $ios" | bc -l)" "$(echo "$both / ($ios + $android)" | bc -l)"
done

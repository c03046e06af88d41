#!/usr/bin/env bash
# The whole test run of two checkouts, side by side in one sitting: `swift test --skip-build` in
# each (both built with `swift build --build-tests`; each finds ../shared beside itself), taken in
# turn RUNS times. Prints each run's seconds of tests (Swift Testing's own figure), its wall time
# and its CPU seconds (user + sys, spawned processes included), and the best of each checkout.
# The host moves single runs by a fifth or more: compare the bests of one sitting.
# usage: Tests/Figures/whole_run_side_by_side.sh <checkout A> <checkout B> [runs]
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <checkout A> <checkout B> [runs]" >&2; exit 2; }
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd) runs=${3:-2}
out=$(mktemp)
trap 'rm -f "$out" "$out.time"' EXIT
declare -A best
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $runs runs each"
for i in $(seq 1 "$runs"); do
  for dir in "$a" "$b"; do
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$out.time" bash -c "cd '$dir' && swift test --skip-build" >"$out" 2>&1
    end=$(date +%s.%N)
    summary=$(grep -E "Test run with [0-9]+ tests" "$out" | tail -1)
    tests=$(echo "$summary" | grep -oE "after [0-9.]+ seconds" | grep -oE "[0-9.]+")
    # GNU time puts "Command exited with non-zero status N" before the figures of a run that failed.
    cpu=$(tail -1 "$out.time" | awk '{print $1 + $2}')
    printf 'run %d %s: %s s of tests, %.1f s wall, %.1f CPU s (%s)\n' "$i" "$dir" "${tests:-?}" "$(echo "$end - $start" | bc)" "$cpu" \
      "$(echo "$summary" | grep -oE "[0-9]+ tests in [0-9]+ suites (passed|failed)")"
    if [ -n "$tests" ] && { [ -z "${best[$dir]:-}" ] || (( $(echo "$tests < ${best[$dir]}" | bc) )); }; then best[$dir]=$tests; fi
  done
done
for dir in "$a" "$b"; do echo "$dir: best ${best[$dir]:-?} s of tests"; done

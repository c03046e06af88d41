#!/usr/bin/env bash
# What each test costs alone, built: CPU seconds (user + sys, the processes it spawns included),
# heaviest first, for the tests of the suites whose names match a regular expression. Each test
# runs in a `swift test` of its own, so every figure carries the run's own cost (about 1 CPU s
# here: the process, the test discovery); a parameterized test is one line, all its cases.
# suite_times.sh is the same by suite.
# Usage: Tests/Figures/test_times.sh <suite regex>     e.g. 'SimulationTests|LiveDayScenarioTests'
set -uo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 1 ] || { echo "usage: $0 <suite regex>" >&2; exit 2; }
swift build --build-tests >/dev/null 2>&1 || { echo "the tests do not build" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out" "$out.time"' EXIT
swift test list --skip-build 2>/dev/null | grep -E "^ScoreFeedTests\.($1)/" | while read -r test; do
  /usr/bin/time -f "%U %S" -o "$out.time" swift test --skip-build --filter "${test%%(*}\\(" >"$out" 2>&1
  read -r user sys < <(tail -1 "$out.time")
  printf "%7.1f cpu  %s%s\n" "$(echo "$user + $sys" | bc)" "$test" "$(grep -q '✘' "$out" && echo ' FAILED')"
done | sort -rn

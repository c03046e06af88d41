#!/usr/bin/env bash
# What each test suite costs alone, built: wall seconds and CPU seconds (user + sys, the
# processes it spawns included), heaviest first. The test run on 2 cores is bounded by the sum
# of the CPU column over 2 (and by the longest serialized suite's wall time).
# Usage: Tests/Figures/suite_times.sh [Suite ...]        (default: every suite type in Tests/)
set -uo pipefail
cd "$(dirname "$0")/../.."
swift build --build-tests >/dev/null 2>&1 || { echo "the tests do not build" >&2; exit 1; }
if [ $# -gt 0 ]; then suites=("$@"); else
  mapfile -t suites < <(grep -rhoE "^(struct|final class|enum) [A-Za-z]+Tests\b" Tests/ScoreFeedTests --include=*.swift | awk '{print $NF}' | sort -u)
fi
out=$(mktemp)
for name in "${suites[@]}"; do
  /usr/bin/time -f "%e %U %S" -o "$out.time" swift test --skip-build --filter "ScoreFeedTests\\.${name}/" >"$out" 2>&1
  count=$(grep -oE "Test run with [0-9]+ tests?" "$out" | grep -oE "[0-9]+" | head -1)
  [ "${count:-0}" = 0 ] && continue
  # GNU time puts "Command exited with non-zero status N" before the figures of a suite that failed.
  read -r wall user sys < <(tail -1 "$out.time")
  printf "%7.1f cpu %7.1f wall  %s (%s tests)%s\n" "$(echo "$user + $sys" | bc)" "$wall" "$name" "$count" \
    "$(grep -q '✘' "$out" && echo ' FAILED')"
done | sort -rn
rm -f "$out" "$out.time"

#!/usr/bin/env bash
# The long kill -9 series of issue 12: RUNS seeded runs per producer (whole stream again; a few
# lines before the first unapplied event), each with KILLS SIGKILLs of `scorefeed serve` at
# seeded random lines of three real games from ../shared/nba-pbp, then a clean finish.
# Usage: Tests/CrashSeries/run.sh [RUNS] [KILLS]      (defaults 25 and 5: 50 runs in all)
set -uo pipefail
cd "$(dirname "$0")/../.."
export SCOREFEED_KILL_RUNS="${1:-25}" SCOREFEED_KILLS="${2:-5}"
echo "kill series: $SCOREFEED_KILL_RUNS runs per producer × 2 producers, $SCOREFEED_KILLS kills each" >&2
log=$(mktemp)
swift test --filter CrashSafetyTests >"$log" 2>&1; status=$?
grep -E "✘|error:" "$log" | head -40
grep "^kill series:" "$log" \
  | awk '{ runs++; kills += $6; repeated += $(NF-1) } END { printf "%d runs, %d kills, %d records repeated in all\n", runs, kills, repeated }'
grep -E "Test run with" "$log"
rm -f "$log"
exit $status

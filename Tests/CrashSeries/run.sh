#!/usr/bin/env bash
# The long kill -9 series of issues 12 and 20: RUNS seeded runs per producer (whole stream again;
# a few lines before the first unapplied event) and per mode (token; broadcast with
# --channels manage behind the APNs test server), each with KILLS SIGKILLs of `scorefeed serve`
# at seeded random lines of three real games from ../shared/nba-pbp, then a clean finish.
# Usage: Tests/CrashSeries/run.sh [RUNS] [KILLS]      (defaults 25 and 5: 100 runs in all)
set -uo pipefail
cd "$(dirname "$0")/../.."
export SCOREFEED_KILL_RUNS="${1:-25}" SCOREFEED_KILLS="${2:-5}"
echo "kill series: $SCOREFEED_KILL_RUNS runs per producer × 2 producers × 2 modes, $SCOREFEED_KILLS kills each" >&2
log=$(mktemp)
swift test --filter CrashSafetyTests >"$log" 2>&1; status=$?
grep -E "✘|error:" "$log" | head -40
grep "^kill series:" "$log" \
  | awk '{ runs[$3]++; kills[$3] += $7; twice[$3] += $(NF-5); repeated[$3] += $(NF-1) }
         END { for (m in runs) printf "%s: %d runs, %d kills, %d channels made twice (each deleted), %d records repeated\n", m, runs[m], kills[m], twice[m], repeated[m] }'
grep -E "Test run with" "$log"
rm -f "$log"
exit $status

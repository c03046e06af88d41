#!/usr/bin/env bash
# Issue 14's figures: `scorefeed poll --clock feed` against Tests/Support/nba_live_server.py
# serving three real games from ../shared/nba-pbp at SPEED× real time, polled every INTERVAL s:
# clean, with 15 % of answers failing (503, 429, cut, empty, garbled bodies, 3 s answers), from
# today's scoreboard, and killed -9 and restarted on its state directory. Per game: pushes
# against replay's, whether the records are replay's byte for byte, and the last record.
# Usage: Tests/LiveChecks/poll.sh [SPEED] [INTERVAL]        (defaults 400 and 0.5, the issue's)
set -uo pipefail
cd "$(dirname "$0")/../.."
export SCOREFEED_POLL_SPEED="${1:-400}" SCOREFEED_POLL_INTERVAL="${2:-0.5}"
echo "poll at ${SCOREFEED_POLL_SPEED}x, every ${SCOREFEED_POLL_INTERVAL} s" >&2
log=$(mktemp)
swift test --filter PollLiveTests >"$log" 2>&1; status=$?
grep -E "✘|error:" "$log" | head -20
grep "^poll figures:" "$log" | sed 's/^poll figures: //'
grep -E "Test run with" "$log"
rm -f "$log"
exit $status

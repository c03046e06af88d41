#!/usr/bin/env bash
# How busy the cores are through a whole `swift test` run: the built test binary runs with
# `vmstat 2` beside it, and the script prints the run's result line and each 2-second sample's
# busy share (100 less vmstat's idle column), with the least and the most. A run bound by CPU
# shows every sample near 100 %; a serial tail shows as samples near 50 % on 2 cores at the end.
# Run it after `swift build --build-tests`, beside ../shared and the tools `.ci/run` installs.
# usage: Tests/Figures/test_busy.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tests=$(ls "$root"/.build/*/debug/ScoreFeedPackageTests.xctest 2>/dev/null | head -1)
[ -n "$tests" ] || { echo "build the tests first: swift build --build-tests" >&2; exit 2; }
work=$(mktemp -d)
vmstat 2 >"$work/vmstat" &
sampler=$!
trap 'kill $sampler 2>/dev/null || true; rm -rf "$work"' EXIT
(cd "$root" && "$tests" --testing-library swift-testing >"$work/tests.log" 2>&1) || true
kill $sampler 2>/dev/null || true
grep -a "Test run with" "$work/tests.log" | sed 's/\x1b\[[0-9;]*m//g' || { tail -5 "$work/tests.log"; exit 1; }
# vmstat's first two lines are headers, its first sample the averages since boot.
awk 'NR > 3 { busy = 100 - $15; printf "%d ", busy; if (min == "" || busy < min) min = busy; if (busy > max) max = busy; n++ }
     END { printf "\n%d samples of 2 s: busy %d-%d %%\n", n, min, max }' "$work/vmstat"

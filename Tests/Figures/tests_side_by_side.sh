#!/usr/bin/env bash
# Test suites of two checkouts, side by side in one run: each checkout's debug test binary (as
# `swift test` builds it) runs each suite alone, the two taken in turn RUNS times, and the CPU
# seconds (user + sys, spawned processes included) are printed per suite: best and median of
# each, and the ratio of the bests. Both checkouts must have been built with
# `swift build --build-tests`; each finds ../shared beside itself.
# usage: Tests/Figures/tests_side_by_side.sh <checkout A> <checkout B> <runs> <Suite> [Suite ...]
set -uo pipefail
[ $# -ge 4 ] || { echo "usage: $0 <checkout A> <checkout B> <runs> <Suite> [Suite ...]" >&2; exit 2; }
a=$1 b=$2 runs=$3
shift 3
binary() { echo "$1/.build/debug/ScoreFeedPackageTests.xctest"; }
for checkout in "$a" "$b"; do
  [ -x "$(binary "$checkout")" ] || { echo "$checkout: no test binary (swift build --build-tests)" >&2; exit 2; }
done
times=$(mktemp)
trap 'rm -f "$times" "$times.one"' EXIT
for suite in "$@"; do
  for run in $(seq 1 "$runs"); do
    for side in A B; do
      checkout=$a; [ "$side" = B ] && checkout=$b
      (cd "$checkout" && /usr/bin/time -f "%U %S" -o "$times.one" "$(binary "$checkout")" --testing-library swift-testing \
        --filter "ScoreFeedTests.$suite/" > /dev/null 2>&1)
      echo "$suite $side $(tail -1 "$times.one" | awk '{print $1 + $2}')" >> "$times"
    done
  done
done
python3 - "$times" "$a" "$b" <<'PY'
import sys, statistics
rows = [line.split() for line in open(sys.argv[1])]
suites = list(dict.fromkeys(r[0] for r in rows))
print("A = %s, B = %s (CPU s: best / median)" % (sys.argv[2], sys.argv[3]))
for suite in suites:
    a = [float(r[2]) for r in rows if r[0] == suite and r[1] == "A"]
    b = [float(r[2]) for r in rows if r[0] == suite and r[1] == "B"]
    print("%-28s A %6.2f / %6.2f   B %6.2f / %6.2f   B/A best %.2f" % (
        suite, min(a), statistics.median(a), min(b), statistics.median(b), min(b) / min(a)))
PY

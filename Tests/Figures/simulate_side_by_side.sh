#!/usr/bin/env bash
# The simulator's speed, side by side: `scorefeed simulate` of the same days with release builds of
# two revisions (or binaries given), run alternately, each run's time and records digest printed,
# and the best of each with their ratio. The work is the same (the digests must agree); only the
# time may differ, and the machine's load moves single runs, so compare the bests of one sitting.
# usage: Tests/Figures/simulate_side_by_side.sh <rev or binary> <rev or binary> [runs] [simulate options...]
#   default: 3 runs of `simulate --days 6 --threads 1`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 <rev or binary> <rev or binary> [runs] [simulate options...]" >&2; exit 2; }
a=$1 b=$2
shift 2
runs=${1:-3}
shift || true
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--days 6 --threads 1)
work=$(mktemp -d)
trap 'for w in "$work"/wt-*; do [ -d "$w" ] && git -C "$root" worktree remove --force "$w" >/dev/null 2>&1; done; rm -rf "$work"' EXIT
# A binary as given, or a release build of a revision in a worktree of its own.
. "$here/binary.sh"
first=$(binary "$a")
second=$(binary "$b")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; simulate ${options[*]}"
python3 - "$a" "$first" "$b" "$second" "$runs" "${options[@]}" <<'PY'
import re, subprocess, sys, time
names, binaries = [sys.argv[1], sys.argv[3]], [sys.argv[2], sys.argv[4]]
runs, options = int(sys.argv[5]), sys.argv[6:]
times, digests = [[], []], [set(), set()]
for run in range(runs):
    for side in (0, 1):
        start = time.monotonic()
        out = subprocess.run([binaries[side], "simulate", *options], capture_output=True, text=True).stdout
        times[side].append(time.monotonic() - start)
        digest = re.search(r"records digest: (\w+)", out)
        digests[side].add(digest.group(1) if digest else "none")
        print(f"run {run + 1} {names[side]}: {times[side][-1]:.2f} s, digest {digest.group(1) if digest else 'none'}", flush=True)
for side in (0, 1):
    print(f"{names[side]}: best of {runs} {min(times[side]):.2f} s")
print(f"{names[0]} / {names[1]}: {min(times[0]) / min(times[1]):.2f}x; the same records: {'yes' if digests[0] == digests[1] and len(digests[0]) == 1 else 'NO'}")
PY

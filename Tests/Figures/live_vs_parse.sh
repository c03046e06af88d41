#!/usr/bin/env bash
# Issue 21's second figure: `serve --clock feed --out /dev/null` on 120 generated games as one
# stream against Python's json.loads of the same lines (the floor), best and median of N runs each
# (the binaries taken in turn, one run each per round), the machine's load printed beside, and
# each binary's CPU time (user and system, from wait4). Each binary given is measured on the same
# stream.
# usage: Tests/Figures/live_vs_parse.sh [runs] [scorefeed binary ...]
#   default: 5 runs, a release build of this checkout as deployed (binary.sh's release_build).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-5}
shift || true
binaries=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ${#binaries[@]} -eq 0 ]; then
  . "$here/binary.sh"
  binaries=("$(release_build "$root")")
fi
for i in $(seq 1 120); do "${binaries[0]}" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"${binaries[0]}" stream "$work"/g*.json --out "$work/g120.jsonl" 2>/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l <"$work/g120.jsonl") lines, $(wc -c <"$work/g120.jsonl") bytes"
floor=$(python3 "$here/json_loads.py" "$work/g120.jsonl" "$runs" | sed 's/.*best \([0-9.]*\) s/\1/')
echo "json.loads, best of $runs: $floor s"
# The binaries run in turn, one run each per round, so the host's drift falls on all alike.
python3 - "$work/g120.jsonl" "$runs" "$floor" "${binaries[@]}" <<'PY'
import os, statistics, subprocess, sys, time
stream, runs, floor, binaries = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
times = {binary: [] for binary in binaries}
cpu = {binary: [] for binary in binaries}
for _ in range(runs):
    for binary in binaries:
        with open(stream, "rb") as lines:
            start = time.monotonic()
            child = subprocess.Popen([binary, "serve", "--clock", "feed", "--out", "/dev/null"], stdin=lines,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
            times[binary].append(time.monotonic() - start)
        assert status == 0, f"{binary}: exit status {status}"
        cpu[binary].append(usage.ru_utime + usage.ru_stime)
for binary in binaries:
    ordered = sorted(times[binary])
    print(f"{binary}: serve, best of {runs}: {ordered[0]:.3f} s, median {ordered[len(ordered) // 2]:.3f} s "
          f"({', '.join(f'{t:.3f}' for t in times[binary])}); {ordered[0] / floor:.2f}× json.loads; "
          f"CPU (user + system) best {min(cpu[binary]):.3f} s, median {statistics.median(cpu[binary]):.3f} s")
PY

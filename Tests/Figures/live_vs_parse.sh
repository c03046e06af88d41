#!/usr/bin/env bash
# Issue 21's second figure: `serve --clock feed --out /dev/null` on 120 generated games as one
# stream against Python's json.loads of the same lines (the floor), best and median of N runs each
# (the binaries taken in turn, one run each per round), the machine's load printed beside. Each
# binary given is measured on the same stream.
# usage: Tests/Figures/live_vs_parse.sh [runs] [scorefeed binary ...]
#   default: 5 runs, a release build of this checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-5}
shift || true
binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
  (cd "$root" && swift build -c release >/dev/null)
  binaries=("$root/.build/release/scorefeed")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 120); do "${binaries[0]}" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"${binaries[0]}" stream "$work"/g*.json --out "$work/g120.jsonl" 2>/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l <"$work/g120.jsonl") lines, $(wc -c <"$work/g120.jsonl") bytes"
floor=$(python3 "$here/json_loads.py" "$work/g120.jsonl" "$runs" | sed 's/.*best \([0-9.]*\) s/\1/')
echo "json.loads, best of $runs: $floor s"
# The binaries run in turn, one run each per round, so the host's drift falls on all alike.
python3 - "$work/g120.jsonl" "$runs" "$floor" "${binaries[@]}" <<'PY'
import subprocess, sys, time
stream, runs, floor, binaries = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
times = {binary: [] for binary in binaries}
for _ in range(runs):
    for binary in binaries:
        start = time.monotonic()
        subprocess.run([binary, "serve", "--clock", "feed", "--out", "/dev/null"], stdin=open(stream, "rb"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[binary].append(time.monotonic() - start)
for binary in binaries:
    ordered = sorted(times[binary])
    print(f"{binary}: serve, best of {runs}: {ordered[0]:.3f} s, median {ordered[len(ordered) // 2]:.3f} s "
          f"({', '.join(f'{t:.3f}' for t in times[binary])}); {ordered[0] / floor:.2f}× json.loads")
PY

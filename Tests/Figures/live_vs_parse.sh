#!/usr/bin/env bash
# Issue 21's second figure: `serve --clock feed --out /dev/null` on 120 generated games as one
# stream against Python's json.loads of the same lines (the floor), best of N runs each, the
# machine's load printed beside. Each binary given is measured on the same stream.
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
for binary in "${binaries[@]}"; do
  python3 - "$binary" "$work/g120.jsonl" "$runs" "$floor" <<'PY'
import subprocess, sys, time
binary, stream, runs, floor = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
times = []
for _ in range(runs):
    start = time.monotonic()
    subprocess.run([binary, "serve", "--clock", "feed", "--out", "/dev/null"], stdin=open(stream, "rb"),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times.append(time.monotonic() - start)
print(f"{binary}: serve, best of {runs}: {min(times):.3f} s ({', '.join(f'{t:.3f}' for t in times)}); {min(times) / floor:.2f}× json.loads")
PY
done

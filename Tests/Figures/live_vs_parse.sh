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
. "$here/streams.sh"
generated_stream "${binaries[0]}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l <"$work/generated.jsonl") lines, $(wc -c <"$work/generated.jsonl") bytes"
floor=$(python3 "$here/json_loads.py" "$work/generated.jsonl" "$runs" | sed 's/.*best \([0-9.]*\) s/\1/')
echo "json.loads, best of $runs: $floor s"
# The binaries run in turn, one run each per round, so the host's drift falls on all alike.
python3 - "$here" "$work/generated.jsonl" "$runs" "$floor" "${binaries[@]}" <<'PY'
import statistics, sys
sys.path.insert(0, sys.argv[1])
from serve_runs import alternate
stream, runs, floor, binaries = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5:]
measured = alternate(runs, {binary: dict(program=binary, stream=stream) for binary in binaries})
for binary, each in measured.items():
    times = [wall for wall, _ in each]
    cpu = [usage.ru_utime + usage.ru_stime for _, usage in each]
    ordered = sorted(times)
    print(f"{binary}: serve, best of {runs}: {ordered[0]:.3f} s, median {ordered[len(ordered) // 2]:.3f} s "
          f"({', '.join(f'{t:.3f}' for t in times)}); {ordered[0] / floor:.2f}× json.loads; "
          f"CPU (user + system) best {min(cpu):.3f} s, median {statistics.median(cpu):.3f} s")
PY

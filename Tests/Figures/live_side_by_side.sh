#!/usr/bin/env bash
# Issue 40's figures, side by side: release builds of two revisions (or binaries given) run
# alternately in one sitting on the same streams, best of N each:
#   - `serve --clock feed --out /dev/null` on 120 generated games as one stream, against Python's
#     json.loads of the same lines (the floor, Tests/Figures/json_loads.py);
#   - the same with `--state-dir` (what durability costs), on those games and, when
#     ../shared/nba-pbp is present, on the real games as one stream (20 files).
# Each run's CPU time (user + system) is printed too, the median of each: on a host whose speed
# drifts it moves less than the wall clock; and the wall clock's faster half (mean) and median, for
# the short runs, whose best moves with the host. The timed runs write to /dev/null; one more run of
# each writes its records, compared between the two (sorted: without a state directory games
# interleave as they come), so "faster" never hides "different".
# usage: Tests/Figures/live_side_by_side.sh <rev or binary> <rev or binary> [runs]   (default 5 runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 <rev or binary> <rev or binary> [runs]" >&2; exit 2; }
a=$1 b=$2
runs=${3:-5}
work=$(mktemp -d)
trap 'for w in "$work"/wt-*; do [ -d "$w" ] && git -C "$root" worktree remove --force "$w" >/dev/null 2>&1; done; rm -rf "$work"' EXIT
# A binary as given, or a release build of a revision in a worktree of its own.
. "$here/binary.sh"
first=$(binary "$a")
second=$(binary "$b")
for i in $(seq 1 120); do "$first" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"$first" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
shared="$root/../shared/nba-pbp"
streams=("$work/generated.jsonl")
if [ -d "$shared" ]; then
  "$first" stream $(ls "$shared"/playbyplay_*.json "$shared"/stats_0*.json "$shared"/ind-vs-mem-*.json) --out "$work/real.jsonl" 2>/dev/null
  streams+=("$work/real.jsonl")
else
  echo "the real games are absent ($shared): generated games only"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l <"$work/generated.jsonl") generated lines"
floor=$(python3 "$here/json_loads.py" "$work/generated.jsonl" "$runs" | sed 's/.*best \([0-9.]*\) s/\1/')
echo "json.loads of the generated lines, best of $runs: $floor s ($(python3 -c 'import sys; print(sys.executable, sys.version.split()[0])'): the floor is the interpreter build's too)"
python3 - "$work" "$runs" "$floor" "$a" "$first" "$b" "$second" "${streams[@]}" <<'PY'
import os, resource, shutil, statistics, subprocess, sys, time
work, runs, floor = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
names, binaries, streams = [sys.argv[4], sys.argv[6]], [sys.argv[5], sys.argv[7]], sys.argv[8:]
kinds = [(stream, durable) for stream in streams for durable in (False, True)]
times = {(side, kind): [] for side in (0, 1) for kind in kinds}
# The CPU time each run took (user + system): steadier than the wall clock on a host whose
# speed drifts, though it counts what both cores did.
cpu = {(side, kind): [] for side in (0, 1) for kind in kinds}
def used():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
outputs = {}
for run in range(runs):
    for kind in kinds:
        for side in (0, 1):
            stream, durable = kind
            state = os.path.join(work, "state")
            shutil.rmtree(state, ignore_errors=True)
            args = [binaries[side], "serve", "--clock", "feed"] + (["--state-dir", state] if durable else [])
            with open(stream, "rb") as lines:
                start, before = time.monotonic(), used()
                subprocess.run(args + ["--out", "/dev/null"], stdin=lines, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                times[(side, kind)].append(time.monotonic() - start)
                cpu[(side, kind)].append(used() - before)
            if run == 0:
                # The records, from a run of their own (the timed runs write to /dev/null, as issue 40 measures).
                shutil.rmtree(state, ignore_errors=True)
                with open(stream, "rb") as lines:
                    out = subprocess.run(args, stdin=lines, capture_output=True, check=True).stdout
                outputs[(side, kind)] = sorted(out.splitlines())
def name(kind):
    stream, durable = kind
    return ("generated" if "generated" in stream else "real") + (" --state-dir" if durable else "")
for kind in kinds:
    best = [min(times[(side, kind)]) for side in (0, 1)]
    same = "the same records" if outputs[(0, kind)] == outputs[(1, kind)] else "DIFFERENT records"
    line = f"{name(kind):24} {names[0]}: {best[0]:.3f} s   {names[1]}: {best[1]:.3f} s   ratio {best[0] / best[1]:.2f}x   {same}"
    if kind == (streams[0], False):
        line += f"   ÷ json.loads: {best[0] / floor:.2f}x and {best[1] / floor:.2f}x"
    print(line)
    # The faster half's mean and the median: for short runs, where the best moves with the host.
    half = [statistics.mean(sorted(times[(side, kind)])[: max(1, runs // 2)]) for side in (0, 1)]
    middle = [statistics.median(times[(side, kind)]) for side in (0, 1)]
    print(f"{'':24} faster half: {half[0]:.4f} s and {half[1]:.4f} s   median: {middle[0]:.4f} s and {middle[1]:.4f} s")
    median = [sorted(cpu[(side, kind)])[len(cpu[(side, kind)]) // 2] for side in (0, 1)]
    print(f"{'':24} CPU, median: {median[0]:.3f} s and {median[1]:.3f} s   ratio {median[0] / median[1]:.2f}x")
for stream in streams:
    plain, durable = (stream, False), (stream, True)
    ratios = [min(times[(side, durable)]) / min(times[(side, plain)]) for side in (0, 1)]
    medians = [statistics.median(times[(side, durable)]) / statistics.median(times[(side, plain)]) for side in (0, 1)]
    print(f"{name(durable)} ÷ without: {names[0]} {ratios[0]:.2f}x, {names[1]} {ratios[1]:.2f}x (by the medians {medians[0]:.2f}x and {medians[1]:.2f}x)")
PY

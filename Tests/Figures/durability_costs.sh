#!/usr/bin/env bash
# Issue 40: where `serve --state-dir`'s extra time goes. Builds a revision (default: HEAD) with
# experiments/durability-switches.patch, whose switches (environment variables read by the build
# only) each leave out one part of what durability costs, then runs `serve --clock feed --out
# /dev/null` on the real games of ../shared as one stream and on 120 generated games, the variants
# taken in turn each round, and prints the best wall time and CPU time of each and what leaving the
# part out saves. A variant without a sync is not durable on a power cut; one without delivery
# writes repeats more than the push in flight after a kill; one without encoding writes snapshots
# (`{}`) or journal lines (`[]`) no restart can read: they measure, they are not options.
# usage: Tests/Figures/durability_costs.sh [rev] [runs]   (default: HEAD, 9 runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rev=${1:-HEAD}
runs=${2:-9}
work=$(mktemp -d)
trap 'for w in "$work"/wt-*; do [ -d "$w" ] && git -C "$root" worktree remove --force "$w" >/dev/null 2>&1; done; rm -rf "$work"' EXIT
tree="$work/wt-$(git -C "$root" rev-parse --short "$rev")"
git -C "$root" worktree add -q --detach "$tree" "$rev"
git -C "$tree" apply "$here/experiments/durability-switches.patch"
(cd "$tree" && swift build -c release --product scorefeed >&2)
bin="$tree/.build/release/scorefeed"
. "$here/streams.sh"
make_streams "$bin"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $rev with the switches; best of $runs"
for stream in real generated; do
  [ -f "$work/$stream.jsonl" ] || continue
  python3 - "$bin" "$work/$stream.jsonl" "$work/state" "$runs" "$stream" <<'PY'
import os, resource, shutil, subprocess, sys, time
binary, stream, state, runs, name = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
variants = [
    ("no state dir", None),
    ("--state-dir", {}),
    ("  without any sync", {"EXPERIMENT_NO_SYNC": "1"}),
    ("  without the snapshots' file syncs", {"EXPERIMENT_NO_SNAPSHOT_SYNC": "1"}),
    ("  without the snapshots' directory syncs", {"EXPERIMENT_NO_DIRECTORY_SYNC": "1"}),
    ("  without the journals' batch syncs", {"EXPERIMENT_NO_JOURNAL_SYNC": "1"}),
    ("  without a delivery's own write", {"EXPERIMENT_NO_DELIVERY_WRITES": "1"}),
    ("  with records written in the background", {"EXPERIMENT_BACKGROUND_WRITES": "1"}),
    ("  without encoding the snapshots", {"EXPERIMENT_EMPTY_SNAPSHOT": "1"}),
    ("  without encoding the journals' inputs", {"EXPERIMENT_EMPTY_JOURNAL_LINES": "1"}),
]
wall = {label: [] for label, _ in variants}
cpu = {label: [] for label, _ in variants}
for _ in range(runs):
    for label, switches in variants:
        shutil.rmtree(state, ignore_errors=True)
        args = [binary, "serve", "--clock", "feed", "--out", "/dev/null"]
        if switches is not None:
            args += ["--state-dir", state]
        env = dict(os.environ, **(switches or {}))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        with open(stream, "rb") as lines:
            subprocess.run(args, stdin=lines, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
        wall[label].append(time.monotonic() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[label].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
plain, durable = min(wall["no state dir"]), min(wall["--state-dir"])
print(f"{name} ({sum(1 for _ in open(stream))} lines): --state-dir / none {durable / plain:.2f}x; the extra {1000 * (durable - plain):.1f} ms")
for label, _ in variants:
    best = min(wall[label])
    saves = "" if label in ("no state dir", "--state-dir") else f"  saves {1000 * (durable - best):6.1f} ms ({(durable - best) / (durable - plain):4.0%} of the extra)"
    print(f"  {label:44s} {1000 * best:7.1f} ms wall  {1000 * min(cpu[label]):6.0f} ms CPU{saves}")
PY
done
# What the syscalls were (counts), when strace is there.
if command -v strace >/dev/null && [ -f "$work/real.jsonl" ]; then
  rm -rf "$work/state"
  strace -f -c -o "$work/strace.txt" "$bin" serve --clock feed --out /dev/null --state-dir "$work/state" <"$work/real.jsonl" >/dev/null 2>&1
  echo "real, --state-dir: syscalls (strace -c)"
  grep -E " (write|fsync|fdatasync|openat|rename|ftruncate)$" "$work/strace.txt" | awk '{printf "  %-10s %6d calls\n", $NF, $4}'
fi

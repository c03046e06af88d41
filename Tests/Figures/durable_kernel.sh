#!/usr/bin/env bash
# What the kernel does for `serve --state-dir` beyond `serve` alone, on the real games as one
# stream (issue 40's durability figure): for each mode, the median over N runs of the wall clock,
# the CPU time in user and kernel mode, the minor page faults and the context switches (each
# run's own resource usage, from wait4), then one run each under `strace -f -c` (the system calls
# by kind, when strace is installed). The instructions the two modes execute are
# instruction_counts.sh's; this says where the wall clock goes besides them. A third mode keeps
# the state dir on tmpfs (/dev/shm, when there is one), where a sync costs nothing: its ratio is
# durability's work alone, the rest of the disk's is the disk's flushes.
# usage: Tests/Figures/durable_kernel.sh <scorefeed binary> [runs]   (needs ../shared/nba-pbp)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary> [runs]" >&2; exit 2; }
binary=$1
runs=${2:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
real_stream "$binary" || { echo "skipped: the real games are absent ($root/../shared/nba-pbp)"; exit 0; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l <"$work/real.jsonl") lines; $runs runs of each, alternating"
python3 - "$here" "$work" "$binary" "$runs" <<'PY'
import os, shutil, statistics, sys
sys.path.insert(0, sys.argv[1])
from serve_runs import alternate
work, binary, runs = sys.argv[2], sys.argv[3], int(sys.argv[4])
stream = os.path.join(work, "real.jsonl")
modes = {"none": dict(program=binary, stream=stream), "state": dict(program=binary, stream=stream, state=os.path.join(work, "state"))}
memory = None
if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    memory = os.path.join("/dev/shm", "scorefeed-durable-kernel-%d" % os.getpid())
    modes["tmpfs"] = dict(program=binary, stream=stream, state=memory)
try:
    measured = alternate(runs, modes)
finally:
    if memory:
        shutil.rmtree(memory, ignore_errors=True)
rows = {mode: [(wall * 1000, u.ru_utime * 1000, u.ru_stime * 1000, u.ru_minflt, u.ru_nvcsw, u.ru_nivcsw) for wall, u in each]
        for mode, each in measured.items()}
names = ["wall ms", "user ms", "system ms", "minor page faults", "waits (voluntary switches)", "preempted (involuntary)"]
print(f"{'median of each':<28}{'serve':>10}{'--state-dir':>14}{'ratio':>8}" + (f"{'on tmpfs':>11}{'ratio':>8}" if memory else ""))
for i, name in enumerate(names):
    a = statistics.median(r[i] for r in rows["none"])
    b = statistics.median(r[i] for r in rows["state"])
    line = f"{name:<28}{a:>10.1f}{b:>14.1f}{(b / a if a else float('nan')):>8.2f}"
    if memory:
        c = statistics.median(r[i] for r in rows["tmpfs"])
        line += f"{c:>11.1f}{(c / a if a else float('nan')):>8.2f}"
    print(line)
PY
if command -v strace >/dev/null; then
  for mode in none state; do
    rm -rf "$work/state"
    args=()
    [ "$mode" = state ] && args=(--state-dir "$work/state")
    strace -f -c -o "$work/$mode.strace" "$binary" serve --clock feed --out /dev/null "${args[@]}" <"$work/real.jsonl" >/dev/null 2>&1
    echo "system calls, $mode (strace -f -c, the ten most made):"
    # Each call's count and name, read once from strace's table.
    awk 'NR > 2 && $1 !~ /^-/ && $NF != "total" { calls = ($5 ~ /^[0-9]+$/) ? $5 : $4; print calls, $NF }' "$work/$mode.strace" \
      | sort -rn >"$work/$mode.calls"
    head -10 "$work/$mode.calls" | awk '{ printf "  %7d  %s\n", $1, $2 }'
    # The flushes, whatever their rank: each one waits for the disk.
    awk '{ n[$2] = $1 } END { printf "  flushes: %d fsync, %d fdatasync\n", n["fsync"], n["fdatasync"] }' "$work/$mode.calls"
  done
else
  echo "strace is not installed: no system call counts"
fi

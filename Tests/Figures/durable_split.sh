#!/usr/bin/env bash
# Issue 40: `serve --clock feed --state-dir` split between what waits for the disk and what the
# process does. On the real games of ../shared as one stream (or the 120 generated games with
# --generated), best and median of N runs, each variant in turn each round, every run on a state
# directory of its own made afresh (a directory left from the run before would hold ended games
# and do nothing):
#   - without a state directory;
#   - with one on the disk of the work directory (as live_side_by_side.sh measures);
#   - the same with fsync and fdatasync made to return at once (an LD_PRELOAD shim): the disk's
#     waits left out, not durable, a measure only;
#   - with one on /dev/shm (tmpfs: no disk at all), when there is one.
# What is left between "no syncs" and "without" is work: encoding and checksumming journal lines,
# snapshots, file creation and the two write calls a push makes, and waiting on each other.
# usage: Tests/Figures/durable_split.sh <scorefeed binary> [runs] [--generated]   (needs a C compiler)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary> [runs] [--generated]" >&2; exit 2; }
bin=$1
runs=${2:-15}
which=${3:-real}
work=$(mktemp -d)
shm=""
[ -d /dev/shm ] && shm=$(mktemp -d /dev/shm/durable-split.XXXXXX)
trap 'rm -rf "$work" ${shm:+"$shm"}' EXIT
. "$here/streams.sh"
if [ "$which" = "--generated" ]; then
  generated_stream "$bin"
  stream="$work/generated.jsonl"
else
  real_stream "$bin" || { echo "skipped: the real games are absent ($root/../shared/nba-pbp)"; exit 0; }
  stream="$work/real.jsonl"
fi
cat >"$work/nosync.c" <<'C'
int fsync(int fd) { (void)fd; return 0; }
int fdatasync(int fd) { (void)fd; return 0; }
C
"$(command -v cc || command -v clang)" -shared -fPIC -O1 -o "$work/nosync.so" "$work/nosync.c"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l <"$stream") lines; $bin"
python3 - "$bin" "$stream" "$runs" "$work" "$shm" <<'PY'
import os, shutil, statistics, subprocess, sys, time
binary, stream, runs, work, shm = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
variants = [("without a state directory", None, None), ("--state-dir on disk", work, None),
            ("--state-dir, syncs left out", work, os.path.join(work, "nosync.so"))]
if shm:
    variants.append(("--state-dir on /dev/shm", shm, None))
times = {name: [] for name, _, _ in variants}
for _ in range(runs):
    for name, parent, preload in variants:
        args = [binary, "serve", "--clock", "feed", "--out", "/dev/null"]
        state = None
        if parent:
            state = os.path.join(parent, "state")
            shutil.rmtree(state, ignore_errors=True)
            args += ["--state-dir", state]
        env = dict(os.environ)
        if preload:
            env["LD_PRELOAD"] = preload
        with open(stream, "rb") as lines:
            start = time.monotonic()
            subprocess.run(args, stdin=lines, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
            times[name].append(time.monotonic() - start)
        if state:
            shutil.rmtree(state, ignore_errors=True)
plain = min(times[variants[0][0]])
for name, _, _ in variants:
    best, middle = min(times[name]), statistics.median(times[name])
    print(f"{name:30} best {best * 1000:7.1f} ms   median {middle * 1000:7.1f} ms   ÷ without (best) {best / plain:.2f}x")
PY

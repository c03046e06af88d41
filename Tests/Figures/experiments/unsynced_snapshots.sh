#!/usr/bin/env bash
# An experiment (session 93): what a settled game's snapshot flushes cost a durable `serve` on the
# real games as one stream. Build the product with unsynced-snapshots-session93.patch applied (its
# snapshots skip both syncs, the file's and the directory's, when SFNOSYNC is set: not a valid
# build), then run it without a state dir, with one, and with one and SFNOSYNC=1; medians of R
# alternating runs, with the voluntary context switches (the waits).
# usage: Tests/Figures/experiments/unsynced_snapshots.sh <patched scorefeed binary> [R]   (needs ../shared/nba-pbp)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
binary=$1
runs=${2:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
real_stream "$binary" || { echo "skipped: the real games are absent ($root/../shared/nba-pbp)"; exit 0; }
python3 - "$work" "$binary" "$runs" <<'PY'
import os, shutil, statistics, subprocess, sys, time
work, binary, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
state = os.path.join(work, "state")
modes = [("serve", False, False), ("--state-dir", True, False), ("--state-dir, snapshots unsynced", True, True)]
rows = {name: [] for name, _, _ in modes}
for _ in range(runs):
    for name, durable, unsynced in modes:
        shutil.rmtree(state, ignore_errors=True)
        env = dict(os.environ)
        if unsynced:
            env["SFNOSYNC"] = "1"
        args = [binary, "serve", "--clock", "feed", "--out", "/dev/null"] + (["--state-dir", state] if durable else [])
        with open(os.path.join(work, "real.jsonl"), "rb") as stream:
            start = time.perf_counter()
            child = subprocess.Popen(args, stdin=stream, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
        assert status == 0, f"{name}: exit status {status}"
        rows[name].append((wall * 1000, usage.ru_nvcsw))
print(f"load average: {' '.join(open('/proc/loadavg').read().split()[:3])}; medians of {runs} alternating runs")
base = statistics.median(r[0] for r in rows["serve"])
for name in rows:
    wall = statistics.median(r[0] for r in rows[name])
    print(f"  {name:<34} wall {wall:6.1f} ms ({wall / base:.2f}×)  waits {statistics.median(r[1] for r in rows[name]):5.0f}")
PY

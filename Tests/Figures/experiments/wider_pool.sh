#!/usr/bin/env bash
# An experiment (session 93): does a durable `serve` wait because a game's blocking sync holds one
# of the Swift pool's two threads on a 2-core machine? It runs the real games as one stream with
# the pool as wide as the cores and, through a preloaded shim that makes pthread_getaffinity_np
# (libdispatch's count of active CPUs) report N CPUs, N threads wide; medians of R alternating runs.
# usage: Tests/Figures/experiments/wider_pool.sh <scorefeed binary> [N] [R]   (needs ../shared/nba-pbp, cc)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
binary=$1
width=${2:-4}
runs=${3:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
real_stream "$binary" || { echo "skipped: the real games are absent ($root/../shared/nba-pbp)"; exit 0; }
cat >"$work/width.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *mask) {
    int (*real)(pthread_t, size_t, cpu_set_t *) = (int (*)(pthread_t, size_t, cpu_set_t *))dlsym(RTLD_NEXT, "pthread_getaffinity_np");
    int result = real(thread, size, mask);
    const char *count = getenv("POOL_WIDTH");
    if (result == 0 && count) { CPU_ZERO_S(size, mask); for (int i = 0; i < atoi(count); i++) CPU_SET_S(i, size, mask); }
    return result;
}
C
cc -shared -fPIC -O1 -o "$work/width.so" "$work/width.c" -ldl -lpthread
python3 - "$work" "$binary" "$width" "$runs" <<'PY'
import os, shutil, statistics, subprocess, sys, time
work, binary, width, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
modes = [("serve", False, None), ("--state-dir", True, None), (f"--state-dir, {width} threads", True, width), (f"serve, {width} threads", False, width)]
rows = {name: [] for name, _, _ in modes}
for _ in range(runs):
    for name, durable, threads in modes:
        state = os.path.join(work, "state")
        shutil.rmtree(state, ignore_errors=True)
        env = dict(os.environ)
        if threads:
            env.update(POOL_WIDTH=threads, LD_PRELOAD=os.path.join(work, "width.so"))
        args = [binary, "serve", "--clock", "feed", "--out", "/dev/null"] + (["--state-dir", state] if durable else [])
        with open(os.path.join(work, "real.jsonl"), "rb") as stream:
            start = time.perf_counter()
            child = subprocess.Popen(args, stdin=stream, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
        assert status == 0, f"{name}: exit status {status}"
        rows[name].append((wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000))
print(f"load average: {open('/proc/loadavg').read().split()[:3]}; medians of {runs} alternating runs")
for name in rows:
    wall = statistics.median(r[0] for r in rows[name])
    cpu = statistics.median(r[1] for r in rows[name])
    print(f"  {name:<26} wall {wall:6.1f} ms  CPU {cpu:6.1f} ms")
PY

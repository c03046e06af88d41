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
python3 "$here/serve_runs.py" "$work/real.jsonl" "$binary" "$runs" "serve|0" "--state-dir|1" \
  "--state-dir, $width threads|1|POOL_WIDTH=$width,LD_PRELOAD=$work/width.so" "serve, $width threads|0|POOL_WIDTH=$width,LD_PRELOAD=$work/width.so"
# Whether the shim widened the pool: the threads a durable run starts, counted once each way.
if command -v strace >/dev/null; then
  for threads in "" "$width"; do
    rm -rf "$work/state"
    env ${threads:+POOL_WIDTH=$threads LD_PRELOAD=$work/width.so} strace -f -e trace=clone,clone3 -o "$work/threads" \
      "$binary" serve --clock feed --out /dev/null --state-dir "$work/state" <"$work/real.jsonl" >/dev/null 2>&1
    echo "  threads started by a durable run${threads:+ with $threads CPUs counted}: $(grep -c 'clone' "$work/threads")"
  done
fi

#!/usr/bin/env bash
# An experiment (session 94): durable `serve` wakes the kernel about 15,000 times for the
# journal's lock on 120 generated games (strace: FUTEX_LOCK_PI), as `Journal.readyForPush` holds
# it through its write calls. Does writing a game's own buffered deliveries outside the lock
# (write-outside-the-lock.patch: a measure only, without the failure handling a write needs) make
# it faster? Both builds with a state dir, medians of R alternating runs, on the 120 generated
# games and on the real games, each as one stream.
# usage: Tests/Figures/experiments/write_outside_the_lock.sh <scorefeed binary> <the same with the patch> [R]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
binary=$1
patched=$2
runs=${3:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
generated_stream "$binary"
echo "== 120 generated games"
python3 "$here/serve_runs.py" "$work/generated.jsonl" "$binary" "$runs" "--state-dir|1" "--state-dir, patched|1||$patched"
real_stream "$binary" || { echo "skipped: the real games are absent ($root/../shared/nba-pbp)"; exit 0; }
echo "== the real games"
python3 "$here/serve_runs.py" "$work/real.jsonl" "$binary" "$runs" "--state-dir|1" "--state-dir, patched|1||$patched"

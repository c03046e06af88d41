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
python3 "$here/serve_runs.py" "$work/real.jsonl" "$binary" "$runs" "serve|0" "--state-dir|1" "--state-dir, snapshots unsynced|1|SFNOSYNC=1"

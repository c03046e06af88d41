#!/usr/bin/env bash
# An experiment (session 93): does `Journal.readyForPush` writing only the pushing game's buffered
# deliveries (own-deliveries-only.patch; today it writes every game's, under the journal's one
# lock) make a durable `serve` faster? The real games as one stream, both builds with and without
# a state dir, medians of R alternating runs.
# usage: Tests/Figures/experiments/own_deliveries_only.sh <scorefeed binary> <the same with the patch> [R]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
binary=$1
patched=$2
runs=${3:-11}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
real_stream "$binary" || { echo "skipped: the real games are absent ($root/../shared/nba-pbp)"; exit 0; }
python3 "$here/serve_runs.py" "$work/real.jsonl" "$binary" "$runs" "serve|0" "--state-dir|1" \
  "serve, patched|0||$patched" "--state-dir, patched|1||$patched"

#!/usr/bin/env bash
# What a batch's group commit waits for the disk (issue 40's durability), before and after the
# batch's journals were synced side by side: `serve --clock feed --state-dir` on the 120 generated
# games and on the real games, each as one stream, under `strace -f -tt -T` (fdatasync and
# fsync only), the binaries taken in turn for R rounds; batch_syncs.py reads each trace. Needs
# strace. The state dir is in a fresh directory on the disk of the work directory (mktemp).
# usage: Tests/Figures/batch_syncs.sh <scorefeed binary> <scorefeed binary> [R]   (default 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v strace >/dev/null || { echo "skipped: strace is not installed"; exit 0; }
[ $# -ge 2 ] || { echo "usage: $0 <scorefeed binary> <scorefeed binary> [R]" >&2; exit 2; }
rounds=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
generated_stream "$1"
streams=(generated)
real_stream "$1" && streams+=(real)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for stream in "${streams[@]}"; do
  echo "== $stream ($(wc -l <"$work/$stream.jsonl") lines)"
  for round in $(seq 1 "$rounds"); do
    for binary in "$1" "$2"; do
      rm -rf "$work/state"
      strace -f -tt -T -e trace=fdatasync,fsync -o "$work/trace" "$binary" serve --clock feed --out /dev/null --state-dir "$work/state" \
        <"$work/$stream.jsonl" >/dev/null 2>&1
      echo "round $round $binary: $(python3 "$here/batch_syncs.py" "$work/trace")"
    done
  done
done

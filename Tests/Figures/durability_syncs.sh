#!/usr/bin/env bash
# What `serve --state-dir` asks of the disk on the real games as one stream (the 20 files of
# ../shared/nba-pbp): the calls that wait for it (fsync, fdatasync), and the renames, truncations
# and writes, counted by strace over one run, for each binary given.
# usage: Tests/Figures/durability_syncs.sh <scorefeed binary>...   (needs strace, the real games)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shared="$root/../shared/nba-pbp"
command -v strace >/dev/null || { echo "skipped: strace is not installed"; exit 0; }
[ -d "$shared" ] || { echo "skipped: the real games are absent ($shared)"; exit 0; }
[ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary>..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
real_stream "$1"
for bin in "$@"; do
  rm -rf "$work/state"
  strace -f -c -o "$work/calls" -e trace=fsync,fdatasync,rename,ftruncate,truncate,write \
    "$bin" serve --clock feed --state-dir "$work/state" --out /dev/null <"$work/real.jsonl" >/dev/null 2>&1
  # strace -c's columns: % time, seconds, usecs/call, calls, [errors,] syscall.
  echo "$bin: $(awk '$NF ~ /^(fsync|fdatasync|rename|ftruncate|truncate|write)$/ {print $NF, $4}' "$work/calls" | sort | paste -sd' ' | sed 's/ \([a-z]\)/, \1/g')"
done

#!/usr/bin/env bash
# The live part of `scorefeed bench` (games on the system clock, each an event every 4 s of real
# time), durable and not, for each binary given, the binaries taken in turn: the time spent
# handling lines, line-to-sink latency, syncs per line and memory per game. Durable twice: in
# /dev/shm (the CPU durability costs) and in a directory on the disk (what its syncs cost).
# usage: Tests/Figures/live_durability.sh [games] <scorefeed binary>...   (default 2,000 games)
set -euo pipefail
games=2000
if [[ ${1:-} =~ ^[0-9]+$ ]]; then games=$1; shift; fi
[ $# -ge 1 ] || { echo "usage: $0 [games] <scorefeed binary>..." >&2; exit 2; }
disk=$(mktemp -d "${TMPDIR:-/tmp}/scorefeed-live-durability.XXXXXX")
shm=/dev/shm; [ -w "$shm" ] || shm=$disk
trap 'rm -rf "$disk" "$shm/scorefeed-live-durability"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $games live games; descriptor limit $(ulimit -n)"
for where in none "$shm/scorefeed-live-durability" "$disk/state"; do
  for bin in "$@"; do
    args=(bench --season 0 --live "$games")
    [ "$where" = none ] || { rm -rf "$where"; args+=(--state-dir "$where"); }
    echo "== $bin ${args[*]}"
    # The whole games after the live part are left out: they are serve's backlog, not live.
    "$bin" "${args[@]}" 2>&1 | grep -E "memory per game|lines in|latency|handling time|durability while" | sed 's/^ *//' | cut -c1-190
  done
done

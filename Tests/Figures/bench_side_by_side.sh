#!/usr/bin/env bash
# `scorefeed bench` with two binaries, taken in turn for R rounds (A, B, A, B, ...), so the host's
# drift falls on both alike; prints each run's season end to end, its per-event cost, the live
# p99 line-to-sink latency and the live capacity estimate.
# usage: Tests/Figures/bench_side_by_side.sh <binary A> <binary B> [R]   (R = 2; about 70 s a run)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <binary A> <binary B> [rounds]" >&2; exit 2; }
rounds=${3:-2}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $rounds rounds"
for round in $(seq 1 "$rounds"); do
  for binary in "$1" "$2"; do
    out=$("$binary" bench 2>&1)
    season=$(grep -o 'end to end: [0-9.]* s' <<<"$out" | head -1)
    floor=$(grep -o 'end to end / floor: [0-9.]*×' <<<"$out")
    event=$(grep -o '[0-9.]* µs/event' <<<"$out")
    p99=$(grep 'line-to-sink' <<<"$out" | grep -o 'p99 [0-9.]* ms')
    capacity=$(grep -o 'capacity about [0-9]* lines/s' <<<"$out")
    echo "round $round $binary: $season ($floor), $event, $p99, $capacity"
  done
done

#!/usr/bin/env bash
# One simulated day run again and again, each run a process of its own (a fresh hash seed), several
# side by side on a loaded host: every run must print the same records digest and the same count
# of jobs. A day that depends on the host's timing or on the order of a hash table shows two.
# usage: Tests/Figures/day_repeats.sh <scorefeed binary> <runs> <side by side> <simulate options...>
#   e.g. Tests/Figures/day_repeats.sh .build/release/scorefeed 200 4 --seed 1 --day 56 --days 1 --mode token --platform ios
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 <binary> <runs> <side by side> <simulate options...>" >&2; exit 2; }
binary=$1 runs=$2 parallel=$3
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $runs runs, $parallel side by side: simulate $*"
seq 1 "$runs" | xargs -P "$parallel" -I{} sh -c '"$0" simulate "$@" --threads 1 2>&1 | grep -E "^(pushes|steps|checks):" | tr "\n" " "; echo' "$binary" "$@" >"$out"
sort "$out" | uniq -c

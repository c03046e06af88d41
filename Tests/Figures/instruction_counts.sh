#!/usr/bin/env bash
# Instructions counted by valgrind's callgrind (all threads, the process's start included) for
# `serve --clock feed --out /dev/null` on the real games as one stream (the 20 files of
# ../shared/nba-pbp that live_side_by_side.sh streams), without and with `--state-dir` (on
# /dev/shm when it is there), and on 120 generated games as one stream without it (issue 40's
# `serve` ÷ `json.loads` stream), for each binary given: a count that repeats to a few hundredths of a
# percent, where the wall clock on this host drifts by a third. valgrind 3.19 stops on
# libdispatch's sigsuspend: a shim (streams.sh's sigsuspend_shim) calls the system call itself.
# usage: Tests/Figures/instruction_counts.sh <scorefeed binary>...   (needs valgrind, gcc, the real games)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shared="$root/../shared/nba-pbp"
command -v valgrind >/dev/null || { echo "skipped: valgrind is not installed"; exit 0; }
[ -d "$shared" ] || { echo "skipped: the real games are absent ($shared)"; exit 0; }
[ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary>..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
sigsuspend_shim "$work"
real_stream "$1"
base=/dev/shm; [ -w "$base" ] || base=$work
generated_stream "$1"
count() {
  local bin=$1 stream=$2; shift 2
  rm -rf "$base/scorefeed-instructions-state"
  LD_PRELOAD="$work/sigsuspend.so" valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
    "$bin" serve --clock feed --out /dev/null "$@" <"$work/$stream.jsonl" >/dev/null 2>&1
  cat "$work"/cg.out* | awk '/^summary:/ {s += $2} END {printf "%.0f", s}'
  rm -f "$work"/cg.out* ; rm -rf "$base/scorefeed-instructions-state"
}
echo "the real games as one stream: $(wc -l <"$work/real.jsonl") lines; 120 generated games: $(wc -l <"$work/generated.jsonl") lines"
for bin in "$@"; do
  none=$(count "$bin" real)
  state=$(count "$bin" real --state-dir "$base/scorefeed-instructions-state")
  generated=$(count "$bin" generated)
  echo "$bin: real games $(python3 -c "print(f'{$none:,}')") instructions without --state-dir, $(python3 -c "print(f'{$state:,}')") with it ($(python3 -c "print(f'{$state / $none:.2f}')")x); generated games $(python3 -c "print(f'{$generated:,}')")"
done

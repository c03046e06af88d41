#!/usr/bin/env bash
# Issue 39's simulator cost as a count that does not move with the host: instructions counted by
# valgrind's callgrind (every thread, the process's start included) for
# `simulate --days 2 --seed 1 --platform ios --threads 1` (4 day-runs), for each binary given, the
# binaries side by side on the cores there are. The same seed does the same work, so two builds
# compare to a few hundredths of a percent where the wall clock here drifts by a third; the
# records digest each prints must be the same. With --top N, the N functions with the most
# instructions of their own and of what they call (inclusive), for each binary.
# valgrind 3.19 stops on libdispatch's sigsuspend: streams.sh's sigsuspend_shim works around it.
# usage: Tests/Figures/simulate_instructions.sh [--top N] <scorefeed binary>...   (needs valgrind, a C compiler)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "skipped: valgrind is not installed"; exit 0; }
top=0
if [ "${1:-}" = "--top" ]; then top=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [--top N] <scorefeed binary>..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=streams.sh
source "$here/streams.sh"
sigsuspend_shim "$work"
index=0
for binary in "$@"; do
  index=$((index + 1))
  (LD_PRELOAD="$work/sigsuspend.so" valgrind --tool=callgrind --callgrind-out-file="$work/cg.$index" \
      "$binary" simulate --days 2 --seed 1 --platform ios --threads 1 >"$work/out.$index" 2>"$work/err.$index") &
done
wait
index=0
for binary in "$@"; do
  index=$((index + 1))
  instructions=$(grep -o "Collected : [0-9]*" "$work/err.$index" | grep -o "[0-9]*$")
  digest=$(grep -o "records digest: [0-9a-f]*" "$work/out.$index" || echo "records digest: (none)")
  printf "%s instructions, %s: %s\n" "$instructions" "$digest" "$binary"
  if [ "$top" -gt 0 ]; then
    callgrind_annotate --inclusive=yes "$work/cg.$index" 2>/dev/null | swift demangle --simplified \
      | grep -E "^ *[0-9,]+ \(" | grep -E "ScoreFeed|Simulat" | grep -v -E "thunk|partial apply|<compiler-generated>" \
      | head -"$top" | sed -E 's| \[[^]]*\]$||; s|/[^ ]*/Sources/||'
  fi
done

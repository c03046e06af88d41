#!/usr/bin/env bash
# Issue 21's reader figure: `serve`'s reader thread alone (split stdin into lines, parse each
# line; Tests/Figures/reader_thread.swift) on 120 generated games as one stream, best of N runs
# by CPU time. Built against this checkout's release objects.
# usage: Tests/Figures/reader_thread.sh [runs] [stream]
#   default: 5 runs, a fresh stream of 120 generated games.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-5}
stream=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && swift build -c release >/dev/null)
release="$root/.build/release"
swiftc -O -I "$release/Modules" "$here/reader_thread.swift" \
  "$release"/ScoreFeed.build/*.o "$release"/ScoreFeedModel.build/*.o -o "$work/reader-thread"
if [ -z "$stream" ]; then
  for i in $(seq 1 120); do "$release/scorefeed" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
  "$release/scorefeed" stream "$work"/g*.json --out "$work/g120.jsonl" 2>/dev/null
  stream="$work/g120.jsonl"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(wc -l <"$stream") lines, $(wc -c <"$stream") bytes"
for _ in $(seq 1 "$runs"); do "$work/reader-thread" <"$stream"; done | python3 -c '
import re, sys
runs = [line.strip() for line in sys.stdin if line.strip()]
for line in runs: print(line)
cpu = [float(re.search(r"CPU ([0-9.]+) s", line).group(1)) for line in runs]
print(f"best CPU of {len(cpu)}: {min(cpu):.3f} s")'

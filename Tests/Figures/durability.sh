#!/usr/bin/env bash
# Issue 21's figures: what durability costs `serve --clock feed`, and bytes written per event by
# game length. Best of 3 runs each; the machine's load is printed beside.
# usage: Tests/Figures/durability.sh [scorefeed binary] [earlier binary to compare]
#   default binary: a release build of this checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-}
before=${2:-}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
S="$root/../shared/nba-pbp"
[ -d "$S" ] || { echo "skipped: $S is absent (the real games live beside the project)"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
games=$(ls "$S"/playbyplay_*.json "$S"/stats_0*.json "$S"/ind-vs-mem-*.json)
"$bin" stream $games --out "$work/real.jsonl" 2>/dev/null
for i in $(seq 1 120); do "$bin" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"$bin" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
best() {  # best of 3 wall-clock seconds of: serve [args] < input
  local input=$1 binary=$2; shift 2
  python3 - "$input" "$binary" "$work/state" "$@" <<'PY'
import subprocess, sys, time, shutil
inp, binary, state, *args = sys.argv[1:]
times = []
for _ in range(3):
    shutil.rmtree(state, ignore_errors=True)
    start = time.monotonic()
    subprocess.run([binary, "serve", "--clock", "feed", "--out", "/dev/null", *args], stdin=open(inp, "rb"),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times.append(time.monotonic() - start)
print(f"{min(times):.3f}")
PY
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for set in real generated; do
  lines=$(wc -l <"$work/$set.jsonl")
  for b in "$bin" ${before:+"$before"}; do
    plain=$(best "$work/$set.jsonl" "$b")
    durable=$(best "$work/$set.jsonl" "$b" --state-dir "$work/state")
    printf '%-9s %6d lines  %-40s  no state dir %6.2f s   --state-dir %6.2f s   ratio %5.1f×\n' \
      "$set" "$lines" "$(basename "$(dirname "$(dirname "$(dirname "$b")")")")/$(basename "$b")" "$plain" "$durable" \
      "$(awk "BEGIN{print $durable / $plain}")"
  done
done
# Bytes written per event as a game goes on (this binary: serve says what the state dir cost).
first=$(ls "$S"/playbyplay_*.json | head -1)
"$bin" stream "$first" --out "$work/one.jsonl" 2>/dev/null
total=$(($(wc -l <"$work/one.jsonl") - 1))
for n in 100 200 300 400 $total; do
  rm -rf "$work/state"
  head -n $((n + 1)) "$work/one.jsonl" | "$bin" serve --clock feed --out /dev/null --state-dir "$work/state" 2>&1 \
    | grep '^serve: state dir' | sed "s/^serve: state dir:/$(basename "$first"), first $n events:/"
done

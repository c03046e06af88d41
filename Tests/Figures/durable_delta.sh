#!/usr/bin/env bash
# What `--state-dir` adds to `serve --clock feed` on the real games as one stream, by symbol:
# `perf record` of N runs without and with a state directory (the process's whole life, the
# loader and the kernel included), then each symbol's samples with the state directory less
# those without, largest first (issue 40's durability figure: where the 1.7x goes). Needs perf
# (Debian's linux-perf) and ../shared/nba-pbp.
# usage: Tests/Figures/durable_delta.sh [scorefeed binary] [runs] [top]   (default: a release build of this checkout, 40, 30)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v perf >/dev/null || { echo "skipped: perf is not installed (apt-get install linux-perf)"; exit 0; }
shared="$root/../shared/nba-pbp"
[ -d "$shared" ] || { echo "skipped: the real games are absent ($shared)"; exit 0; }
bin=${1:-}
runs=${2:-40}
top=${3:-30}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release --product scorefeed >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" stream $(ls "$shared"/playbyplay_*.json "$shared"/stats_0*.json "$shared"/ind-vs-mem-*.json) --out "$work/real.jsonl" 2>/dev/null
for durable in none state; do
  args=(serve --clock feed --out /dev/null)
  [ $durable = state ] && args+=(--state-dir "$work/state")
  perf record -q -F 4999 -o "$work/$durable.data" -- bash -c 'for i in $(seq 1 "$4"); do rm -rf "$3"; "$1" "${@:5}" <"$2" >/dev/null 2>&1; done' \
    _ "$bin" "$work/real.jsonl" "$work/state" "$runs" "${args[@]}" >/dev/null 2>&1
  perf report -i "$work/$durable.data" --no-children --sort sym -n --stdio 2>/dev/null | swift demangle --simplified >"$work/$durable.txt"
done
python3 - "$work/none.txt" "$work/state.txt" "$top" "$runs" <<'PY'
import re, sys
def samples(path):
    out = {}
    for line in open(path, errors="replace"):
        m = re.match(r"\s*[\d.]+%\s+(\d+)\s+\[(.)\]\s+(.*)", line)
        if m: out[f"[{m.group(2)}] {m.group(3).strip()[:100]}"] = out.get(f"[{m.group(2)}] {m.group(3).strip()[:100]}", 0) + int(m.group(1))
    return out
none, state, top, runs = samples(sys.argv[1]), samples(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
total = sum(state.values()) - sum(none.values())
print(f"samples over {runs} runs: without {sum(none.values())}, with --state-dir {sum(state.values())}, added {total}")
for delta, name in sorted(((state.get(k, 0) - none.get(k, 0), k) for k in set(none) | set(state)), reverse=True)[:top]:
    print(f"{delta:7d}  {100 * delta / total:5.1f}% of the added  {name}")
PY

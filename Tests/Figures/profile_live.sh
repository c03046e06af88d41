#!/usr/bin/env bash
# Issue 40's profile: `perf record -g` of `serve --clock feed` on 120 generated games as one stream,
# without and with `--state-dir`, each summarised by perf_top.py (the live path's stages, the
# symbols with the most self time). Needs perf (Debian's linux-perf).
# usage: Tests/Figures/profile_live.sh [scorefeed binary] [top]   (default: a release build of this checkout, 25)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v perf >/dev/null || { echo "skipped: perf is not installed (apt-get install linux-perf)"; exit 0; }
bin=${1:-}
top=${2:-25}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release --product scorefeed >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 120); do "$bin" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"$bin" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
for durable in no yes; do
  args=(serve --clock feed --out /dev/null)
  [ $durable = yes ] && args+=(--state-dir "$work/state")
  echo "== ${args[*]} < 120 generated games ($(wc -l <"$work/generated.jsonl") lines)"
  perf record -q -F 9999 -g -o "$work/perf.data" "$bin" "${args[@]}" <"$work/generated.jsonl" >/dev/null 2>&1
  perf script -i "$work/perf.data" 2>/dev/null | swift demangle --simplified | python3 "$here/perf_top.py" "$top"
done

#!/usr/bin/env bash
# Issue 40's profile: `perf record -g` of `serve --clock feed` on 120 generated games as one stream,
# without and with `--state-dir`, each summarised by perf_top.py (the live path's stages, the
# symbols with the most self time); with ../shared/nba-pbp present, also the 20 real games as one
# stream with and without `--state-dir` (issue 40's durability figure), 20 runs each in one
# profile, as each run is short. Needs perf (Debian's linux-perf).
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
shared="$root/../shared/nba-pbp"
[ -d "$shared" ] || exit 0
"$bin" stream $(ls "$shared"/playbyplay_*.json "$shared"/stats_0*.json "$shared"/ind-vs-mem-*.json) --out "$work/real.jsonl" 2>/dev/null
for durable in no yes; do
  args=(serve --clock feed --out /dev/null)
  [ $durable = yes ] && args+=(--state-dir "$work/state")
  echo "== ${args[*]} < the real games ($(wc -l <"$work/real.jsonl") lines), 20 runs"
  perf record -q -F 9999 -g -o "$work/perf.data" -- bash -c 'for i in $(seq 1 20); do rm -rf "$3"; "$1" "${@:4}" <"$2" >/dev/null 2>&1; done' \
    _ "$bin" "$work/real.jsonl" "$work/state" "${args[@]}" >/dev/null 2>&1
  # The service's threads only (its own and the runtime's pool), not the loop's shell.
  comms=$(perf report -i "$work/perf.data" --no-children --sort comm --stdio -g none 2>/dev/null | awk '/%/ && $2 != "bash" && $2 != "rm" {print $2}' | paste -sd, -)
  perf script -i "$work/perf.data" --comm "$comms" 2>/dev/null | swift demangle --simplified | python3 "$here/perf_top.py" "$top"
done

#!/usr/bin/env bash
# Session 39's figure: what encoding the snapshots costs, against the journals' appends (code
# that did not change), for each binary given, in one sitting: `perf record --call-graph dwarf`
# of `serve --clock feed --out /dev/null --state-dir` on 120 generated games as one stream and
# (when ../shared/nba-pbp is present) on the real games as one stream, 5 runs. Samples count
# CPU time; the host's speed drifts between runs, so the figure is the ratio of the two counts
# in one profile, not either count. Needs perf (Debian's linux-perf).
# usage: Tests/Figures/snapshot_encoding.sh <scorefeed binary> [<scorefeed binary> ...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v perf >/dev/null || { echo "skipped: perf is not installed (apt-get install linux-perf)"; exit 0; }
[ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary> [...]" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 120); do "$1" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"$1" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
streams=(generated)
shared="$root/../shared/nba-pbp"
if [ -d "$shared" ]; then
  "$1" stream $(ls "$shared"/playbyplay_*.json "$shared"/stats_0*.json "$shared"/ind-vs-mem-*.json) --out "$work/real.jsonl" 2>/dev/null
  streams+=(real)
fi
count() {
  python3 - "$1" <<'PY'
import re, sys
encode = append = total = 0
block = []
def flush():
    global encode, append, total
    if len(block) < 2 or block[0].split()[0] in ("bash", "rm"):
        return
    total += 1
    text = "".join(block[1:])
    encode += "GameSession.encoded()" in text
    append += "Journal.append(" in text
for line in open(sys.argv[1]):
    if line.strip():
        block.append(line)
    else:
        flush()
        block = []
flush()
print(f"{total} samples; snapshots encoded {encode}, journal appends {append}: {encode / max(append, 1):.2f} of the appends")
PY
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for stream in "${streams[@]}"; do
  for bin in "$@"; do
    perf record -q -F 2999 -g --call-graph dwarf,16384 -o "$work/perf.data" -- bash -c \
      'for i in 1 2 3 4 5; do rm -rf "$3"; "$1" serve --clock feed --out /dev/null --state-dir "$3" <"$2" >/dev/null 2>&1; done' \
      _ "$bin" "$work/$stream.jsonl" "$work/state" >/dev/null 2>&1
    perf script -i "$work/perf.data" 2>/dev/null | swift demangle --simplified >"$work/script.txt"
    echo "$stream, 5 runs, $bin: $(count "$work/script.txt")"
  done
done

#!/usr/bin/env bash
# Where the engines' time goes, for each binary given, in one sitting: `perf record -g` of
# `serve --clock feed --out /dev/null` on 120 generated games as one stream, 5 runs each, and the
# samples whose stack holds each named part, as a share of the samples under the engines' work
# (`GameService.receive(`). Samples count CPU time; the host's speed drifts between runs, so a
# part's figure is its share within one profile, not a time. Needs perf (Debian's linux-perf).
# A part is `name=regex` (every `&`-separated regex must match some frame of the stack).
# usage: Tests/Figures/sample_shares.sh <scorefeed binary>... -- <name=regex[&regex]>...
# e.g.:  Tests/Figures/sample_shares.sh /tmp/a /tmp/b -- 'table grown=_copyOrMoveAndResize&GameFold.apply'
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v perf >/dev/null || { echo "skipped: perf is not installed (apt-get install linux-perf)"; exit 0; }
binaries=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do binaries+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#binaries[@]} -ge 1 ] && [ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary>... -- <name=regex[&regex]>..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 120); do "${binaries[0]}" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"${binaries[0]}" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for bin in "${binaries[@]}"; do
  perf record -q -F 2999 -g -o "$work/perf.data" -- bash -c \
    'for i in 1 2 3 4 5; do "$1" serve --clock feed --out /dev/null <"$2" >/dev/null 2>&1; done' \
    _ "$bin" "$work/generated.jsonl" >/dev/null 2>&1
  perf script -i "$work/perf.data" 2>/dev/null | swift demangle --simplified >"$work/script.txt"
  python3 - "$here" "$work/script.txt" "$bin" "$@" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1])
from perf_top import samples  # the profile's samples, each its frames (Tests/Figures/perf_top.py)
path, binary, parts = sys.argv[2], sys.argv[3], sys.argv[4:]
named = [(p.split("=", 1)[0], [re.compile(r) for r in p.split("=", 1)[1].split("&")]) for p in parts]
counts = [0] * len(named)
total = engines = 0
with open(path) as script:
    for frames in samples(script):
        total += 1
        if not any("GameService.receive(" in f for f in frames):
            continue
        engines += 1
        for i, (_, patterns) in enumerate(named):
            if all(any(p.search(f) for f in frames) for p in patterns):
                counts[i] += 1
print(f"{binary}: {total} samples, {engines} under the engines' work ({100 * engines / max(total, 1):.1f} %)")
for (name, _), count in zip(named, counts):
    print(f"  {name:40} {count:6} samples, {100 * count / max(engines, 1):5.2f} % of the engines'")
PY
done

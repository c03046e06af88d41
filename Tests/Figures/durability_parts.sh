#!/usr/bin/env bash
# Issue 40: what `serve --clock feed --state-dir` costs beyond `serve` on the real games as one
# stream and on 120 generated games, split three ways, best of N runs each (the runs of every
# variant taken in turn, so the host's drift falls on all alike):
#   - the games' headers alone (no event): the cost a state directory has whatever the game
#     (its identity file, and at the exit one snapshot per game, each with its syncs);
#   - the whole stream;
#   - the whole stream without snapshots (the second binary given, e.g. built with
#     Tests/Figures/experiments/no-snapshots.patch: no game's snapshot at its end or at the exit;
#     not durable as it should be, a measure only).
# usage: Tests/Figures/durability_parts.sh <scorefeed binary> [binary without snapshots] [runs]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary> [binary without snapshots] [runs]" >&2; exit 2; }
bin=$1
without=${2:-}
runs=${3:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
for i in $(seq 1 120); do "$bin" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
"$bin" stream "$work"/g*.json --out "$work/generated.jsonl" 2>/dev/null
sets=(generated)
real_stream "$bin" && sets=(real generated)
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; best of $runs"
for set in "${sets[@]}"; do
  grep '"league"' "$work/$set.jsonl" > "$work/$set-headers.jsonl"
  python3 - "$work" "$set" "$runs" "$bin" "$without" <<'PY'
import shutil, subprocess, sys, time
work, name, runs, binary, without = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
state = f"{work}/state"
variants = [
    ("headers, no state dir", binary, f"{work}/{name}-headers.jsonl", False),
    ("headers, --state-dir", binary, f"{work}/{name}-headers.jsonl", True),
    ("whole, no state dir", binary, f"{work}/{name}.jsonl", False),
    ("whole, --state-dir", binary, f"{work}/{name}.jsonl", True),
]
if without:
    variants.append(("whole, --state-dir, no snapshots", without, f"{work}/{name}.jsonl", True))
best = {}
for _ in range(runs):
    for label, exe, stream, durable in variants:
        shutil.rmtree(state, ignore_errors=True)
        args = [exe, "serve", "--clock", "feed", "--out", "/dev/null"] + (["--state-dir", state] if durable else [])
        with open(stream, "rb") as source:
            start = time.monotonic()
            subprocess.run(args, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            elapsed = time.monotonic() - start
        best[label] = min(best.get(label, float("inf")), elapsed)
lines = sum(1 for _ in open(f"{work}/{name}.jsonl", "rb"))
games = sum(1 for _ in open(f"{work}/{name}-headers.jsonl", "rb"))
print(f"{name} ({games} games, {lines} lines):")
for label, *_ in variants:
    print(f"  {best[label] * 1000:7.1f} ms  {label}")
plain, durable = best["whole, no state dir"], best["whole, --state-dir"]
fixed = best["headers, --state-dir"] - best["headers, no state dir"]
print(f"  --state-dir / none {durable / plain:.2f}x; the extra {1000 * (durable - plain):.1f} ms, "
      f"of it {1000 * fixed:.1f} ms with the headers alone")
if without:
    saved = durable - best["whole, --state-dir, no snapshots"]
    print(f"  without snapshots: {best['whole, --state-dir, no snapshots'] / plain:.2f}x; the snapshots cost "
          f"{1000 * saved:.1f} ms ({1000 * saved / games:.2f} ms a game)")
PY
done

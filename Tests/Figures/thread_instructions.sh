#!/usr/bin/env bash
# Issue 40: where `serve --clock feed --out /dev/null` on 120 generated games as one stream spends
# its instructions, thread by thread (valgrind's callgrind, --separate-threads): the main thread
# (the process's start), the reader (lines split and parsed), the record writer, and the threads
# of Swift's cooperative pool, on which the service and the engines run one job at a time. On 2
# cores the reader and the writer run beside the service, so the service's serial work, not the
# sum, is what a run's wall time stands on. Instruction counts repeat from run to run, where this
# host's wall clock does not. Each thread is named by the ScoreFeed function that does most of its
# own work. Needs valgrind and a C compiler (streams.sh's sigsuspend shim).
# usage: Tests/Figures/thread_instructions.sh [scorefeed binary]   (default: a release build of this checkout)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v valgrind >/dev/null || { echo "skipped: valgrind is not installed"; exit 0; }
bin=${1:-}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release --product scorefeed >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/streams.sh"
sigsuspend_shim "$work"
generated_stream "$bin"
echo "$bin: serve --clock feed --out /dev/null < 120 generated games ($(wc -l <"$work/generated.jsonl") lines)"
LD_PRELOAD="$work/sigsuspend.so" valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.out" \
  "$bin" serve --clock feed --out /dev/null <"$work/generated.jsonl" >/dev/null 2>&1
python3 - "$work" <<'PY'
import glob, re, subprocess, sys
# A thread's part, by the functions that do its own work (in this order: the pool's threads also
# run a little of the reader's and writer's code at their ends).
roles = [
    ("the cooperative pool: the service and the engines", ("GameSession.", "Coalescer.", "GameFold.")),
    ("the reader: lines split and parsed", ("StreamLine", "JSONScanner")),
    ("the record writer", ("PushRecord.write", "BackgroundWriter")),
]
rows = []
for path in sorted(glob.glob(sys.argv[1] + "/cg.out-*")):
    total = sum(int(line.split()[1]) for line in open(path) if line.startswith("summary:"))
    if total == 0:
        continue
    text = subprocess.run(["callgrind_annotate", path], capture_output=True, text=True, cwd=sys.argv[1]).stdout
    text = subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True).stdout
    own = {}
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+\S+?:(.*?) \[", line)
        if match:
            own[match.group(2).strip()] = own.get(match.group(2).strip(), 0) + int(match.group(1).replace(",", ""))
    role = "the main thread: the process's start (dynamic linking), the run's set-up"
    best = 0
    for name, markers in roles:
        work = sum(count for function, count in own.items() if any(marker in function for marker in markers))
        if work > best:
            role, best = name, work
    if total < 1_000_000:
        role = "a runtime thread (dispatch's timers)"
    rows.append((total, path.rsplit("-", 1)[1], role))
whole = sum(total for total, _, _ in rows)
print(f"all threads: {whole:,} instructions")
for total, thread, role in sorted(rows, reverse=True):
    print(f"  thread {thread}: {total:>14,} ({100 * total / whole:4.1f} %)  {role}")
pool = sum(total for total, _, role in rows if role.startswith("the cooperative pool"))
print(f"the cooperative pool's threads together (the service's serial work): {pool:,} ({100 * pool / whole:.1f} %)")
PY

#!/usr/bin/env bash
# The test run's busy threads over time: runs the built test binary (swift build --build-tests
# first) and, at each of the given seconds, counts its threads that are not waiting (gdb) and
# names the ScoreFeed functions they run. A run that starts more CPU-bound threads than the
# machine has cores starves its wall-clock tests (session 28: 89 busy threads at 25 s before the
# simulated days waited for a core, 2 after).
# usage: Tests/Figures/busy_threads.sh [seconds…]   (default 15 30 45)
set -uo pipefail
cd "$(dirname "$0")/../.."
command -v gdb >/dev/null || { echo "busy_threads.sh needs gdb (apt-get install gdb)" >&2; exit 2; }
binary=.build/debug/ScoreFeedPackageTests.xctest
[ -x "$binary" ] || { echo "build the tests first: swift build --build-tests" >&2; exit 2; }
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
"$binary" --testing-library swift-testing >"$work/run.log" 2>&1 &
pid=$!
elapsed=0
for at in "${@:-15 30 45}"; do
  for second in $at; do
    sleep $((second - elapsed)); elapsed=$second
    gdb -p "$pid" -batch -ex "thread apply all bt 40" >"$work/bt" 2>/dev/null
    python3 - "$work/bt" "$second" <<'PY'
import collections, re, sys
text = open(sys.argv[1]).read()
threads = re.split(r"\nThread \d+ ", text)[1:]
waits = ("futex", "epoll", "select", "poll", "sigsuspend", "nanosleep", "read", "wait")
busy = collections.Counter()
for thread in threads:
    frames = re.findall(r"#\d+\s+(?:0x[0-9a-f]+ in )?(\S+)", thread)
    if not frames or any(w in frames[0] for w in waits):
        continue
    ours = [f for f in frames if "ScoreFeed" in f]
    busy[ours[-1][:90] if ours else frames[0][:60]] += 1
print(f"at {sys.argv[2]} s: {len(threads)} threads, {sum(busy.values())} busy")
for name, count in busy.most_common(5):
    print(f"  {count:3d} {name}")
PY
  done
done

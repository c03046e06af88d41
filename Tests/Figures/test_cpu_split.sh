#!/usr/bin/env bash
# Where a whole `swift test` run's CPU goes, by process: the test process itself, the `scorefeed`
# executables the tests spawn (the debug build), Python (the wire tests' clients and servers),
# Chromium, and the rest. `perf record` samples the built test binary and every process it starts
# (at 200 Hz); a process counts as `scorefeed` when a sample of it lies in that executable, or on
# a thread named `scorefeed` or one of Swift's pool.
# Run it after `swift build --build-tests`, beside ../shared and the tools `.ci/run` installs.
# usage: Tests/Figures/test_cpu_split.sh   (needs perf: Debian's linux-perf)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v perf >/dev/null || { echo "skipped: perf is not installed (apt-get install linux-perf)"; exit 0; }
tests=$(ls "$root"/.build/*/debug/ScoreFeedPackageTests.xctest 2>/dev/null | head -1)
[ -n "$tests" ] || { echo "build the tests first: swift build --build-tests" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rate=200
(cd "$root" && perf record -F "$rate" -o "$work/perf.data" -- "$tests" --testing-library swift-testing >"$work/tests.log" 2>&1) || true
grep -a "Test run with" "$work/tests.log" || { tail -5 "$work/tests.log"; exit 1; }
perf script -i "$work/perf.data" -F comm,pid,ip,dso 2>/dev/null | python3 -c '
import collections, re, sys
rate = int(sys.argv[1])
samples = collections.Counter()
seen = collections.defaultdict(collections.Counter)
for line in sys.stdin:
    m = re.match(r"\s*(.+?)\s+(\d+)\s+[0-9a-f]+\s+\((.*)\)", line)
    if not m:
        continue
    comm, pid, dso = m.groups()
    samples[pid] += 1
    seen[pid][dso.rsplit("/", 1)[-1]] += 1
    seen[pid]["comm:" + comm.strip()] += 1
share = collections.Counter()
processes = collections.Counter()
for pid, count in samples.items():
    if seen[pid]["ScoreFeedPackageTests.xctest"]:
        kind = "the test process"
    elif seen[pid]["scorefeed"] or seen[pid]["comm:scorefeed"] or any(k.startswith("comm:") and "qos" in k for k in seen[pid]):
        # (A short run may be sampled only in its libraries, or only on the threads of the Swift
        # pool, named `…default-qos` and `…qos.overcommit`: only `scorefeed` runs them here.)
        kind = "scorefeed (spawned by the tests)"
    else:
        comms = [k for k in seen[pid] if k.startswith("comm:")]
        kind = max(comms, key=lambda k: seen[pid][k])[5:]
    share[kind] += count
    processes[kind] += 1
total = sum(share.values())
print(f"{total / rate:.1f} CPU s sampled in all")
for kind, count in share.most_common(12):
    print(f"  {count / total * 100:5.1f} %  {count / rate:7.1f} CPU s  {processes[kind]:5d} processes  {kind}")
' "$rate"

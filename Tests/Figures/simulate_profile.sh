#!/usr/bin/env bash
# Where a simulated day's time goes: `perf record -g` of `scorefeed simulate` (release build),
# then (1) self time by kind (retain/release, malloc/free, the task runtime, memmove, dynamic
# exclusivity checks, type metadata, the rest) and (2) the share of samples under each first frame
# of ScoreFeed's that a job of the simulation's executor runs (inclusive), and outside it (the
# day's plan, the checks). Samples count CPU time; the shares are what it is for.
# usage: Tests/Figures/simulate_profile.sh <scorefeed binary> [simulate options...]
#   default: simulate --days 100 --seed 11 --platform android (the day's games are generated once
#   per process, so a short run weighs their making more)
set -euo pipefail
command -v perf >/dev/null || { echo "skipped: perf is not installed (apt-get install linux-perf)"; exit 0; }
[ $# -ge 1 ] || { echo "usage: $0 <scorefeed binary> [simulate options...]" >&2; exit 2; }
binary=$1
shift
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--days 100 --seed 11 --platform android)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -F 250 -g -o "$work/perf.data" "$binary" simulate "${options[@]}" 2>/dev/null | grep -E "^(days|time):" || true
perf script -i "$work/perf.data" -F comm,ip,sym 2>/dev/null | swift demangle --simplified > "$work/stacks"
python3 - "$work/stacks" "$(cd "$(dirname "$0")" && pwd)" <<'PY'
import collections, re, sys
sys.path.insert(0, sys.argv[2])
from perf_top import samples as read  # the stacks of `perf script`, leaf first, as perf_top.py reads them
samples = list(read(open(sys.argv[1], errors="replace")))
total = len(samples)
kinds = [("retain/release", r"swift_retain|swift_release|bridgeObject|doDecrementSlow|isUniquely|_swift_release_dealloc"),
         ("malloc/free", r"malloc|_int_free|cfree|unlink_chunk|realloc"),
         ("task runtime", r"swift_task|AsyncTask|StatusRecord|swift_job|StackAllocator|continuation|TaskGroup|pthread_mutex|Executor"),
         ("memmove/memcmp", r"memmove|memcmp|memset|memcpy"),
         ("exclusivity checks", r"beginAccess|endAccess|AccessSet"),
         ("type metadata", r"instantiate|getGenericMetadata|swift_getWitness|conformsTo|dynamicCast|tls_get_addr")]
selfs = collections.Counter()
for stack in samples:
    leaf = stack[0]
    selfs[next((name for name, pattern in kinds if re.search(pattern, leaf)), "the rest")] += 1
print(f"{total} samples; self time by kind:")
for name, _ in kinds + [("the rest", "")]:
    print(f"  {selfs[name] / total * 100:5.1f} %  {name}")
runtime = re.compile(r"swift::|swift_|ProcessOutOfLineJob|^\(anonymous|partial apply|^$|\[unknown\]|^0+$")
firsts = collections.Counter()
for stack in samples:
    at = [i for i, frame in enumerate(stack) if "runUntilIdle" in frame]
    if not at:
        named = next((f for f in reversed(stack[:-6]) if "Simulat" in f), None)
        firsts["(outside the executor) " + (re.sub(r"\(.*", "", named)[:90] if named else "malloc/free and the rest")] += 1
        continue
    i = at[-1] - 1
    while i > 0 and runtime.search(stack[i]): i -= 1
    firsts[re.sub(r"\(.*", "", stack[i])[:100]] += 1
print("the first frames (inclusive), top 25:")
for name, count in firsts.most_common(25):
    print(f"  {count / total * 100:5.1f} %  {name}")
PY

#!/usr/bin/env python3
"""The top of a profile: `perf script | swift demangle --simplified` on standard input (samples
with call chains, `perf record -g`), printed as the share of samples in each stage of the live
path (inclusive: a sample counts for every stage on its stack) and the symbols with the most self
time. Standard library only.

    perf script -i perf.data | swift demangle --simplified | python3 Tests/Figures/perf_top.py [top]
"""
import collections
import re
import sys

# The live path's stages, by the frames that mark them (a regular expression each).
STAGES = [
    ("reader: lines split and parsed", r"LineReader|StreamLine\.init"),
    ("service: a batch handed to the engines", r"GameService\.(handle|apply|receive|endBatch)"),
    ("engine: fold (validator, scoreboard, diff)", r"GameFold\.apply"),
    ("engine: policy (coalescer)", r"Coalescer|PushPolicy"),
    ("engine: render (payload, size guard, ids)", r"PushRenderer\.make"),
    ("engine: delivery to the sink", r"MatchEngine\.(sendNext|deliver|flush)"),
    ("durability: commit (journal, snapshot)", r"MatchEngine\.commit"),
    ("durability: snapshot encoding", r"CheckpointEncoder|JSONEncoder"),
    ("durability: journal appends", r"Journal\.append"),
    ("durability: syncs", r"Journal\.(sync|write)|fsync|fdatasync"),
    ("output: records written", r"BackgroundWriter|PushRecord\.(write|jsonLine)|JSONLSink"),
    ("runtime: retain/release", r"^swift_(retain|release|bridgeObject)"),
    ("runtime: malloc/free", r"^(malloc|_int_malloc|free|_int_free|cfree)"),
    # Paid once per process, so they weigh on a short run (20 real games take about 40 ms):
    ("process: a type's metadata made at its first use", r"swift_getTypeByMangledName|instantiateConcreteTypeFromMangledName|swift_conformsToProtocol"),
    ("process: dynamic linking at start", r"^(_dl_|do_lookup_x|dl_main)"),
]


def symbol(line):
    parts = line.strip().split(None, 1)
    text = parts[1] if len(parts) > 1 else parts[0]
    return re.sub(r"\+0x[0-9a-f]+", "", re.sub(r"\s*\([^()]*\)$", "", text))[:110]


def samples(stream):
    block = []
    for line in stream:
        if line.strip():
            block.append(line)
            continue
        if len(block) > 1:
            yield [symbol(frame) for frame in block[1:]]
        block = []
    if len(block) > 1:
        yield [symbol(frame) for frame in block[1:]]


def main():
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    total = 0
    stages = collections.Counter()
    selves = collections.Counter()
    for frames in samples(sys.stdin):
        total += 1
        selves[frames[0]] += 1
        for name, pattern in STAGES:
            if any(re.search(pattern, frame) for frame in frames):
                stages[name] += 1
    if total == 0:
        sys.exit("no samples on standard input")
    print(f"{total} samples")
    print("stages (inclusive):")
    for name, _ in STAGES:
        print(f"  {100 * stages[name] / total:5.1f} %  {name}")
    print(f"self time, top {top}:")
    for name, count in selves.most_common(top):
        print(f"  {100 * count / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()

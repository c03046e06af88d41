#!/usr/bin/env python3
"""`serve --clock feed` with and without `--state-dir`, for several binaries run alternately in one
sitting, N runs each on one stream: best, mean of the faster half, and median of each, and the
durable ÷ plain ratio by each. For short streams (the real games take 20-60 ms a run), where the
best of a few runs moves with the host more than between builds. Standard library only.

    python3 Tests/Figures/alternate_runs.py <runs> <stream.jsonl> <scorefeed> [<scorefeed> ...]
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

runs, stream, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
state = os.path.join(tempfile.mkdtemp(), "state")
times = {(binary, durable): [] for binary in binaries for durable in (False, True)}
for _ in range(runs):
    for binary in binaries:
        for durable in (False, True):
            shutil.rmtree(state, ignore_errors=True)
            args = [binary, "serve", "--clock", "feed", "--out", "/dev/null"] + (["--state-dir", state] if durable else [])
            with open(stream, "rb") as lines:
                start = time.monotonic()
                subprocess.run(args, stdin=lines, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                times[(binary, durable)].append(time.monotonic() - start)
shutil.rmtree(os.path.dirname(state), ignore_errors=True)

def faster_half(values):
    values = sorted(values)
    return statistics.mean(values[: max(1, len(values) // 2)])

print(f"{runs} alternating runs each on {os.path.basename(stream)}")
for binary in binaries:
    plain, durable = times[(binary, False)], times[(binary, True)]
    figures = [(name, measure(plain), measure(durable)) for name, measure in
               (("best", min), ("faster half", faster_half), ("median", statistics.median))]
    print(os.path.basename(binary))
    for name, p, d in figures:
        print(f"  {name:12} plain {p:.4f} s   --state-dir {d:.4f} s   ratio {d / p:.2f}x")

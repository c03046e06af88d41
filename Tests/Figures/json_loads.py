#!/usr/bin/env python3
"""The floor issue 21 measures `serve` against: Python's json.loads of every line of a stream,
and nothing else. Standard library only.

    python3 Tests/Figures/json_loads.py /tmp/g120.jsonl [runs]

Prints each run's time (reading the file is not timed) and the best of them.
"""
import json
import sys
import time


def main() -> None:
    path = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with open(path, "rb") as handle:
        lines = handle.read().splitlines()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        loads = json.loads
        for line in lines:
            if line:
                loads(line)
        times.append(time.perf_counter() - start)
    print(f"json.loads of {len(lines)} lines: " + ", ".join(f"{t:.3f}" for t in times) + f" s; best {min(times):.3f} s")


if __name__ == "__main__":
    main()

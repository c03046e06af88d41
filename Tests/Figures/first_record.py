#!/usr/bin/env python3
"""How soon `serve --clock feed` hands its first record on a backlog: each binary given reads the
stream from a file as its standard input, and the time from its start to its first line on
standard output is taken, the binaries alternately, best and median of the runs. Standard
library only.

    python3 Tests/Figures/first_record.py <runs> <stream.jsonl> <scorefeed binary>...
"""
import subprocess
import sys
import time


def main() -> None:
    runs, stream, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    times = {binary: [] for binary in binaries}
    for _ in range(runs):
        for binary in binaries:
            with open(stream, "rb") as lines:
                start = time.monotonic()
                process = subprocess.Popen(
                    [binary, "serve", "--clock", "feed"], stdin=lines, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                process.stdout.readline()
                times[binary].append(time.monotonic() - start)
                process.stdout.read()
                process.wait()
    for binary in binaries:
        ordered = sorted(times[binary])
        print(f"{binary}: the first record after {ordered[0] * 1000:.1f} ms at best, {ordered[len(ordered) // 2] * 1000:.1f} ms median, of {runs}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""What a backlog in parts costs `serve` on the system clock (issue 39, session 5).

For every playbyplay_*.json in FOLDER: `scorefeed stream` writes the game's lines; `serve` (no
state dir, token mode) is handed the first half of them in PARTS pieces GAP milliseconds apart
through a pipe, as a writer still writing or a relay would hand them, then nothing for two
seconds, then end of input. (serve's reader itself waits 100 ms for more once a batch holds
16 KB, so pieces 1 ms apart mostly reach it as one batch; 150 ms apart they do not.)
Prints, per game, the pushes of the catch-up (those within a second of the first, plus the
parts' gaps) and their priorities, and the max over games. The join rule allows 2 pushes, 1 at
priority 10.

usage: python3 Tests/Figures/backlog_parts.py BINARY [FOLDER] [PARTS] [GAP]
       (FOLDER: ../shared/nba-pbp beside the package; PARTS: 4; GAP: 1 ms). Standard library only.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time


def catch_up(binary, lines, parts, gap):
    """The records of the catch-up moment: serve handed `lines` in `parts` pieces `gap` s apart."""
    process = subprocess.Popen([binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    size = len(lines) // parts + 1
    for start in range(0, len(lines), size):
        process.stdin.write(b"".join(lines[start:start + size]))
        process.stdin.flush()
        time.sleep(gap)
    time.sleep(2)
    process.stdin.close()
    records = [json.loads(line) for line in process.stdout.read().splitlines() if b'"request"' in line]
    process.wait()
    if not records:
        return []
    return [r for r in records if r["sentAt"] - records[0]["sentAt"] < 1.0 + parts * gap]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    folder = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "..", "..", "shared", "nba-pbp")
    parts = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    gap = float(sys.argv[4]) / 1000 if len(sys.argv) > 4 else 0.001
    files = sorted(glob.glob(os.path.join(folder, "playbyplay_*.json")))
    if not files:
        print("skipped: no playbyplay_*.json in %s" % folder)
        return
    print("serve handed the first half of each game's lines in %d parts %g ms apart (%s)" % (parts, gap * 1000, binary))
    print("%-12s %7s %8s %5s  %s" % ("game", "lines", "pushes", "p10", "scores shown"))
    most = (0, 0)
    with tempfile.TemporaryDirectory() as work:
        for path in files:
            game = os.path.basename(path)[len("playbyplay_"):-len(".json")]
            out = os.path.join(work, game + ".jsonl")
            subprocess.run([binary, "stream", path, "--out", out], check=True, stderr=subprocess.DEVNULL)
            lines = open(out, "rb").read().splitlines(keepends=True)
            moment = catch_up(binary, lines[: len(lines) // 2], parts, gap)
            urgent = sum(1 for r in moment if r["priority"] == 10)
            shown = ["%d-%d" % (r["payload"]["aps"]["content-state"]["awayScore"], r["payload"]["aps"]["content-state"]["homeScore"]) for r in moment]
            print("%-12s %7d %8d %5d  %s" % (game, len(lines) // 2, len(moment), urgent, " ".join(shown)))
            most = (max(most[0], len(moment)), max(most[1], urgent))
    print("%-12s %7s %8d %5d" % ("max", "", most[0], most[1]))


if __name__ == "__main__":
    main()

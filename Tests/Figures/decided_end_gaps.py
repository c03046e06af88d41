#!/usr/bin/env python3
"""Seconds between the last period's end and the game's end in the NBA's play-by-play files.

The policy settles a decided fourth period's (or overtime's) end for 3 s, waiting for the game's
end (Coalescer.Configuration.settle). This prints, for each real game, the gap the NBA's own
actions leave (`timeActual` of the last `period`/`end` and of `game`/`end`).

usage: python3 Tests/Figures/decided_end_gaps.py [../shared/nba-pbp]
"""
import glob
import json
import os
import sys
from datetime import datetime


def seconds(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "nba-pbp")
    files = sorted(glob.glob(os.path.join(folder, "playbyplay_*.json")))
    if not files:
        print(f"no playbyplay_*.json in {folder}")
        return 1
    for path in files:
        actions = json.load(open(path))["game"]["actions"]
        ends = [a for a in actions if a.get("subType") == "end" and a.get("actionType") in ("period", "game")]
        period = next((a for a in reversed(ends) if a["actionType"] == "period"), None)
        game = next((a for a in reversed(ends) if a["actionType"] == "game"), None)
        if not period or not game or not period.get("timeActual") or not game.get("timeActual"):
            print(f"{os.path.basename(path)}: no period end and game end with times")
            continue
        gap = seconds(game["timeActual"]) - seconds(period["timeActual"])
        print(f"{os.path.basename(path)}: period {period['period']} ended {period.get('scoreAway')}-{period.get('scoreHome')}, "
              f"the game's end {gap:.1f} s later{' (within a 3 s settle)' if gap <= 3 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

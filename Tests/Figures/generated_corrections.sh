#!/usr/bin/env bash
# The score corrections of the generated games the simulator draws from (seeds 1 to N, 300 by
# default: SimulatedGamePool's pool): how many, on which side, up or down. Session 50 found the
# pool's 8 all on the away team (by chance: over 1,500 games, 39 away and 32 home), so the
# simulator swaps the sides of half its score-stating games.
# usage: Tests/Figures/generated_corrections.sh [scorefeed binary] [N]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-}
count=${2:-300}
if [ -z "$bin" ]; then
  (cd "$root" && swift build -c release --product scorefeed >/dev/null)
  bin="$root/.build/release/scorefeed"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$count"); do "$bin" generate --seed "$i" -o "$work/g$i.json" >/dev/null 2>&1; done
python3 - "$work" "$count" <<'PY'
import collections, json, sys
work, count = sys.argv[1], int(sys.argv[2])
sides = collections.Counter()
games = []
for seed in range(1, count + 1):
    with open(f"{work}/g{seed}.json") as handle:
        events = json.load(handle).get("events", [])
    for event in events:
        if event.get("type") == "correction":
            points = event.get("points", 0)
            sides[(event.get("team"), "up" if points > 0 else "down")] += 1
            games.append(f"{seed} {event.get('team')} {points:+d}")
print(f"generated games 1-{count}: {len(games)} corrections in {len(set(g.split()[0] for g in games))} games")
for (team, way), n in sorted(sides.items()):
    print(f"  {team} {way}: {n}")
print("  by seed: " + ", ".join(games))
PY

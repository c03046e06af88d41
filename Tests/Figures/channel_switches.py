#!/usr/bin/env python3
# Counts, in a file of push records (`scorefeed simulate --records`), the pushes of a game that went
# to another broadcast channel than the game's push before, with no end between (a new day is read
# where a game's seq falls back). Prints the count by events and each one found.
# usage: python3 Tests/Figures/channel_switches.py records.jsonl
import collections
import json
import sys

last = {}  # game -> (channel, seq, event) of its last push
switches = collections.Counter()
found = []
for number, line in enumerate(open(sys.argv[1]), 1):
    record = json.loads(line)
    game, seq, event = record["game"], record["seq"], record["event"]
    channel = record["request"]["headers"].get("apns-channel-id")
    if game in last:
        before, before_seq, before_event = last[game]
        new_day = seq < before_seq - 50 or (seq < 5 and before_seq > 20)
        if not new_day and channel != before and before_event != "end":
            switches[(before_event, event)] += 1
            found.append(f"line {number}: game {game} seq {before_seq} on {before}, seq {seq} on {channel}")
    last[game] = (channel, seq, event)
print(f"{sum(switches.values())} pushes on another channel than the one before, by events: {dict(switches)}")
print(*found, sep="\n")

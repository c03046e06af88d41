#!/usr/bin/env python3
"""Reads push records (JSONL) on stdin as they come and prints, for each date a device reads, how
far it is from the wall clock at the moment the record arrived (seconds; negative: in the past):
aps.timestamp, stale-date, dismissal-date, apns-expiration (0, "now or never", is skipped) and a
running game clock's endsAt. Issue 31 item 5: a recording played today must carry today's dates.

Usage: scorefeed replay GAME --speed 60 --jsonl -q | python3 wall_dates.py LABEL
"""
import json
import sys
import time

REFERENCE = 978307200  # a Swift Date in the content-state counts from 2001

label = sys.argv[1] if len(sys.argv) > 1 else "records"
fields = {name: [] for name in ("timestamp", "stale-date", "dismissal-date", "apns-expiration", "endsAt")}
records = 0
for line in sys.stdin:
    now = time.time()
    try:
        record = json.loads(line)
        aps = record["payload"]["aps"]
    except (ValueError, KeyError, TypeError):
        continue  # a channel request, or anything else without a payload
    records += 1
    fields["timestamp"].append(aps["timestamp"] - now)
    for key in ("stale-date", "dismissal-date"):
        if key in aps:
            fields[key].append(aps[key] - now)
    expiration = int(record["request"]["headers"].get("apns-expiration", "0"))
    if expiration:
        fields["apns-expiration"].append(expiration - now)
    running = aps.get("content-state", {}).get("clock", {}).get("running")
    if running:
        fields["endsAt"].append(running["endsAt"] + REFERENCE - now)


def span(values):
    if not values:
        return "-"
    low, high = min(values), max(values)
    def text(v):
        if abs(v) >= 86400:
            return "%+.0f d" % (v / 86400)
        return "%+.0f s" % v
    return "%s .. %s" % (text(low), text(high))


# More than a second in the past (a game clock that ran out while its push was on its way is 0:00,
# not a date from another day).
past = sum(1 for key in ("apns-expiration", "dismissal-date", "endsAt") for v in fields[key] if v < -1)
print("%s: %d records; dates minus the wall clock at arrival:" % (label, records))
for name, values in fields.items():
    print("  %-16s %s" % (name, span(values)))
print("  more than 1 s in the past: %d expirations, dismissals or game clocks" % past)

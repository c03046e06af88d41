#!/usr/bin/env python3
"""Each test's (and each test case's) time from its start to its end in a Swift Testing event
stream, longest first. Make the stream with
  .build/debug/ScoreFeedPackageTests.xctest --testing-library swift-testing \
      --event-stream-output-path events.jsonl --event-stream-version 0
then: python3 Tests/Figures/test_durations.py events.jsonl [how many, default 40] [name filter]
A test that starts early and waits for a thread counts its wait: the figure is what a time limit
on that test sees (a time limit runs from the test case's start)."""
import json
import sys

path = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 40
only = sys.argv[3] if len(sys.argv) > 3 else ""
started, rows = {}, []
for line in open(path):
    record = json.loads(line)
    if record["kind"] != "event":
        continue
    event = record["payload"]
    kind, at = event["kind"], event["instant"]["absolute"]
    case = json.dumps(event["testCase"]["arguments"]) if event.get("testCase") else ""
    if kind in ("testStarted", "testCaseStarted"):
        started[(kind.startswith("testCase"), event.get("testID"), case)] = at
    elif kind in ("testEnded", "testCaseEnded"):
        key = (kind.startswith("testCase"), event.get("testID"), case)
        if key in started:
            rows.append((at - started[key], key))
rows.sort(reverse=True)
shown = 0
for seconds, (isCase, test, case) in rows:
    name = test.split("/")[0].split(".")[-1] + ("/" + test.split("/")[1] if "/" in test else "")
    if only not in name:
        continue
    print(f"{seconds:8.1f} s  {'case' if isCase else 'test'}  {name} {case}"[:200])
    shown += 1
    if shown == limit:
        break

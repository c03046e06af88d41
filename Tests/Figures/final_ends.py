#!/usr/bin/env python3
"""How the final ends of a push-record stream went out: at priority 10 (with or without their
priority-5 copy), or at priority 5 alone (late: the budget was spent, or thought spent), and
the priority-10 updates. Reads one or more JSONL record files (`scorefeed simulate --records`,
`serve`, `replay --jsonl`); a record delivered again (its `apns-id` seen before) counts once.
Standard library only.

    python3 Tests/Figures/final_ends.py before.jsonl after.jsonl
"""
import json
import sys


def main():
    for path in sys.argv[1:]:
        seen = set()
        p10_finals = p5_alone = p10_updates = 0
        with open(path) as lines:
            for line in lines:
                record = json.loads(line)
                if "seq" not in record:
                    continue
                key = record["request"]["headers"].get("apns-id") or (record["activity"], record["seq"], record["priority"])
                if key in seen:
                    continue
                seen.add(key)
                priority, reason = record["priority"], record["reason"]
                if record["event"] == "update" and priority == 10:
                    p10_updates += 1
                # An end's reason names what ended ("final", "postponed", "suspended"); its
                # priority-5 copy says it is one.
                if record["event"] != "end" or not reason.startswith("final"):
                    continue
                if priority == 10:
                    p10_finals += 1
                else:
                    p5_alone += 1
        print(f"{path}: final ends at priority 10 {p10_finals}, at priority 5 alone {p5_alone}; priority-10 updates {p10_updates}")


if __name__ == "__main__":
    main()

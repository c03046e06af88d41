#!/usr/bin/env python3
"""Issue 31 item 3's figures: the size of every push record's payload in each serialization the
size guard covers, measured by Python itself, and how many records two runs differ in.

  size_guard.py LIMIT FILE.jsonl            one table row for the file
  size_guard.py LIMIT BEFORE.jsonl AFTER.jsonl
                                            the row of each, and how many records differ

Serializations (FeedingYourPushSender.md in ScoreFeed.docc, "Size guard"):
  compact        the record's payload bytes as they are (cut from the line, not re-serialized)
  slashes        compact with "/" as "\\/" (Foundation's JSONEncoder default)
  spaced         json.dumps(payload, ensure_ascii=False)   (aioapns)
  spaced-ascii   json.dumps(payload)                       (Python's default)

Lines without a "request" (refusals, channel requests) are counted apart. Standard library only.
"""
import json
import sys


def payload_bytes(line):
    """The exact bytes of the record's "payload" value, cut from the line."""
    text = line.decode("utf-8")
    decoder = json.JSONDecoder()
    at = text.index("{") + 1
    while True:
        while text[at] in " \t\r\n,":
            at += 1
        key, at = json.decoder.scanstring(text, at + 1)
        at = text.index(":", at) + 1
        while text[at] in " \t\r\n":
            at += 1
        _, end = decoder.raw_decode(text, at)
        if key == "payload":
            return text[at:end].encode("utf-8")
        at = end


def sizes(exact):
    payload = json.loads(exact)
    return {
        "compact": len(exact),
        "slashes": len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("/", "\\/").encode()),
        "spaced": len(json.dumps(payload, ensure_ascii=False).encode()),
        "spaced-ascii": len(json.dumps(payload).encode()),
    }


NAMES = ("compact", "slashes", "spaced", "spaced-ascii")


def measure(path, limit):
    records, other, trimmed, largest, over, lines = 0, 0, 0, dict.fromkeys(NAMES, 0), dict.fromkeys(NAMES, 0), []
    with open(path, "rb") as f:
        for line in f:
            line = line.rstrip(b"\n")
            if not line:
                continue
            record = json.loads(line)
            if "request" not in record or "payload" not in record:
                other += 1
                lines.append(None)
                continue
            records += 1
            lines.append(line)
            trimmed += bool(record.get("trimmed"))
            for name, size in sizes(payload_bytes(line)).items():
                largest[name] = max(largest[name], size)
                over[name] += size > limit
    row = "%-34s %7d %6d %7d" % (path.rsplit("/", 1)[-1][:34], records, other, trimmed)
    row += "".join(" %6d/%-4d" % (largest[n], over[n]) for n in NAMES)
    return row, lines


def main():
    limit = int(sys.argv[1])
    files = sys.argv[2:]
    print("%-34s %7s %6s %7s" % ("file (limit %d)" % limit, "records", "other", "trimmed")
          + "".join(" %11s" % ("%s max/over" % n if n != "spaced-ascii" else "ascii max/over") for n in NAMES))
    measured = [measure(path, limit) for path in files]
    for row, _ in measured:
        print(row)
    if len(measured) == 2:
        before, after = measured[0][1], measured[1][1]
        changed = sum(1 for a, b in zip(before, after) if a != b) + abs(len(before) - len(after))
        print("lines that differ: %d of %d" % (changed, max(len(before), len(after))))


if __name__ == "__main__":
    main()

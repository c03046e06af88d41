#!/usr/bin/env python3
"""Prints the size in bytes of each payload in FILE (one payload's exact JSON bytes per line) as
Python serializes it, one line each: "<compact> <spaced> <spaced-ascii>".

  compact        the line's own bytes (what ScoreFeed sends)
  spaced         len(json.dumps(json.loads(line), ensure_ascii=False).encode())   (aioapns)
  spaced-ascii   len(json.dumps(json.loads(line)).encode())                        (the default)

The Swift tests compare these with PayloadSerialization.sizes(of:). Standard library only.
"""
import json
import sys


def main():
    with open(sys.argv[1], "rb") as f:
        for line in f:
            line = line.rstrip(b"\n")
            payload = json.loads(line)
            print(len(line), len(json.dumps(payload, ensure_ascii=False).encode()), len(json.dumps(payload).encode()))


if __name__ == "__main__":
    main()

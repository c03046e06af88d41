#!/usr/bin/env python3
"""Writes a stream of hostile `serve` lines made from good ones: fields set to wrong or edge
values, removed or repeated, strings escaped, bytes changed, inserted, cut or truncated (NUL,
control, quote, backslash, non-UTF-8), empty and blank lines, CRLF endings, oversized lines,
and no newline after the last line. Standard library only; the same seed gives the same stream.

    python3 Tests/Figures/hostile_lines.py SEED good.jsonl [more.jsonl ...] > hostile.jsonl
"""
import json
import random
import sys

VALUES = [None, True, False, 0, -1, 1.5, 1e3, "x", "", [], {}, [1, {"a": []}], 10**20, -0.0, "12:00",
          "PT11M42.00S", "home", "away", "Home", "foul", "timeout", "other", "fieldGoal", "nope", "shooting",
          "official", "é😀", "G\u0000", " G1", "G1 ", "a" * 65, "a" * 64, "x" * 600, "é" * 300, 4102444800,
          4102444799.5, 1739240000.123456789]
KEYS = ["seq", "time", "period", "clock", "type", "team", "player", "description", "points", "made", "attempt",
        "of", "offensive", "kind", "out", "ruling", "challenge", "score", "game", "home", "away", "gameId",
        "league", "channel", "extra", "Seq"]


def mutate_fields(line, rng):
    try:
        obj = json.loads(line)
    except ValueError:
        return line
    if not isinstance(obj, dict):
        return line
    r, key = rng.random(), rng.choice(KEYS)
    if r < 0.4:
        obj[key] = rng.choice(VALUES)
    elif r < 0.55 and obj:
        obj.pop(rng.choice(list(obj)))
    elif r < 0.65:
        obj["score"] = {"home": rng.choice([0, 5, -1, 1000, None, "1"]), "away": rng.choice([3, 999, 1.0])}
    elif r < 0.75:
        text = json.dumps(obj, ensure_ascii=rng.random() < 0.5)
        return (text[:-1] + ',"' + key + '":' + json.dumps(rng.choice(VALUES)) + "}").encode()
    elif r < 0.85:
        text = json.dumps(obj)
        return text.replace('"home"', '"\\u0068ome"').replace('"foul"', '"fo\\u0075l"').replace('"1:', '"\\u0031:').encode()
    else:
        obj[key] = rng.choice(VALUES)
        obj[rng.choice(KEYS)] = rng.choice(VALUES)
    return json.dumps(obj, ensure_ascii=rng.random() < 0.5).encode()


def mutate_bytes(line, rng):
    data = bytearray(line)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data) + 1)
        op = rng.random()
        byte = rng.choice([0x22, 0x5C, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0xE2, 0x0D, 0x20, 0x7B, 0x7D, 0x2C, 0x3A,
                           rng.randrange(256)])
        if op < 0.3 and i < len(data):
            data[i] = byte
        elif op < 0.6:
            data.insert(i, byte)
        elif op < 0.8:
            del data[i:i + rng.randint(1, 5)]
        else:
            data = data[:i]
    return bytes(data).replace(b"\n", b"")


def main():
    rng = random.Random(int(sys.argv[1]))
    good = [line for path in sys.argv[2:] for line in open(path, "rb").read().split(b"\n") if line]
    out = []
    for _ in range(60000):
        line = rng.choice(good)
        r = rng.random()
        if r < 0.45:
            line = mutate_fields(line, rng)
        elif r < 0.8:
            line = mutate_bytes(line, rng)
        elif r < 0.83:
            line = b""
        elif r < 0.85:
            line = b"   "
        elif r < 0.9:
            line += b"\r"
        elif r < 0.905:
            line = b'{"game":"G1","description":"' + b"y" * 70000 + b'"}'
        out.append(line)
    sys.stdout.buffer.write(b"\n".join(out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Issue 38's figures: `scorefeed poll --clock feed` against a CDN with a stale edge.

Usage: python3 Tests/Figures/stale_copies.py BINARY [BINARY ...] [--games ID,ID] [--interval S]
                                             [--modes token,broadcast] [--seed N]

For each binary, mode (token; broadcast, with ScoreFeed managing channels behind
Tests/Support/apns_server.py) and condition, every real game of ../shared/nba-pbp that has a
boxscore is served by Tests/Support/nba_live_server.py with --step 0.01 (the game moves 1 % of
its span per play-by-play request) and polled every --interval seconds:

  none     every copy the newest
  mild     every 3rd request of each document answered with a copy 0.4 % of the span (about 30 s)
           older than the newest served (--stale 3:0.004)
  severe   mild, and every 5th request with one 10-25 % older (--stale 5:0.10-0.25)

Per game it prints: pushes, pushes whose score went backwards (home or away below the push
before), priority 10s, whether the last push is the `end` with the boxscore's final, and how
poll exited (or that it had not ended its game after --timeout seconds, and was stopped). The
summary lines compare each condition with `none` of the same binary and mode: backwards pushes
beyond it, and priority 10 as a share of it. Python 3 standard library only.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SUPPORT = os.path.join(ROOT, "Tests", "Support")
SHARED = os.path.join(ROOT, "..", "shared", "nba-pbp")
CONDITIONS = [("none", []), ("mild", ["--stale", "3:0.004"]), ("severe", ["--stale", "3:0.004", "--stale", "5:0.10-0.25"])]


def start(script, arguments):
    """Starts a test server; returns (process, port)."""
    process = subprocess.Popen([sys.executable, os.path.join(SUPPORT, script)] + arguments,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if not line.startswith("PORT "):
        process.kill()
        raise SystemExit("%s did not start: %r" % (script, line))
    return process, int(line.split()[1])


def final_of(game):
    with open(os.path.join(SHARED, "boxscore_%s.json" % game)) as handle:
        box = json.load(handle)["game"]
    return box["homeTeam"]["score"], box["awayTeam"]["score"]


def records_of(lines):
    """Push records (dicts) from JSON lines, channel requests left out, one per seq."""
    by_seq = {}
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("kind") == "channel" or "seq" not in record:
            continue
        by_seq.setdefault(record["seq"], record)
    return [by_seq[seq] for seq in sorted(by_seq)]


def state_of(record):
    return record["payload"]["aps"]["content-state"]


def figures(records, final):
    backwards = 0
    previous = None
    for record in records:
        state = state_of(record)
        score = (state["homeScore"], state["awayScore"])
        if previous is not None and (score[0] < previous[0] or score[1] < previous[1]):
            backwards += 1
        previous = score
    last = records[-1] if records else None
    right = last is not None and last["event"] == "end" and (state_of(last)["homeScore"], state_of(last)["awayScore"]) == final
    p10 = sum(1 for r in records if r["request"]["headers"].get("apns-priority") == "10")
    return {"pushes": len(records), "backwards": backwards, "p10": p10, "final": right}


def run(binary, mode, game, condition, interval, seed, timeout):
    server, port = start("nba_live_server.py", ["--games", game, "--step", "0.01", "--seed", str(seed)] + condition)
    apns = None
    log = None
    try:
        base = "http://127.0.0.1:%d/static/json/liveData" % port
        arguments = [binary, "poll", "--games", game, "--interval", str(interval), "--clock", "feed", "--timeout", "5",
                     "--url-template", base + "/playbyplay/playbyplay_{gameId}.json",
                     "--boxscore-template", base + "/boxscore/boxscore_{gameId}.json"]
        if mode == "broadcast":
            log = tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False).name
            apns, apns_port = start("apns_server.py", ["--port", "0", "--log", log])
            arguments += ["--mode", "broadcast", "--bundle-id", "com.acme", "--channels", "manage", "--channel-linger", "0",
                          "--webhook", "http://127.0.0.1:%d/" % apns_port]
        poll = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            stdout, stderr = poll.communicate(timeout=timeout)
            status = str(poll.returncode)
        except subprocess.TimeoutExpired:
            # A poll that never ends its game: stopped, and said so.
            poll.kill()
            stdout, stderr = poll.communicate()
            status = "no end after %d s" % timeout
        if mode == "broadcast":
            with open(log) as handle:
                lines = [json.loads(line).get("body") or "" for line in handle if line.strip()]
        else:
            lines = stdout.splitlines()
        result = figures(records_of(lines), final_of(game))
        result["exit"] = status
        result["summary"] = next((line for line in stderr.splitlines() if line.startswith("game %s:" % game)), "")
        return result
    finally:
        for process in (server, apns):
            if process is not None:
                process.terminate()
                process.wait()
        if log:
            os.unlink(log)


def label(binary):
    """The checkout a binary was built in (`/work/main/.build/release/scorefeed`: main)."""
    parts = os.path.abspath(binary).split(os.sep)
    return parts[parts.index(".build") - 1] if ".build" in parts[1:] else binary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--games", default="")
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument("--modes", default="token,broadcast")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=120, help="seconds a poll may take before it is stopped")
    args = parser.parse_args()
    if not os.path.isdir(SHARED):
        print("stale_copies: no ../shared/nba-pbp beside the package; nothing to measure")
        return 0
    games = [g for g in args.games.split(",") if g] or sorted(
        os.path.basename(p)[len("boxscore_"):-len(".json")] for p in glob.glob(os.path.join(SHARED, "boxscore_*.json")))
    print("binary  mode  condition  game  pushes  backwards  p10  final-right  exit")
    for binary in args.binaries:
        for mode in args.modes.split(","):
            clean = {}
            for name, condition in CONDITIONS:
                results = {game: run(binary, mode, game, condition, args.interval, args.seed, args.timeout) for game in games}
                for game, r in results.items():
                    print("%s  %s  %s  %s  %d  %d  %d  %s  %s" % (
                        label(binary), mode, name, game,
                        r["pushes"], r["backwards"], r["p10"], "yes" if r["final"] else "NO", r["exit"]))
                if name == "none":
                    clean = results
                    continue
                beyond = [max(0, results[g]["backwards"] - clean[g]["backwards"]) for g in games]
                ratio = [results[g]["p10"] / clean[g]["p10"] if clean[g]["p10"] else float("nan") for g in games]
                print("summary %s %s %s: backwards beyond none per game %s; p10 / none %s; finals right %d of %d" % (
                    label(binary), mode, name, beyond, ["%.2f" % x for x in ratio],
                    sum(1 for g in games if results[g]["final"]), len(games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

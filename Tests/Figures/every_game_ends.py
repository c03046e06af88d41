#!/usr/bin/env python3
"""Issue 32's figures: a day of real games from ../shared/nba-pbp behind Tests/Support's live
server (400x): one played to its end, one silent from 68 % (its boxscore still live), one the
scoreboard lists postponed ("PPD", its play-by-play and boxscore 404). `poll --today
--give-up-after 20 --clock system`, in token mode with --start and in broadcast mode with
managed channels behind Tests/Support/apns_server.py, bounded at 150 s (killed past it).
Prints per mode: the exit status and seconds, each game's records and its last one (event,
phase, score) against the feed's score, and the channels left open.

usage: python3 Tests/Figures/every_game_ends.py SCOREFEED [played silent]
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SUPPORT = os.path.join(ROOT, "Tests", "Support")
SHARED = os.path.join(ROOT, "..", "shared", "nba-pbp")
POSTPONED = "0022000194"
BOUND = 150


sys.path.insert(0, HERE)
from join import Server as Started  # noqa: E402  (a test server of Tests/Support on a free port)


class Server(Started):
    def get(self, path):
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.port, path), timeout=10) as answer:
            return json.loads(answer.read().decode("utf-8"))


def run(binary, mode, played, silent):
    live = Server("nba_live_server.py", ["--folder", SHARED, "--games", "%s,%s" % (played, silent), "--speed", "400",
                                         "--port", "0", "--postponed", POSTPONED, "--hold", "%s:0.68" % silent])
    base = "http://127.0.0.1:%d/static/json/liveData" % live.port
    arguments = [binary, "poll", "--today", "--scoreboard-url", base + "/scoreboard/todaysScoreboard_00.json",
                 "--url-template", base + "/playbyplay/playbyplay_{gameId}.json",
                 "--boxscore-template", base + "/boxscore/boxscore_{gameId}.json",
                 "--interval", "0.3", "--clock", "system", "--bundle-id", "com.acme"]
    # A build before issue 32 has no --give-up-after.
    helped = subprocess.run([binary, "poll", "--help"], capture_output=True, text=True)
    if "--give-up-after" in helped.stdout + helped.stderr:
        arguments += ["--give-up-after", "20"]
    apns = None
    if mode == "broadcast":
        log = os.path.join(os.environ.get("TMPDIR", "/tmp"), "every-game-ends-apns-%d.jsonl" % os.getpid())
        apns = Server("apns_server.py", ["--port", "0", "--log", log])
        arguments += ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "0",
                      "--webhook", "http://127.0.0.1:%d/apns" % apns.port]
    else:
        arguments += ["--start"]
    started = time.time()
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=BOUND)
        status = process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        status = "killed at %d s (still running)" % BOUND
    seconds = time.time() - started
    feed = {game: live.get("/control/stats")["games"].get(game, {}) for game in (played, silent, POSTPONED)}
    print("%s: exit %s after %.0f s" % (mode, status, seconds))
    for game, what in ((played, "played"), (silent, "silent at 68 %"), (POSTPONED, "postponed")):
        records = []
        for line in out.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("game") == game and "payload" in record:
                records.append(record)
        last = "none"
        if records:
            r = records[-1]
            state = r["payload"]["aps"]["content-state"]
            last = "%s %s %d-%d" % (r["event"], state["phase"], state["awayScore"], state["homeScore"])
        updates = sum(1 for r in records if r["event"] == "update")
        stats = feed.get(game) or {}
        print("  %-10s %-15s %3d records (%d updates), last: %-28s feed: %s-%s" % (
            game, what, len(records), updates, last, stats.get("scoreAway", "-"), stats.get("scoreHome", "-")))
    if apns:
        state = apns.get("/state")
        print("  channels: %d made, %d deleted, %d left open; made for the postponed game: %d" % (
            len(state["created"]), len(state["deleted"]), len(state["open"]), state["createsByGame"].get(POSTPONED, 0)))
        apns.stop()
        os.remove(log)
    tail = [line for line in err.splitlines() if line.startswith("poll: ")][-3:]
    for line in tail:
        print("  stderr: " + line[:160])
    live.stop()


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    if not os.path.isdir(SHARED):
        print("skipped: %s is absent" % SHARED)
        return
    binary = os.path.abspath(sys.argv[1])
    ids = sorted(f[len("playbyplay_"):-5] for f in os.listdir(SHARED) if f.startswith("playbyplay_"))
    played, silent = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else (ids[0], ids[1])
    for mode in ("token", "broadcast"):
        run(binary, mode, played, silent)


if __name__ == "__main__":
    main()

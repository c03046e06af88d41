#!/usr/bin/env python3
"""Issue 30's figures: what a catch-up costs on the live paths (system clock), per game.

usage: python3 Tests/Figures/join.py <scorefeed binary> <folder of real games> [a] [b] [c] [d]
(Tests/Figures/join.sh runs it; without letters, every scenario.) Each scenario runs in token
mode, then in broadcast mode, on every playbyplay_<gameId>.json of the folder:

  a  `poll --games <all>` against Tests/Support/nba_live_server.py with --join-at F --hold-at F,
     F = 0.25, 0.5, 0.75: the records of the 10 s after each game's first one (by sentAt), and
     all of them until poll is stopped (SIGTERM) 10 s after the last game's first record.
  b  `poll` through an outage: the server's clock starts at 0.35 of each span, 503 from 0.4 to 0.7,
     then the game is held at 0.7, at a speed that makes the longest game's outage last about
     OUTAGE_SECONDS; the records sent (sentAt) from the server's end of the game's outage on.
  c  `serve` (no state dir) handed at once, per game, the lines `scorefeed stream` writes up to
     25, 50 and 75 % of its events; stdin is closed 10 s after the last game's first record
     (serve then drains, --drain-timeout 5).
  d  failover: `serve --state-dir A` on each game's first half of the lines, kill -9 once every
     game shows that half's score; A deleted; FAILOVER_SECONDS later `serve --state-dir B` (fresh)
     on the whole stream (B exits once it has drained). Counts B's
     apns-ids that A used for another record (the line without sentAt), and B's aps.timestamps
     below A's last of the game. Then the same with no state dir at all.

Broadcast mode: poll with --channels manage behind Tests/Support/apns_server.py (the webhook);
serve with each game's channel in its header (a backend's channels). Always `--clock system`.
A record's score is its payload's aps.content-state homeScore/awayScore; the feed's score is the
server's (/control/stats: the last visible action's) for poll, the last stated score among the
game's lines for serve. Python 3.7+ standard library only.
"""
import base64
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SUPPORT = os.path.join(ROOT, "Tests", "Support")
sys.path.insert(0, SUPPORT)
from nba_live_server import Game  # noqa: E402  (the server's own spans)

WINDOW = 10.0  # seconds after a game's first record (issue 30: "in the 10 s after the join")
OUTAGE_SECONDS = 30.0  # real seconds the longest game's outage lasts in scenario b
JOIN_POINTS = (0.25, 0.5, 0.75)
FAILOVER_SECONDS = 5.0  # from A's kill to B's start in scenario d
BUNDLE = "com.acme.scores"


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Server:
    """A python test server of Tests/Support, started on a free port."""

    def __init__(self, script, arguments):
        self.process = subprocess.Popen([sys.executable, os.path.join(SUPPORT, script)] + arguments,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            raise SystemExit("join.py: %s did not start" % script)
        self.port = int(line.split()[1])

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class LiveServer(Server):
    def __init__(self, folder, games, arguments):
        super().__init__("nba_live_server.py", ["--folder", folder, "--games", ",".join(games)] + arguments)
        base = "http://127.0.0.1:%d/static/json/liveData" % self.port
        self.poll_arguments = ["--url-template", base + "/playbyplay/playbyplay_{gameId}.json",
                               "--boxscore-template", base + "/boxscore/boxscore_{gameId}.json"]

    def stats(self):
        import urllib.request
        with urllib.request.urlopen("http://127.0.0.1:%d/control/stats" % self.port, timeout=10) as answer:
            return json.loads(answer.read().decode("utf-8"))


class Records:
    """The push records a run appends to its --out file (channel requests and error lines left
    out), read as they come: (arrival, line without its newline, record)."""

    def __init__(self, path):
        self.path = path
        self.offset = 0
        self.rest = b""
        self.items = []

    def read(self):
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except FileNotFoundError:
            return self.items
        self.offset += len(data)
        *lines, self.rest = (self.rest + data).split(b"\n")
        now = time.time()
        for line in lines:
            if not line.strip():
                continue
            record = json.loads(line)
            if record.get("kind") == "channel" or "request" not in record or "error" in record:
                continue
            self.items.append((now, line, record))
        return self.items

    def by_game(self):
        games = {}
        for _, line, record in self.items:
            games.setdefault(record["game"], []).append((line, record))
        return games


def score(record):
    state = record["payload"]["aps"].get("content-state", {})
    return state.get("homeScore"), state.get("awayScore")


def apns_id(record):
    return record["request"]["headers"]["apns-id"]


def without_sent_at(record):
    other = dict(record)
    other.pop("sentAt", None)
    return json.dumps(other, sort_keys=True, separators=(",", ":"))


def channel_of(game):
    return base64.b64encode(("backend-%s" % game).encode()).decode()


def stop_process(process, sig=signal.SIGTERM, within=60):
    """Signals `process` and waits for it (SIGKILL after `within` s); its exit status."""
    if process.poll() is None:
        process.send_signal(sig)
    try:
        return process.wait(within)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


def wait_until(condition, bound, step=0.2):
    """Calls `condition` every `step` s until it is true or `bound` s have passed; whether it was."""
    end = time.time() + bound
    while time.time() < end:
        if condition():
            return True
        time.sleep(step)
    return condition()


def table(title, columns, rows, maximum=()):
    """Prints rows (lists) under `columns`, then a line with the max over games of the columns
    named in `maximum` (numbers) and the count of "no" in the others."""
    print("\n== %s ==" % title)
    widths = [max(len(str(c)), *(len(str(r[i])) for r in rows)) if rows else len(str(c)) for i, c in enumerate(columns)]
    print("  ".join(str(c).rjust(w) for c, w in zip(columns, widths)))
    for row in rows:
        print("  ".join(str(v).rjust(w) for v, w in zip(row, widths)))
    if rows:
        summary = []
        for i, column in enumerate(columns):
            values = [row[i] for row in rows]
            if i == 0:
                summary.append("max")
            elif column in maximum:
                numbers = [v for v in values if isinstance(v, (int, float))]
                summary.append(max(numbers) if numbers else "-")
            elif all(v in ("yes", "no") for v in values):
                summary.append("%d no" % values.count("no"))
            else:
                summary.append("")
        print("  ".join(str(v).rjust(w) for v, w in zip(summary, widths)))
    sys.stdout.flush()


def show(pair):
    return "%s-%s" % (pair[1], pair[0]) if pair and None not in pair else "-"  # away-home, as on a scoreboard


class Figures:
    def __init__(self, binary, folder):
        self.binary = binary
        self.folder = folder
        self.games = sorted(name[len("playbyplay_"):-len(".json")] for name in os.listdir(folder)
                            if name.startswith("playbyplay_") and name.endswith(".json"))
        self.work = tempfile.mkdtemp(prefix="scorefeed-join-")
        self.spans = {}
        for game in self.games:
            box = os.path.join(folder, "boxscore_%s.json" % game)
            g = Game(game, os.path.join(folder, "playbyplay_%s.json" % game), box if os.path.isfile(box) else None)
            self.spans[game] = g.end_time - g.first_time
        self._stream = None

    def path(self, name):
        return os.path.join(self.work, name)

    # -- poll --------------------------------------------------------------------------------

    def poll(self, server, mode, out):
        """Starts `poll --games <all>` on `server`, writing to `out`; (process, APNs server or None)."""
        arguments = [self.binary, "poll", "--games", ",".join(self.games), "--interval", "0.5", "--clock", "system",
                     "--out", out, "--bundle-id", BUNDLE] + server.poll_arguments
        apns = None
        if mode == "broadcast":
            apns = Server("apns_server.py", ["--port", "0", "--log", out + ".apns.jsonl"])
            arguments += ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "0",
                          "--webhook", "http://127.0.0.1:%d/apns" % apns.port, "--delete-unknown-channels"]
        errors = open(out + ".stderr", "wb")
        process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
        errors.close()
        return process, apns

    def join(self, mode, fraction):
        out = self.path("join-%s-%g.jsonl" % (mode, fraction))
        server = LiveServer(self.folder, self.games, ["--join-at", str(fraction), "--hold-at", str(fraction),
                                                      "--speed", "400"])
        process, apns = self.poll(server, mode, out)
        records = Records(out)

        def settled():
            firsts = {}
            for arrival, _, record in records.read():
                firsts.setdefault(record["game"], arrival)
            return len(firsts) == len(self.games) and time.time() >= max(firsts.values()) + WINDOW

        done = wait_until(settled, 120)
        status = stop_process(process)
        records.read()
        feed = {g: (s["scoreHome"], s["scoreAway"]) for g, s in server.stats()["games"].items()}
        server.stop()
        if apns:
            apns.stop()
        rows = []
        for game in self.games:
            mine = [r for _, r in records.by_game().get(game, [])]
            first = mine[0]["sentAt"] if mine else 0
            window = [r for r in mine if r["sentAt"] <= first + WINDOW]
            last = score(mine[-1]) if mine else None
            rows.append([game, len(window), sum(r["priority"] == 10 for r in window), len(mine),
                         sum(r["priority"] == 10 for r in mine), show(last), show(feed[game]),
                         "yes" if last == feed[game] else "no"])
        table("a. poll joins games held at %g of their span, %s mode (poll exit %s%s)"
              % (fraction, mode, status, "" if done else "; not every game pushed within 120 s"),
              ["game", "pushes 10s", "p10 10s", "pushes all", "p10 all", "last shows", "feed", "last=feed"], rows,
              maximum=("pushes 10s", "p10 10s", "pushes all", "p10 all"))

    def outage(self, mode):
        out = self.path("outage-%s.jsonl" % mode)
        speed = 0.3 * max(self.spans.values()) / OUTAGE_SECONDS
        server = LiveServer(self.folder, self.games, ["--join-at", "0.35", "--outage", "0.4:0.7", "--hold-at", "0.7",
                                                      "--speed", "%.3f" % speed])
        ends = {g: s["outageEndsAt"] for g, s in server.stats()["games"].items()}
        process, apns = self.poll(server, mode, out)
        records = Records(out)

        def settled():
            firsts = {}
            for arrival, _, record in records.read():
                if record["sentAt"] >= ends[record["game"]]:
                    firsts.setdefault(record["game"], arrival)
            return len(firsts) == len(self.games) and time.time() >= max(firsts.values()) + WINDOW

        done = wait_until(settled, max(ends.values()) - time.time() + 180)
        status = stop_process(process)
        records.read()
        stats = server.stats()
        feed = {g: (s["scoreHome"], s["scoreAway"]) for g, s in stats["games"].items()}
        server.stop()
        if apns:
            apns.stop()
        rows = []
        for game in self.games:
            mine = [r for _, r in records.by_game().get(game, [])]
            before = [r for r in mine if r["sentAt"] < ends[game]]
            after = [r for r in mine if r["sentAt"] >= ends[game]]
            first = after[0]["sentAt"] if after else 0
            window = [r for r in after if r["sentAt"] <= first + WINDOW]
            last = score(after[-1]) if after else None
            rows.append([game, len(before), "%.1f" % (first - ends[game]) if after else "-", len(window),
                         sum(r["priority"] == 10 for r in window), len(after), sum(r["priority"] == 10 for r in after),
                         show(last), show(feed[game]), "yes" if last == feed[game] else "no"])
        table("b. poll through an outage 0.4-0.7 of the span (joined at 0.35, held at 0.7, speed %.1f: the longest "
              "outage %.0f s), %s mode (poll exit %s; %d answers 503 in the outage%s)"
              % (speed, OUTAGE_SECONDS, mode, status, stats.get("outage", 0),
                 "" if done else "; not every game pushed after its outage"),
              ["game", "before end", "first after (s)", "pushes 10s", "p10 10s", "pushes after", "p10 after",
               "last shows", "feed", "last=feed"], rows,
              maximum=("before end", "pushes 10s", "p10 10s", "pushes after", "p10 after"))

    # -- serve -------------------------------------------------------------------------------

    def stream(self):
        """(headers by game, events [(game, line, stated score or None)]) as `scorefeed stream` writes them."""
        if self._stream is None:
            path = self.path("stream.jsonl")
            files = [os.path.join(self.folder, "playbyplay_%s.json" % g) for g in self.games]
            subprocess.run([self.binary, "stream"] + files + ["--out", path], check=True, stderr=subprocess.DEVNULL)
            headers, events = {}, []
            with open(path, "rb") as handle:
                for line in handle.read().split(b"\n"):
                    if not line.strip():
                        continue
                    value = json.loads(line)
                    if "gameId" in value and "game" not in value:
                        headers[value["gameId"]] = value
                    else:
                        stated = value.get("score")
                        events.append((value["game"], line, (stated["home"], stated["away"]) if stated else None))
            self._stream = (headers, events)
        return self._stream

    def header_lines(self, mode):
        headers, _ = self.stream()
        lines = []
        for game in self.games:
            header = dict(headers[game])
            if mode == "broadcast":
                header["channel"] = channel_of(game)
            lines.append(json.dumps(header, separators=(",", ":")).encode())
        return lines

    def serve(self, mode, out, state=None, drain="5"):
        arguments = [self.binary, "serve", "--clock", "system", "--out", out, "--drain-timeout", drain,
                     "--bundle-id", BUNDLE]
        if mode == "broadcast":
            arguments += ["--mode", "broadcast"]
        if state:
            arguments += ["--state-dir", state]
        errors = open(out + ".stderr", "ab")
        process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=errors)
        errors.close()
        return process

    @staticmethod
    def feed_scores(events):
        scores = {}
        for game, _, stated in events:
            if stated is not None:
                scores[game] = stated
        return scores

    def cut(self, fraction):
        """Each game's events up to `fraction` of them, in the stream's order: (events, kept per game)."""
        _, events = self.stream()
        totals = {}
        for game, _, _ in events:
            totals[game] = totals.get(game, 0) + 1
        keep = {g: int(round(fraction * n)) for g, n in totals.items()}
        taken, cut = {}, []
        for event in events:
            taken[event[0]] = taken.get(event[0], 0) + 1
            if taken[event[0]] <= keep[event[0]]:
                cut.append(event)
        return cut, keep

    def backlog(self, mode, fraction):
        cut, keep = self.cut(fraction)
        feed = self.feed_scores(cut)
        out = self.path("backlog-%s-%g.jsonl" % (mode, fraction))
        process = self.serve(mode, out)
        process.stdin.write(b"".join(line + b"\n" for line in self.header_lines(mode) + [e[1] for e in cut]))
        process.stdin.flush()
        records = Records(out)

        def settled():
            firsts = {}
            for arrival, _, record in records.read():
                firsts.setdefault(record["game"], arrival)
            return len(firsts) == len(self.games) and time.time() >= max(firsts.values()) + WINDOW

        done = wait_until(settled, 120)
        process.stdin.close()  # the input ends: serve drains (at most --drain-timeout) and exits
        try:
            status = process.wait(60)
        except subprocess.TimeoutExpired:
            status = stop_process(process)
        records.read()
        rows = []
        for game in self.games:
            mine = [r for _, r in records.by_game().get(game, [])]
            first = mine[0]["sentAt"] if mine else 0
            window = [r for r in mine if r["sentAt"] <= first + WINDOW]
            last = score(mine[-1]) if mine else None
            rows.append([game, keep[game], len(window), sum(r["priority"] == 10 for r in window), len(mine),
                         sum(r["priority"] == 10 for r in mine), show(last), show(feed.get(game)),
                         "yes" if last == feed.get(game) else "no"])
        table("c. serve (no state dir) handed each game's lines up to %g of its events at once, %s mode "
              "(serve exit %s%s)" % (fraction, mode, status, "" if done else "; not every game pushed within 120 s"),
              ["game", "events", "pushes 10s", "p10 10s", "pushes all", "p10 all", "last shows", "feed", "last=feed"],
              rows, maximum=("pushes 10s", "p10 10s", "pushes all", "p10 all"))

    def failover(self, mode, durable):
        _, events = self.stream()
        lines = self.header_lines(mode) + [e[1] for e in events]
        half, _ = self.cut(0.5)
        feed_half = self.feed_scores(half)
        label = "%s-%s" % (mode, "state" if durable else "nostate")
        state_a, state_b = self.path("A-" + label), self.path("B-" + label)
        out_a, out_b = self.path("failover-A-%s.jsonl" % label), self.path("failover-B-%s.jsonl" % label)
        first = self.serve(mode, out_a, state_a if durable else None)
        first.stdin.write(b"".join(line + b"\n" for line in self.header_lines(mode) + [e[1] for e in half]))
        first.stdin.flush()
        records_a = Records(out_a)

        def shown():
            last = {}
            for _, _, record in records_a.read():
                last[record["game"]] = score(record)
            return all(last.get(g) == s for g, s in feed_half.items())

        done = wait_until(shown, 60)
        first.kill()  # kill -9
        first.wait()
        try:
            first.stdin.close()
        except BrokenPipeError:
            pass
        records_a.read()
        shutil.rmtree(state_a, ignore_errors=True)  # the state dir is lost with its machine
        time.sleep(FAILOVER_SECONDS)  # the new instance starts a few seconds later
        second = self.serve(mode, out_b, state_b if durable else None, drain="10")
        try:
            second.stdin.write(b"".join(line + b"\n" for line in lines))
            second.stdin.close()
        except BrokenPipeError:
            pass
        try:
            status = second.wait(120)
        except subprocess.TimeoutExpired:
            status = stop_process(second)
        records_b = Records(out_b)
        records_b.read()
        bodies_a = {}
        for _, _, record in records_a.items:
            bodies_a[apns_id(record)] = without_sent_at(record)
        final = self.feed_scores(events)
        rows = []
        a_games, b_games = records_a.by_game(), records_b.by_game()
        for game in self.games:
            mine_a = [r for _, r in a_games.get(game, [])]
            mine_b = [r for _, r in b_games.get(game, [])]
            other = sum(1 for r in mine_b if apns_id(r) in bodies_a and bodies_a[apns_id(r)] != without_sent_at(r))
            same = sum(1 for r in mine_b if bodies_a.get(apns_id(r)) == without_sent_at(r))
            last_a = max((r["payload"]["aps"]["timestamp"] for r in mine_a), default=None)
            stamps_b = [r["payload"]["aps"]["timestamp"] for r in mine_b]
            below = sum(1 for t in stamps_b if last_a is not None and t < last_a)
            rows.append([game, len(mine_a), len(mine_b), other, same,
                         "%+d" % (last_a - mine_a[0]["sentAt"] // 1) if mine_a else "-",
                         "%+d" % (min(stamps_b) - mine_a[0]["sentAt"] // 1) if mine_a and stamps_b else "-",
                         below, "yes" if mine_b and mine_b[-1]["event"] == "end" and score(mine_b[-1]) == final[game]
                         else "no"])
        table("d. failover, %s: serve A on each game's first half, kill -9%s; %g s later serve B%s on the whole "
              "stream, %s mode (B exit %s%s)"
              % ("a fresh state dir" if durable else "no state dir", ", A's state dir deleted" if durable else "",
                 FAILOVER_SECONDS, " on a fresh state dir" if durable else "", mode, status,
                 "" if done else "; A had not shown every game's half-time score within 60 s"),
              ["game", "A pushes", "B pushes", "B ids naming another body", "B ids same body",
               "A last ts", "B first ts", "B ts below A last", "B ends on final"], rows,
              maximum=("A pushes", "B pushes", "B ids naming another body", "B ids same body", "B ts below A last"))
        print("   (ts: aps.timestamp in seconds after A's first record was sent)")

    def run(self, scenarios):
        print("games: %s; spans %s min" % (", ".join(self.games),
                                           ", ".join("%.0f" % (self.spans[g] / 60) for g in self.games)))
        for mode in ("token", "broadcast"):
            if "a" in scenarios:
                for fraction in JOIN_POINTS:
                    self.join(mode, fraction)
            if "b" in scenarios:
                self.outage(mode)
            if "c" in scenarios:
                for fraction in JOIN_POINTS:
                    self.backlog(mode, fraction)
            if "d" in scenarios:
                self.failover(mode, durable=True)
                self.failover(mode, durable=False)
        shutil.rmtree(self.work, ignore_errors=True)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    binary, folder = os.path.abspath(sys.argv[1]), sys.argv[2]
    scenarios = set(sys.argv[3:]) or {"a", "b", "c", "d"}
    Figures(binary, folder).run(scenarios)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Replays real NBA games as if they were live on the NBA liveData CDN, at accelerated time.

Usage:
  python3 nba_live_server.py [--folder DIR] [--games id,id,...] [--speed 400] [--port 0]
                             [--fail-rate 0.15] [--seed 1] [--slow-seconds 3]
                             [--start-offset SECONDS | --join-at F] [--hold-at F]
                             [--outage FROM:TO] [--hold GAME:F[,GAME:F...]]...
                             [--postponed ID[,ID...]] [--step F] [--stale EVERY:LAG]...
                             [--verbose]

Serves the games of --folder (default: ../shared/nba-pbp beside the package root), i.e. every
playbyplay_<gameId>.json there, or only the --games listed (boxscore_<gameId>.json is used when
present). Binds 127.0.0.1 (port 0 picks a free one), prints "PORT <n>" on stdout once listening,
then serves until SIGTERM/SIGINT.

Virtual time: when the server starts, each game's clock stands at its first action's
timeActual minus --start-offset (default 60 s: the first polls see a pregame game) and runs
--speed times faster than real time. Points in a game are given as fractions F of its span
(span = its last action's time minus its first's; F = 0 is the first action, 1 the last):
  --join-at F      each game's clock starts at first + F x span instead (a game met in progress;
                   --start-offset is then ignored)
  --hold-at F      each game's clock stops at first + F x span and stays there: no new actions,
                   the same documents (so 304s for conditional GETs), the boxscore and the
                   scoreboard showing the game live (gameStatus 2) unless F is 1
  --outage FROM:TO while a game's virtual time lies in [first + FROM x span, first + TO x span),
                   its playbyplay and boxscore answer 503 with "Retry-After: 1" (counted in the
                   stats' "outage"; the --fail-rate plan is not drawn for them); virtual time runs
                   on meanwhile. With --hold-at F >= TO the endpoint answers again once the clock
                   reaches TO (e.g. --outage 0.4:0.7 --hold-at 0.7: held right after the outage);
                   a hold inside the outage keeps it down for good.
  --hold GAME:F    like --hold-at F, for game GAME only (its clock stops at first + F x span while
                   the other games go on); repeatable, or a comma-separated list GAME:F,GAME:F.
                   For that game it overrides --hold-at.
These combine: e.g. --join-at 0.35 --outage 0.4:0.7 --hold-at 0.7.

Stepped time and a stale CDN edge (issue 38):
  --step F         each game's clock moves F x span per request of its playbyplay (not with
                   real time): --step 0.01 serves a game in about a hundred requests, whatever
                   the client's pace. Every document then states the virtual time of its copy in
                   "meta.time" (as the CDN does, in US Eastern wall-clock time: "2025-02-11 01:16:27.000000"),
                   the final copies too.
  --stale EVERY:LAG, --stale EVERY:LO-HI (repeatable)
                   every EVERY-th request of a game's playbyplay and of its boxscore (counted for
                   each document) is answered from an edge holding an older copy: the document as
                   it stood LAG x span (or a lag drawn from LO..HI, seeded by --seed) before the
                   newest copy served, its meta.time older too. Where several match one request the largest lag wins.
                   Counted in the stats' "stale".

Postponed games (--postponed ID[,ID...], repeatable): each is listed on the scoreboard with
gameStatus 1 and gameStatusText "PPD" (as the liveData scoreboard listed 0022000194 on 2021-01-16),
period 0, gameClock "", its gameTimeUTC and its teams with score 0, and its playbyplay and boxscore
answer 404 (as the CDN does for a game that never starts). An id with a playbyplay file in --folder
(in --games or not) keeps that game's teams and tip-off, and is not replayed even if --games or the
folder would serve it (--postponed wins; a --hold on it is ignored); any other id gets made-up teams
(ATL at home, BOS away) and the first served game's tip-off.

The actions visible at virtual time T are the file's actions whose timeActual <= T (an action
without one takes the previous action's time), in the file's own order and with the file's own
fields, so late inserts (an action appearing before ones already seen), actionNumber inversions and
gaps show up as they are in the file. Once every action is visible the game is over, and both
documents are the files' own bytes.

  GET /static/json/liveData/playbyplay/playbyplay_<gameId>.json
      {"meta": <file's meta>, "game": {"gameId", "actions": [visible actions]}}
  GET /static/json/liveData/boxscore/boxscore_<gameId>.json
      the boxscore file with gameStatus 1 (pregame) / 2 (live: status text, period, clock, scores,
      period scores from the last visible action) / 3 (the file itself); synthesized (gameId,
      gameStatus, gameStatusText, period, gameClock, homeTeam/awayTeam) when the game has no file:
      the home team is the one whose made shots move scoreHome.
  GET /static/json/liveData/scoreboard/todaysScoreboard_00.json
      {"scoreboard": {"gameDate", "games": [{"gameId", "gameStatus", ... "homeTeam", "awayTeam"}]}}
      (the served games, and the postponed ones: in --games / folder order, those named only by
      --postponed last)
  GET /control/wait-hostile
      answers {"hostile": n} once a hostile answer has begun (n > 0), or after 45 s (n = 0)
  GET /control/stats
      request counts, 304s, faults by kind, outage 503s, and per game: its virtual time, visible
      actions, gameStatus, the feed's score now (scoreHome, scoreAway: the last visible action's,
      as the boxscore says), whether it is held ("held", "heldAt": its own --hold, else --hold-at)
      and in its outage ("inOutage"), and the real Unix times its outage starts and ends
      ("outageStartsAt", "outageEndsAt"). With --postponed, every game also says "postponed"
      (false, or true for a postponed game, whose entry is then "postponed", "gameStatus" 1,
      "gameStatusText" "PPD", "gameTimeUTC", "visibleActions" 0, "totalActions" 0, "scoreHome" 0,
      "scoreAway" 0, "hasBoxscoreFile", "held" false, "heldAt" null, "inOutage" false).
Anything else is a 404 with a small JSON body.

Every 200 has ETag (quoted hash of the body), Last-Modified (virtual time of the newest visible
action) and Cache-Control: max-age=1; a matching If-None-Match gets 304 with no body
(If-Modified-Since is ignored: HTTP dates have 1 s resolution, and at 400x many states share one).

Faults (--fail-rate, share of playbyplay/boxscore requests, seeded by --seed so a run is repeatable
given the same request order; kinds taken in turn from a seeded shuffle so they are spread evenly):
  503        503 with "Retry-After: 1"
  429        429 with "Retry-After: 1"
  cut        Content-Length of the whole body, only its first half sent, connection closed
  empty      200 with an empty body
  malformed  200 with '{"game": ' followed by garbage
  slow       wait --slow-seconds, then answer correctly

Hostile documents (--hostile playbyplay_<gameId>=KIND,boxscore_<gameId>=KIND,...: the first
request for that document, and every later one after the fault plan, answers 200 with; so each
hostile document is met at least once, whatever the faults drawn):
  huge       8 GB of spaces under its Content-Length, generated as it is sent, never held
  endless    a body with no length that never ends: a byte every 0.1 s, for ever
  gzip       Content-Encoding: gzip, about 16 KB on the wire that inflate to 16 MB of zeros (a
             4 MB block compressed once, its repeatable middle sent 3 times): 4 times poll's
             default cap, a thousandfold, and cheap enough that the tests beside it are not starved
Each is counted in the stats' "hostile".

Logs to stderr only with --verbose. Python 3.7+ standard library only.
"""
import argparse
import bisect
import calendar
import copy
import email.utils
import hashlib
import json
import os
import random
import re
import signal
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from server_support import run_as_child

PBP_PATH = re.compile(r"^/static/json/liveData/playbyplay/playbyplay_([0-9A-Za-z]+)\.json$")
BOX_PATH = re.compile(r"^/static/json/liveData/boxscore/boxscore_([0-9A-Za-z]+)\.json$")
SCOREBOARD_PATH = "/static/json/liveData/scoreboard/todaysScoreboard_00.json"
FAULT_KINDS = ["503", "429", "cut", "empty", "malformed", "slow"]
HOSTILE_KINDS = ["huge", "endless", "gzip"]


class GzipBomb:
    """A gzip stream of zeros: the head (header and the first 4 MB block, full-flushed) and the
    middle (the next block, full-flushed: the same bytes for every later block). No trailer: the
    stream is never meant to be read to its end."""
    BLOCK = 4 << 20
    REPEATS = 4  # 16 MB inflated
    _parts = None
    _lock = threading.Lock()

    @classmethod
    def parts(cls):
        with cls._lock:
            if cls._parts is None:
                zeros = bytes(cls.BLOCK)
                compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
                head = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
                middle = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
                cls._parts = (head, middle)
            return cls._parts

# Fallback names for games without a boxscore file (teamId: tricode, city, name); a boxscore file
# in the folder that has the team wins.
NBA_TEAMS = {
    1610612737: ("ATL", "Atlanta", "Hawks"), 1610612738: ("BOS", "Boston", "Celtics"),
    1610612739: ("CLE", "Cleveland", "Cavaliers"), 1610612740: ("NOP", "New Orleans", "Pelicans"),
    1610612741: ("CHI", "Chicago", "Bulls"), 1610612742: ("DAL", "Dallas", "Mavericks"),
    1610612743: ("DEN", "Denver", "Nuggets"), 1610612744: ("GSW", "Golden State", "Warriors"),
    1610612745: ("HOU", "Houston", "Rockets"), 1610612746: ("LAC", "LA", "Clippers"),
    1610612747: ("LAL", "Los Angeles", "Lakers"), 1610612748: ("MIA", "Miami", "Heat"),
    1610612749: ("MIL", "Milwaukee", "Bucks"), 1610612750: ("MIN", "Minnesota", "Timberwolves"),
    1610612751: ("BKN", "Brooklyn", "Nets"), 1610612752: ("NYK", "New York", "Knicks"),
    1610612753: ("ORL", "Orlando", "Magic"), 1610612754: ("IND", "Indiana", "Pacers"),
    1610612755: ("PHI", "Philadelphia", "76ers"), 1610612756: ("PHX", "Phoenix", "Suns"),
    1610612757: ("POR", "Portland", "Trail Blazers"), 1610612758: ("SAC", "Sacramento", "Kings"),
    1610612759: ("SAS", "San Antonio", "Spurs"), 1610612760: ("OKC", "Oklahoma City", "Thunder"),
    1610612761: ("TOR", "Toronto", "Raptors"), 1610612762: ("UTA", "Utah", "Jazz"),
    1610612763: ("MEM", "Memphis", "Grizzlies"), 1610612764: ("WAS", "Washington", "Wizards"),
    1610612765: ("DET", "Detroit", "Pistons"), 1610612766: ("CHA", "Charlotte", "Hornets"),
}

TIME_PATTERN = re.compile(
    r"^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s*(Z|[+-]\d\d:?\d\d)?$")
CLOCK_PATTERN = re.compile(r"^PT(\d+)M(\d+(?:\.\d+)?)S$")


def parse_time(text):
    """ISO 8601 ("2025-02-10T01:10:36.6Z") to epoch seconds, or None."""
    if not isinstance(text, str):
        return None
    match = TIME_PATTERN.match(text.strip())
    if not match:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    try:
        seconds = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    except (ValueError, OverflowError):
        return None
    if match.group(7):
        seconds += float("0." + match.group(7))
    zone = match.group(8)
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        seconds -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return seconds


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def http_date(seconds):
    return email.utils.formatdate(seconds, usegmt=True)


def to_int(value, default=0):
    try:
        return int(value)
    except (TypeError, ValueError):
        try:
            return int(float(value))
        except (TypeError, ValueError):
            return default


def eastern_wall_time(seconds):
    """Unix `seconds` as liveData's meta.time says a moment: US Eastern wall-clock time without a
    zone ("2025-02-11 01:16:27.797538" is 06:16:27 UTC), daylight saving by the rules since 2007
    (second Sunday in March, 2 a.m. standard time, to first Sunday in November, 2 a.m. daylight time)."""
    year = time.gmtime(seconds).tm_year

    def sunday(month, n):
        first = calendar.timegm((year, month, 1, 0, 0, 0))
        weekday = time.gmtime(first).tm_wday  # Monday 0 ... Sunday 6
        return first + (((6 - weekday) % 7) + 7 * (n - 1)) * 86400

    daylight = sunday(3, 2) + 7 * 3600 <= seconds < sunday(11, 1) + 6 * 3600
    wall = seconds - (4 if daylight else 5) * 3600
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(wall)) + ".%06d" % int((wall % 1) * 1e6)


def encode(document):
    # json.dumps' defaults reproduce the liveData files byte for byte.
    return json.dumps(document).encode("utf-8")


class Game:
    """One replayed game: its files, its actions' times, and what is visible when."""

    def __init__(self, game_id, pbp_path, box_path):
        self.game_id = game_id
        with open(pbp_path, "rb") as handle:
            self.pbp_bytes = handle.read()
        self.pbp = json.loads(self.pbp_bytes.decode("utf-8"))
        if not isinstance(self.pbp, dict) or not isinstance(self.pbp.get("game"), dict):
            raise ValueError("%s: no game object" % pbp_path)
        actions = self.pbp["game"].get("actions")
        self.actions = actions if isinstance(actions, list) else []
        self.box_bytes = None
        self.box = None
        if box_path:
            with open(box_path, "rb") as handle:
                self.box_bytes = handle.read()
            self.box = json.loads(self.box_bytes.decode("utf-8"))
            if not isinstance(self.box, dict) or not isinstance(self.box.get("game"), dict):
                raise ValueError("%s: no game object" % box_path)
        self.times = self._action_times()
        self.thresholds = sorted(set(self.times))
        self.first_time = self.times[0] if self.times else time.time()
        self.end_time = self.thresholds[-1] if self.thresholds else self.first_time
        box_game = self.box["game"] if self.box else {}
        self.regulation = to_int(box_game.get("regulationPeriods"), 4) or 4
        self.home, self.away = self._teams(box_game)

    def _action_times(self):
        """Each action's time: its timeActual, else the previous action's (else the next one's)."""
        parsed = [parse_time(a.get("timeActual")) if isinstance(a, dict) else None for a in self.actions]
        known = [t for t in parsed if t is not None]
        if not known:
            return [time.time()] * len(parsed)
        previous = known[0]
        times = []
        for value in parsed:
            if value is not None:
                previous = value
            times.append(previous)
        return times

    def _teams(self, box_game):
        """(home, away) as {"teamId", "teamTricode", "teamName", "teamCity"} dicts.

        With a boxscore file, its teams. Without one: no action carries a home/away marker
        ("location" is absent from these feeds), so the home team is the one whose scoring
        actions move scoreHome (and the away team the one moving scoreAway)."""
        if box_game.get("homeTeam") and box_game.get("awayTeam"):
            return tuple({key: box_game[side].get(key) for key in ("teamId", "teamTricode", "teamName", "teamCity")}
                         for side in ("homeTeam", "awayTeam"))
        seen = []  # (teamId, tricode) in order of appearance
        votes = {}
        last_home = last_away = 0
        for action in self.actions:
            if not isinstance(action, dict):
                continue
            team = action.get("teamId")
            if team and team not in [t for t, _ in seen]:
                seen.append((team, action.get("teamTricode")))
            location = action.get("location")
            home = to_int(action.get("scoreHome"), last_home)
            away = to_int(action.get("scoreAway"), last_away)
            if team:
                if location in ("h", "v"):
                    votes[(team, location == "h")] = votes.get((team, location == "h"), 0) + 1
                if home != last_home:
                    votes[(team, True)] = votes.get((team, True), 0) + 1
                if away != last_away:
                    votes[(team, False)] = votes.get((team, False), 0) + 1
            last_home, last_away = home, away
        home_score = {t: votes.get((t, True), 0) - votes.get((t, False), 0) for t, _ in seen}
        ordered = sorted(seen, key=lambda entry: -home_score[entry[0]])
        while len(ordered) < 2:
            ordered.append((None, None))
        home, away = ordered[0], ordered[1]
        if home_score.get(home[0], 0) <= 0 or home_score.get(away[0], 0) >= 0:
            sys.stderr.write("nba_live_server: %s: cannot tell home from away; guessed %s at home\n"
                             % (self.game_id, home[1]))
        return tuple(self._describe(team, tricode) for team, tricode in (home, away))

    @staticmethod
    def _describe(team, tricode):
        known = NBA_TEAMS.get(team, (tricode, "", ""))
        return {"teamId": team, "teamTricode": tricode or known[0], "teamName": known[2], "teamCity": known[1]}

    def at(self, fraction):
        """The virtual time at `fraction` of the span (first action = 0, last action = 1)."""
        return self.first_time + fraction * (self.end_time - self.first_time)

    # -- state at a virtual time ------------------------------------------------------------

    def state_at(self, virtual):
        """The number of distinct action times reached: it determines everything served."""
        return bisect.bisect_right(self.thresholds, virtual)

    def visible(self, state):
        if state <= 0:
            return []
        if state >= len(self.thresholds):
            return list(self.actions)
        limit = self.thresholds[state - 1]
        return [a for a, t in zip(self.actions, self.times) if t <= limit]

    def over(self, state):
        return state >= len(self.thresholds)

    def last_modified(self, state, virtual_start):
        return self.thresholds[state - 1] if state > 0 else virtual_start

    def summary(self, state):
        """status, status text, period, clock, home score, away score, per-period scores."""
        if state <= 0:
            return 1, "pregame", 0, "", 0, 0, {}
        actions = [a for a in self.visible(state) if isinstance(a, dict)]
        last = actions[-1] if actions else {}
        home = to_int(last.get("scoreHome"))
        away = to_int(last.get("scoreAway"))
        period = to_int(last.get("period"), 1)
        clock = last.get("clock") if isinstance(last.get("clock"), str) else ""
        # Period scores: each period's last visible score minus the previous period's.
        ends = {}
        for action in actions:
            ends[to_int(action.get("period"), 0)] = (to_int(action.get("scoreHome")), to_int(action.get("scoreAway")))
        periods = {}
        before = (0, 0)
        for number in sorted(ends):
            periods[number] = (ends[number][0] - before[0], ends[number][1] - before[1])
            before = ends[number]
        if self.over(state):
            return 3, "Final", period, clock, home, away, periods
        return 2, self.status_text(last, period, clock), period, clock, home, away, periods

    def status_text(self, last, period, clock):
        label = "Q%d" % period if period <= self.regulation else (
            "OT" if period == self.regulation + 1 else "OT%d" % (period - self.regulation))
        if last.get("actionType") == "period" and last.get("subType") == "end":
            return "Half" if period == 2 and self.regulation == 4 else "End " + label
        match = CLOCK_PATTERN.match(clock or "")
        if not match:
            return label
        minutes, seconds = int(match.group(1)), float(match.group(2))
        if minutes == 0 and seconds < 60 and seconds != int(seconds):
            return "%s 0:%04.1f" % (label, seconds)
        return "%s %d:%02d" % (label, minutes, int(seconds))

    # -- documents ----------------------------------------------------------------------------

    def playbyplay_body(self, state):
        if self.over(state):
            return self.pbp_bytes
        game = dict(self.pbp["game"])
        game["actions"] = self.visible(state)
        document = dict(self.pbp)
        document["game"] = game
        return encode(document)

    def boxscore_body(self, state):
        if self.over(state) and self.box_bytes is not None:
            return self.box_bytes
        status, text, period, clock, home, away, periods = self.summary(state)
        if self.box is None:
            return encode(self._synthesized_box(state, status, text, period, clock, home, away, periods))
        document = copy.deepcopy(self.box)
        game = document["game"]
        game["gameStatus"] = status
        game["gameStatusText"] = text
        game["period"] = period
        game["gameClock"] = clock
        for side, score, index in (("homeTeam", home, 0), ("awayTeam", away, 1)):
            team = game.get(side)
            if not isinstance(team, dict):
                continue
            team["score"] = score
            if isinstance(team.get("periods"), list):
                team["periods"] = self._periods(team["periods"], periods, index, period)
        return encode(document)

    def _periods(self, template, periods, index, current):
        types = {to_int(p.get("period")): p.get("periodType") for p in template if isinstance(p, dict)}
        count = max(self.regulation, current)
        return [{"period": n,
                 "periodType": types.get(n) or ("REGULAR" if n <= self.regulation else "OVERTIME"),
                 "score": periods.get(n, (0, 0))[index]}
                for n in range(1, count + 1)]

    def _synthesized_box(self, state, status, text, period, clock, home, away, periods):
        game = {"gameId": self.game_id, "gameTimeUTC": iso(self.first_time), "gameStatus": status,
                "gameStatusText": text, "regulationPeriods": self.regulation, "period": period,
                "gameClock": clock}
        for side, team, score, index in (("homeTeam", self.home, home, 0), ("awayTeam", self.away, away, 1)):
            entry = dict(team)
            entry["score"] = score
            entry["periods"] = self._periods([], periods, index, period)
            game[side] = entry
        meta = {"version": 1, "code": 200,
                "request": "http://nba.cloud/games/%s/boxscore?Format=json" % self.game_id}
        return {"meta": meta, "game": game}

    def scoreboard_entry(self, state):
        status, text, period, clock, home, away, _ = self.summary(state)
        box_game = self.box["game"] if self.box else {}
        entry = {"gameId": self.game_id}
        if box_game.get("gameCode"):
            entry["gameCode"] = box_game["gameCode"]
        entry.update({"gameStatus": status, "gameStatusText": text, "period": period, "gameClock": clock,
                      "gameTimeUTC": iso(self.first_time), "regulationPeriods": self.regulation})
        for side, team, score in (("homeTeam", self.home, home), ("awayTeam", self.away, away)):
            value = dict(team)
            value["score"] = score
            entry[side] = value
        return entry

    def game_date(self):
        box_game = self.box["game"] if self.box else {}
        et = box_game.get("gameEt")
        if isinstance(et, str) and len(et) >= 10:
            return et[:10]
        return time.strftime("%Y-%m-%d", time.gmtime(self.first_time - 5 * 3600))  # about US Eastern


class PostponedGame:
    """A game listed on the scoreboard as postponed ("PPD") and never served (--postponed): the
    folder's game when it has one (its teams and tip-off), else made-up teams and a given tip-off."""

    MADE_UP = (1610612737, 1610612738)  # ATL at home, BOS away

    def __init__(self, game_id, game=None, tip_off=None):
        self.game_id = game_id
        self.game = game
        self.tip_off = game.first_time if game is not None else tip_off

    def scoreboard_entry(self):
        if self.game is not None:
            entry = self.game.scoreboard_entry(0)
            entry["gameStatusText"] = "PPD"
            return entry
        entry = {"gameId": self.game_id, "gameStatus": 1, "gameStatusText": "PPD", "period": 0, "gameClock": "",
                 "gameTimeUTC": iso(self.tip_off), "regulationPeriods": 4}
        for side, team in (("homeTeam", self.MADE_UP[0]), ("awayTeam", self.MADE_UP[1])):
            value = Game._describe(team, None)
            value["score"] = 0
            entry[side] = value
        return entry

    def stats_entry(self):
        return {"postponed": True, "gameStatus": 1, "gameStatusText": "PPD", "gameTimeUTC": iso(self.tip_off),
                "visibleActions": 0, "totalActions": 0, "scoreHome": 0, "scoreAway": 0,
                "hasBoxscoreFile": self.game is not None and self.game.box is not None,
                "held": False, "heldAt": None, "inOutage": False}


class Replay:
    """The games, the shared virtual clock, the fault plan and the counters."""

    def __init__(self, games, speed, start_offset, fail_rate, seed, slow_seconds, join_at=None, hold_at=None,
                 outage=None, holds=None, postponed=None, listing=None, step=None, stale=None):
        self.games = games
        self.step = step  # fraction of each game's span its clock moves per playbyplay request, or None
        self.stale = list(stale or [])  # (every, low, high) fractions of the span (--stale)
        self.steps = {game_id: 0 for game_id in games}  # playbyplay requests per game (--step)
        self.requests = {}  # (kind, gameId) -> requests of that document (--stale)
        self.seed = seed
        self.newest_served = {}  # (kind, gameId) -> virtual time of the newest copy served
        self.stale_randoms = {}  # (kind, gameId) -> its own seeded draws, whatever the requests' interleaving
        self.order = list(games)
        self.holds = dict(holds or {})  # gameId -> fraction of its span its clock stops at (--hold)
        self.postponed = postponed  # gameId -> PostponedGame (--postponed), or None
        self.listing = list(listing) if listing is not None else list(self.order)  # the scoreboard's order
        self.speed = speed
        self.start_offset = start_offset
        self.join_at = join_at  # fraction of each game's span its clock starts at, or None
        self.hold_at = hold_at  # fraction of each game's span its clock stops at, or None
        self.outage = outage  # (from, to) fractions of the span answering 503, or None
        self.started = time.time()
        self.fail_rate = fail_rate
        self.slow_seconds = slow_seconds
        self.random = random.Random(seed)
        self.fault_cycle = []
        self.requested_documents = set()  # "<kind>_<gameId>" asked for at least once
        self.lock = threading.Lock()
        # Notified whenever a counter moves (/control/wait-hostile waits on it).
        self.changed = threading.Condition(self.lock)
        self.cache = {}  # (kind, key) -> (state, body, etag, last_modified)
        self.stats = {"requests": 0, "byEndpoint": {"playbyplay": 0, "boxscore": 0, "scoreboard": 0, "control": 0,
                                                    "notFound": 0},
                      "ok": 0, "notModified": 0, "faults": {kind: 0 for kind in FAULT_KINDS}, "faultsTotal": 0,
                      "errors": 0, "hostile": 0, "outage": 0, "stale": 0}

    def virtual_start(self, game):
        if self.join_at is not None:
            return game.at(self.join_at)
        return game.first_time - self.start_offset

    def hold_for(self, game):
        """The fraction of the game's span its clock stops at: its --hold, else --hold-at, else None."""
        return self.holds.get(game.game_id, self.hold_at)

    def virtual_now(self, game):
        if self.step is not None:
            with self.lock:
                steps = self.steps.get(game.game_id, 0)
            virtual = self.virtual_start(game) + steps * self.step * (game.end_time - game.first_time)
        else:
            virtual = self.virtual_start(game) + (time.time() - self.started) * self.speed
        hold = self.hold_for(game)
        if hold is not None:
            virtual = min(virtual, game.at(hold))
        return virtual

    def held(self, game, virtual):
        hold = self.hold_for(game)
        return hold is not None and virtual >= game.at(hold)

    def in_outage(self, game, virtual=None):
        """Whether the game's playbyplay and boxscore are down now (--outage)."""
        if self.outage is None:
            return False
        virtual = self.virtual_now(game) if virtual is None else virtual
        return game.at(self.outage[0]) <= virtual < game.at(self.outage[1])

    def real_time_at(self, game, virtual):
        """The real Unix time the game's (unheld) clock reaches `virtual`."""
        return self.started + (virtual - self.virtual_start(game)) / self.speed

    def state(self, game):
        return game.state_at(self.virtual_now(game))

    def requested(self, kind, game):
        """Counts a request of a game's document: with --step, a playbyplay request moves the game's
        clock. Returns the lag (fraction of the span) of the older copy an edge answers it with, or 0."""
        with self.lock:
            if self.step is not None and kind == "playbyplay":
                self.steps[game.game_id] = self.steps.get(game.game_id, 0) + 1
            key = (kind, game.game_id)
            number = self.requests.get(key, 0) + 1
            self.requests[key] = number
            lag = 0.0
            draws = self.stale_randoms.setdefault(key, random.Random("%d/%s/%s" % (self.seed, kind, game.game_id)))
            for every, low, high in self.stale:
                if number % every == 0:
                    lag = max(lag, low if high == low else draws.uniform(low, high))
            if lag > 0:
                self.stats["stale"] += 1
            return lag

    def count(self, endpoint):
        with self.lock:
            self.stats["requests"] += 1
            self.stats["byEndpoint"][endpoint] = self.stats["byEndpoint"].get(endpoint, 0) + 1

    def note(self, key, kind=None):
        with self.lock:
            if kind is None:
                self.stats[key] += 1
            else:
                self.stats[key][kind] += 1
                self.stats["faultsTotal"] += 1
            self.changed.notify_all()

    def wait_hostile(self, timeout):
        """Blocks until a hostile answer has begun or `timeout` seconds pass; the count then."""
        with self.lock:
            self.changed.wait_for(lambda: self.stats["hostile"] > 0, timeout)
            return self.stats["hostile"]

    def first_request(self, document):
        """Whether this is the first request for `document` (noted: the next one is not)."""
        with self.lock:
            first = document not in self.requested_documents
            self.requested_documents.add(document)
            return first

    def next_fault(self):
        """The fault for this game request, or None; seeded, taken in request order."""
        if self.fail_rate <= 0:
            return None
        with self.lock:
            if self.random.random() >= self.fail_rate:
                return None
            if not self.fault_cycle:
                self.fault_cycle = list(FAULT_KINDS)
                self.random.shuffle(self.fault_cycle)
            kind = self.fault_cycle.pop(0)
            self.stats["faults"][kind] += 1
            self.stats["faultsTotal"] += 1
            return kind

    def document(self, kind, game_id=None, lag=0.0):
        """(body, etag, last_modified epoch) for a game document or the scoreboard, or None; with a
        `lag`, the game document as it stood that fraction of the span earlier (not cached)."""
        if lag > 0:
            game = self.games[game_id]
            with self.lock:
                newest = self.newest_served.get((kind, game_id))
            base = self.virtual_now(game) if newest is None else min(newest, self.virtual_now(game))
            virtual = max(base - lag * (game.end_time - game.first_time), self.virtual_start(game))
            state = game.state_at(virtual)
            body = self._game_body(game, kind, state)
            return body, '"%s"' % hashlib.sha256(body).hexdigest()[:32], game.last_modified(state, self.virtual_start(game))
        if kind == "scoreboard":
            states = tuple(self.state(self.games[g]) for g in self.order)
            key = ("scoreboard", None)
        else:
            game = self.games.get(game_id)
            if game is None:
                return None
            virtual = self.virtual_now(game)
            states = game.state_at(virtual)
            key = (kind, game_id)
            with self.lock:
                self.newest_served[key] = max(virtual, self.newest_served.get(key, virtual))
        with self.lock:
            cached = self.cache.get(key)
        if cached and cached[0] == states:
            return cached[1:]
        if kind == "scoreboard":
            body, modified = self._scoreboard(states)
        else:
            body = self._game_body(game, kind, states)
            modified = game.last_modified(states, self.virtual_start(game))
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:32]
        with self.lock:
            self.cache[key] = (states, body, etag, modified)
        return body, etag, modified

    def _game_body(self, game, kind, state):
        body = game.playbyplay_body(state) if kind == "playbyplay" else game.boxscore_body(state)
        if self.step is None:
            return body
        # Stepped: the copy states when it was written, as the CDN's do.
        document = json.loads(body.decode("utf-8"))
        meta = document.get("meta") if isinstance(document.get("meta"), dict) else {}
        written = game.last_modified(state, self.virtual_start(game))
        meta["time"] = eastern_wall_time(written)
        document["meta"] = meta
        return encode(document)

    def _scoreboard(self, states):
        by_id = dict(zip(self.order, states))
        games = [self.games[g].scoreboard_entry(by_id[g]) if g in by_id else self.postponed[g].scoreboard_entry()
                 for g in self.listing]
        modified = max(self.games[g].last_modified(s, self.virtual_start(self.games[g]))
                       for g, s in zip(self.order, states)) if self.order else time.time()
        dated = [p.game for p in (self.postponed or {}).values() if p.game is not None]
        date = (self.games[self.order[0]].game_date() if self.order else
                dated[0].game_date() if dated else time.strftime("%Y-%m-%d"))
        document = {"meta": {"version": 1, "request": "https://nba-prod-us-east-1-mediaops-stats.s3.amazonaws.com"
                             "/NBA/liveData/scoreboard/todaysScoreboard_00.json", "time": iso(modified), "code": 200},
                    "scoreboard": {"gameDate": date, "leagueId": "00", "leagueName": "National Basketball Association",
                                   "games": games}}
        return encode(document), modified

    def snapshot(self):
        with self.lock:
            stats = json.loads(json.dumps(self.stats))
        stats["speed"] = self.speed
        stats["realSecondsElapsed"] = round(time.time() - self.started, 3)
        games = {}
        for game_id in self.listing:
            if game_id not in self.games:
                games[game_id] = self.postponed[game_id].stats_entry()
                continue
            game = self.games[game_id]
            virtual = self.virtual_now(game)
            state = game.state_at(virtual)
            status, _, _, _, home, away, _ = game.summary(state)
            entry = {"virtualTime": iso(virtual), "visibleActions": len(game.visible(state)),
                     "totalActions": len(game.actions), "gameStatus": status, "scoreHome": home, "scoreAway": away,
                     "firstActionTime": iso(game.first_time), "lastActionTime": iso(game.end_time),
                     "realSecondsToEnd": max(0.0, round((game.end_time - virtual) / self.speed, 3)),
                     "hasBoxscoreFile": game.box is not None, "held": self.held(game, virtual),
                     "heldAt": iso(game.at(self.hold_for(game))) if self.hold_for(game) is not None else None,
                     "inOutage": self.in_outage(game, virtual)}
            if self.postponed is not None:
                entry["postponed"] = False
            if self.outage is not None:
                entry["outageStartsAt"] = round(self.real_time_at(game, game.at(self.outage[0])), 3)
                entry["outageEndsAt"] = round(self.real_time_at(game, game.at(self.outage[1])), 3)
            games[game_id] = entry
        stats["games"] = games
        return stats


def load_games(folder, wanted, postponed=()):
    """(served games by id, PostponedGame by id or None, every listed id in the scoreboard's order)."""
    if not os.path.isdir(folder):
        raise SystemExit("nba_live_server: no folder %s" % folder)
    names = os.listdir(folder)
    found = sorted(m.group(1) for m in (re.match(r"^playbyplay_([0-9A-Za-z]+)\.json$", n) for n in names) if m)
    ids = wanted or found
    listing = list(ids) + [g for g in postponed if g not in ids]
    games = {}
    for game_id in ids:
        if game_id in postponed:
            continue
        pbp = os.path.join(folder, "playbyplay_%s.json" % game_id)
        if not os.path.isfile(pbp):
            raise SystemExit("nba_live_server: no %s" % pbp)
        box = os.path.join(folder, "boxscore_%s.json" % game_id)
        try:
            games[game_id] = Game(game_id, pbp, box if os.path.isfile(box) else None)
        except (OSError, ValueError) as error:
            raise SystemExit("nba_live_server: cannot read game %s: %s" % (game_id, error))
    if not games and not postponed:
        raise SystemExit("nba_live_server: no playbyplay_<gameId>.json in %s" % folder)
    if not postponed:
        return games, None, listing
    known = {}
    for game_id in postponed:
        pbp = os.path.join(folder, "playbyplay_%s.json" % game_id)
        if os.path.isfile(pbp):
            box = os.path.join(folder, "boxscore_%s.json" % game_id)
            try:
                known[game_id] = Game(game_id, pbp, box if os.path.isfile(box) else None)
            except (OSError, ValueError) as error:
                raise SystemExit("nba_live_server: cannot read game %s: %s" % (game_id, error))
    first = next(iter(games.values()), None) or next(iter(known.values()), None)  # the first served game
    tip_off = first.first_time if first is not None else time.time()
    return games, {g: PostponedGame(g, known.get(g), tip_off) for g in postponed}, listing


def main():
    run_as_child()

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", default=os.path.join(root, "..", "shared", "nba-pbp"))
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every playbyplay file)")
    parser.add_argument("--speed", type=float, default=400.0)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fail-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow-seconds", type=float, default=3.0)
    parser.add_argument("--start-offset", type=float, default=60.0)
    parser.add_argument("--join-at", type=float, default=None,
                        help="fraction of each game's span its clock starts at (overrides --start-offset)")
    parser.add_argument("--hold-at", type=float, default=None,
                        help="fraction of each game's span its clock stops at, for good")
    parser.add_argument("--outage", default=None,
                        help="FROM:TO fractions of each game's span its playbyplay and boxscore answer 503")
    parser.add_argument("--hold", action="append", default=[], metavar="GAME:F[,GAME:F...]",
                        help="fraction of game GAME's span its clock stops at, for good (overrides --hold-at "
                             "for that game); repeatable")
    parser.add_argument("--postponed", action="append", default=[], metavar="ID[,ID...]",
                        help="game ids listed on the scoreboard as postponed (gameStatus 1, \"PPD\"), their "
                             "playbyplay and boxscore answering 404; repeatable")
    parser.add_argument("--hostile", default="",
                        help="document=kind,...: e.g. boxscore_0022400762=huge (kinds: %s)" % ", ".join(HOSTILE_KINDS))
    parser.add_argument("--step", type=float, default=None,
                        help="fraction of each game's span its clock moves per playbyplay request (not real time)")
    parser.add_argument("--stale", action="append", default=[], metavar="EVERY:LAG|EVERY:LO-HI",
                        help="every EVERY-th request of a game document answered with its copy LAG (or LO..HI) "
                             "of the span older; repeatable")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    hostile = {}
    for item in (i.strip() for i in args.hostile.split(",") if i.strip()):
        document, _, kind = item.partition("=")
        if kind not in HOSTILE_KINDS:
            parser.error("--hostile %s: the kind must be one of %s" % (item, ", ".join(HOSTILE_KINDS)))
        hostile[document] = kind
    if args.speed <= 0:
        parser.error("--speed must be positive")
    for name, value in (("--join-at", args.join_at), ("--hold-at", args.hold_at)):
        if value is not None and not 0 <= value <= 1:
            parser.error("%s must lie in 0..1 (a fraction of each game's span)" % name)
    outage = None
    if args.outage:
        try:
            outage = tuple(float(part) for part in args.outage.split(":"))
        except ValueError:
            outage = ()
        if len(outage) != 2 or not 0 <= outage[0] < outage[1] <= 1:
            parser.error("--outage %s: FROM:TO, fractions of each game's span with 0 <= FROM < TO <= 1" % args.outage)
    postponed = []
    for item in (i.strip() for value in args.postponed for i in value.split(",") if i.strip()):
        if not re.match(r"^[0-9A-Za-z]+$", item):
            parser.error("--postponed %s: a game id is letters and digits" % item)
        if item not in postponed:
            postponed.append(item)
    wanted = [g.strip() for g in args.games.split(",") if g.strip()]
    games, postponed_games, listing = load_games(os.path.normpath(args.folder), wanted, postponed)
    holds = {}
    for item in (i.strip() for value in args.hold for i in value.split(",") if i.strip()):
        game_id, _, fraction = item.rpartition(":")
        try:
            value = float(fraction)
        except ValueError:
            value = None
        if not game_id or value is None or not 0 <= value <= 1:
            parser.error("--hold %s: GAME:F, F a fraction of the game's span in 0..1" % item)
        if game_id in postponed:
            sys.stderr.write("nba_live_server: --hold %s ignored: %s is postponed\n" % (item, game_id))
            continue
        if game_id not in games:
            parser.error("--hold %s: %s is not a served game" % (item, game_id))
        holds[game_id] = value
    if args.step is not None and not 0 < args.step <= 1:
        parser.error("--step must lie in (0, 1]: a fraction of each game's span")
    stale = []
    for item in args.stale:
        every, _, lag = item.partition(":")
        low, _, high = lag.partition("-")
        try:
            every, low, high = int(every), float(low), float(high or low)
        except ValueError:
            every = 0
        if every < 1 or not 0 < low <= high <= 1:
            parser.error("--stale %s: EVERY:LAG or EVERY:LO-HI, EVERY >= 1, lags fractions of the span in (0, 1]" % item)
        stale.append((every, low, high))
    replay = Replay(games, args.speed, args.start_offset, min(max(args.fail_rate, 0.0), 1.0), args.seed,
                    max(args.slow_seconds, 0.0), join_at=args.join_at, hold_at=args.hold_at, outage=outage,
                    holds=holds, postponed=postponed_games, listing=listing, step=args.step, stale=stale)
    verbose = args.verbose

    def log(text):
        if verbose:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"
        server_version = "nba_live_server"
        send_body = True

        def do_GET(self):
            self.handle_get(send_body=True)

        def do_HEAD(self):
            self.handle_get(send_body=False)

        def handle_get(self, send_body):
            self.send_body = send_body
            try:
                self.route(self.path.split("?", 1)[0].split("#", 1)[0])
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client left
            except Exception as error:  # never let a request take the server down
                replay.note("errors")
                log("error on %s: %r" % (self.path, error))
                try:
                    self.reply(500, b'{"error":"internal"}', {})
                except Exception:
                    pass
                self.close_connection = True

        def route(self, path):
            if path == "/control/wait-hostile":
                replay.count("control")
                self.reply(200, encode({"hostile": replay.wait_hostile(45)}), {"Cache-Control": "no-store"})
                return
            if path == "/control/stats":
                replay.count("control")
                self.reply(200, encode(replay.snapshot()), {"Cache-Control": "no-store"})
                return
            if path == SCOREBOARD_PATH:
                replay.count("scoreboard")
                self.serve_document("scoreboard", None)
                return
            for kind, pattern in (("playbyplay", PBP_PATH), ("boxscore", BOX_PATH)):
                match = pattern.match(path)
                if match and match.group(1) in games:
                    replay.count(kind)
                    lag = replay.requested(kind, games[match.group(1)])
                    if replay.in_outage(games[match.group(1)]):
                        replay.note("outage")
                        log("outage: 503 on %s" % path)
                        self.reply(503, b'{"error":"Service Unavailable"}', {"Retry-After": "1"})
                        return
                    document = "%s_%s" % (kind, match.group(1))
                    fault = None if document in hostile and replay.first_request(document) else replay.next_fault()
                    if fault:
                        log("fault %s on %s" % (fault, path))
                    if fault == "slow":
                        time.sleep(replay.slow_seconds)
                        fault = None
                    if fault is None and document in hostile:
                        self.serve_hostile(hostile[document])
                        return
                    self.serve_document(kind, match.group(1), fault, lag)
                    return
            replay.count("notFound")
            self.reply(404, encode({"error": "not found", "path": path}), {})

        def serve_document(self, kind, game_id, fault=None, lag=0.0):
            if fault in ("503", "429"):
                reason = b"Service Unavailable" if fault == "503" else b"Too Many Requests"
                self.reply(int(fault), b'{"error":"' + reason + b'"}', {"Retry-After": "1"})
                return
            body, etag, modified = replay.document(kind, game_id, lag)
            if fault == "empty":
                body = b""
            elif fault == "malformed":
                body = b'{"game": <html><head><title>502 Bad Gateway</title></head>\x00\xff'
            if fault in ("empty", "malformed"):
                etag = '"%s"' % hashlib.sha256(body).hexdigest()[:32]
            headers = {"ETag": etag, "Last-Modified": http_date(modified), "Cache-Control": "max-age=1"}
            if fault is None and self.matches(etag):
                replay.note("notModified")
                self.send_response(304)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                return
            if fault == "cut":
                self.reply(200, body, headers, cut=True)
                return
            if fault is None:
                replay.note("ok")
            self.reply(200, body, headers)

        def serve_hostile(self, kind):
            """An answer no client should hold: see HOSTILE_KINDS in the module's doc."""
            replay.note("hostile")
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if kind == "huge":
                chunk = b" " * (1 << 16)
                total = 8 << 30
                self.send_header("Content-Length", str(total))
                self.end_headers()
                for _ in range(total // len(chunk)):
                    self.wfile.write(chunk)
            elif kind == "endless":
                self.end_headers()
                self.wfile.write(b"{")
                while True:
                    self.wfile.flush()
                    time.sleep(0.1)
                    self.wfile.write(b" ")
            else:
                head, middle = GzipBomb.parts()
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(head) + len(middle) * (GzipBomb.REPEATS - 1)))
                self.end_headers()
                self.wfile.write(head)
                for _ in range(GzipBomb.REPEATS - 1):
                    self.wfile.write(middle)

        def matches(self, etag):
            header = self.headers.get("If-None-Match")
            if not header:
                return False
            for candidate in header.split(","):
                candidate = candidate.strip()
                if candidate.startswith("W/"):
                    candidate = candidate[2:]
                if candidate == "*" or candidate == etag:
                    return True
            return False

        def reply(self, status, body, headers, cut=False):
            """Answers with `body`; `cut` sends its first half only, under the whole length, and
            closes the connection."""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if self.send_body:
                self.wfile.write(body[: len(body) // 2] if cut else body)
                if cut:
                    self.wfile.flush()
            if cut:
                self.close_connection = True

        def send_error(self, code, message=None, explain=None):
            # The base class answers malformed requests with HTML; keep every answer JSON.
            try:
                self.close_connection = True
                body = encode({"error": code, "message": message or ""})
                self.send_response(code, message)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD" and code >= 200 and code not in (204, 304):
                    self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def version_string(self):
            return self.server_version

        def log_message(self, format, *args):
            log("%s %s" % (self.address_string(), format % args))

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        allow_reuse_address = True

        def handle_error(self, request, client_address):
            if verbose:
                super().handle_error(request, client_address)

    try:
        server = Server(("127.0.0.1", args.port), Handler)
    except OSError as error:
        raise SystemExit("nba_live_server: cannot listen on port %d: %s" % (args.port, error))
    replay.started = time.time()
    print("PORT %d" % server.server_address[1], flush=True)
    log("serving %s at %gx" % (", ".join(replay.order), args.speed))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

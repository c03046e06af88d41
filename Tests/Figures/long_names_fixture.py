#!/usr/bin/env python3
"""Writes Fixtures/edge/long-names.json: a close game whose teams, league and players have long
non-ASCII names (Greek, Cyrillic, CJK, Arabic, emoji with ZWJ sequences and flags, quotes,
backslashes, slashes), the size guard's adversarial fixture (issue 31 item 3). Standard library only;
run from anywhere: Tests/Figures/long_names_fixture.py"""
import os
import json
# Adversarial names: long non-ASCII text, emoji (surrogate pairs under ensure_ascii), JSON escapes.
city_home = "Ciudad de México–Tenochtitlán " * 3 + "🏙️🌮 «Distrito Federal»"
name_home = "Ξ Λέοντες του \"Ολυμπιακού\" \\ 大熊猫 🦁🐼 " * 4
city_away = "Москва́ / Санкт-Петербург " * 3 + "❄️"
name_away = "Медве́ди «Северные» 🐻‍❄️ \"Белые\" " * 4
players = {
    "home": [
        "Γιάννης Σίνα Ούγκο Αντετοκούνμπο 🇬🇷🏀 \"The Greek Freak\" " * 12,   # ~ 600 chars, 1.1 kB UTF-8
        "姚明 · 易建联 · 王治郅 🐉 " * 60,                                       # CJK: 3 bytes raw, 6 escaped
        "Nikola Jokić \\ \"Joker\" 🃏🐎 / Сомбор " * 30,
        "🏀" * 1100,                                                             # 4.4 kB raw, 13.2 kB escaped: trimmed under every serialization
    ],
    "away": [
        "Лука́ Дончич / Luka Dončić 🇸🇮✨ " * 20,
        "محمد صلاح الدين الأيوبي 🌙 " * 50,
        "Victor Wembanyama 👽🦄 \"Wemby\" / Vìctòr " * 25,
        "👨‍👩‍👧‍👦" * 200,                                                      # ZWJ families: 25 bytes raw, 66 escaped
    ],
}
attributes = {
    "gameId": "EDGE-LONG-NAMES", "league": "NBA · Ліга 🏆",
    "home": {"id": "1610612742", "tricode": "MEX", "name": name_home, "city": city_home, "primaryColor": "#00538C"},
    "away": {"id": "1610612755", "tricode": "MOS", "name": name_away, "city": city_away, "primaryColor": "#006BB6"},
}
events, seq, t = [], 0, 1740009600 + 600
def add(**e):
    global seq
    seq += 1
    e["seq"] = seq
    e["time"] = t
    events.append(e)
score = {"home": 0, "away": 0}
for period in range(1, 5):
    add(period=period, clock="12:00", type="periodStart", description=f"Start of Q{period}")
    clock = 12 * 60
    for i in range(12):
        side = "home" if (i + period) % 2 == 0 else "away"
        player = players[side][(i // 2 + period) % 4]
        points = 3 if i % 3 == 0 else 2
        clock -= 55
        t += 70
        score[side] += points
        add(period=period, clock=f"{clock // 60}:{clock % 60:02d}", type="fieldGoal", team=side, player=player,
            made=True, points=points, description=f"{player} {points}PT",
            score={"home": score["home"], "away": score["away"]})
        if i == 5:
            t += 30
            add(period=period, clock=f"{clock // 60}:{clock % 60:02d}", type="timeout", team=side, kind="full", description="Timeout")
    if period == 4:
        t += 20
        score["home"] += 1
        add(period=period, clock="0:05", type="freeThrow", team="home", player=players["home"][0], made=True,
            attempt=1, of=1, description="Free Throw 1 of 1", score={"home": score["home"], "away": score["away"]})
    t += 60
    add(period=period, clock="0:00", type="periodEnd", description=f"End of Q{period}")
    t += 900 if period == 2 else 130
add(period=4, clock="0:00", type="gameEnd", description="Game End")
doc = {"format": "scorefeed-fixture/1", "game": attributes, "scheduledStart": 1740009600,
       "final": score, "events": events}
out = ['{', '  "format": "scorefeed-fixture/1",',
       '  "game": ' + json.dumps(attributes, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + ',',
       '  "scheduledStart": 1740009600,',
       '  "final": ' + json.dumps(score, sort_keys=True, separators=(",", ":")) + ',',
       '  "events": [']
lines = ['    ' + json.dumps(e, ensure_ascii=False, sort_keys=True, separators=(",", ":")) for e in events]
out.append(",\n".join(lines))
out += ['  ]', '}']
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Fixtures/edge/long-names.json"), "w").write("\n".join(out) + "\n")
print(len(events), score)

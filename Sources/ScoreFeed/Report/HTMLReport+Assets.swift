extension HTMLReport {
    static func style(_ data: ReportData) -> String {
        let home = color(data.attributes.home.primaryColor), away = color(data.attributes.away.primaryColor)
        return """
            :root { --home: \(home); --away: \(away); font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1c1c1e; background: #f2f2f7; }
            body { margin: 0 auto; max-width: 1060px; padding: 16px 20px 40px; }
            h1 { font-size: 24px; margin: 8px 0 4px; } h1 .score { font-variant-numeric: tabular-nums; padding: 0 8px; }
            h2 { font-size: 16px; margin: 22px 0 8px; color: #3a3a3c; }
            .sub, .note, .legend { color: #636366; font-size: 13px; }
            section { background: #fff; border-radius: 14px; padding: 12px 16px 16px; margin-top: 16px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
            .chart { width: 100%; height: auto; display: block; }
            .axis { stroke: #8e8e93; stroke-width: 1; } .period { stroke: #c7c7cc; stroke-dasharray: 3 3; }
            .tick { font-size: 11px; fill: #8e8e93; } .team { font-size: 12px; font-weight: 600; }
            .worm { fill: none; stroke: #1c1c1e; stroke-width: 1.6; }
            .wrong { fill: #ff3b30; opacity: 0.16; } .k.wrong { background: #ff3b30; opacity: 0.35; }
            .marker.p10 { fill: #ff9f0a; stroke: #fff; stroke-width: 1; } .marker.p5 { fill: none; stroke: #5e5ce6; stroke-width: 1.2; }
            .marker.alert { fill: #ff375f; } .marker.end { fill: #30d158; stroke: #1c1c1e; stroke-width: .6; }
            .cursor { stroke: #0a84ff; stroke-width: 1.5; }
            .limit { stroke: #ff375f; stroke-dasharray: 5 4; } .used { fill: none; stroke: #ff9f0a; stroke-width: 1.6; }
            .legend .k { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; vertical-align: -1px; }
            .k.p10 { background: #ff9f0a; border-radius: 50%; } .k.p5 { border: 1.5px solid #5e5ce6; width: 7px; height: 7px; }
            .k.alert { width: 0; height: 0; border-left: 6px solid transparent; border-right: 6px solid transparent; border-bottom: 10px solid #ff375f; }
            .k.end { background: #30d158; border-radius: 2px; transform: rotate(45deg); }
            .controls { display: flex; gap: 12px; align-items: center; } #scrubber { flex: 1; } #when { font-variant-numeric: tabular-nums; min-width: 210px; font-size: 13px; color: #3a3a3c; }
            button { font: inherit; border: 0; background: #0a84ff; color: #fff; padding: 6px 12px; border-radius: 8px; cursor: pointer; }
            .truth { font-size: 15px; } #verdict.ok { color: #248a3d; } #verdict.wrong { color: #d70015; font-weight: 600; }
            .previews { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
            figure { margin: 0; } figcaption { font-size: 12px; color: #8e8e93; margin-top: 6px; text-align: center; }
            .lock { width: 360px; border-radius: 22px; padding: 14px 16px; background: rgba(40,40,46,.92); color: #fff; }
            .lock.android { border-radius: 16px; background: #2b2d31; box-shadow: 0 1px 3px rgba(0,0,0,.4); }
            .lock .row { display: flex; align-items: center; justify-content: space-between; }
            .lock .side { display: flex; align-items: center; gap: 8px; } .lock .side.home { flex-direction: row-reverse; }
            .badge { width: 30px; height: 30px; border-radius: 50%; display: grid; place-items: center; font-size: 10px; font-weight: 700; color: #fff; border: 1.5px solid rgba(255,255,255,.6); }
            .lock .tri { font-size: 13px; opacity: .85; } .lock .pts { font-size: 34px; font-weight: 700; font-variant-numeric: tabular-nums; }
            .lock .mid { text-align: center; font-variant-numeric: tabular-nums; } .lock .per { font-size: 12px; opacity: .75; } .lock .clk { font-size: 17px; font-weight: 600; }
            .lock .last { font-size: 12px; opacity: .8; margin-top: 8px; min-height: 15px; }
            .lock .meta { display: flex; justify-content: space-between; font-size: 11px; opacity: .7; margin-top: 4px; }
            .island { background: #000; color: #fff; font-variant-numeric: tabular-nums; }
            .island.compact { width: 230px; height: 37px; border-radius: 19px; display: flex; justify-content: space-between; align-items: center; padding: 0 14px; box-sizing: border-box; font-weight: 600; font-size: 14px; }
            .island.minimal { width: 37px; height: 37px; border-radius: 50%; display: grid; place-items: center; font-size: 12px; font-weight: 700; }
            .island.expanded { width: 360px; border-radius: 40px; padding: 16px 22px; box-sizing: border-box; }
            .island.expanded .row { display: flex; justify-content: space-between; align-items: center; }
            .island.expanded .pts { font-size: 30px; font-weight: 700; } .island.expanded .name { font-size: 12px; opacity: .75; }
            .island.expanded .mid { text-align: center; } .island.expanded .last { font-size: 12px; opacity: .8; margin-top: 8px; }
            .dot { display: inline-block; width: 8px; height: 8px; border-radius: 50%; margin-right: 3px; }
            table.figures { border-collapse: collapse; width: 100%; font-size: 13px; font-variant-numeric: tabular-nums; }
            .figures th, .figures td { padding: 5px 8px; border-bottom: 1px solid #e5e5ea; text-align: right; } .figures th:first-child, .figures td:first-child { text-align: left; }
            .figures tr.engine { background: #fff4e0; }
            """
    }

    /// The scrubber and the previews: reads the embedded data, never the network.
    static let script = """
        (function () {
          "use strict";
          var errors = [];
          window.addEventListener("error", function (e) { errors.push(String(e.message)); });
          var data = JSON.parse(document.getElementById("report-data").textContent);
          var REF = 978307200; // 2001-01-01 in Unix seconds: content-state dates count from it
          var A = data.attributes;
          var scrub = document.getElementById("scrubber");
          var cursor = document.getElementById("cursor");
          var left = \(Int(WormChart.left)), right = \(Int(WormChart.right));
          var t = data.start;

          function last(list, time) {
            var lo = 0, hi = list.length - 1, found = null;
            while (lo <= hi) { var m = (lo + hi) >> 1; if (list[m].time <= time) { found = list[m]; lo = m + 1; } else { hi = m - 1; } }
            return found;
          }
          function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); }
          function color(c) { return /^#[0-9a-fA-F]{6}$/.test(c) ? c : "#555555"; }
          function periodLabel(p) { return p <= 4 ? "Q" + p : (p === 5 ? "OT" : (p - 4) + "OT"); }
          function clockText(sec) {
            sec = Math.max(0, sec);
            if (sec < 60) { var tenths = Math.floor(sec * 10); return Math.floor(tenths / 10) + "." + (tenths % 10); }
            var whole = Math.floor(sec), s = whole % 60;
            return Math.floor(whole / 60) + ":" + (s < 10 ? "0" : "") + s;
          }
          function secondsLeft(state, time) {
            if (state.clock.stopped) { return state.clock.stopped.seconds; }
            if (state.clock.running) { return state.clock.running.endsAt + REF - time; }
            return 0;
          }
          function status(state, time) {
            switch (state.phase) {
              case "final": return [state.period > 4 ? "Final/" + periodLabel(state.period) : "Final", ""];
              case "halftime": return ["Half", ""];
              case "endOfPeriod": return ["End " + periodLabel(state.period), ""];
              case "pregame": return ["Pregame", ""];
              case "postponed": return ["Postponed", ""];
              case "suspended": return ["Suspended", ""];
              default: return [periodLabel(state.period), clockText(secondsLeft(state, time))];
            }
          }
          function pregame() {
            return { homeScore: 0, awayScore: 0, period: 1, phase: "pregame", clock: { stopped: { seconds: 720 } },
                     homeFouls: 0, awayFouls: 0, homeInBonus: false, awayInBonus: false, homeTimeouts: 7, awayTimeouts: 7 };
          }
          function badge(team) { return '<span class="badge" style="background:' + color(team.primaryColor) + '">' + esc(team.tricode) + "</span>"; }
          function side(team, pts, cls) {
            return '<div class="side ' + cls + '">' + badge(team) + '<div><div class="tri">' + esc(team.tricode) + '</div><div class="pts">' + pts + "</div></div></div>";
          }
          function dots(n, c) { var s = ""; for (var i = 0; i < n; i++) { s += '<span class="dot" style="background:' + c + '"></span>'; } return s; }
          function render() {
            var span = Math.max(1, data.end - data.start);
            var x = Math.min(right, left + (t - data.start) / span * (right - left));
            cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
            var truth = last(data.truth, t) || { home: 0, away: 0, period: 1 };
            var shown = last(data.screen, t);
            var s = shown ? shown.state : pregame();
            var elapsed = Math.max(0, t - data.start), h = Math.floor(elapsed / 3600), m = Math.floor(elapsed / 60) % 60, sec = Math.floor(elapsed % 60);
            document.getElementById("when").textContent = "+" + h + ":" + (m < 10 ? "0" : "") + m + ":" + (sec < 10 ? "0" : "") + sec +
              " · " + new Date(t * 1000).toISOString().substring(11, 19) + " UTC";
            document.getElementById("truescore").textContent = A.away.tricode + " " + truth.away + " – " + truth.home + " " + A.home.tricode;
            var verdict = document.getElementById("verdict");
            var right_ = s.homeScore === truth.home && s.awayScore === truth.away;
            verdict.textContent = right_ ? "✓ the lock screen shows it" : "✗ the lock screen shows " + s.awayScore + " – " + s.homeScore;
            verdict.className = right_ ? "ok" : "wrong";
            var st = status(s, t);
            var bonus = function (b) { return b ? " · BONUS" : ""; };
            document.getElementById("lock").innerHTML =
              '<div class="row">' + side(A.away, s.awayScore, "away") +
              '<div class="mid"><div class="per">' + esc(st[0]) + '</div><div class="clk">' + esc(st[1]) + "</div></div>" +
              side(A.home, s.homeScore, "home") + "</div>" +
              '<div class="last">' + esc(s.lastPlay || "") + "</div>" +
              '<div class="meta"><span>' + dots(s.awayTimeouts, "#fff") + " fouls " + s.awayFouls + bonus(s.awayInBonus) + "</span><span>fouls " +
              s.homeFouls + bonus(s.homeInBonus) + " " + dots(s.homeTimeouts, "#fff") + "</span></div>";
            // An Android report has the notification alone: no Dynamic Island.
            if (!document.getElementById("compact")) { return { shown: s.awayScore + "-" + s.homeScore, truth: truth.away + "-" + truth.home, phase: s.phase }; }
            document.getElementById("compact").innerHTML =
              '<span style="color:' + color(A.away.primaryColor) + '">●</span><span>' + esc(A.away.tricode) + " " + s.awayScore + "</span><span>" +
              esc(st[1] || st[0]) + "</span><span>" + s.homeScore + " " + esc(A.home.tricode) + '</span><span style="color:' + color(A.home.primaryColor) + '">●</span>';
            var leader = s.homeScore >= s.awayScore ? A.home : A.away;
            var minimal = document.getElementById("minimal");
            minimal.style.boxShadow = "inset 0 0 0 2px " + color(leader.primaryColor);
            minimal.textContent = String(Math.max(s.homeScore, s.awayScore));
            document.getElementById("expanded").innerHTML =
              '<div class="row"><div>' + badge(A.away) + '<div class="name">' + esc(A.away.name) + '</div><div class="pts">' + s.awayScore + "</div></div>" +
              '<div class="mid"><div>' + esc(st[0]) + '</div><div style="font-size:22px;font-weight:600">' + esc(st[1]) + "</div></div>" +
              '<div style="text-align:right">' + badge(A.home) + '<div class="name">' + esc(A.home.name) + '</div><div class="pts">' + s.homeScore + "</div></div></div>" +
              '<div class="last">' + esc(s.lastPlay || "") + "</div>";
            return { shown: s.awayScore + "-" + s.homeScore, truth: truth.away + "-" + truth.home, phase: s.phase };
          }
          // The slider runs until the lock screen shows its last push (after the game's end when
          // that push is a priority 5).
          var until = Math.max(data.end, data.settled || data.end);
          function fromSlider() { t = data.start + (scrub.value / 1000) * (until - data.start); render(); }
          scrub.addEventListener("input", fromSlider);
          var playing = false, lastFrame = 0;
          function frame(now) {
            if (!playing) { return; }
            if (lastFrame) { t = Math.min(until, t + (now - lastFrame) / 1000 * 60); scrub.value = Math.round((t - data.start) / Math.max(1, until - data.start) * 1000); render(); }
            lastFrame = now;
            if (t >= until) { playing = false; document.getElementById("play").textContent = "▶ play 60×"; return; }
            requestAnimationFrame(frame);
          }
          document.getElementById("play").addEventListener("click", function () {
            playing = !playing; lastFrame = 0;
            this.textContent = playing ? "❚❚ pause" : "▶ play 60×";
            if (playing) { requestAnimationFrame(frame); }
          });
          var result;
          if (location.hash === "#end") { scrub.value = 1000; t = until; result = render(); } else { result = render(); }
          var self = document.getElementById("selftest");
          self.textContent = JSON.stringify({ ok: errors.length === 0, svg: !!document.querySelector("svg#worm path.worm"),
            shown: result.shown, truth: result.truth, phase: result.phase, errors: errors });
        })();
        """
}

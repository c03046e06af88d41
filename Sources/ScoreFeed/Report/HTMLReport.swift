import Foundation
import ScoreFeedModel

/// Renders ``ReportData`` as one self-contained HTML page: no network, no external scripts,
/// styles, fonts or images. The score worm and budget chart are SVG drawn here; the scrubber
/// and the Live Activity previews (an Android report: the Live Update notification's) are a small
/// script over the embedded data.
public enum HTMLReport {
    public static func render(_ data: ReportData) -> String {
        let a = data.attributes
        let android = data.platform == .android
        let final = data.truth.last ?? ReportData.TruthPoint(time: data.start, home: 0, away: 0, period: 1)
        let json = (try? jsonEncoder.encode(data)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        // Keep the embedded JSON from closing its script element.
        let embedded = json.replacingOccurrences(of: "</", with: "<\\/")
        let title = "\(a.away.tricode) \(final.away) – \(final.home) \(a.home.tricode)"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>ScoreFeed report: \(escape(title))</title>
            <style>\(style(data))</style>
            </head>
            <body>
            <header>
              <h1>\(escape("\(a.away.city) \(a.away.name)")) <span class="score">\(final.away) – \(final.home)</span> \(escape("\(a.home.city) \(a.home.name)"))</h1>
              <p class="sub">\(subtitle(data))</p>
            </header>
            <section>
              <h2>Lead over time, and every push</h2>
              \(WormChart.svg(data))
              <p class="legend"><span class="k p10"></span> \(android ? "HIGH" : "priority 10") <span class="k p5"></span> \(android ? "NORMAL" : "priority 5") <span class="k alert"></span> with an alert <span class="k end"></span> end <span class="k wrong"></span> lock screen wrong · line: \(escape(a.home.tricode)) lead above, \(escape(a.away.tricode)) lead below</p>
              \(android ? "" : "<h2>Priority-10 budget used in the rolling hour</h2>\n" + WormChart.budgetSVG(data))
            </section>
            <section id="scrub">
              <h2>The lock screen at any moment</h2>
              <div class="controls">
                <button id="play" type="button">▶ play 60×</button>
                <input id="scrubber" type="range" min="0" max="1000" value="0" step="1" aria-label="game time">
                <span id="when"></span>
              </div>
              <p class="truth">True score: <b id="truescore"></b> <span id="verdict"></span></p>
              \(previews(android))
            </section>
            <section>
              <h2>Freshness</h2>
              \(android ? androidFiguresTable(data) : figuresTable(data))
            </section>
            <div id="selftest" hidden></div>
            <script id="report-data" type="application/json">\(embedded)</script>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// Minimal HTML escaping for text and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// A `#RRGGBB` color, or a neutral one when the feed's is not that.
    static func color(_ text: String) -> String {
        let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit) else { return "#555555" }
        return "#" + hex
    }

    /// The line under the title: the pushes, and the device model they were measured under.
    static func subtitle(_ data: ReportData) -> String {
        let game = "Game \(escape(data.attributes.gameId)) · \(data.pushes.count) pushes"
        guard let android = data.androidFreshness else {
            return game + " (\(data.engine.priority10) at priority 10) · budget \(data.budget) priority-10 pushes per rolling hour · "
                + "priority 5 shown \(Int(data.priority5Delay)) s late"
        }
        return game + " to Android (\(data.engine.priority10) HIGH) · " + escape(android.model.summary)
    }

    /// The previews the scrubber fills: the Live Activity (lock screen and the Dynamic Island's
    /// three forms), or Android's Live Update notification.
    static func previews(_ android: Bool) -> String {
        if android {
            return """
                <div class="previews">
                  <figure><div id="lock" class="lock android"></div><figcaption>Live Update (promoted ongoing notification)</figcaption></figure>
                </div>
                <p class="note">What the phone shows follows the Android device model: the newest message delivered (an older <code>timestamp</code> is ignored).</p>
                """
        }
        return """
            <div class="previews">
              <figure><div id="lock" class="lock"></div><figcaption>Lock screen</figcaption></figure>
              <figure><div id="compact" class="island compact"></div><figcaption>Dynamic Island, compact</figcaption></figure>
              <figure><div id="minimal" class="island minimal"></div><figcaption>minimal</figcaption></figure>
              <figure><div id="expanded" class="island expanded"></div><figcaption>expanded</figcaption></figure>
            </div>
            <p class="note">What the device shows follows the report's device model: the last push that arrived and was not older than one already shown.</p>
            """
    }

    static func seconds(_ x: Double?) -> String { x.map { String(format: "%.0f s", $0) } ?? "never" }

    /// Android's table: the engine beside HIGH on every change with and without a collapse key
    /// and NORMAL collapsible, under the Android device model.
    static func androidFiguresTable(_ data: ReportData) -> String {
        guard let report = data.androidFreshness else { return "" }
        var rows = ""
        for row in report.rows {
            let cells = [
                escape(row.policy), "\(row.pushes)", "\(row.priority10)", "\(row.priority5)", "<b>" + String(format: "%.3f", row.wrongShare) + "</b>",
                seconds(row.lagP95), seconds(row.lagMax), seconds(row.finalLag),
            ]
            rows += "<tr\(row.policy == "engine" ? " class=\"engine\"" : "")>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>\n"
        }
        return """
            <table class="figures">
            <thead><tr><th>policy</th><th>messages</th><th>HIGH</th><th>NORMAL</th><th>wrong share</th><th>lag p95</th><th>lag max</th><th>final lag</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            <p class="note">Wrong share: the part of the game (first to last event, \(String(format: "%.2f", report.gameHours)) h, \(report.scoreChanges) score changes) the shown score differed from the true score. Device model: \(escape(report.model.summary)).</p>
            """
    }

    static func figuresTable(_ data: ReportData) -> String {
        guard let freshness = data.freshness else { return "" }
        var rows = ""
        for row in freshness.rows {
            let bound = row.policy == "clairvoyant bound"
            rows += "<tr\(row.policy == "engine" ? " class=\"engine\"" : "")><td>\(escape(row.policy))</td>"
                + "<td>\(bound ? "" : "\(row.pushes)")</td><td>\(row.priority10)</td><td>\(bound ? "" : "\(row.priority5)")</td>"
                + "<td>\(bound ? "" : "\(row.peakHourlyPriority10)")</td><td>\(bound ? "" : "\(row.budgetOverruns)")</td>"
                + "<td><b>\(String(format: "%.3f", row.wrongShare))</b></td><td>\(bound ? "" : seconds(row.lagP95))</td>"
                + "<td>\(bound ? "" : seconds(row.lagMax))</td><td>\(bound ? "" : seconds(row.finalLag))</td></tr>\n"
        }
        return """
            <table class="figures">
            <thead><tr><th>policy</th><th>pushes</th><th>p10</th><th>p5</th><th>peak p10 / h</th><th>overruns</th><th>wrong share</th><th>lag p95</th><th>lag max</th><th>final lag</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            </table>
            <p class="note">Wrong share: the part of the game (first to last event, \(String(format: "%.2f", freshness.gameHours)) h, \(freshness.scoreChanges) score changes) the shown score differed from the true score. Device model: a priority-10 push is shown at once while fewer than \(data.budget) were shown in the past hour, and dropped past it; a priority-5 push is shown \(Int(data.priority5Delay)) s late; an update older than the newest shown is ignored. The clairvoyant bound is priority 5 on every change plus priority 10 on the budget × hours gaps that gain the most.\(freshness.engineBeyondBudget > 0 ? " The engine sent \(freshness.engineBeyondBudget) priority-10 pushes beyond its assumed budget on purpose, each carried by a priority 5: this device drops them (the overruns), one with a larger budget shows them at once." : "")</p>
            """
    }
}

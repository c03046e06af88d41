import Foundation

/// The report's two SVG charts: the score worm with push markers, period lines and shaded spans
/// where the modelled lock screen showed a wrong score, and the rolling-hour priority-10 budget use.
enum WormChart {
    static let width = 1000.0
    static let left = 44.0
    static let right = 986.0

    static func x(_ time: Double, _ data: ReportData) -> Double {
        let span = max(1, data.end - data.start)
        return left + (time - data.start) / span * (right - left)
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func svg(_ data: ReportData) -> String {
        let height = 300.0, mid = 150.0
        let leads = data.truth.map { Double($0.home - $0.away) }
        let maxLead = max(10, leads.map(abs).max() ?? 10)
        func y(_ lead: Double) -> Double { mid - lead / maxLead * (mid - 20) }
        let home = HTMLReport.color(data.attributes.home.primaryColor)
        let away = HTMLReport.color(data.attributes.away.primaryColor)

        var path = "M\(f(x(data.start, data))),\(f(y(0)))"
        var previous = 0.0
        for point in data.truth {
            let px = x(point.time, data)
            let lead = Double(point.home - point.away)
            path += " L\(f(px)),\(f(y(previous))) L\(f(px)),\(f(y(lead)))"
            previous = lead
        }
        path += " L\(f(x(data.end, data))),\(f(y(previous)))"

        var out = """
            <svg id="worm" class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="score worm">
            <rect x="\(left)" y="0" width="\(right - left)" height="\(mid)" fill="\(home)" opacity="0.06"/>
            <rect x="\(left)" y="\(mid)" width="\(right - left)" height="\(mid)" fill="\(away)" opacity="0.06"/>
            <line x1="\(left)" x2="\(right)" y1="\(mid)" y2="\(mid)" class="axis"/>
            <text x="4" y="\(f(y(maxLead) + 4))" class="tick">+\(Int(maxLead))</text>
            <text x="4" y="\(f(mid + 4))" class="tick">0</text>
            <text x="4" y="\(f(y(-maxLead) + 4))" class="tick">−\(Int(maxLead))</text>
            <text x="\(left + 4)" y="14" class="team" fill="\(home)">\(HTMLReport.escape(data.attributes.home.tricode)) leads</text>
            <text x="\(left + 4)" y="\(Int(height) - 6)" class="team" fill="\(away)">\(HTMLReport.escape(data.attributes.away.tricode)) leads</text>

            """
        // Where the modelled lock screen showed a wrong score: where the policy lost.
        for span in data.wrongSpans where span.count == 2 {
            let x0 = x(span[0], data), x1 = x(span[1], data)
            out += "<rect class=\"wrong\" x=\"\(f(x0))\" y=\"0\" width=\"\(f(max(0.6, x1 - x0)))\" height=\"\(Int(height))\">"
                + "<title>wrong score on the lock screen for \(Int((span[1] - span[0]).rounded())) s</title></rect>\n"
        }
        for mark in data.periodStarts {
            let px = x(mark.time, data)
            out += "<line x1=\"\(f(px))\" x2=\"\(f(px))\" y1=\"0\" y2=\"\(Int(height))\" class=\"period\"/>"
            out += "<text x=\"\(f(px + 3))\" y=\"28\" class=\"tick\">\(HTMLReport.escape(mark.label))</text>\n"
        }
        out += "<path d=\"\(path)\" class=\"worm\"/>\n"
        for push in data.pushes {
            let px = f(x(push.time, data)), py = y(Double(push.home - push.away))
            let title = "<title>#\(push.seq) p\(push.priority) \(push.event) \(push.away)-\(push.home): \(HTMLReport.escape(push.reason))</title>"
            if push.event == "end" {
                out += "<path class=\"marker end\" d=\"M\(px),\(f(py - 9)) l3,6 7,1 -5,5 1,7 -6,-3 -6,3 1,-7 -5,-5 7,-1z\">\(title)</path>\n"
            } else if push.alert != nil {
                out += "<path class=\"marker alert\" d=\"M\(px),\(f(py - 8)) l7,12 h-14z\">\(title)</path>\n"
            } else if push.priority == 10 {
                out += "<circle class=\"marker p10\" cx=\"\(px)\" cy=\"\(f(py))\" r=\"4.5\">\(title)</circle>\n"
            } else {
                out += "<rect class=\"marker p5\" x=\"\(f(x(push.time, data) - 2.5))\" y=\"\(f(py - 2.5))\" width=\"5\" height=\"5\">\(title)</rect>\n"
            }
        }
        out += "<line id=\"cursor\" x1=\"\(left)\" x2=\"\(left)\" y1=\"0\" y2=\"\(Int(height))\" class=\"cursor\"/>\n</svg>"
        return out
    }

    static func budgetSVG(_ data: ReportData) -> String {
        let height = 110.0, top = 10.0, bottom = 96.0
        let limit = Double(max(1, data.budget))
        let peak = Double(data.pushes.map(\.rollingPriority10).max() ?? 0)
        let scale = max(limit, peak)
        func y(_ v: Double) -> Double { bottom - v / scale * (bottom - top) }
        // Rolling count through time: steps up at each priority-10 push, down an hour later.
        var changes: [(Double, Int)] = []
        for push in data.pushes where push.priority == 10 {
            changes.append((push.time, 1))
            changes.append((push.time + DeviceModel.hour, -1))
        }
        changes.sort { $0.0 < $1.0 }
        var path = "M\(f(x(data.start, data))),\(f(y(0)))"
        var count = 0
        for (time, delta) in changes where time <= data.end {
            let px = x(time, data)
            path += " L\(f(px)),\(f(y(Double(count))))"
            count += delta
            path += " L\(f(px)),\(f(y(Double(count))))"
        }
        path += " L\(f(x(data.end, data))),\(f(y(Double(count))))"
        return """
            <svg id="budget" class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-label="budget use">
            <line x1="\(left)" x2="\(right)" y1="\(f(y(limit)))" y2="\(f(y(limit)))" class="limit"/>
            <text x="4" y="\(f(y(limit) + 4))" class="tick">\(data.budget)</text>
            <text x="4" y="\(f(bottom + 4))" class="tick">0</text>
            <line x1="\(left)" x2="\(right)" y1="\(bottom)" y2="\(bottom)" class="axis"/>
            <path d="\(path)" class="used"/>
            </svg>
            """
    }
}

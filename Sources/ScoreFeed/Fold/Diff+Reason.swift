import Foundation
import ScoreFeedModel

extension Diff {
    /// Whether the change shows on the lock screen beyond the clock and possession arrow.
    public var isVisible: Bool {
        changes.contains { $0.field != .clock && $0.field != .possession }
    }

    /// Whether either score changed.
    public var changesScore: Bool {
        contains(.homeScore) || contains(.awayScore)
    }

    /// A few words on why this change matters, most important first: `score`, `end of Q1`, …
    public var reason: String {
        var parts: [String] = []
        if let phase = self[.phase], case .text(let name) = phase.new {
            switch GamePhase(rawValue: name) {
            case .live:
                if case .text(GamePhase.pregame.rawValue)? = self[.phase]?.old {
                    parts.append("tip-off")
                } else if case .int(let period)? = self[.period]?.new {
                    parts.append("\(GameState.periodLabel(period)) start")
                } else {
                    parts.append("period start")
                }
            case .endOfPeriod: parts.append("end of period")
            case .halftime: parts.append("halftime")
            case .final: parts.append("final")
            default: parts.append(name)
            }
        } else if contains(.period) {
            parts.append("new period")
        }
        if changesScore {
            if case .text(let play)? = self[.lastPlay]?.new { parts.append("score: \(play)") } else { parts.append("score") }
        } else if contains(.lastPlay) {
            if case .text(let play)? = self[.lastPlay]?.new { parts.append(play) }
        }
        if contains(.homeTimeouts) || contains(.awayTimeouts) { parts.append("timeout") }
        if contains(.homeFouls) || contains(.awayFouls) { parts.append("foul") }
        if contains(.homeInBonus) || contains(.awayInBonus) { parts.append("bonus") }
        if parts.isEmpty { parts.append(changes.map(\.field.rawValue).joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}

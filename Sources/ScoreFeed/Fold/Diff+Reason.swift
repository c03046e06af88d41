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
        // Built for every push: one pass over the changes, then appends to one string.
        var phase: Change?, period: Change?, lastPlay: Change?
        var score = false, timeout = false, foul = false, bonus = false
        for change in changes {
            switch change.field {
            case .phase: if phase == nil { phase = change }
            case .period: if period == nil { period = change }
            case .lastPlay: if lastPlay == nil { lastPlay = change }
            case .homeScore, .awayScore: score = true
            case .homeTimeouts, .awayTimeouts: timeout = true
            case .homeFouls, .awayFouls: foul = true
            case .homeInBonus, .awayInBonus: bonus = true
            case .clock, .possession, .lastScorer: break
            }
        }
        var text = "", parts = 0
        func part(_ words: String) {
            if parts > 0 { text += "; " }
            text += words
            parts += 1
        }
        if let phase, case .text(let name) = phase.new {
            switch GamePhase(rawValue: name) {
            case .live:
                if case .text(GamePhase.pregame.rawValue) = phase.old {
                    part("tip-off")
                } else if case .int(let number)? = period?.new {
                    part(GameState.periodLabel(number))
                    text += " start"
                } else {
                    part("period start")
                }
            case .endOfPeriod: part("end of period")
            case .halftime: part("halftime")
            case .final: part("final")
            default: part(name)
            }
        } else if period != nil {
            part("new period")
        }
        if score {
            part("score")
            if case .text(let play)? = lastPlay?.new {
                text += ": "
                text += play
            }
        } else if case .text(let play)? = lastPlay?.new {
            part(play)
        }
        if timeout { part("timeout") }
        if foul { part("foul") }
        if bonus { part("bonus") }
        if parts == 0 { text = changes.map(\.field.rawValue).joined(separator: ", ") }
        return text
    }
}

import Foundation
import ScoreFeedModel

extension Diff {
    /// Whether the change shows on the lock screen beyond the clock and possession arrow.
    public var isVisible: Bool {
        containsField { $0 != .clock && $0 != .possession }
    }

    /// Whether either score changed.
    public var changesScore: Bool {
        contains(.homeScore) || contains(.awayScore)
    }

    /// A few words on why this change matters, most important first: `score`, `end of Q1`, …
    public var reason: String {
        var text = JSONBytes(capacity: 96)
        appendReason(to: &text)
        return text.string()
    }

    /// ``reason``, then `why` in parentheses: a push record's reason (`score: … (priority 5)`),
    /// written as bytes and made a string once (each `String` append costs hundreds of
    /// instructions, and a push made five).
    func reason(saying why: String) -> String {
        var text = JSONBytes(capacity: 128)
        appendReason(to: &text)
        text.raw(" (")
        text.raw(text: why)
        text.raw(")")
        return text.string()
    }

    /// Appends ``reason``'s bytes to `text`: one pass over the changes, then the words.
    private func appendReason(to text: inout JSONBytes) {
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
        var parts = 0
        func separate() {
            if parts > 0 { text.raw("; ") }
            parts += 1
        }
        func part(_ words: StaticString) {
            separate()
            text.raw(words)
        }
        func part(text words: String) {
            separate()
            text.raw(text: words)
        }
        if let phase, case .text(let name) = phase.new {
            switch GamePhase(rawValue: name) {
            case .live:
                if case .text(GamePhase.pregame.rawValue) = phase.old {
                    part("tip-off")
                } else if case .int(let number)? = period?.new {
                    part(text: GameState.periodLabel(number))
                    text.raw(" start")
                } else {
                    part("period start")
                }
            case .endOfPeriod: part("end of period")
            case .halftime: part("halftime")
            case .final: part("final")
            default: part(text: name)
            }
        } else if period != nil {
            part("new period")
        }
        if score {
            part("score")
            if case .text(let play)? = lastPlay?.new {
                text.raw(": ")
                text.raw(text: play)
            }
        } else if case .text(let play)? = lastPlay?.new {
            part(text: play)
        }
        if timeout { part("timeout") }
        if foul { part("foul") }
        if bonus { part("bonus") }
        if parts == 0 {
            for (i, change) in changes.enumerated() {
                if i > 0 { text.raw(", ") }
                text.raw(text: change.field.rawValue)
            }
        }
    }
}

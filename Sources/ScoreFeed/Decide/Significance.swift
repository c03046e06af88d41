import Foundation
import ScoreFeedModel

/// How much a change matters to someone glancing at the lock screen; orders what is worth the budget.
public enum Significance: Int, Comparable, Hashable, Sendable, CaseIterable, Codable {
    /// Nothing the widget shows (substitutions and the like).
    case none
    /// Fouls, timeouts, possession, clock.
    case minor
    /// The score changed.
    case score
    /// Tip-off, end of a period, overtime, the final, a lead change or tie in the last 2:00 of
    /// the 4th or overtime.
    case critical

    public static func < (a: Significance, b: Significance) -> Bool { a.rawValue < b.rawValue }

    /// Classifies one folded change, given the state before it.
    public static func of(_ change: StateChange, before: GameState) -> Significance {
        let diff = change.diff, after = change.state
        if diff.isEmpty { return .none }
        if let phase = diff[.phase], case .text(let name) = phase.new {
            switch GamePhase(rawValue: name) {
            case .final, .endOfPeriod, .halftime: return .critical
            case .live:
                if before.phase == .pregame || after.period >= 5 { return .critical }
            default: break
            }
        }
        if diff.changesScore {
            let late = isCrunchTime(period: change.event.period, clock: change.event.clock)
            return late && before.margin.signum() != after.margin.signum() ? .critical : .score
        }
        return diff.isVisible || diff.contains(.possession) || diff.contains(.clock) ? .minor : .none
    }

    /// The last 2:00 of the 4th or of an overtime.
    public static func isCrunchTime(period: Int, clock: Double) -> Bool {
        period >= 4 && clock <= 120
    }
}

import Foundation

/// Checks each event against the game so far before it is folded. Pure value type.
///
/// Rejected events are reported and skipped; the fold never sees an impossible event.
public struct EventValidator: Sendable, Codable {
    /// What to do with one event.
    public enum Verdict: Hashable, Sendable {
        case accept
        /// Already applied (same sequence number); ignored and counted, not an error.
        case duplicate(ScoreFeedError)
        case reject(ScoreFeedError)
    }

    private var seen: Set<Int> = []
    private var period = 0
    private var ended = false

    public init() {}

    /// Length of `period` in seconds: 12:00 quarters, 5:00 overtimes.
    public static func length(ofPeriod period: Int) -> Double {
        period <= 4 ? 720 : 300
    }

    /// Checks `event` (found at `index` in the feed) and records it when accepted.
    public mutating func check(_ event: GameEvent, index: Int) -> Verdict {
        let verdict = self.verdict(event, index: index)
        if verdict == .accept {
            seen.insert(event.seq)
            period = event.period
            if case .gameEnd = event.kind { ended = true }
        }
        return verdict
    }

    /// What ``check(_:index:)`` would say about `event`, without recording anything.
    public func verdict(_ event: GameEvent, index: Int) -> Verdict {
        let location = ScoreFeedError.Location(eventIndex: index, sequence: event.seq)
        func reject(_ code: ScoreFeedError.Code, _ message: String) -> Verdict {
            .reject(ScoreFeedError(code, message, at: location))
        }
        if seen.contains(event.seq) {
            return .duplicate(ScoreFeedError(
                .duplicateSequence, "sequence \(event.seq) was already applied; ignored", at: location))
        }
        if ended {
            return reject(.afterGameEnd, "\(event.kind.typeName) after the game ended")
        }
        guard (1...99).contains(event.period) else {
            return reject(.invalidValue, "period \(event.period) is not between 1 and 99")
        }
        if event.period < period {
            return reject(.periodBackwards, "period \(event.period) after period \(period)")
        }
        let length = Self.length(ofPeriod: event.period)
        guard event.clock.isFinite, event.clock >= 0, event.clock <= length else {
            return reject(
                .clockOutOfRange,
                "clock \(GameClockText.format(event.clock)) outside 0:00–\(GameClockText.format(length)) of period \(event.period)")
        }
        switch event.kind {
        case .fieldGoal(let points, _):
            if event.team == nil { return reject(.missingTeam, "field goal without a team") }
            if !(2...3).contains(points) {
                return reject(.pointsOutOfRange, "field goal worth \(points) points; expected 2 or 3")
            }
        case .freeThrow(let attempt, let of, _, let points):
            if event.team == nil { return reject(.missingTeam, "free throw without a team") }
            if !(1...3).contains(points) {
                return reject(.pointsOutOfRange, "free throw worth \(points) points; expected 1–3")
            }
            if !(1...3).contains(of) || !(1...of).contains(attempt) {
                return reject(.invalidValue, "free throw \(attempt) of \(of)")
            }
        case .correction(let points):
            if event.team == nil { return reject(.missingTeam, "score correction without a team") }
            if points == 0 || abs(points) > 100 {
                return reject(.pointsOutOfRange, "correction of \(points) points; expected ±1–100")
            }
        default:
            break
        }
        return .accept
    }
}

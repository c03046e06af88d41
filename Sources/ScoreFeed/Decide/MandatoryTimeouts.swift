import Foundation

/// Tracks the NBA's mandatory timeouts: a regulation period's stretches down to 7:00 and down
/// to 3:00 each need a timeout; when one ends without, the first dead ball brings a long TV
/// timeout.
struct MandatoryTimeouts: Hashable, Sendable, Codable {
    private var period = 0
    /// Whether a timeout was taken in the stretch down to 7:00, and down to 3:00.
    private var first = false
    private var second = false

    /// Records `event` (a new period starts both stretches afresh; a timeout fills its stretch).
    mutating func observe(_ event: GameEvent) {
        if event.period != period {
            period = event.period
            first = false
            second = false
        }
        if case .timeout = event.kind {
            first = true
            if event.clock < 420 { second = true }
        }
    }

    /// A stretch ended without a timeout: the next dead ball brings one.
    func isDue(clock: Double) -> Bool {
        period <= 4 && ((clock < 420 && !first) || (clock < 180 && !second))
    }

    /// A stretch without a timeout ends within `window` seconds of game clock: the wait for the
    /// next score likely holds the TV timeout.
    func isNear(clock: Double, window: Double) -> Bool {
        period <= 4 && ((!first && clock >= 420 && clock <= 420 + window) || (!second && clock >= 180 && clock <= 180 + window))
    }
}

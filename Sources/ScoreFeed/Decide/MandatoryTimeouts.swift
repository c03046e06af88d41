import Foundation

/// Tracks the NBA's mandatory timeouts (Rule 5, Section VII): a regulation period needs one
/// timeout before 6:59 and a second before 2:59; when a mark passes without, the official scorer
/// takes a long TV timeout at the first dead ball.
struct MandatoryTimeouts: Hashable, Sendable, Codable {
    private var period = 0
    /// Timeouts taken in the period so far.
    private var taken = 0

    /// As the synthesized `Encodable` spells it in a checkpoint (``Situation``'s).
    func appendCheckpoint(to out: inout JSONBytes) {
        out.raw("{\"period\":")
        out.int(period)
        out.raw(",\"taken\":")
        out.int(taken)
        out.byte(UInt8(ascii: "}"))
    }

    /// Records `event` (a new period starts the count afresh).
    mutating func observe(_ event: GameEvent) {
        if event.period != period {
            period = event.period
            taken = 0
        }
        if case .timeout = event.kind { taken += 1 }
    }

    /// A mark passed without its timeout: the next dead ball brings one.
    func isDue(clock: Double) -> Bool {
        period <= 4 && ((clock < 420 && taken == 0) || (clock < 180 && taken < 2))
    }

    /// A mark without its timeout is within `window` seconds of game clock: the wait for the
    /// next score likely holds the TV timeout.
    func isNear(clock: Double, window: Double) -> Bool {
        period <= 4 && ((taken == 0 && clock >= 420 && clock <= 420 + window) || (taken < 2 && clock >= 180 && clock <= 180 + window))
    }
}

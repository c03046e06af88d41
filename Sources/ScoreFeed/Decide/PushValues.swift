import Foundation

/// How long the score on the lock screen likely stays the current one after each kind of
/// moment (``Situation/Kind``): for every kind, the chance that the next score is still to come
/// x seconds later, learned from real games (`scorefeed values`). From it follows what a
/// priority-10 push is worth at that moment when the priority-5 push carrying the same score
/// would arrive R seconds later: E[min(R, wait)], so the value follows the priority-5 delay.
public struct PushValues: Hashable, Sendable {
    /// Seconds between two points of a survival curve, and the last point.
    public static let step: Double = 5
    public static let horizon: Double = 600
    static var points: Int { Int(horizon / step) + 1 }

    /// For each kind, P(wait for the next score > k × `step`) for k = 0 … horizon / step.
    public private(set) var survival: [Situation.Kind: [Double]]
    /// Moments of each kind in the games the table was fit on.
    public private(set) var moments: [Situation.Kind: Int]
    /// Of them, the score changes of each kind.
    public private(set) var scoreMoments: [Situation.Kind: Int]
    /// Hours of game (first to last event) the table was fit on.
    public private(set) var hours: Double
    /// Wall-clock seconds per second of game clock, breaks included (about 2.9 in the NBA).
    public private(set) var secondsPerGameSecond: Double
    /// Per kind (in `Situation.Kind.allCases` order), the curve and ∫ survival from 0 to
    /// k × step: what a value is read from, without hashing on the hot path.
    private var curves: [[Double]] = []
    private var integrals: [[Double]] = []

    public init(
        survival: [Situation.Kind: [Double]], moments: [Situation.Kind: Int], scoreMoments: [Situation.Kind: Int],
        hours: Double, secondsPerGameSecond: Double
    ) {
        self.survival = survival
        self.moments = moments
        self.scoreMoments = scoreMoments
        self.hours = hours
        self.secondsPerGameSecond = secondsPerGameSecond
        let fallback = survival[.play] ?? Array(repeating: 1, count: Self.points)
        for kind in Situation.Kind.allCases {
            var curve = survival[kind] ?? fallback
            if curve.count < Self.points { curve += Array(repeating: curve.last ?? 0, count: Self.points - curve.count) }
            if curve.count > Self.points { curve.removeLast(curve.count - Self.points) }
            self.survival[kind] = curve
            var sums = [0.0]
            sums.reserveCapacity(curve.count)
            for k in 1..<curve.count { sums.append(sums[k - 1] + (curve[k - 1] + curve[k]) / 2 * Self.step) }
            curves.append(curve)
            integrals.append(sums)
        }
    }

    /// Seconds of correct screen a priority 10 likely buys at a moment of `kind` when the score
    /// would otherwise reach the screen `within` seconds later: E[min(within, wait)].
    public func value(_ kind: Situation.Kind, within: TimeInterval) -> TimeInterval {
        guard within > 0 else { return 0 }
        let ordinal = kind.ordinal
        let sums = integrals[ordinal], curve = curves[ordinal]
        guard within < Self.horizon else {
            // Past the last point the curve stays at its last value.
            return sums[sums.count - 1] + curve[curve.count - 1] * (within - Self.horizon)
        }
        let position = within / Self.step
        let k = Int(position)
        guard k + 1 < sums.count else {
            return sums[sums.count - 1] + curve[curve.count - 1] * (within - Self.horizon)
        }
        let fraction = (position - Double(k)) * Self.step
        let slope = (curve[k + 1] - curve[k]) / Self.step
        return sums[k] + curve[k] * fraction + slope * fraction * fraction / 2
    }

    /// Score changes per hour of game.
    public var scoresPerHour: Double { hours > 0 ? Double(scoreMoments.values.reduce(0, +)) / hours : 0 }

    /// Score changes of `kind` per hour of game.
    public func rate(_ kind: Situation.Kind) -> Double {
        hours > 0 ? Double(scoreMoments[kind] ?? 0) / hours : 0
    }

    /// Moments of `kind` per hour of game.
    public func momentRate(_ kind: Situation.Kind) -> Double {
        hours > 0 ? Double(moments[kind] ?? 0) / hours : 0
    }

    /// The chance the next score is still to come `after` seconds from a moment of `kind`.
    public func survival(_ kind: Situation.Kind, after: TimeInterval) -> Double {
        guard let curve = survival[kind] else { return 0 }
        let position = min(max(0, after), Self.horizon) / Self.step
        let k = min(Int(position), curve.count - 1)
        guard k + 1 < curve.count else { return curve[k] }
        return curve[k] + (curve[k + 1] - curve[k]) * (position - Double(k))
    }
}

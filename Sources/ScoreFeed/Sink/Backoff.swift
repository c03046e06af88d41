import Foundation

/// Exponential backoff with jitter, as a pure function of the attempt and a random number, so
/// tests can pin the random part and check the delays exactly.
///
/// The delay after the n-th consecutive failure is `min(maximum, initial × multiplierⁿ⁻¹)`,
/// of which the share `jitter` is random: with the default 0.5 it lies between half and all of
/// that ("equal jitter"), so many senders that failed together do not retry in lockstep.
public struct Backoff: Hashable, Sendable {
    /// Seconds after the first failure (before jitter).
    public var initial: TimeInterval
    /// Growth per further failure (at least 1).
    public var multiplier: Double
    /// The longest delay (before jitter).
    public var maximum: TimeInterval
    /// 0: no jitter; 0.5: between half and all of the delay; 1: anywhere from zero ("full jitter").
    public var jitter: Double

    public init(initial: TimeInterval = 0.5, multiplier: Double = 2, maximum: TimeInterval = 30, jitter: Double = 0.5) {
        self.initial = max(0, initial)
        self.multiplier = max(1, multiplier)
        self.maximum = max(0, maximum)
        self.jitter = min(1, max(0, jitter))
    }

    /// Seconds to wait after the `failures`-th consecutive failure (1 for the first), given
    /// `random` in 0..<1.
    public func delay(afterFailure failures: Int, random: Double) -> TimeInterval {
        let exponent = Double(max(0, failures - 1))
        let ceiling = min(maximum, initial * pow(multiplier, min(exponent, 64)))
        return ceiling * (1 - jitter * min(1, max(0, random)))
    }
}

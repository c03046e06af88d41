import Foundation

/// When to poll an endpoint next: every `interval` while it answers, backing off with jitter
/// while it fails, and never before a `Retry-After` it gave. Pure: handed the time and the
/// random number.
public struct PollSchedule: Hashable, Sendable {
    /// What the last request gave.
    public enum Outcome: Hashable, Sendable {
        /// A new body.
        case fresh
        /// `304 Not Modified`, or a body that says nothing new.
        case unchanged
        /// No usable answer; the server may have said how long to wait.
        case failed(retryAfter: TimeInterval?)
        /// A 404 for a game not published yet (before tip-off): asked again at the interval, as
        /// it may appear at any poll; the failures before it are kept, so a 404 between two
        /// failures does not undo their backoff.
        case notYetPublished
    }

    public var interval: TimeInterval
    public var backoff: Backoff
    /// The longest `Retry-After` honoured.
    public static let longestRetryAfter: TimeInterval = 600

    /// Failures in a row.
    public private(set) var failures = 0

    public init(interval: TimeInterval, backoff: Backoff = Backoff(initial: 1, multiplier: 2, maximum: 60, jitter: 0.5)) {
        self.interval = max(0.05, interval)
        self.backoff = backoff
    }

    /// The moment of the next request after `outcome` at `now`; `random` in 0..<1 sets the jitter.
    public mutating func next(after outcome: Outcome, now: Date, random: Double) -> Date {
        switch outcome {
        case .fresh, .unchanged:
            failures = 0
            return now.addingTimeInterval(interval)
        case .notYetPublished:
            return now.addingTimeInterval(interval)
        case .failed(let retryAfter):
            failures += 1
            // Never sooner than the regular interval, nor than the server asked (up to ten
            // minutes: a live game is not parked for longer on one header).
            let wait = max(interval, backoff.delay(afterFailure: failures, random: random), min(retryAfter ?? 0, Self.longestRetryAfter))
            return now.addingTimeInterval(wait)
        }
    }

    /// The longest ``next(after:now:random:)`` can wait after `outcome` (its jitter only
    /// shortens), asked before `next` counts `outcome`: what a wait that must outlast the next
    /// request waits for.
    public func longestWait(after outcome: Outcome) -> TimeInterval {
        guard case .failed(let retryAfter) = outcome else { return interval }
        return max(interval, backoff.delay(afterFailure: failures + 1, random: 0), min(retryAfter ?? 0, Self.longestRetryAfter))
    }
}

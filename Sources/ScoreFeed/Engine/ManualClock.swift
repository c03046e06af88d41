import Foundation

/// A clock that moves only when told to: replay advances it to each event's feed time, tests
/// advance it step by step. `sleep` does not wait: callers that use a manual clock drive time
/// themselves.
public final class ManualClock: EngineClock, @unchecked Sendable {
    private let current: AtomicDate

    public init(_ start: Date = Date(timeIntervalSince1970: 0)) {
        current = AtomicDate(start)
    }

    public var now: Date { current.value }

    /// Moves the clock to `date`; it never goes backwards.
    public func advance(to date: Date) {
        current.advance(to: date)
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        advance(to: now.addingTimeInterval(seconds))
    }

    public func sleep(until deadline: Date) async throws {
        advance(to: deadline)
    }
}

import Foundation
import Synchronization

/// A clock that moves only when told to: replay advances it to each event's feed time, tests
/// advance it step by step. `sleep` does not wait: callers that use a manual clock drive time
/// themselves.
public final class ManualClock: EngineClock, @unchecked Sendable {
    /// The time, read and moved without a lock (every engine call reads it): the bits of its
    /// seconds since the reference date.
    private let current: Atomic<UInt64>

    public init(_ start: Date = Date(timeIntervalSince1970: 0)) {
        current = Atomic(start.timeIntervalSinceReferenceDate.bitPattern)
    }

    public var now: Date { Date(timeIntervalSinceReferenceDate: Double(bitPattern: current.load(ordering: .acquiring))) }

    /// Moves the clock to `date`; it never goes backwards.
    public func advance(to date: Date) {
        let new = date.timeIntervalSinceReferenceDate
        var old = current.load(ordering: .relaxed)
        while new > Double(bitPattern: old) {
            let (exchanged, found) = current.compareExchange(
                expected: old, desired: new.bitPattern, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
            if exchanged { return }
            old = found
        }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        advance(to: now.addingTimeInterval(seconds))
    }

    public func sleep(until deadline: Date) async throws {
        advance(to: deadline)
    }
}

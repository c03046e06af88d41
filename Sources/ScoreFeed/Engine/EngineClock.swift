import Foundation

/// The engine's source of time, injected so replays run on virtual time and tests on a manual
/// clock, while a live service uses the system clock.
public protocol EngineClock: Sendable {
    /// The current time (Unix-based `Date`).
    var now: Date { get }
    /// Suspends until `deadline` (or returns at once if it has passed).
    func sleep(until deadline: Date) async throws
}

/// Wall-clock time.
public struct SystemClock: EngineClock {
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .seconds(seconds)) }
    }
}

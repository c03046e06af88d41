import Foundation
import ScoreFeed
import Synchronization

/// A ``ManualClock`` that also notes how long each `sleep` asked to wait, so tests can check
/// backoff and `Retry-After` exactly without waiting.
final class SleepRecordingClock: EngineClock {
    let manual: ManualClock
    private let log = Mutex<[TimeInterval]>([])

    init(_ start: Date = Make.start) {
        manual = ManualClock(start)
    }

    var now: Date { manual.now }

    /// Every wait requested, in order.
    var sleeps: [TimeInterval] { log.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        manual.advance(by: seconds)
    }

    func sleep(until deadline: Date) async throws {
        let wait = deadline.timeIntervalSince(manual.now)
        log.withLock { $0.append(wait) }
        try await manual.sleep(until: deadline)
    }
}

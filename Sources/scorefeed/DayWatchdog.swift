import Foundation

/// Ends `simulate` when no day-run has been handed on for ``limit`` seconds of wall time. A live
/// layer that loops without ever suspending (a `while` whose condition never changes) never gives
/// the simulated clock back, so no invariant can say so: the run would hang, its memory growing.
/// A day-run takes seconds; days are handed on in order, so the one waited for is the stuck one.
final class DayWatchdog: @unchecked Sendable {
    let limit: TimeInterval
    private let lock = NSLock()
    private var handed = 0
    private var last = Date()

    init(limit: TimeInterval) {
        self.limit = limit
    }

    /// A day-run was handed on (in order).
    func handedOne() {
        lock.withLock {
            handed += 1
            last = Date()
        }
    }

    /// Watches on a thread of its own, and calls `stuck` with the index of the day-run waited for
    /// and the seconds waited, once the wait passes ``limit``.
    func start(stuck: @escaping @Sendable (_ index: Int, _ waited: TimeInterval) -> Never) {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: min(1, limit / 4))
                let (index, waited) = lock.withLock { (handed, Date().timeIntervalSince(last)) }
                if waited > limit { stuck(index, waited) }
            }
        }
        thread.start()
    }
}

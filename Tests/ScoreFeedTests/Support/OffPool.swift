import Foundation

/// Runs blocking work (a child process to its end, a pipe read) on a thread of its own, off
/// Swift's cooperative pool. The pool has one thread per core: a test that blocks one for a
/// child's whole life stalls every other test of the run on a 2-core machine.
enum OffPool {
    /// `work` is let go before the caller resumes: a caller that lent it a closure
    /// (`withoutActuallyEscaping`, as `JoinTests.run` does) finds it unescaped. The thread's own
    /// block outlives the resume, and held `work` in it: the process crashed, now and then, with
    /// "closure argument was escaped in withoutActuallyEscaping block".
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let held = Held(work)
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let result = Result { try held.take()() }
                continuation.resume(with: result)
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// The work, handed to the thread once and let go as it is taken.
    private final class Held<T>: @unchecked Sendable {
        private var work: (@Sendable () throws -> T)?
        init(_ work: @escaping @Sendable () throws -> T) { self.work = work }
        func take() -> @Sendable () throws -> T {
            defer { work = nil }
            return work!
        }
    }
}

/// As many places as the machine has cores, for the tests' CPU-heavy work (a simulated day,
/// `SimulationTests.run(_:)`): a test waits for one (suspended, not blocking a
/// thread), in the order they asked. Without the wait, the scenario suites started about 90
/// simulated days at once on 2 cores, and a wall-clock test beside them (its child processes, its
/// own checks) got a sliver of the machine: it passed its one-minute limit (CI at e71f76a).
actor Cores {
    static let shared = Cores(ProcessInfo.processInfo.activeProcessorCount)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = max(1, count) }

    /// `work` while holding one place; the place is given back however `work` ends.
    func using<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { giveBack() }
        return try await work()
    }

    private func giveBack() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

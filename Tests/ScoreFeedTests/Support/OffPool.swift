import Foundation

/// Runs blocking work (a child process to its end, a pipe read) on a thread of its own, off
/// Swift's cooperative pool. The pool has one thread per core: a test that blocks one for a
/// child's whole life stalls every other test of the run on a 2-core machine.
enum OffPool {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Runs work that keeps a core busy for seconds (a simulated day) on a thread of its own once
    /// one of the run's ``Cores`` is free. Without the wait, the scenario suites started about 90
    /// such threads at once on 2 cores, and a child process that a wall-clock test spawned beside
    /// them got about 1/90 of the machine: its test passed its one-minute limit (CI at e71f76a).
    static func compute<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await Cores.shared.using { try await run(work) }
    }
}

/// As many places as the machine has cores, for the tests' CPU-heavy work: a test waits for one
/// (suspended, not blocking a thread), in the order they asked.
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

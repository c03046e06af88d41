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
}

import Synchronization

/// A lock for critical sections a few microseconds long that threads of the pool take side by
/// side (a journal's buffers and writes, an output's write call): the standard library's `Mutex`,
/// which spins a moment before it asks the kernel to sleep. `NSLock` sleeps at once, so two games
/// sending side by side on two cores slept and woke each other at about every push.
final class ShortLock: Sendable {
    private let mutex = Mutex(())

    init() {}

    /// Runs `body` holding the lock.
    func withLock<Result: ~Copyable, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { (_: inout Void) throws(Failure) -> Result in
            nonisolated(unsafe) let result = try body()
            return result
        }
    }
}

import Foundation

/// A signal for one waiter: ``wait()`` returns once ``signal()`` is called (at once when it was
/// called since the last wait) or the waiting task is cancelled. The live service's timer sleeps
/// until its next deadline and is woken by this when a sooner one is scheduled, instead of
/// looking again ten times a second.
final class WakeUp: @unchecked Sendable {
    private let lock = NSLock()
    private var waiter: CheckedContinuation<Void, Never>?
    private var signalled = false

    /// Wakes the waiter, or the next wait when none waits now.
    func signal() {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard let waiter else {
                signalled = true
                return nil
            }
            self.waiter = nil
            return waiter
        }
        waiting?.resume()
    }

    /// Returns once signalled or cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if signalled || Task.isCancelled {
                        signalled = false
                        return true
                    }
                    waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume()
        }
    }
}

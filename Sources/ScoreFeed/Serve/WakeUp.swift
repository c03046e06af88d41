import Foundation

/// A signal for one waiter: ``wait()`` returns once ``signal()`` is called (at once when it was
/// called since the last wait) or the waiting task is cancelled. The live service's timer sleeps
/// until its next deadline and is woken by this when a sooner one is scheduled, instead of
/// looking again every so often.
final class WakeUp: @unchecked Sendable {
    private let lock = NSLock()
    private var waiter: OneShot?
    private var signalled = false

    /// Wakes the waiter, or the next wait when none waits now.
    func signal() {
        let waiting = lock.withLock { () -> OneShot? in
            guard let waiter else {
                signalled = true
                return nil
            }
            self.waiter = nil
            return waiter
        }
        waiting?.fire()
    }

    /// Returns once signalled or cancelled.
    func wait() async {
        let shot = OneShot()
        arm(shot)
        await shot.wait()
        disarm(shot)
    }

    /// Sleeps on `clock` until `deadline` (not at all when it has passed) or a signal, whichever
    /// comes first. On a ``SimulatedClock`` that is one sleeper the signal can end
    /// (``SimulatedClock/sleep(until:or:)``); on any other clock, a race of the clock's sleep and
    /// ``wait()`` in two child tasks.
    func sleep(on clock: any EngineClock, until deadline: Date) async {
        guard deadline > clock.now else { return }
        if let simulated = clock as? SimulatedClock { return await simulated.sleep(until: deadline, or: self) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline) }
            group.addTask { await self.wait() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Makes `shot` the waiter: a signal fires it (at once when one came since the last wait).
    func arm(_ shot: OneShot) {
        let now = lock.withLock { () -> Bool in
            if signalled {
                signalled = false
                return true
            }
            waiter = shot
            return false
        }
        if now { shot.fire() }
    }

    /// `shot` no longer waits (something else woke it): a signal from now on is kept for the next wait.
    func disarm(_ shot: OneShot) {
        lock.withLock {
            if waiter === shot { waiter = nil }
        }
    }
}

/// One suspended task that any of several wakers may resume (a signal, a deadline, a
/// cancellation): the first ``fire()`` resumes it, the others do nothing; fired before the task
/// waits, ``wait()`` returns at once.
final class OneShot: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var fired = false

    /// Suspends until fired, or the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if fired { return true }
                    self.continuation = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }

    /// Resumes the waiting task, the first time only.
    func fire() {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard !fired else { return nil }
            fired = true
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }
}

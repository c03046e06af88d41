import Foundation

/// Runs work at deadlines until there is none or the task is cancelled: asks when the work is
/// next due, sleeps on the clock until then, does it with the clock's time, and asks again.
///
/// The one "sleep until the next deadline, do the work, repeat" loop of the live service (its
/// timer, its drain, its channel settling), the poller and the scoreboard retries, so that each
/// says only when and what. The clock is injected: ``SystemClock`` live; with a ``ManualClock``
/// (whose sleep moves time to the deadline at once) a test runs the loop without waiting.
public struct DeadlineLoop: Sendable {
    /// What the loop reads the time from and sleeps on.
    public var clock: any EngineClock

    public init(clock: any EngineClock = SystemClock()) {
        self.clock = clock
    }

    /// Until `next` returns nil or the task is cancelled: sleeps until the moment `next` returned
    /// (not at all when it has passed), then runs `work` with the clock's time. A cancelled task
    /// stops before the next `work`, also in the middle of a sleep. Runs on the caller's actor,
    /// so both closures may use its state.
    public func run(
        isolation: isolated (any Actor)? = #isolation,
        next: () async throws -> Date?,
        work: (_ now: Date) async throws -> Void
    ) async rethrows {
        try await run(isolation: isolation, wakeUp: nil, next: next, work: work)
    }

    /// ``run(isolation:next:work:)`` whose sleep `wakeUp` also ends: `work` then runs at once,
    /// and `next` is asked again. A loop that is told when its next deadline moves sooner sleeps
    /// until its deadline instead of looking again every so often.
    func run(
        isolation: isolated (any Actor)? = #isolation,
        wakeUp: WakeUp?,
        next: () async throws -> Date?,
        work: (_ now: Date) async throws -> Void
    ) async rethrows {
        while !Task.isCancelled, let deadline = try await next() {
            if let wakeUp {
                await wakeUp.sleep(on: clock, until: deadline)
            } else {
                do {
                    try await clock.sleep(until: deadline)
                } catch {
                    return  // cancelled in the sleep
                }
            }
            guard !Task.isCancelled else { return }
            try await work(clock.now)
        }
    }
}

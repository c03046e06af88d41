import Foundation

/// A clock for simulations and tests of the live layer: time moves only when told to, and a
/// sleeper stays suspended until time reaches its deadline (or its task is cancelled), as on the
/// system clock. A test runs the tasks under test, waits until they are all asleep
/// (``sleepers(atLeast:)``), then moves time to the next deadline (``advanceToNextDeadline()``):
/// hours of polling, retries and timers in milliseconds, the same way every time.
///
/// Unlike ``ManualClock`` (feed time, which its engine moves itself and whose `sleep` jumps
/// ahead), no sleeper moves this clock.
public final class SimulatedClock: EngineClock, @unchecked Sendable {
    private struct Sleeper {
        var id: Int
        var deadline: Date
        var waker: Waker
    }

    /// What a sleeper's deadline resumes: a task in ``sleep(until:)``, or one in
    /// ``sleep(until:or:)`` that a signal may wake first.
    private enum Waker {
        case task(CheckedContinuation<Void, any Error>)
        case shot(OneShot)

        func wake() {
            switch self {
            case .task(let continuation): continuation.resume()
            case .shot(let shot): shot.fire()
            }
        }
    }

    private let lock = NSLock()
    /// The time, moved under the lock and read without it (every engine call reads it).
    private let time: AtomicDate
    private var current: Date { time.value }
    /// Latest deadline first (then the reverse of the order they were put to sleep): the next
    /// deadline is the last, and the sleepers a move wakes are a suffix, taken from the end.
    private var sleeping: [Sleeper] = []
    private var nextId = 0
    /// A task waiting for a number of sleepers (or for a run's work to return).
    private struct Watcher {
        var id: Int
        var count: Int
        var run: Int?
        var continuation: CheckedContinuation<Void, Never>
    }

    private var watchers: [Watcher] = []
    /// Runs whose work has returned, until their driver sees it.
    private var finishedRuns: Set<Int> = []

    public init(_ start: Date = Date(timeIntervalSince1970: 0)) {
        time = AtomicDate(start)
    }

    public var now: Date { current }

    /// Suspends until the clock reaches `deadline` (at once when it has); throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Date) async throws {
        let id = lock.withLock {
            nextId += 1
            return nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, watchers) = lock.withLock { () -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= current { return (.success(()), []) }
                    insert(Sleeper(id: id, deadline: deadline, waker: .task(continuation)))
                    return (nil, takeSatisfiedWatchers())
                }
                for watcher in watchers { watcher.resume() }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            if case .task(let continuation) = remove(id)?.waker { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Suspends until the clock reaches `deadline`, `wakeUp` is signalled (at once when it was
    /// since its last wait) or the task is cancelled, whichever comes first. What a race of
    /// ``sleep(until:)`` and ``WakeUp/wait()`` in two child tasks does, with one sleeper and no
    /// tasks: the live service's timer sleeps so at every deadline of a simulated day.
    func sleep(until deadline: Date, or wakeUp: WakeUp) async {
        let shot = OneShot()
        let asleep = lock.withLock { () -> (id: Int, watchers: [CheckedContinuation<Void, Never>])? in
            nextId += 1
            guard deadline > current else { return nil }
            insert(Sleeper(id: nextId, deadline: deadline, waker: .shot(shot)))
            return (nextId, takeSatisfiedWatchers())
        }
        guard let (id, watchers) = asleep else { return }
        for watcher in watchers { watcher.resume() }
        wakeUp.arm(shot)
        await shot.wait()
        wakeUp.disarm(shot)
        // Woken by the signal or a cancellation: it sleeps no more.
        _ = remove(id)
    }

    /// Puts a sleeper in its place: before every sleeper due no later, so equal deadlines wake in
    /// the order they were put to sleep (called under the lock).
    private func insert(_ sleeper: Sleeper) {
        var low = 0, high = sleeping.count
        while low < high {
            let middle = (low + high) / 2
            if sleeping[middle].deadline > sleeper.deadline { low = middle + 1 } else { high = middle }
        }
        sleeping.insert(sleeper, at: low)
    }

    /// Takes sleeper `id` out, if it still sleeps.
    private func remove(_ id: Int) -> Sleeper? {
        lock.withLock {
            guard let index = sleeping.firstIndex(where: { $0.id == id }) else { return nil }
            return sleeping.remove(at: index)
        }
    }

    /// How many tasks sleep on the clock now.
    public var sleeperCount: Int { lock.withLock { sleeping.count } }

    /// The earliest deadline a sleeper waits for; nil when none sleeps.
    public var nextDeadline: Date? { lock.withLock { sleeping.last?.deadline } }

    /// Returns once at least `count` tasks sleep on the clock: the tasks under test have done all
    /// they can at this moment. Returns at once when the task is cancelled.
    public func sleepers(atLeast count: Int) async {
        await wait(forSleepers: count, orRun: nil)
    }

    /// Runs `work` to its end on simulated time: each time at least `sleepers` tasks sleep on the
    /// clock (everything that can run at this moment has), time moves to the next deadline.
    /// Cancelling the caller cancels `work`, and time stops moving.
    public func run<T: Sendable>(whenAsleep sleepers: Int = 1, _ work: @escaping @Sendable () async -> T) async -> T {
        let run = lock.withLock {
            nextId += 1
            return nextId
        }
        let task = Task {
            let value = await work()
            finish(run)
            return value
        }
        return await withTaskCancellationHandler {
            while true {
                await wait(forSleepers: sleepers, orRun: run)
                // Done, or cancelled (the work is cancelled with it): time moves no more.
                if lock.withLock({ finishedRuns.remove(run) != nil }) || Task.isCancelled { return await task.value }
                advanceToNextDeadline()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Returns once `count` tasks sleep, `run` has finished, or the task is cancelled.
    private func wait(forSleepers count: Int, orRun run: Int?) async {
        let id = lock.withLock {
            nextId += 1
            return nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock {
                    if sleeping.count >= count || Task.isCancelled || run.map(finishedRuns.contains) == true { return true }
                    watchers.append(Watcher(id: id, count: count, run: run, continuation: continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let watcher = lock.withLock { () -> Watcher? in
                guard let index = watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return watchers.remove(at: index)
            }
            watcher?.continuation.resume()
        }
    }

    /// `run`'s work has returned: its driver stops.
    private func finish(_ run: Int) {
        let waiting = lock.withLock { () -> [Watcher] in
            finishedRuns.insert(run)
            let mine = watchers.filter { $0.run == run }
            watchers.removeAll { $0.run == run }
            return mine
        }
        for watcher in waiting { watcher.continuation.resume() }
    }

    /// Moves the clock to `date` (never back) and wakes the sleepers it reaches (resumed earliest
    /// deadline first).
    public func advance(to date: Date) {
        let woken = lock.withLock { () -> [Waker] in
            time.advance(to: date)
            var due: [Waker] = []
            while let last = sleeping.last, last.deadline <= current {
                due.append(last.waker)
                sleeping.removeLast()
            }
            return due
        }
        for waker in woken { waker.wake() }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        advance(to: now.addingTimeInterval(seconds))
    }

    /// Moves the clock to the earliest deadline a sleeper waits for, waking it (and any other
    /// sleeper due then); returns that moment, or nil (changing nothing) when none sleeps.
    @discardableResult
    public func advanceToNextDeadline() -> Date? {
        guard let next = nextDeadline else { return nil }
        advance(to: next)
        return next
    }

    /// The watchers whose count the sleepers now reach, removed (called under the lock).
    private func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
        guard !watchers.isEmpty else { return [] }
        let satisfied = watchers.filter { $0.count <= sleeping.count }.map(\.continuation)
        watchers.removeAll { $0.count <= sleeping.count }
        return satisfied
    }
}

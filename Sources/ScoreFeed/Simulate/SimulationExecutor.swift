import Foundation
import Synchronization

/// Runs a simulation's tasks one job at a time on the calling thread, in the order they became
/// ready or in a seeded shuffle of it, and moves a ``SimulatedClock`` only when no job is left:
/// every task is then asleep on the clock or waiting for one that is. So a whole live day
/// (pollers, the service's timer, engines, sinks) runs the same way every time for one seed, as
/// fast as one core allows, with no thread racing another (the deterministic simulation of
/// FoundationDB and TigerBeetle); and other seeds try the other orders that threads could take
/// at one instant (tasks ready together are not ordered by anything in the live code).
///
/// Every task of the work must inherit the executor: child tasks (`async let`, task groups) do;
/// a `Task {}` or a thread of its own inside the work escapes it, and a simulation whose jobs
/// all wait for something outside ends as stuck.
public final class SimulationExecutor: TaskExecutor, @unchecked Sendable {
    /// The jobs ready to run, in the order they became ready.
    private let jobs = Mutex<[UnownedJob]>([])
    /// Shuffles each piece of ready jobs; nil: they run in the order they became ready.
    private var order: SeededRandom?
    /// Jobs run so far.
    private var ran = 0

    public init(shuffling seed: UInt64? = nil) {
        order = seed.map { SeededRandom(seed: $0) }
    }

    /// The most jobs one moment of simulated time may run: far beyond what a day's busiest
    /// moment needs (a restart's catch-up of every game), and reached in seconds by a loop that
    /// never waits.
    public static let maxJobsPerMoment = 2_000_000

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    /// How `run(on:until:_:)` ended.
    public enum Ending<Value: Sendable>: Sendable {
        case finished(Value)
        /// No job could run, no task slept on the clock, and the work had not returned: it waits
        /// for something that will never come.
        case stuck(at: Date)
        /// The clock reached `limit` first: the work was killed there (or at the disk step it
        /// waited for after it, ``DiskStepKill``), then ran to its end.
        case timedOut(Value, at: Date)
        /// ``maxJobsPerMoment`` jobs ran without time moving: a loop that never waits. The work
        /// is abandoned where it stands.
        case spinning(at: Date)
    }

    /// Runs `work` on a fresh executor and `clock` until it returns, moving the clock to the next
    /// deadline whenever every task is waiting. Blocks the calling thread (call it from a thread
    /// of its own, not from Swift's cooperative pool).
    ///
    /// `shuffling`: a seed for the order of the jobs ready at once (see the type); nil runs them in
    /// the order they became ready.
    ///
    /// At `limit` the work is killed: the clock moves to `limit`, up to `jobs` more jobs run (a
    /// crash lands between any two steps), `killed` is called, and the work is cancelled and runs
    /// to its end (what it does after `killed` is the caller's to ignore).
    public static func run<Value: Sendable>(
        on clock: SimulatedClock, until limit: Date = .distantFuture, jobs: Int = 0, shuffling seed: UInt64? = nil,
        killed: () -> Void = {}, _ work: @escaping @Sendable () async -> Value
    ) -> Ending<Value> {
        var steps = 0
        return run(on: clock, until: limit, jobs: jobs, shuffling: seed, steps: &steps, killed: killed, work)
    }

    /// ``run(on:until:jobs:shuffling:killed:_:)`` that adds to `steps` the jobs it ran: the
    /// simulation's unit of work (a task resumed, an actor entered or left), a figure of what a
    /// day costs that no host's noise moves.
    ///
    /// `atDiskStep`: the work is not killed at `limit` but runs on until the kill fires inside
    /// a change to the disk (the kill does what `killed` does), or, when none comes within its
    /// wait, at the wait's end, as at `limit`; work that ends during the wait is killed as it
    /// ends (it ran past its planned stop).
    public static func run<Value: Sendable>(
        on clock: SimulatedClock, until limit: Date = .distantFuture, jobs: Int = 0, shuffling seed: UInt64? = nil,
        steps: inout Int, atDiskStep diskKill: DiskStepKill? = nil, killed: () -> Void = {},
        _ work: @escaping @Sendable () async -> Value
    ) -> Ending<Value> {
        let executor = SimulationExecutor(shuffling: seed)
        defer { steps += executor.ran }
        let result = Box<Value>()
        let task = Task(executorPreference: executor) {
            result.value = await work()
        }
        // The kill's latest moment, and when it came.
        let deadline = diskKill?.deadline ?? limit
        var killedAt: Date?
        /// A kill at a moment: no step of what the work does as it winds down kills it again.
        func killHere() {
            diskKill?.disarm()
            killed()
        }
        while true {
            guard executor.runUntilIdle() else { return .spinning(at: clock.now) }
            // Killed inside a step: what the work did since went nowhere; now it winds down.
            if killedAt == nil, let fired = diskKill?.firedAt {
                killedAt = fired
                task.cancel()
                continue
            }
            if let value = result.value {
                if let killedAt { return .timedOut(value, at: killedAt) }
                // Done while its kill waited for a step: it ran past its planned stop, so the kill
                // comes as it exits.
                if diskKill != nil, clock.now > limit {
                    killHere()
                    return .timedOut(value, at: clock.now)
                }
                diskKill?.disarm()
                return .finished(value)
            }
            let next = clock.nextDeadline
            if killedAt == nil, next.map({ $0 > deadline }) ?? true, limit < .distantFuture {
                clock.advance(to: deadline)
                var ran = 0
                while ran < jobs, diskKill?.firedAt == nil, let job = executor.next() {
                    job.runSynchronously(on: executor.asUnownedTaskExecutor())
                    ran += 1
                }
                executor.ran += ran
                if let fired = diskKill?.firedAt {
                    killedAt = fired
                } else {
                    killHere()
                    killedAt = deadline
                }
                task.cancel()
                continue
            }
            // Nothing can run and nothing sleeps; or, killed, it keeps sleeping for days.
            guard let next, !(killedAt != nil && next > deadline.addingTimeInterval(2 * 86_400)) else { return .stuck(at: clock.now) }
            clock.advance(to: next)
        }
    }

    /// Runs every job that is ready, and those they make ready, until none is; false when
    /// ``maxJobsPerMoment`` ran and more are ready.
    private func runUntilIdle() -> Bool {
        var ran = 0
        defer { self.ran += ran }
        let executor = asUnownedTaskExecutor()
        // The ready jobs are taken in one piece and run in order (or shuffled); those they make
        // ready wait for the next piece: the same order as one job at a time, one lock per piece.
        var batch: [UnownedJob] = []
        while true {
            jobs.withLock { swap(&batch, &$0) }
            guard !batch.isEmpty else { return true }
            if batch.count > 1, order != nil { batch.shuffle(using: &order!) }
            for job in batch {
                job.runSynchronously(on: executor)
                ran += 1
            }
            batch.removeAll(keepingCapacity: true)
            if ran >= Self.maxJobsPerMoment { return false }
        }
    }

    private func next() -> UnownedJob? {
        jobs.withLock { jobs in jobs.isEmpty ? nil : jobs.removeFirst() }
    }

    /// The work's value, set on the executor's thread.
    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
    }
}

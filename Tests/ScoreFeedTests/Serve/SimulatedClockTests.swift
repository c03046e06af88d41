import Foundation
import Testing
@testable import ScoreFeed

/// The clock of simulations: sleepers stay suspended until time is moved to their deadline.
@Suite("SimulatedClock")
struct SimulatedClockTests {
    static let t0 = Date(timeIntervalSince1970: 1_739_240_000)

    /// Records the order in which sleepers woke.
    actor Woken {
        var names: [String] = []
        func add(_ name: String) { names.append(name) }
    }

    @Test func sleepersWaitUntilTimeReachesTheirDeadlineEarliestFirst() async throws {
        let clock = SimulatedClock(Self.t0)
        let woken = Woken()
        let tasks = [("late", 30.0), ("early", 10.0), ("middle", 20.0)].map { name, after in
            Task {
                try await clock.sleep(until: Self.t0.addingTimeInterval(after))
                await woken.add(name)
            }
        }
        await clock.sleepers(atLeast: 3)
        #expect(await woken.names.isEmpty, "nobody wakes while time stands still")
        #expect(clock.nextDeadline == Self.t0.addingTimeInterval(10))
        #expect(clock.advanceToNextDeadline() == Self.t0.addingTimeInterval(10))
        try await tasks[1].value
        #expect(await woken.names == ["early"])
        #expect(clock.sleeperCount == 2)
        clock.advance(by: 100)
        for task in tasks { try await task.value }
        #expect(Set(await woken.names) == ["early", "middle", "late"])
        #expect(clock.now == Self.t0.addingTimeInterval(110))
        #expect(clock.advanceToNextDeadline() == nil, "none sleeps")
    }

    @Test func aPassedDeadlineReturnsAtOnceAndTimeNeverGoesBack() async throws {
        let clock = SimulatedClock(Self.t0)
        try await clock.sleep(until: Self.t0.addingTimeInterval(-5))
        try await clock.sleep(until: Self.t0)
        clock.advance(to: Self.t0.addingTimeInterval(-60))
        #expect(clock.now == Self.t0)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledSleeperThrowsAndLeaves() async {
        let clock = SimulatedClock(Self.t0)
        let task = Task { try await clock.sleep(until: Self.t0.addingTimeInterval(3600)) }
        await clock.sleepers(atLeast: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == Self.t0, "cancelling moves no time")
    }

    /// The timer's sleep (``SimulatedClock/sleep(until:or:)``): one sleeper that ends at its
    /// deadline or at a signal, whichever comes first, and leaves the clock either way; a signal
    /// that found no sleeper ends the next sleep at once, and a cancelled task does not sleep.
    /// (No time limit: it waits for no wall time, and its time from the run's start measures the
    /// backlog of the run's two-thread pool; in CI beside `../shared` it once took 167 s from its
    /// start for milliseconds of work, and a one-minute limit failed the run.)
    @Test func aSleepEndsAtItsDeadlineOrASignalWhicheverIsFirst() async {
        let clock = SimulatedClock(Self.t0)
        let wakeUp = WakeUp()
        // The signal first: the sleeper leaves the clock, and time has not moved.
        let signalled = Task { await clock.sleep(until: Self.t0.addingTimeInterval(60), or: wakeUp) }
        await clock.sleepers(atLeast: 1)
        wakeUp.signal()
        await signalled.value
        #expect(clock.sleeperCount == 0, "woken by the signal, it sleeps no more")
        #expect(clock.now == Self.t0)
        // The deadline first: the signal that comes after is kept for the next sleep.
        let timed = Task { await clock.sleep(until: Self.t0.addingTimeInterval(60), or: wakeUp) }
        await clock.sleepers(atLeast: 1)
        #expect(clock.advanceToNextDeadline() == Self.t0.addingTimeInterval(60))
        await timed.value
        wakeUp.signal()
        await clock.sleep(until: Self.t0.addingTimeInterval(120), or: wakeUp)
        #expect(clock.now == Self.t0.addingTimeInterval(60), "the kept signal ended it at once")
        #expect(clock.sleeperCount == 0)
        // A passed deadline is not slept on; a cancelled task does not sleep.
        await clock.sleep(until: Self.t0, or: wakeUp)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await clock.sleep(until: Self.t0.addingTimeInterval(3600), or: wakeUp)
        }
        await cancelled.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == Self.t0.addingTimeInterval(60))
    }

    /// A deadline loop on the simulated clock: 20 minutes of a 3-second poll is 400 rounds, run
    /// as fast as the test can advance time, each at its moment.
    @Test func aDeadlineLoopRunsEachRoundAtItsMoment() async {
        let clock = SimulatedClock(Self.t0)
        let rounds = Woken()
        let loop = Task {
            var due = Self.t0
            await DeadlineLoop(clock: clock).run(next: { due < Self.t0.addingTimeInterval(1200) ? due : nil }) { now in
                await rounds.add(String(now.timeIntervalSince(Self.t0)))
                due = now.addingTimeInterval(3)
            }
        }
        // Its last round (1,197 s) asks for no more, so time is moved to it and no further.
        while clock.now < Self.t0.addingTimeInterval(1197) {
            await clock.sleepers(atLeast: 1)
            clock.advanceToNextDeadline()
        }
        await loop.value
        let names = await rounds.names
        #expect(names.count == 400)
        #expect(names.prefix(3) == ["0.0", "3.0", "6.0"])
        #expect(names.last == "1197.0")
    }
}

extension SimulatedClockTests {
    @Test func runMovesTimeWhileItsWorkSleeps() async {
        let clock = SimulatedClock(Self.t0)
        let slept = await clock.run {
            var rounds = 0
            for _ in 0..<100 {
                try? await clock.sleep(until: clock.now.addingTimeInterval(3))
                rounds += 1
            }
            return rounds
        }
        #expect(slept == 100)
        #expect(clock.now == Self.t0.addingTimeInterval(300))
    }
}

import Foundation
import Testing
import ScoreFeed

/// ``DeadlineLoop`` on a manual clock: it does the work at each deadline it is given, in order,
/// at once for a deadline already past, stops when there is none, and stops when cancelled.
struct DeadlineLoopTests {
    @Test func theWorkRunsAtEachDeadlineUntilThereIsNone() async {
        let clock = SleepRecordingClock()
        let start = clock.now
        var deadlines = [start.addingTimeInterval(5), start.addingTimeInterval(7), start.addingTimeInterval(7), start.addingTimeInterval(20)]
        var ran: [TimeInterval] = []
        await DeadlineLoop(clock: clock).run(
            next: { deadlines.isEmpty ? nil : deadlines.removeFirst() },
            work: { now in ran.append(now.timeIntervalSince(start)) })
        #expect(ran == [5, 7, 7, 20])
        #expect(clock.sleeps == [5, 2, 0, 13], "a deadline already here is not waited for")
    }

    @Test func aDeadlineInThePastRunsTheWorkAtOnce() async {
        let clock = SleepRecordingClock()
        var runs = 0
        await DeadlineLoop(clock: clock).run(
            next: { runs < 3 ? .distantPast : nil },
            work: { now in
                runs += 1
                #expect(now == clock.now)
            })
        #expect(runs == 3)
        #expect(clock.now == Make.start, "the clock did not move")
    }

    @Test func nothingRunsWhenTheFirstAskSaysNone() async {
        var asked = 0
        await DeadlineLoop(clock: ManualClock()).run(next: { asked += 1; return nil }, work: { _ in Issue.record("no work") })
        #expect(asked == 1)
    }

    @Test func aCancelledTaskStopsBeforeTheNextWork() async {
        let clock = ManualClock(Make.start)
        // The loop runs in a task of its own, which its work cancels: a test whose own task is
        // cancelled is reported as cancelled, not as passed.
        let runs = await Task {
            var runs = 0
            await DeadlineLoop(clock: clock).run(
                next: { clock.now.addingTimeInterval(1) },
                work: { _ in
                    runs += 1
                    if runs == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                })
            return runs
        }.value
        #expect(runs == 3)
        #expect(clock.now == Make.start.addingTimeInterval(3))
    }

    @Test func anErrorOfTheWorkEndsTheLoopAndIsThrown() async {
        struct Stop: Error {}
        var runs = 0
        await #expect(throws: Stop.self) {
            try await DeadlineLoop(clock: ManualClock()).run(next: { .distantPast }, work: { _ in
                runs += 1
                if runs == 2 { throw Stop() }
            })
        }
        #expect(runs == 2)
    }
}

import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("MatchEngine with a manual clock and a recording sink")
struct MatchEngineTests {
    func engine(policy: any PushPolicy = EveryChangePolicy()) -> (MatchEngine, ManualClock, RecordingSink) {
        let clock = ManualClock(Make.start)
        let sink = RecordingSink()
        return (MatchEngine(attributes: Make.attributes, clock: clock, sink: sink, policy: policy), clock, sink)
    }

    @Test func pushesVisibleChangesAtTheClocksTime() async throws {
        let (engine, clock, sink) = engine()
        clock.advance(by: 5)
        try await engine.receive(Make.event(1, .periodStart, period: 1, clock: 720), index: 0)
        clock.advance(by: 20)
        try await engine.receive(Make.event(2, .rebound(offensive: false), team: .home, clock: 700), index: 1)
        clock.advance(by: 20)
        try await engine.receive(Make.event(3, .fieldGoal(points: 2, made: true), team: .home, clock: 690), index: 2)
        let records = await sink.records
        #expect(records.map(\.seq) == [1, 2])
        #expect(records.map(\.sentAt) == [Make.start.addingTimeInterval(5), Make.start.addingTimeInterval(45)])
        #expect(records[1].state.homeScore == 2)
        #expect(records[1].coalesced == 2, "the rebound rode along with the basket")
        #expect(records[1].diff.contains(.homeScore))
        #expect(records[1].sourceTime == Make.event(3, .block).time)
    }

    @Test func endsOnceAndIgnoresWhatFollows() async throws {
        let (engine, clock, sink) = engine()
        try await engine.receive(Make.event(1, .periodStart, period: 4, clock: 720), index: 0)
        clock.advance(by: 60)
        try await engine.receive(Make.event(2, .periodEnd, period: 4, clock: 0), index: 1)
        try await engine.receive(Make.event(3, .gameEnd, period: 4, clock: 0), index: 2)
        let late = try await engine.receive(Make.event(4, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 0), index: 3)
        if case .reject(let error) = late { #expect(error.code == .afterGameEnd) } else { Issue.record("expected a rejection") }
        try await engine.finish()
        let records = await sink.records
        #expect(records.last?.event == .end)
        Make.expectOneFinal(records)
        #expect(await engine.hasEnded)
        #expect(await engine.statistics.rejected == 1)
    }

    @Test func finishFlushesHeldChanges() async throws {
        let (engine, _, sink) = engine()
        try await engine.receive(Make.event(1, .periodStart, period: 1, clock: 720), index: 0)
        try await engine.receive(Make.event(2, .rebound(offensive: false), team: .home, clock: 700), index: 1)
        #expect(await sink.records.count == 1)
        try await engine.finish()
        let records = await sink.records
        #expect(records.count == 2)
        #expect(records.last?.event == .update)
        #expect(records.last?.state.possession == .home)
    }

    /// A policy that holds everything until a deadline, to check the engine's timer path.
    struct HoldTenSeconds: PushPolicy {
        var due: Date?
        mutating func observe(_ change: StateChange, now: Date) -> PushDecision {
            absorb(change, now: now)
            return .hold
        }
        mutating func absorb(_ change: StateChange, now: Date) {
            if due == nil { due = now.addingTimeInterval(10) }
        }
        mutating func decide(now: Date) -> PushDecision { tick(now: now) }
        var deadline: Date? { due }
        mutating func tick(now: Date) -> PushDecision {
            guard let due, now >= due else { return .hold }
            self.due = nil
            return .push(Push(event: .update, priority: 5, reason: "timer"))
        }
        mutating func finish(now: Date) -> PushDecision { .hold }
        mutating func reopen(now: Date) {}
        var hasEnded: Bool { false }
    }

    @Test func policyDeadlinesFireOnTick() async throws {
        let (engine, clock, sink) = engine(policy: HoldTenSeconds())
        try await engine.receive(Make.event(1, .fieldGoal(points: 3, made: true), team: .away), index: 0)
        #expect(await engine.deadline == Make.start.addingTimeInterval(10))
        clock.advance(by: 9)
        try await engine.tick()
        #expect(await sink.records.isEmpty)
        clock.advance(by: 1)
        try await engine.tick()
        let records = await sink.records
        #expect(records.count == 1)
        #expect(records[0].priority == 5)
        #expect(records[0].sentAt == Make.start.addingTimeInterval(10))
        #expect(records[0].state.awayScore == 3)
    }

    /// A sink that holds the first send until ``release()``, then takes every send at once.
    actor GatedSink: PushSink {
        private var waiting: CheckedContinuation<Void, Never>?
        private var open = false
        private(set) var records: [PushRecord] = []
        var holdsASend: Bool { waiting != nil }

        func send(_ record: PushRecord) async throws {
            if !open { await withCheckedContinuation { waiting = $0 } }
            records.append(record)
        }

        func release() {
            open = true
            waiting?.resume()
            waiting = nil
        }
    }

    /// A deadline that comes due while the game's own delivery is under way counts from that
    /// delivery's end, also when it is acted on before the end (a timer's tick entering the engine
    /// while it awaits the sink): not late. Seed 6, day 55 at a 10 s interval counted 12 s.
    @Test func aDeadlineActedOnDuringTheDeliveryItCameDueInIsNotLate() async throws {
        let clock = ManualClock(Make.start)
        let sink = GatedSink()
        let metrics = MetricsRecorder()
        let engine = MatchEngine(
            session: GameSession(attributes: Make.attributes, policy: HoldTenSeconds(), now: clock.now),
            clock: clock, sink: sink, metrics: metrics)
        try await engine.receive(Make.event(1, .fieldGoal(points: 3, made: true), team: .away), index: 0)
        clock.advance(by: 10)
        // On time: its push goes to the sink, which holds it.
        let delivery = Task { try await engine.tick() }
        while await !sink.holdsASend { await Task.yield() }
        try await engine.receive(Make.event(2, .fieldGoal(points: 2, made: true), team: .home), index: 1)
        #expect(await engine.deadline == Make.start.addingTimeInterval(20))
        // Due at +20 while the delivery begun at +10 is under way; acted on at +25, before its end.
        clock.advance(by: 15)
        try await engine.tick()
        await sink.release()
        try await delivery.value
        #expect(await sink.records.map(\.sentAt) == [Make.start.addingTimeInterval(10), Make.start.addingTimeInterval(25)])
        #expect(metrics.worstDeadline?.seconds == nil, "acted on before the end of the delivery it came due in")
    }

    struct FailingSink: PushSink {
        struct Down: Error {}
        func send(_ record: PushRecord) async throws { throw Down() }
    }

    @Test func sinkErrorsReachTheCaller() async throws {
        let engine = MatchEngine(attributes: Make.attributes, clock: ManualClock(Make.start), sink: FailingSink())
        await #expect(throws: FailingSink.Down.self) {
            try await engine.receive(Make.event(1, .periodStart, period: 1, clock: 720), index: 0)
        }
        // The push stays in the outbox, to go out when the sink is back.
        #expect(await engine.current.outbox.count == 1)
    }
}

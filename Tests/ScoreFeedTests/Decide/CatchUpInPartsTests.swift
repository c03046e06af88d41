import Foundation
import ScoreFeedModel
import Testing

@testable import ScoreFeed

/// A backlog that `serve` reads in parts (a pipe's 64 KB at a time, a relay's writes) is one
/// moment, as a backlog in one piece is: the pure rule of ``GameSession/endArrival(now:settling:)``,
/// on timelines, without actors or clocks.
@Suite("A catch-up in parts is one moment")
struct CatchUpInPartsTests {
    static let window: TimeInterval = 0.5

    /// A game's first `share` of events, met at `now`: in one piece, decided at once.
    static func whole(_ file: String, share: Double, renderer: PushRenderer.Configuration = .init()) throws -> GameSession {
        let events = try Self.events(file, share: share)
        let now = events.last!.time.addingTimeInterval(2)
        var session = GameSession(attributes: try Self.document(file).attributes, renderer: renderer, now: now)
        session.beginArrival()
        for (index, event) in events.enumerated() { session.receive(event, index: index, now: now) }
        session.endArrival(now: now)
        return session
    }

    /// The same backlog in `parts`, `gap` seconds apart, each part's decision left to settle.
    /// Returns the session once the last part is taken in (nothing ticked yet) and the moment it
    /// came.
    static func inParts(
        _ file: String, share: Double, parts: Int, gap: TimeInterval, renderer: PushRenderer.Configuration = .init(),
        recordsInputs: Bool = false
    ) throws -> (session: GameSession, last: Date) {
        let events = try Self.events(file, share: share)
        let start = events.last!.time.addingTimeInterval(2)
        var session = GameSession(attributes: try Self.document(file).attributes, renderer: renderer, now: start)
        session.recordsInputs = recordsInputs
        let size = (events.count + parts - 1) / parts
        var now = start
        for (part, first) in stride(from: 0, to: events.count, by: size).enumerated() {
            now = start.addingTimeInterval(Double(part) * gap)
            session.beginArrival()
            for index in first..<min(events.count, first + size) { session.receive(events[index], index: index, now: now) }
            session.endArrival(now: now, settling: window)
        }
        return (session, now)
    }

    static func document(_ file: String) throws -> FeedDocument {
        try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
    }

    static func events(_ file: String, share: Double) throws -> [GameEvent] {
        ArrivalTests.events(try document(file), share: share)
    }

    static func pushes(_ session: GameSession) -> [PushRecord] {
        session.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
    }

    /// What a push shows and how it goes, not when.
    static func shown(_ records: [PushRecord]) -> [String] {
        records.map { "\($0.event) p\($0.priority) \($0.state.awayScore)-\($0.state.homeScore) q\($0.state.period)" }
    }

    /// Parts a millisecond apart: nothing goes until the window after the last part has passed,
    /// then one decision on the whole backlog (at most the present and its priority-5 copy),
    /// showing what the backlog in one piece shows.
    @Test(arguments: ["one-point.json", "overtime.json", "regulation-blowout.json"], [0.25, 0.6, 1.0])
    func partsAMillisecondApartAreDecidedOnce(file: String, share: Double) throws {
        var (session, last) = try Self.inParts(file, share: share, parts: 4, gap: 0.001)
        #expect(Self.pushes(session).isEmpty, "nothing before the backlog settles")
        #expect(session.deadline == last.addingTimeInterval(Self.window), "decided a window after the last part")
        session.tick(now: last.addingTimeInterval(Self.window / 2))
        #expect(Self.pushes(session).isEmpty, "not before the window is over")
        session.tick(now: last.addingTimeInterval(Self.window))
        let pushes = Self.pushes(session)
        #expect(session.settling == nil && session.arrival == nil)
        #expect(!pushes.isEmpty && pushes.count <= 2, "\(file) at \(share): \(Self.shown(pushes))")
        #expect(pushes.filter { $0.priority == 10 }.count <= 1)
        #expect(pushes.allSatisfy { $0.state == session.state }, "the present, once")
        #expect(Self.shown(pushes) == Self.shown(Self.pushes(try Self.whole(file, share: share))), "as the backlog in one piece")
    }

    /// A game followed live event by event until its policy holds a push: the session, the
    /// events, the index of the next one, and when the held push is due.
    static func holding(_ file: String) throws -> (session: GameSession, events: [GameEvent], next: Int, due: Date) {
        let events = try Self.events(file, share: 1)
        var session = GameSession(attributes: try Self.document(file).attributes, now: events[0].time)
        for (index, event) in events.enumerated() {
            let sent = session.outbox.count
            session.beginArrival()
            session.receive(event, index: index, now: event.time)
            session.endArrival(now: event.time)
            if index > 20, session.outbox.count == sent, let due = session.deadline, due > event.time {
                return (session, events, index + 1, due)
            }
        }
        throw ScoreFeedError(.invalidValue, "\(file): the policy never held a push")
    }

    /// An instance restarted once the held push was due (``GameSession/restart(now:window:)``):
    /// the push waits the window for the game's first arrival. With none, it goes at the
    /// window's end; with one, the held change and the arrival are decided once.
    @Test(arguments: ["one-point.json", "overtime.json", "regulation-blowout.json"])
    func aRestartWaitsTheWindowForWhatTheStopKept(file: String) throws {
        let (held, events, next, due) = try Self.holding(file)
        let restart = due.addingTimeInterval(60)
        let sent = held.outbox.count

        var alone = held
        alone.restart(now: restart, window: Self.window)
        #expect(alone.deadline == restart.addingTimeInterval(Self.window), "it waits the window")
        alone.tick(now: restart)
        #expect(alone.outbox.count == sent, "not before the window is over")
        alone.tick(now: restart.addingTimeInterval(Self.window))
        #expect(alone.outbox.count > sent, "with no arrival, the held push goes at the window's end")
        #expect(alone.settling == nil)

        var joined = held
        joined.restart(now: restart, window: Self.window)
        joined.beginArrival()
        for index in next..<min(events.count, next + 30) { joined.receive(events[index], index: index, now: restart) }
        joined.endArrival(now: restart)
        let pushes = Self.pushes(joined).dropFirst(Self.pushes(held).count)
        #expect(!pushes.isEmpty && pushes.count <= 2, "\(file): \(Self.shown(Array(pushes)))")
        #expect(pushes.filter { $0.priority == 10 }.count <= 1)
        #expect(pushes.allSatisfy { $0.state == joined.state }, "the present, once")

        // serve restarted reads its input again from the start: an arrival of repeats only is not
        // what the instance missed, and the wait goes on for the news after it.
        var repeated = held
        repeated.restart(now: restart, window: Self.window)
        let waiting = try repeated.encoded()
        #expect(try GameSession.read(waiting, file: "restart").encoded() == waiting, "a snapshot of the wait reads back as it was")
        repeated.beginArrival()
        for index in 0..<next { repeated.receive(events[index], index: index, now: restart) }
        repeated.endArrival(now: restart, settling: Self.window)
        #expect(repeated.settling != nil && repeated.outbox.count == sent, "repeats only: still waiting")
        let news = restart.addingTimeInterval(0.001)
        repeated.beginArrival()
        for index in next..<min(events.count, next + 30) { repeated.receive(events[index], index: index, now: news) }
        repeated.endArrival(now: news, settling: Self.window)
        repeated.tick(now: news.addingTimeInterval(Self.window))
        let caughtUp = Self.pushes(repeated).dropFirst(Self.pushes(held).count)
        #expect(!caughtUp.isEmpty && caughtUp.count <= 2 && caughtUp.filter { $0.priority == 10 }.count <= 1,
                "\(file): \(Self.shown(Array(caughtUp)))")
        #expect(caughtUp.allSatisfy { $0.state == repeated.state }, "the present, once")

        var nothingHeld = try Self.whole(file, share: 0.5)
        nothingHeld.restart(now: restart, window: Self.window)
        #expect(nothingHeld.settling == nil, "nothing held, nothing waits")
    }

    /// A catch-up restored while it waited for a fresh copy (a poll's wait, a minute here: longer
    /// than the restart's window) waits its own length again from the restart, not only the
    /// window: decided at the window's end, it would show the stale copy the instance was
    /// waiting to see past. Before (a mutation tried in session 61, which no test failed), it
    /// waited only the window.
    @Test func aRestoredWaitForAFreshCopyWaitsItsOwnLengthAgain() throws {
        let events = try Self.events("overtime.json", share: 0.6)
        let start = events.last!.time.addingTimeInterval(2)
        var session = GameSession(attributes: try Self.document("overtime.json").attributes, now: start)
        session.beginArrival()
        for (index, event) in events.enumerated() { session.receive(event, index: index, now: start) }
        session.endArrival(now: start, settling: 60)
        #expect(session.deadline == start.addingTimeInterval(60) && Self.pushes(session).isEmpty)
        // Stopped in its wait; restarted two minutes later.
        var restored = try GameSession.read(try session.encoded(), file: "restart")
        let restart = start.addingTimeInterval(120)
        restored.restart(now: restart, window: Self.window)
        #expect(restored.deadline == restart.addingTimeInterval(60), "the whole wait again")
        restored.tick(now: restart.addingTimeInterval(Self.window))
        #expect(Self.pushes(restored).isEmpty, "not at the window's end")
        restored.tick(now: restart.addingTimeInterval(60))
        #expect(!Self.pushes(restored).isEmpty && Self.pushes(restored).allSatisfy { $0.state == restored.state })
    }

    /// Without the window (each part decided at once, as before), the same parts push the past:
    /// what settling saves.
    @Test func partsDecidedAtOnceEachPushTheirMoment() throws {
        let events = try Self.events("overtime.json", share: 0.8)
        let start = events.last!.time.addingTimeInterval(2)
        var session = GameSession(attributes: try Self.document("overtime.json").attributes, now: start)
        let size = events.count / 4 + 1
        for (part, first) in stride(from: 0, to: events.count, by: size).enumerated() {
            let now = start.addingTimeInterval(Double(part) * 0.001)
            session.beginArrival()
            for index in first..<min(events.count, first + size) { session.receive(events[index], index: index, now: now) }
            session.endArrival(now: now)
        }
        #expect(Self.pushes(session).count > 2, "\(Self.shown(Self.pushes(session)))")
    }

    /// A live moment (its changes seconds apart) does not look like a catch-up; a backlog that
    /// spans more than ``Coalescer/arrivalAlertWindow`` of feed time does.
    @Test func aLiveMomentIsNoCatchUpABacklogIs() throws {
        let events = try Self.events("overtime.json", share: 1)
        var session = GameSession(attributes: try Self.document("overtime.json").attributes, now: events[0].time)
        for (index, event) in events.enumerated().prefix(150) {
            session.beginArrival()
            session.receive(event, index: index, now: event.time)
            #expect(!session.isCatchUp, "event \(index) alone")
            session.endArrival(now: event.time)
        }
        #expect(!Self.pushes(session).isEmpty)
        session.beginArrival()
        for index in 150..<250 { session.receive(events[index], index: index, now: events[249].time) }
        #expect(session.isCatchUp, "100 events at once")
    }

    /// An engine for overtime.json on a simulated clock at its event `index`'s time, recording
    /// what it sends.
    static func engine(startingAt index: Int) throws -> (events: [GameEvent], clock: SimulatedClock, sink: RecordingSink, engine: MatchEngine) {
        let document = try Self.document("overtime.json")
        let clock = SimulatedClock(document.events[index].time)
        let sink = RecordingSink()
        return (document.events, clock, sink, MatchEngine(attributes: document.attributes, clock: clock, sink: sink))
    }

    /// Hands `range` of `events` to `engine` as one arrival, a catch-up waiting ``window``.
    static func take(_ range: Range<Int>, of events: [GameEvent], on engine: MatchEngine) async {
        _ = await engine.take(arrival: range.map { (events[$0], $0) }, settling: window)
    }

    /// On an engine (the system clock's path, a simulated clock): its first arrival waits for
    /// the rest of what the instance missed even when it spans seconds only; later live moments
    /// go at once; a later backlog waits again.
    @Test func anEngineWaitsOnItsFirstArrivalAndOnBacklogs() async throws {
        let (events, clock, sink, engine) = try Self.engine(startingAt: 3)
        func arrive(_ range: Range<Int>) async throws {
            await Self.take(range, of: events, on: engine)
            try await engine.flush()
        }
        try await arrive(0..<3)
        #expect(await sink.records.isEmpty, "the first arrival waits for its parts")
        clock.advance(by: 0.001)
        try await arrive(3..<4)
        clock.advance(by: Self.window)
        try await engine.tick()
        let first = await sink.records
        #expect(!first.isEmpty && first.count <= 2 && Set(first.map(\.sentAt)).count == 1, "one moment: \(Self.shown(first))")
        var live = 0
        for index in 4..<60 {
            clock.advance(to: max(clock.now, events[index].time))
            let before = await sink.records.count
            try await arrive(index..<(index + 1))
            #expect(await engine.deadline.map { $0 > clock.now } ?? true, "event \(index): no catch-up waits")
            live += await sink.records.count - before
        }
        #expect(live > 0, "live moments go at once")
        clock.advance(to: events[300].time)
        let before = await sink.records.count
        try await arrive(60..<300)
        #expect(await sink.records.count == before, "a backlog waits again")
        #expect(await engine.deadline == clock.now.addingTimeInterval(Self.window))
    }

    /// An instance whose input starts again from the game's start: the repeats change nothing and
    /// are not its first arrival; the first part with news is, and waits for the rest, however
    /// little feed time it spans.
    @Test func repeatsAreNotTheFirstArrival() async throws {
        let document = try Self.document("overtime.json")
        let events = document.events
        var session = GameSession(attributes: document.attributes, now: events[99].time)
        session.beginArrival()
        for index in 0..<100 { session.receive(events[index], index: index, now: events[99].time) }
        session.endArrival(now: events[99].time)
        let clock = SimulatedClock(events[102].time.addingTimeInterval(600))
        let sink = RecordingSink()
        let engine = MatchEngine(session: session, clock: clock, sink: sink)
        await Self.take(0..<100, of: events, on: engine)
        clock.advance(by: 0.001)
        await Self.take(100..<103, of: events, on: engine)
        try await engine.flush()
        let sent = await sink.records.count
        #expect(sent == session.outbox.count, "the first part with news waits for the rest")
        #expect(await engine.deadline == clock.now.addingTimeInterval(Self.window))
    }

    /// A part that comes after the wait is over, before the timer woke the game, is decided at
    /// once with the waiting catch-up: one moment, one decision (not the catch-up's and then the
    /// part's, two at the same instant).
    @Test func aLatePartIsDecidedWithTheWaitingCatchUp() async throws {
        let (events, clock, sink, engine) = try Self.engine(startingAt: 100)
        await Self.take(0..<100, of: events, on: engine)
        clock.advance(by: 2 * Self.window)
        await Self.take(100..<101, of: events, on: engine)
        try await engine.flush()
        let records = await sink.records
        #expect(!records.isEmpty && records.count <= 2 && records.filter { $0.priority == 10 }.count <= 1, "\(Self.shown(records))")
        let present = await engine.current.state
        #expect(records.allSatisfy { $0.state == present }, "the present, once")
        #expect(await engine.current.settling == nil)
        #expect(await engine.deadline.map { $0 > clock.now } ?? true)
    }

    /// A backlog that keeps coming, a part every 0.4 s, is decided ten windows after its first
    /// part on what came by then; what comes later is a moment of its own.
    @Test func aBacklogThatKeepsComingIsDecidedAfterTenWindows() throws {
        let events = try Self.events("overtime.json", share: 1)
        let start = events.last!.time.addingTimeInterval(2)
        var session = GameSession(attributes: try Self.document("overtime.json").attributes, now: start)
        var decidedAt: Date?
        let size = events.count / 40 + 1
        for (part, first) in stride(from: 0, to: events.count, by: size).enumerated() {
            let now = start.addingTimeInterval(Double(part) * 0.4)
            if let deadline = session.deadline, deadline <= now { session.tick(now: deadline) }
            if decidedAt == nil, !Self.pushes(session).isEmpty { decidedAt = session.now }
            session.beginArrival()
            for index in first..<min(events.count, first + size) { session.receive(events[index], index: index, now: now) }
            session.endArrival(now: now, settling: Self.window)
        }
        let limit = start.addingTimeInterval(Self.window * GameSession.settlingParts)
        #expect(decidedAt.map { $0 <= limit } == true, "decided by \(limit), not at \(decidedAt.map(String.init(describing:)) ?? "never")")
    }

    /// A snapshot written while the catch-up waits holds its open arrival: restored, it is decided
    /// as it would have been. Its journal (the parts' inputs) replays to the same session too.
    @Test(arguments: [0.3, 1.0])
    func aWaitingCatchUpIsSavedAndReplayedWhole(share: Double) throws {
        let (waiting, last) = try Self.inParts("overtime.json", share: share, parts: 3, gap: 0.001, recordsInputs: true)
        #expect(waiting.settling != nil)
        let due = try #require(waiting.deadline)
        var straight = waiting
        straight.tick(now: due)

        var restored = try GameSession.restore(try waiting.encoded(), file: "snapshot")
        #expect(restored.settling == waiting.settling && restored.arrival == waiting.arrival)
        #expect(restored.deadline == due)
        restored.tick(now: due)
        #expect(Self.pushes(restored) == Self.pushes(straight), "restored from its snapshot: the same decision")

        var journaled = waiting
        let inputs = journaled.takeUnjournaled()
        #expect(inputs.contains(.settleArrival(now: last, window: Self.window)))
        var replayed = GameSession(attributes: waiting.attributes, now: try #require(try Self.events("overtime.json", share: share).last).time.addingTimeInterval(2))
        for input in inputs { replayed.apply(input) }
        replayed.tick(now: due)
        #expect(Self.pushes(replayed) == Self.pushes(straight), "replayed from its journal: the same decision")

        // A snapshot of a game with no catch-up waiting reads as before: nothing of it is written.
        let settled = try JSONSerialization.jsonObject(with: try straight.encoded()) as? [String: Any]
        #expect(settled?["settling"] == nil && settled?["arrival"] == nil && settled?["arrivalSpan"] == nil)
    }

    /// The game's end in a backlog in parts goes once (with its priority-5 copy); the feed's end also closes a catch-up that
    /// waits (`finish`), as a call-off does.
    @Test func theEndOfABacklogInPartsGoesOnce() throws {
        var (session, last) = try Self.inParts("overtime.json", share: 1, parts: 3, gap: 0.001)
        session.tick(now: last.addingTimeInterval(Self.window))
        let ends = Self.pushes(session).filter { $0.event == .end }
        #expect(!ends.isEmpty && ends.count == Self.pushes(session).count, "the end and nothing else: \(Self.shown(Self.pushes(session)))")
        #expect(ends.filter { $0.priority == 10 }.count <= 1 && ends.count <= 2, "the end once, with its priority-5 copy")

        var finishing = try Self.inParts("overtime.json", share: 0.7, parts: 3, gap: 0.001).session
        finishing.finish(now: last)
        #expect(finishing.settling == nil && !Self.pushes(finishing).isEmpty, "finish decides the waiting catch-up")
        var calledOff = try Self.inParts("overtime.json", share: 0.7, parts: 3, gap: 0.001).session
        calledOff.callOff(.suspended, why: "test", now: last)
        #expect(calledOff.settling == nil)
        #expect(Self.pushes(calledOff).last?.event == .end, "\(Self.shown(Self.pushes(calledOff)))")
    }
}

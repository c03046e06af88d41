import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The pure core of a game: identity, edits, the feed's score, the outbox. No actors, no clock.
@Suite("GameSession: what a game has applied")
struct GameSessionTests {
    static let tipOff = Make.event(1, .periodStart, period: 1, clock: 720)

    static func session() -> GameSession {
        GameSession(attributes: Make.attributes, policy: EveryChangePolicy())
    }

    /// Feeds `events` in order, each at its own time; returns the session and the verdicts.
    static func run(_ events: [GameEvent]) -> (GameSession, [EventValidator.Verdict]) {
        var session = session()
        let verdicts = events.enumerated().map { i, event in session.receive(event, index: i, now: event.time) }
        return (session, verdicts)
    }

    static func score(_ session: GameSession) -> [Int] { [session.state.awayScore, session.state.homeScore] }

    struct Timeline: CustomTestStringConvertible, Sendable {
        var name: String
        var events: [GameEvent]
        /// Away, home after the last event.
        var score: [Int]
        var duplicates = 0
        var edits = 0
        var corrections = 0
        var testDescription: String { name }
    }

    static let three = Make.event(7, .fieldGoal(points: 3, made: true), team: .away, clock: 500, at: 100)
    static let two = Make.event(7, .fieldGoal(points: 2, made: true), team: .away, clock: 500, at: 100)

    static let timelines: [Timeline] = [
        Timeline(
            name: "a lower seq after a higher one is a new event (the NBA inserts actions)",
            events: [tipOff, Make.event(446, .fieldGoal(points: 2, made: true), team: .home), Make.event(410, .fieldGoal(points: 3, made: true), team: .away)],
            score: [3, 2]),
        Timeline(
            name: "a repeat at any distance is ignored",
            events: [tipOff, two] + (10..<300).map { Make.event($0, .substitution(out: nil), team: .home) } + [two],
            score: [2, 0], duplicates: 1),
        Timeline(name: "an edit from 2 to 3 points adds one", events: [tipOff, two, three], score: [3, 0], edits: 1),
        Timeline(name: "an edit from 3 to 2 points takes one back", events: [tipOff, three, two], score: [2, 0], edits: 1),
        Timeline(
            name: "an old version sent again after an edit is a repeat, not an edit back",
            events: [tipOff, two, three, two, three], score: [3, 0], duplicates: 2, edits: 1),
        Timeline(
            name: "where the feed states its score, an edit waits for the next stated score",
            events: [tipOff, {
                var basket = two
                basket.feedScore = FinalScore(home: 0, away: 2)
                return basket
            }(), {
                // The feed scored it 3 and says so on the next event before the edit comes.
                var next = Make.event(8, .foul(.personal), team: .home, at: 120)
                next.feedScore = FinalScore(home: 0, away: 3)
                return next
            }(), {
                var edited = three
                edited.feedScore = FinalScore(home: 0, away: 3)
                return edited
            }()],
            score: [3, 0], edits: 1, corrections: 1),
        Timeline(
            name: "a make edited to a miss takes its points away",
            events: [tipOff, three, Make.event(7, .fieldGoal(points: 3, made: false), team: .away, clock: 500, at: 100)],
            score: [0, 0], edits: 1),
        Timeline(
            name: "a basket edited to the other team moves its points",
            events: [tipOff, two, Make.event(7, .fieldGoal(points: 2, made: true), team: .home, clock: 500, at: 100)],
            score: [0, 2], edits: 1),
        Timeline(
            name: "the same event reworded is a repeat, not an edit",
            events: [tipOff, two, {
                var edited = two
                edited.description = "J. Doe 26' jump shot"
                edited.time = edited.time.addingTimeInterval(4)
                return edited
            }()],
            score: [2, 0], duplicates: 1),
        Timeline(
            name: "an edit that changes the shooter only changes no score",
            events: [tipOff, two, {
                var edited = two
                edited.player = "J. Doe"
                return edited
            }()],
            score: [2, 0], edits: 1),
        Timeline(
            name: "the feed's running score wins over the fold",
            events: [tipOff, {
                var basket = two
                basket.feedScore = FinalScore(home: 0, away: 3)
                return basket
            }()],
            score: [3, 0], corrections: 1),
        Timeline(
            name: "a lost basket is healed by the next stated score",
            events: [tipOff, Make.event(8, .foul(.personal), team: .home, at: 120), {
                var next = Make.event(9, .fieldGoal(points: 2, made: true), team: .home, at: 130)
                next.feedScore = FinalScore(home: 2, away: 2)
                return next
            }()],
            score: [2, 2], corrections: 1),
        Timeline(
            name: "an edit's own stated score is its old moment's, not now's",
            events: [tipOff, two, Make.event(8, .fieldGoal(points: 2, made: true), team: .home, at: 120), {
                var edited = three
                edited.feedScore = FinalScore(home: 0, away: 3)
                return edited
            }()],
            score: [3, 2], edits: 1),
    ]

    @Test(arguments: timelines)
    func timeline(_ timeline: Timeline) {
        let (session, _) = Self.run(timeline.events)
        #expect(Self.score(session) == timeline.score)
        #expect(session.statistics.duplicates == timeline.duplicates)
        #expect(session.statistics.edits == timeline.edits)
        #expect(session.statistics.corrections == timeline.corrections)
    }

    /// The freshness measure and the report apply events through the same fold as the engine:
    /// the score they call true is the one the engine showed, edits and the feed's score included.
    @Test(arguments: timelines)
    func theMeasureAndTheReportTakeTheEnginesScore(_ timeline: Timeline) {
        let (session, _) = Self.run(timeline.events)
        let truth = ScoreTimeline(events: timeline.events).final
        #expect([truth.away, truth.home] == Self.score(session))
        let report = ReportData(
            document: FeedDocument(attributes: Make.attributes, events: timeline.events), records: [], model: DeviceModel(budget: 15))
        #expect(report.truth.last.map { [$0.away, $0.home] } == Self.score(session))
        let moments = GameMoments(events: timeline.events).moments
        #expect(moments.filter(\.changesScore).count == ScoreTimeline(events: timeline.events).changes.count)
    }

    @Test func aDuplicateChangesNothingAndSendsNothing() {
        var (session, _) = Self.run([Self.tipOff, Self.two])
        let pushes = session.statistics.pushes
        let before = session
        let verdict = session.receive(Self.two, index: 9, now: Self.two.time.addingTimeInterval(3600))
        guard case .duplicate(let error) = verdict else {
            Issue.record("expected a duplicate, got \(verdict)")
            return
        }
        #expect(error.code == .duplicateSequence)
        #expect(session.statistics.pushes == pushes)
        #expect(session.now == before.now, "a repeat does not move the game's clock")
        #expect(session.fold.validator.applied == before.fold.validator.applied)
    }

    @Test func aRejectedEventMovesNothingNotEvenTheClock() {
        var (session, _) = Self.run([Self.tipOff, Self.two])
        let before = session
        // A field goal without a team, stamped far in the future.
        let garbage = Make.event(99, .fieldGoal(points: 2, made: true), at: 1_000_000)
        guard case .reject = session.receive(garbage, index: 3, now: garbage.time) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(session.now == before.now)
        #expect(session.statistics.rejected == 1)
        #expect(session.fold.validator.applied == before.fold.validator.applied)
    }

    @Test func anEditIsPushedAsTheChangeOfScoreAtTheGamesCurrentMoment() {
        let later = Make.event(30, .periodStart, period: 2, clock: 720, at: 900)
        let (session, _) = Self.run([Self.tipOff, Self.two, later, Self.three])
        let records = session.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
        #expect(records.last?.state.awayScore == 3)
        #expect(records.last?.state.period == 2, "an edit of a 1st-period basket does not take the game back to it")
        #expect(records.last?.diff.changes.contains { $0.field == .awayScore } == true)
    }

    @Test func theOutboxHoldsRenderedPushesUntilDelivered() throws {
        var (session, _) = Self.run([Self.tipOff, Self.two])
        let count = session.outbox.count
        #expect(count == session.statistics.pushes)
        session.delivered()
        #expect(session.outbox.count == count - 1)
        #expect(try GameSession.restore(session.encoded(), file: "t").outbox.count == count - 1)
    }

    /// The sink superseded these records before trying them: each priority-10 update is given
    /// back to the policy (never a priority 5), as a journaled input, so a replay and a restored
    /// checkpoint hold the same budget.
    @Test func anUntriedPriority10TheSinkSupersededIsGivenBack() throws {
        var session = GameSession(attributes: Make.attributes, now: Make.start)
        session.receive(Make.event(1, .periodStart, at: 0), index: 0, now: Make.start)
        for seq in 2...12 {
            let event = Make.event(seq, .fieldGoal(points: 3, made: true), team: seq % 2 == 0 ? .home : .away, at: Double(seq) * 60)
            session.receive(event, index: seq - 1, now: event.time)
        }
        let records = session.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
        let updates10 = records.filter { $0.priority == 10 && $0.event == .update }
        try #require(!updates10.isEmpty && records.contains { $0.priority == 5 })
        func booked(_ session: GameSession) throws -> Int {
            let coalescer = try #require(session.lanes[0].policy as? Coalescer)
            return coalescer.budget.used(at: session.now) + coalescer.beyond.used(at: session.now)
        }
        session.recordsInputs = true
        let start = session
        let before = try booked(session)
        session.giveBack(records)
        #expect(try booked(session) == before - updates10.count)
        let inputs = session.takeUnjournaled()
        #expect(inputs == updates10.map { .givenBack(lane: 0, sentAt: $0.sentAt, beyondBudget: Push.isBeyondBudget($0.reason)) })
        var replayed = start
        for input in inputs { replayed.apply(input) }
        #expect(try booked(replayed) == booked(session))
        #expect(try booked(GameSession.restore(session.encoded(), file: "t")) == booked(session))
    }

    /// A restored game's waiting pushes may have left with the instance before (its delivery's
    /// line lost in a power cut): superseded later, in the outbox while the disk is full or in the
    /// sink, their priority 10s stay booked, in the live session, a replay of its journal and its
    /// next snapshot alike, on every lane (an Android lane books its `HIGH` messages as iOS does
    /// its priority 10s). Pushes the instance made itself are given back as before. (Seed 271,
    /// day 11: a priority 10 tried six times by a sender that was down, then superseded after a
    /// power cut, left the policy one priority 10 short of what Apple may have counted.)
    @Test(arguments: [false, true], [[PushRenderer.Platform.ios], [.android], [.ios, .android]])
    func aRestoredPriority10ThatMayHaveLeftStaysBooked(inTheSink: Bool, platforms: [PushRenderer.Platform]) throws {
        let ios = PushRenderer.Configuration()
        let android = PlatformLane.Options.android(beside: ios)
        var session =
            platforms.first == .android
            ? GameSession(attributes: Make.attributes, policy: Coalescer(configuration: android.policy), renderer: android.renderer, now: Make.start)
            : GameSession(attributes: Make.attributes, renderer: ios, now: Make.start)
        if platforms.count > 1 { session.addLane(policy: Coalescer(configuration: android.policy), renderer: android.renderer) }
        #expect(session.lanes.map(\.platform) == platforms)
        session.receive(Make.event(1, .periodStart, at: 0), index: 0, now: Make.start)
        let basket = Make.event(2, .fieldGoal(points: 3, made: true), team: .home, at: 60)
        session.receive(basket, index: 1, now: basket.time)
        let waiting = session.lanes.map { Array($0.outboxPushes) }
        let tens = try waiting.map { lane in try #require(lane.first { $0.priority == 10 && $0.event == .update }, "the basket's priority 10 waits on every lane") }
        func booked(_ session: GameSession) throws -> [Int] {
            try session.lanes.map { lane in
                let coalescer = try #require(lane.policy as? Coalescer)
                return coalescer.budget.used(at: session.now) + coalescer.beyond.used(at: session.now)
            }
        }
        /// The priority 10s made on each lane since `before`.
        func made(_ session: GameSession, since before: [Int]) throws -> [Int] {
            zip(try booked(session), before).map { $0 - $1 }
        }
        /// The priority 10s superseded: in the sink, or in the outbox by a newer score while the
        /// checkpoint cannot be written (only the newest state waits).
        func supersede(_ session: inout GameSession) {
            if inTheSink {
                // Handed to the sink (a delivery, as the outbox sees it), then superseded untried.
                for lane in session.lanes.indices { while session.delivered(lane: lane) {} }
                session.giveBack(tens)
            } else {
                let next = Make.event(3, .fieldGoal(points: 2, made: true), team: .away, at: 120)
                session.receive(next, index: 2, now: next.time)
                session.supersedeWaiting()
            }
        }
        /// The priority 10s `supersede` made on each lane (a newer score's), read from the
        /// outbox after it: only the newest state waits there.
        func newTens(_ session: GameSession) -> [Int] {
            session.lanes.map { lane in inTheSink ? 0 : lane.outboxPushes.filter { $0.priority == 10 && $0.event == .update }.count }
        }
        var restored = try GameSession.restore(session.encoded(), file: "t")
        #expect(restored.lanes.map(\.mayHaveLeft) == waiting.map { Set($0.map(\.seq)) })
        restored.recordsInputs = true
        let start = restored
        supersede(&restored)
        for (lane, ten) in tens.enumerated() {
            #expect(!restored.lanes[lane].outboxPushes.contains { $0.seq == ten.seq })
        }
        #expect(try made(restored, since: booked(start)) == newTens(restored), "the restored priority 10s stay booked")
        var replayed = start
        for input in restored.takeUnjournaled() { replayed.apply(input) }
        #expect(try booked(replayed) == booked(restored))
        #expect(try booked(GameSession.restore(restored.encoded(), file: "t")) == booked(restored))
        // Made by this instance: given back.
        let before = try booked(session)
        supersede(&session)
        #expect(try made(session, since: before) == newTens(session).map { $0 - 1 })
    }

    @Test func anEditAfterTheEndIsRejected() {
        let end = Make.event(20, .gameEnd, period: 4, clock: 0, at: 9000)
        let (_, verdicts) = Self.run([Self.tipOff, Self.two, end, Self.three])
        guard case .reject(let error) = verdicts.last else {
            Issue.record("expected a rejection, got \(String(describing: verdicts.last))")
            return
        }
        #expect(error.code == .afterGameEnd)
    }

    @Test func digestsAreStableAndSeeWhatTheEventSaysAboutTheGame() {
        // The same in every process: a checkpoint written by one run is read by the next.
        #expect(Self.two.digest == Self.two.digest)
        #expect(Self.two.digest != Self.three.digest)
        var moved = Self.two
        moved.clock = 499
        #expect(moved.digest != Self.two.digest)
        var scored = Self.two
        scored.feedScore = FinalScore(home: 0, away: 2)
        #expect(scored.digest != Self.two.digest)
        var reworded = Self.two
        reworded.description = "another wording"
        reworded.time = reworded.time.addingTimeInterval(1)
        #expect(reworded.digest == Self.two.digest, "text and feed time are not what the event says about the game")
        // Golden: checkpoints store digests, so changing how they are computed makes every repeat
        // after an upgrade look like an edit.
        #expect(String(Make.event(1, .periodStart, period: 1, clock: 720).digest, radix: 16) == "4e82bcf14f2bbea5")
    }
}

extension GameSessionTests {
    /// Push counts are values in memory and keep the checkpoint's spelling (`"10 update"`), so a
    /// checkpoint written before reads the same; a key this version does not know is left out.
    @Test func handedPushesKeepTheirCheckpointSpelling() throws {
        let json = Data(#"{"accepted":1,"duplicates":0,"edits":0,"rejected":0,"corrections":0,"pushes":4,"priority10":3,"priority5":1,"refused":0,"superseded":0,"handed":{"10 update":2,"10 end":1,"5 end":1,"7 other":9}}"#.utf8)
        let statistics = try JSONDecoder().decode(GameSession.Statistics.self, from: json)
        #expect(statistics.handed == [.init(priority: 10, event: .update): 2, .init(priority: 10, event: .end): 1, .init(priority: 5, event: .end): 1])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let again = try JSONSerialization.jsonObject(with: encoder.encode(statistics)) as? [String: Any]
        #expect(again?["handed"] as? [String: Int] == ["10 update": 2, "10 end": 1, "5 end": 1])
    }
}

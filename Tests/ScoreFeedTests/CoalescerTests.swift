import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// Timeline ("marble") tests of the coalescer: events at given seconds, ticks at the deadlines
/// it asks for, and the pushes it decides, all on a manual clock.
@Suite("Coalescer timelines")
struct CoalescerTests {
    /// What happened at a second of the timeline: an event or a push.
    struct Marble: Equatable, CustomStringConvertible {
        var at: Double
        var priority: Int
        var event: Push.Event
        var alert: AlertKind?
        var score: String
        var description: String { "\(Int(at))s p\(priority) \(event) \(score)\(alert.map { " alert:\($0)" } ?? "")" }
    }

    /// Runs `events` (each at `at` seconds after ``Make/start``) through a coalescer, waking it
    /// at every deadline in between, and returns its pushes.
    static func run(
        _ events: [GameEvent], configuration: Coalescer.Configuration = .standard, from state: GameState = Make.live,
        until end: Double? = nil
    ) -> [Marble] {
        var coalescer = Coalescer(configuration: configuration)
        var board = Scoreboard(state: state)
        var marbles: [Marble] = []
        func record(_ decision: PushDecision, _ now: Date) {
            guard case .push(let push) = decision else { return }
            let s = board.state
            marbles.append(Marble(
                at: now.timeIntervalSince(Make.start), priority: push.priority, event: push.event, alert: push.alert,
                score: "\(s.awayScore)-\(s.homeScore)"))
        }
        func fire(until limit: Date) {
            while let deadline = coalescer.deadline, deadline <= limit {
                record(coalescer.tick(now: deadline), deadline)
            }
        }
        for event in events {
            fire(until: event.time)
            let diff = board.apply(event)
            record(coalescer.observe(StateChange(event: event, diff: diff, state: board.state), now: event.time), event.time)
        }
        fire(until: end.map { Make.start.addingTimeInterval($0) } ?? .distantFuture)
        return marbles
    }

    static func at(_ seconds: Double, _ seq: Int, _ kind: GameEvent.Kind, team: TeamSide? = nil, period: Int = 1, clock: Double = 600) -> GameEvent {
        Make.event(seq, kind, team: team, period: period, clock: clock, at: seconds, player: "P. Layer")
    }

    @Test func madeBasketWaitsForAnAndOneThenPushesOnce() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(1, 2, .foul(.shooting), team: .away),
            Self.at(25, 3, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .home),
            Self.at(40, 4, .rebound(offensive: false), team: .away),
        ], until: 100)
        #expect(marbles.count == 1, "\(marbles)")
        #expect(marbles.first?.at == 25)
        #expect(marbles.first?.score == "0-3", "the and-one is one push with both scores")
    }

    @Test func aBasketAloneGoesOutAfterTheSettleWindow() {
        let marbles = Self.run([Self.at(0, 1, .fieldGoal(points: 3, made: true), team: .away)], until: 60)
        #expect(marbles.map(\.at) == [3])
        #expect(marbles.first?.score == "3-0")
    }

    @Test func aFreeThrowTripIsOnePush() {
        let marbles = Self.run([
            Self.at(0, 1, .foul(.shooting), team: .away),
            Self.at(20, 2, .freeThrow(attempt: 1, of: 3, made: true, points: 1), team: .home),
            Self.at(35, 3, .freeThrow(attempt: 2, of: 3, made: true, points: 1), team: .home),
            Self.at(50, 4, .freeThrow(attempt: 3, of: 3, made: false, points: 1), team: .home),
        ], until: 100)
        #expect(marbles.count == 1, "\(marbles)")
        #expect(marbles.first?.at == 50)
        #expect(marbles.first?.score == "0-2")
    }

    @Test func anUnfinishedTripIsStillSentAfterTheHold() {
        let marbles = Self.run([Self.at(0, 1, .freeThrow(attempt: 1, of: 2, made: true, points: 1), team: .home)], until: 200)
        #expect(marbles.map(\.at) == [45], "the free-throw hold ends and the score goes out")
    }

    /// No paced pushes at score changes, to see the pause rules alone.
    static let pausesOnly = Coalescer.Configuration(pacedPerHour: 0, pacedBurst: 0)

    @Test func aTimeoutAfterAScoreBuysPriorityTen() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(10, 2, .timeout(.full), team: .away),
        ], configuration: Self.pausesOnly, until: 200)
        #expect(marbles.map(\.priority) == [5, 10], "\(marbles)")
        #expect(marbles.last?.at == 10)
    }

    @Test func aTimeoutWithTheScoreAlreadyShownCostsNothing() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(200, 2, .timeout(.full), team: .away),
        ], configuration: Self.pausesOnly, until: 400)
        #expect(marbles.allSatisfy { $0.priority == 5 }, "the priority-5 push has arrived by then: \(marbles)")
    }

    @Test func aScoreInThePeriodsLastSecondsIsPriorityTen() {
        let marbles = Self.run([Self.at(0, 1, .fieldGoal(points: 3, made: true), team: .away, period: 2, clock: 4)], until: 30)
        #expect(marbles.map(\.priority) == [10])
    }

    @Test func aLateLeadChangeIsCriticalWithAnAlert() {
        var state = Make.live
        state.period = 4
        state.homeScore = 100
        state.awayScore = 99
        let marbles = Self.run([Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .away, period: 4, clock: 40)], from: state, until: 30)
        #expect(marbles.count == 1)
        #expect(marbles.first?.priority == 10)
        #expect(marbles.first?.alert == .leadChange)
    }

    @Test func overtimeStartCarriesAnAlert() {
        var state = Make.live
        state.period = 4
        state.phase = .endOfPeriod
        state.homeScore = 100
        state.awayScore = 100
        let marbles = Self.run([Self.at(0, 1, .periodStart, period: 5, clock: 300)], from: state)
        #expect(marbles.first?.alert == .overtime)
        #expect(marbles.first?.priority == 10)
    }

    @Test func theEndGoesOutAtOnceOrAfterTheMinimumInterval() {
        let alone = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 30),
            Self.at(200, 2, .gameEnd, period: 4, clock: 0),
        ])
        #expect(alone.last?.event == .end)
        #expect(alone.last?.at == 200, "nothing pushed in the last second: the end goes at once")
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 1),
            Self.at(3, 2, .periodEnd, period: 4, clock: 0),
            Self.at(3.2, 3, .gameEnd, period: 4, clock: 0),
        ])
        let end = marbles.last
        #expect(end?.event == .end)
        #expect(end?.at == 4, "one second after the basket's push at 3, the period end riding along: \(marbles)")
        #expect(marbles.filter { $0.event == .update }.map(\.at) == [3])
        #expect(end?.priority == 10)
        #expect(end?.alert == .final)
        #expect(end?.score == "0-2")
    }

    @Test func aReserveOfZeroStillKeepsThePushOfTheFinal() {
        var configuration = Coalescer.Configuration.standard.withBudget(2)
        configuration.reserve = 0
        configuration.threshold = 0
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 3, clock: 600),
            Self.at(100, 2, .fieldGoal(points: 2, made: true), team: .away, period: 3, clock: 560),
            Self.at(200, 3, .gameEnd, period: 4, clock: 0),
        ], configuration: configuration)
        #expect(marbles.map(\.priority) == [10, 5, 10], "\(marbles)")
        #expect(marbles.last?.event == .end)
    }

    @Test func aSecondMandatoryTimeoutIsDueAfterALateFirst() {
        // The period's only timeout came at 6:40; at 2:59 a second is due, at the next dead ball.
        let marbles = Self.run([
            Self.at(0, 1, .timeout(.full), team: .away, clock: 400),
            Self.at(600, 2, .fieldGoal(points: 2, made: true), team: .home, clock: 175),
            Self.at(620, 3, .foul(.personal), team: .away, clock: 170),
        ], configuration: Self.pausesOnly, until: 800)
        #expect(marbles.map(\.priority) == [5, 5, 10], "\(marbles)")
        #expect(marbles.last?.at == 620)
    }

    @Test func aResumedCoalescerKnowsTheScoreItTakesOver() throws {
        var state = Make.live
        state.period = 4
        state.clock = .stopped(seconds: 60)
        state.homeScore = 90
        state.awayScore = 88
        var coalescer = Coalescer()
        coalescer.resume(state: state, shown: state, at: Make.start)
        var board = Scoreboard(state: state)
        let basket = Self.at(5000, 1, .fieldGoal(points: 3, made: true), team: .home, period: 4, clock: 50)
        let diff = board.apply(basket)
        _ = coalescer.observe(StateChange(event: basket, diff: diff, state: board.state), now: basket.time)
        let decision = coalescer.tick(now: basket.time.addingTimeInterval(3))
        guard case .push(let push) = decision else {
            Issue.record("the basket goes out after the settle window: \(decision)")
            return
        }
        #expect(push.alert == nil, "93-88 is no lead change")
        #expect(!push.reason.contains("run"), "not a 93-0 run: \(push.reason)")
    }

    @Test func alertRulesCanBeTurnedOff() {
        var configuration = Coalescer.Configuration.standard
        configuration.alerts = .none
        let marbles = Self.run([Self.at(0, 1, .gameEnd, period: 4, clock: 0)], configuration: configuration)
        #expect(marbles.first?.event == .end)
        #expect(marbles.first?.alert == nil)
    }

    @Test func nothingFollowsTheEnd() {
        let marbles = Self.run([
            Self.at(0, 1, .gameEnd, period: 4, clock: 0),
            Self.at(5, 2, .correction(points: 2), team: .home, period: 4, clock: 0),
        ], until: 100)
        #expect(marbles.count == 1)
    }

    @Test func minorChangesRideAlongWithTheNextPush() {
        let marbles = Self.run([
            Self.at(0, 1, .foul(.personal), team: .home),
            Self.at(10, 2, .substitution(out: "A"), team: .home),
            Self.at(30, 3, .rebound(offensive: false), team: .away),
        ], until: 100)
        #expect(marbles.isEmpty, "fouls and possession alone are not worth a push: \(marbles)")
    }

    @Test func aTinyBudgetIsNeverExceededAndTheEndKeepsItsPush() {
        var configuration = Coalescer.Configuration.standard.withBudget(3)
        configuration.minInterval = 1
        // A basket and a timeout every 4:30 over a game's 2h15, eight of them a period.
        var events: [GameEvent] = []
        var seq = 0
        for i in 0..<30 {
            let t = Double(i) * 270, period = 1 + i / 8, clock = 700 - Double(i % 8) * 85
            seq += 1
            events.append(Self.at(t, seq, .fieldGoal(points: 2, made: true), team: i % 2 == 0 ? .home : .away, period: period, clock: clock))
            seq += 1
            events.append(Self.at(t + 10, seq, .timeout(.full), team: .away, period: period, clock: clock))
        }
        events.append(Self.at(8200, seq + 1, .gameEnd, period: 4, clock: 0))
        let marbles = Self.run(events, configuration: configuration)
        let tens = marbles.filter { $0.priority == 10 }.map(\.at)
        for t in tens {
            #expect(tens.filter { $0 > t - 3600 && $0 <= t }.count <= 3, "rolling hour at \(t)")
        }
        #expect(tens.count > 3, "the budget is spent again as the hour rolls: \(tens)")
        #expect(marbles.last?.event == .end)
        #expect(marbles.last?.priority == 10, "a priority 10 was kept for the final")
        #expect(marbles.filter { $0.priority == 5 }.allSatisfy { $0.alert == nil })
    }

    @Test func aPlainScoreIsPriorityFiveButOneJustBeforeAMandatoryTimeoutIsTen() {
        let plain = Self.run([Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, clock: 600)], until: 60)
        #expect(plain.map(\.priority) == [5], "an ordinary basket promises too little: \(plain)")
        let near = Self.run([Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, clock: 440)], until: 60)
        #expect(near.map(\.priority) == [10], "no timeout yet and 7:00 is 20 s of game clock away: \(near)")
        let met = Self.run([
            Self.at(0, 1, .timeout(.full), team: .away, clock: 500),
            Self.at(200, 2, .fieldGoal(points: 2, made: true), team: .home, clock: 440),
        ], until: 260)
        #expect(met.map(\.priority) == [5, 5], "the timeout's own update, then the basket: the stretch had its timeout: \(met)")
    }

    @Test func aDeadBallWhenAMandatoryTimeoutIsDueIsAPause() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, clock: 430),
            Self.at(20, 2, .turnover(kind: "out-of-bounds"), team: .away, clock: 410),
        ], configuration: Self.pausesOnly, until: 200)
        #expect(marbles.map(\.priority) == [5, 10], "\(marbles)")
        #expect(marbles.last?.at == 20)
    }

    @Test func stoppagesSpendThePacingThenWait() {
        // Budget 15: 15 paced pushes an hour (one per 240 s), 4 saved up at the start. Each
        // basket goes out at priority 5; players checking in 5 s later find the screen wrong.
        var events: [GameEvent] = []
        var seq = 0
        for (i, t) in [0.0, 40, 80, 120, 160, 700].enumerated() {
            let clock = 690 - Double(i) * 10
            seq += 1
            events.append(Self.at(t, seq, .fieldGoal(points: 2, made: true), team: i % 2 == 0 ? .home : .away, clock: clock))
            seq += 1
            events.append(Self.at(t + 5, seq, .substitution(out: "A"), team: .home, clock: clock))
        }
        let marbles = Self.run(events, until: 900)
        #expect(marbles.map(\.priority) == [5, 10, 5, 10, 5, 10, 5, 10, 5, 5, 10], "\(marbles)")
        #expect(marbles.filter { $0.priority == 10 }.map(\.at) == [5, 45, 85, 125, 705])
    }

    @Test func spareBudgetLateInTheGameGoesToPlainScores() {
        var state = Make.live
        state.period = 4
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 250),
        ], from: state, until: 60)
        #expect(marbles.map(\.priority) == [10], "15 left and about 8 minutes to play: \(marbles)")
    }

    @Test func fromTheThirdPeriodAPauseLeavesOneForTheFinal() {
        var configuration = Coalescer.Configuration.standard.withBudget(2)
        configuration.minInterval = 1
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 3, clock: 500),
            Self.at(5, 2, .timeout(.full), team: .away, period: 3, clock: 500),
            Self.at(200, 3, .fieldGoal(points: 2, made: true), team: .away, period: 3, clock: 400),
            Self.at(205, 4, .timeout(.full), team: .home, period: 3, clock: 400),
            Self.at(600, 5, .gameEnd, period: 4, clock: 0),
        ], configuration: configuration)
        #expect(marbles.map(\.priority) == [5, 10, 5, 5, 10], "the second timeout goes out at priority 5: \(marbles)")
        #expect(marbles.last?.event == .end)
    }

    @Test func aLargeBudgetSendsEachPartOfAPlayAtOnce() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(1, 2, .foul(.shooting), team: .away),
            Self.at(25, 3, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .home),
        ], configuration: .frequentUpdates, until: 100)
        #expect(marbles.map(\.at) == [0, 25], "no and-one hold when priority 10 is plentiful")
        #expect(marbles.allSatisfy { $0.priority == 10 })
    }

    @Test func pushesKeepTheMinimumInterval() {
        var configuration = Coalescer.Configuration.standard
        configuration.minInterval = 5
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(4, 2, .timeout(.full), team: .away),
            Self.at(5, 3, .periodEnd, period: 1, clock: 0),
        ], configuration: configuration, until: 100)
        for (a, b) in zip(marbles, marbles.dropFirst()) {
            #expect(b.at - a.at >= 5, "\(marbles)")
        }
    }
}

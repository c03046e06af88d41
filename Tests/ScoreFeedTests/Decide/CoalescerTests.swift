import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// Timeline ("marble") tests of the coalescer: events at given seconds, ticks at the deadlines
/// it asks for, and the pushes it decides, all on a manual clock. The value table is a stated
/// one (``Make/values``), so the figures below follow from it and not from the shipped fit.
@Suite("Coalescer timelines")
struct CoalescerTests {
    /// What happened at a second of the timeline: an event or a push.
    struct Marble: Equatable, CustomStringConvertible {
        var at: Double
        var priority: Int
        var event: Push.Event
        var alert: AlertKind?
        var score: String
        /// A priority-5 copy follows the push.
        var copy = false
        var description: String { "\(Int(at))s p\(priority)\(copy ? "+copy" : "") \(event) \(score)\(alert.map { " alert:\($0)" } ?? "")" }
    }

    /// Runs `events` (each at `at` seconds after ``Make/start``) through a coalescer, waking it
    /// at every deadline in between, and returns its pushes.
    static func run(
        _ events: [GameEvent], configuration: Coalescer.Configuration = .standard, values: PushValues = Self.values,
        from state: GameState = Make.live, until end: Double? = nil
    ) -> [Marble] {
        var coalescer = Coalescer(configuration: configuration, values: values)
        var board = Scoreboard(state: state)
        var marbles: [Marble] = []
        func record(_ decision: PushDecision, _ now: Date) {
            guard case .push(let push) = decision else { return }
            let s = board.state
            marbles.append(Marble(
                at: now.timeIntervalSince(Make.start), priority: push.priority, event: push.event, alert: push.alert,
                score: "\(s.awayScore)-\(s.homeScore)", copy: push.priority5Copy))
        }
        func fire(until limit: Date) {
            while let deadline = coalescer.deadline, deadline <= limit {
                record(coalescer.tick(now: deadline), deadline)
            }
        }
        for event in events {
            fire(until: event.time)
            let before = board.state
            board.apply(event)
            record(coalescer.observe(StateChange(event: event, before: before, after: board.state), now: event.time), event.time)
        }
        fire(until: end.map { Make.start.addingTimeInterval($0) } ?? .distantFuture)
        return marbles
    }

    static func at(_ seconds: Double, _ seq: Int, _ kind: GameEvent.Kind, team: TeamSide? = nil, period: Int = 1, clock: Double = 600) -> GameEvent {
        Make.event(seq, kind, team: team, period: period, clock: clock, at: seconds, player: "P. Layer")
    }

    /// The stated table: waits for the next score are exponential with these means.
    static let values = Make.values(means: [
        .pause: 200, .mandatoryTimeout: 200, .periodEndsSoon: 150, .scoreBeforeMandatoryTimeout: 60,
        .scoreNearMandatoryTimeout: 60, .crunchTime: 60, .run: 60, .stoppage: 60, .substitution: 50,
        .commonFoul: 50, .freeThrowsToCome: 10, .score: 40, .play: 30,
    ])

    /// Told a priority-5 delay of 120 s and a fixed price, to see one rule at a time (budget to
    /// spare pays the full price too).
    static func priced(_ threshold: TimeInterval, delay: TimeInterval = 120) -> Coalescer.Configuration {
        Coalescer.Configuration(threshold: threshold, spareShare: 1).knowingDelay(delay)
    }

    @Test func everyScoreGoesOutAtOnce() {
        let andOne = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(1, 2, .foul(.shooting), team: .away),
            Self.at(25, 3, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .home),
            Self.at(40, 4, .rebound(offensive: false), team: .away),
        ], configuration: Self.priced(1000), until: 100)
        #expect(andOne.map(\.at) == [0, 25], "no hold: priority 5 costs nothing and waits for nothing: \(andOne)")
        #expect(andOne.map(\.score) == ["0-2", "0-3"])
        #expect(andOne.allSatisfy { $0.priority == 5 && !$0.copy })
    }

    /// A priority 10 given back (it never reached Apple) frees its place in the hour, where it was
    /// booked (the other kind when none was booked there then); a moment never booked changes
    /// nothing. Booked: 0 s and 1 s within the budget, 2 s beyond it.
    @Test(arguments: [
        ([], 2, 1),
        ([(2, true)], 2, 0),
        ([(2, false)], 2, 0),
        ([(2, true), (2, true)], 2, 0),
        ([(1, false)], 1, 1),
        ([(1, true)], 1, 1),
        ([(5, false)], 2, 1),
        ([(0, false), (1, false), (2, true)], 0, 0),
    ] as [([(Double, Bool)], Int, Int)])
    func aPriority10GivenBackFreesItsPlace(refunds: [(Double, Bool)], within: Int, beyond: Int) {
        var coalescer = Coalescer(configuration: Coalescer.Configuration(budget: 2, largestBudget: 3), values: Self.values)
        for second in [0.0, 1, 2] { coalescer.countPriority10(at: Make.start.addingTimeInterval(second)) }
        let now = Make.start.addingTimeInterval(3)
        #expect(coalescer.availableWithinBudget(now) == 0 && coalescer.availableBeyondBudget(now) == 0)
        for (second, beyond) in refunds { coalescer.refundPriority10(at: Make.start.addingTimeInterval(second), beyondBudget: beyond) }
        #expect(coalescer.budget.used(at: now) == within)
        #expect(coalescer.beyond.used(at: now) == beyond)
    }

    @Test func theFirstOfTwoFreeThrowsIsWorthLittle() {
        // Told 120 s: a made free throw with one to come buys 10 × (1 − e^−12) ≈ 10 s, the last one 38 s.
        let marbles = Self.run([
            Self.at(0, 1, .foul(.shooting), team: .away),
            Self.at(20, 2, .freeThrow(attempt: 1, of: 2, made: true, points: 1), team: .home),
            Self.at(35, 3, .freeThrow(attempt: 2, of: 2, made: true, points: 1), team: .home),
        ], configuration: Self.priced(30), until: 100)
        #expect(marbles.map(\.priority) == [5, 10], "\(marbles)")
        #expect(marbles.last?.copy == true, "no priority 5 carries 0-2 yet: the copy goes behind it")
    }

    @Test(arguments: [(15.0, 5), (30.0, 5), (60.0, 10), (120.0, 10), (300.0, 10)])
    func whatAPriority10BuysFollowsThePriority5Delay(delay: Double, priority: Int) {
        // A plain basket buys 40 × (1 − e^(−delay/40)) s: 12 at 15 s, 21 at 30, 31 at 60.
        let marbles = Self.run([Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home)], configuration: Self.priced(25, delay: delay), until: 400)
        #expect(marbles.map(\.priority) == [priority], "\(marbles)")
    }

    @Test func withPriority5OnTimeNothingIsWorthPriority10() {
        // A delay of 0: priority 5 is instant, a priority 10 buys nothing, so none is spent.
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(10, 2, .timeout(.full), team: .away),
            Self.at(40, 3, .rebound(offensive: false), team: .away),
        ], configuration: Coalescer.Configuration(priority5Delay: 0), until: 200)
        #expect(marbles.allSatisfy { $0.priority == 5 }, "\(marbles)")
    }

    @Test func aRestartsRunLengthAppliesToTheResumedGame() throws {
        // Told 120 s and a price of 45: a run buys 52 s, a plain score 38 s.
        var coalescer = Coalescer(configuration: Self.priced(45), values: Self.values)
        coalescer = try JSONDecoder().decode(Coalescer.self, from: try JSONEncoder().encode(coalescer))
        var configuration = Self.priced(45)
        configuration.runLength = 2
        coalescer.reconfigure(configuration)
        var board = Scoreboard(state: Make.live)
        let basket = Self.at(0, 1, .fieldGoal(points: 3, made: true), team: .home)
        let before = board.state
        board.apply(basket)
        let decision = coalescer.observe(StateChange(event: basket, before: before, after: board.state), now: basket.time)
        guard case .push(let push) = decision else {
            Issue.record("the basket goes out at once: \(decision)")
            return
        }
        #expect(push.priority == 10 && push.reason.contains("run"), "a 3-0 run is a run with --run 2 given at restart: \(push.reason)")
    }

    @Test func aTimeoutAfterAScoreBuysPriorityTen() {
        // The basket buys 38 s < 80; the timeout 10 s later buys 200 × (1 − e^(−110/200)) ≈ 85.
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(10, 2, .timeout(.full), team: .away),
        ], configuration: Self.priced(80), until: 200)
        #expect(marbles.map(\.priority) == [5, 10], "\(marbles)")
        #expect(marbles.last?.at == 10)
        #expect(marbles.last?.copy == false, "the priority 5 already on its way backs it")
    }

    @Test(arguments: [(3.0, 10), (10.0, 5)])
    func anUpgradeWhileTheDelayIsHedgedKeepsWhatItBuysBeforeTheShortestDelay(after seconds: Double, priority: Int) {
        // Assumed 120 s, hedged down to 15 s, price 60: a timeout 3 s after the basket buys about
        // 88 s at 120 s, 12/15 of it under the hedge (70); 10 s after, 5/15 of 85 (28).
        var configuration = Self.priced(60)
        configuration.shortestPriority5Delay = 15
        #expect(configuration.hedgesDelay)
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(seconds, 2, .timeout(.full), team: .away),
        ], configuration: configuration, until: 200)
        #expect(marbles.map(\.priority) == [5, priority], "\(marbles)")
        let known = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(seconds, 2, .timeout(.full), team: .away),
        ], configuration: Self.priced(60), until: 200)
        #expect(known.map(\.priority) == [5, 10], "told the delay, the upgrade buys its full value: \(known)")
    }

    @Test(arguments: [(400.0, 10), (600.0, 5)])
    func pushesThatWouldLoseAUseOfTheHourGoToLesserMomentsWhileHedging(clock: Double, priority: Int) {
        // A basket at 6:40 of the 1st (the stretch had its timeout) leaves about 2 h 4 min at
        // 2.9 s a game second: held 4 minutes more, the hour's 15 come back too late for a third
        // use, so a plain basket takes one. At 10:00 that is 13 minutes away: it waits.
        let events = [
            Self.at(0, 1, .timeout(.full), team: .away, clock: 700),
            Self.at(200, 2, .fieldGoal(points: 2, made: true), team: .home, clock: clock),
        ]
        let known = Self.priced(0).pricedFromTheGame
        var hedging = known
        hedging.shortestPriority5Delay = 15
        let hedged = Self.run(events, configuration: hedging, until: 260)
        #expect(hedged.map(\.priority) == [5, priority], "\(hedged)")
        let told = Self.run(events, configuration: known, until: 260)
        #expect(told.map(\.priority) == [5, 5], "told the delay, no hedge: the price holds \(told)")
    }

    @Test func aTimeoutWithTheScoreAlreadyShownCostsNothing() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(200, 2, .timeout(.full), team: .away),
        ], configuration: Self.priced(80), until: 400)
        #expect(marbles.allSatisfy { $0.priority == 5 }, "the priority-5 push has arrived by then: \(marbles)")
    }

    @Test func aScoreInThePeriodsLastSecondsIsPriorityTen() {
        let marbles = Self.run([Self.at(0, 1, .fieldGoal(points: 3, made: true), team: .away, period: 2, clock: 4)], configuration: Self.priced(80), until: 30)
        #expect(marbles.map(\.priority) == [10], "150 × (1 − e^−0.8) ≈ 83 s: \(marbles)")
    }

    @Test func earlyInAGameAPlainScoreWaitsForBetterMoments() {
        // Budget 15 over a game's 2.3 h: about 20 pushes an hour are affordable, and the pauses
        // and period ends the table expects ask for more than that at a higher value.
        let early = Self.run([Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 1, clock: 600)], configuration: Self.priced(0).pricedFromTheGame, until: 60)
        #expect(early.map(\.priority) == [5], "\(early)")
        var state = Make.live
        state.period = 4
        let late = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 250),
        ], configuration: Self.priced(0).pricedFromTheGame, from: state, until: 60)
        #expect(late.map(\.priority) == [10], "15 left and about 12 minutes to play: \(late)")
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

    @Test func theEndGoesOutAtOnceWithItsPriority5Copy() {
        let alone = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 30),
            Self.at(200, 2, .gameEnd, period: 4, clock: 0),
        ])
        #expect(alone.last?.event == .end)
        #expect(alone.last?.at == 200)
        #expect(alone.last?.priority == 10 && alone.last?.copy == true, "\(alone)")
        #expect(alone.last?.alert == .final)
        var configuration = Coalescer.Configuration.standard
        configuration.minInterval = 1
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 1),
            Self.at(3, 2, .periodEnd, period: 4, clock: 0),
            Self.at(3.2, 3, .gameEnd, period: 4, clock: 0),
        ], configuration: configuration)
        #expect(marbles.last?.event == .end)
        #expect(abs((marbles.last?.at ?? 0) - 3.2) < 0.001, "the decisive period end waits for the game's end: \(marbles)")
        #expect(marbles.filter { $0.event == .update }.map(\.at) == [0])
        #expect(marbles.last?.score == "0-2")
    }

    @Test func aSpentBudgetSendsTheFinalAtPriority5() {
        var configuration = Coalescer.Configuration.standard.withBudget(1)
        configuration.threshold = 0
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 3, clock: 600),
            Self.at(100, 2, .fieldGoal(points: 2, made: true), team: .away, period: 3, clock: 560),
            Self.at(200, 3, .gameEnd, period: 4, clock: 0),
        ], configuration: configuration)
        #expect(marbles.map(\.priority) == [10, 5, 5], "\(marbles)")
        #expect(marbles.first?.copy == true)
        #expect(marbles.last?.event == .end && marbles.last?.copy == false)
    }

    @Test func aFinalReserveKeepsAPriority10ForTheEnd() {
        var configuration = Coalescer.Configuration.standard.withBudget(2)
        configuration.threshold = 0
        configuration.finalReserve = 1
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 600),
            Self.at(100, 2, .fieldGoal(points: 2, made: true), team: .away, period: 4, clock: 560),
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
        ], configuration: Self.priced(70), until: 800)
        #expect(marbles.map(\.priority) == [5, 5, 10], "\(marbles)")
        #expect(marbles.last?.at == 620)
    }

    @Test func aResumedCoalescerKnowsTheScoreItTakesOver() throws {
        var state = Make.live
        state.period = 4
        state.clock = .stopped(seconds: 60)
        state.homeScore = 90
        state.awayScore = 88
        var coalescer = Coalescer(values: Self.values)
        coalescer.resume(state: state, shown: state, at: Make.start)
        var board = Scoreboard(state: state)
        let basket = Self.at(5000, 1, .fieldGoal(points: 3, made: true), team: .home, period: 4, clock: 50)
        let before = board.state
        board.apply(basket)
        let decision = coalescer.observe(StateChange(event: basket, before: before, after: board.state), now: basket.time)
        guard case .push(let push) = decision else {
            Issue.record("the basket goes out at once: \(decision)")
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

    @Test(arguments: [nil, 3] as [Int?])
    func withItsHourSpentAMomentWorthThePriceGoesBeyondTheAssumedBudgetWithACopy(largest: Int?) {
        // Assumed budget 1, price 60: three timeouts after baskets, each worth about 88 s.
        let configuration = Coalescer.Configuration(budget: 1, largestBudget: largest, threshold: 60, spareShare: 1).knowingDelay(120)
        let coalescer = Coalescer(configuration: configuration, values: Self.values)
        #expect(coalescer.beyond.limit == (largest ?? 2) - 1)
        var events: [GameEvent] = []
        for i in 0..<3 {
            events.append(Self.at(Double(i) * 300, 2 * i + 1, .fieldGoal(points: 2, made: true), team: .home))
            events.append(Self.at(Double(i) * 300 + 3, 2 * i + 2, .timeout(.full), team: .away))
        }
        let marbles = Self.run(events, configuration: configuration, until: 1000)
        let tens = marbles.filter { $0.priority == 10 }
        let beyond = (largest ?? 2) - 1
        #expect(tens.count == 1 + beyond, "one within the budget, the rest beyond it: \(marbles)")
        #expect(tens.dropFirst().allSatisfy { $0.copy }, "each beyond the budget has its own priority-5 copy (it carries the timeout too): \(marbles)")
        let known = Self.run(events, configuration: configuration.withBudget(1), until: 1000)
        #expect(known.filter { $0.priority == 10 }.count == 1, "a known budget is never exceeded: \(known)")
    }

    /// Feeds `events` to `coalescer` at their times and returns the pushes.
    static func drive(_ coalescer: inout Coalescer, _ events: [GameEvent], from state: GameState = Make.live) -> [Push] {
        var board = Scoreboard(state: state)
        var pushes: [Push] = []
        for event in events {
            let before = board.state
            board.apply(event)
            if case .push(let push) = coalescer.observe(StateChange(event: event, before: before, after: board.state), now: event.time) {
                pushes.append(push)
            }
        }
        return pushes
    }

    @Test func whatWentBeyondTheBudgetStaysCountedAcrossACheckpointAndARestart() throws {
        let hedged = Coalescer.Configuration(budget: 1, largestBudget: 3, threshold: 60, spareShare: 1).knowingDelay(120)
        var coalescer = Coalescer(configuration: hedged, values: Self.values)
        var events: [GameEvent] = []
        for i in 0..<3 {
            events.append(Self.at(Double(i) * 300, 2 * i + 1, .fieldGoal(points: 2, made: true), team: .home))
            events.append(Self.at(Double(i) * 300 + 3, 2 * i + 2, .timeout(.full), team: .away))
        }
        let pushes = Self.drive(&coalescer, events)
        #expect(pushes.filter { $0.priority == 10 }.count == 3)
        let now = Make.start.addingTimeInterval(700)
        #expect(coalescer.availableWithinBudget(now) == 0 && coalescer.availableBeyondBudget(now) == 0)
        coalescer = try JSONDecoder().decode(Coalescer.self, from: try JSONEncoder().encode(coalescer))
        #expect(coalescer.beyond.spent.count == 2, "the checkpoint keeps what went beyond")
        coalescer.reconfigure(hedged.withBudget(4))
        #expect(coalescer.availableWithinBudget(now) == 1, "a known budget of 4 counts the 2 beyond: 4 - 1 - 2")
        #expect(coalescer.availableBeyondBudget(now) == 0)
        #expect(coalescer.availableWithinBudget(now.addingTimeInterval(3600)) == 4, "the rolling hour frees them all")
    }

    @Test func aCoalescerThatTakesOverCountsBothAsSpent() {
        var coalescer = Coalescer(values: Self.values)
        coalescer.assumeBudgetSpent(at: Make.start)
        #expect(coalescer.availableWithinBudget(Make.start) == 0)
        #expect(coalescer.availableBeyondBudget(Make.start) == 0, "nothing beyond either: the pushes it does not know may have used it")
        var start = Coalescer(configuration: Coalescer.Configuration(budget: 1), values: Self.values)
        start.countPriority10(at: Make.start)
        start.countPriority10(at: Make.start)
        #expect(start.availableWithinBudget(Make.start) == 0 && start.availableBeyondBudget(Make.start) == 0, "a push-to-start past the budget counts beyond it")
    }

    @Test func aTinyBudgetIsNeverExceeded() {
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
        #expect(marbles.filter { $0.priority == 5 }.allSatisfy { $0.alert == nil })
        let atBaskets = marbles.filter { $0.priority == 10 && $0.event == .update && $0.at.truncatingRemainder(dividingBy: 270) == 0 }
        #expect(atBaskets.allSatisfy { $0.copy }, "a priority 10 at a basket has its copy: \(atBaskets)")
    }

    @Test func aPlainScoreIsPriorityFiveButOneJustBeforeAMandatoryTimeoutIsTen() {
        // Told 120 s: a plain basket buys 38 s, one near an unmet mark 52 s.
        let plain = Self.run([Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, clock: 600)], configuration: Self.priced(45), until: 60)
        #expect(plain.map(\.priority) == [5], "\(plain)")
        let near = Self.run([Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, clock: 440)], configuration: Self.priced(45), until: 60)
        #expect(near.map(\.priority) == [10], "no timeout yet and 7:00 is 20 s of game clock away: \(near)")
        let met = Self.run([
            Self.at(0, 1, .timeout(.full), team: .away, clock: 500),
            Self.at(200, 2, .fieldGoal(points: 2, made: true), team: .home, clock: 440),
        ], configuration: Self.priced(45), until: 260)
        #expect(met.map(\.priority) == [5, 5], "the timeout's own update, then the basket: the stretch had its timeout: \(met)")
    }

    @Test func aDeadBallWhenAMandatoryTimeoutIsDueIsAPause() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home, clock: 430),
            Self.at(20, 2, .turnover(kind: "out-of-bounds"), team: .away, clock: 410),
        ], configuration: Self.priced(70), until: 200)
        #expect(marbles.map(\.priority) == [5, 10], "\(marbles)")
        #expect(marbles.last?.at == 20)
    }

    @Test func budgetToSpareGoesToLesserMoments() {
        // Nothing is worth the price of 100, but a full pacing bucket (1 push, refilled at 15 an
        // hour: one per 240 s) spends on a moment worth 30 % of it.
        var configuration = Self.priced(100)
        configuration.pacedBurst = 1
        configuration.spareShare = 0.3
        var events: [GameEvent] = []
        for (i, t) in [0.0, 40, 300].enumerated() {
            events.append(Self.at(t, i + 1, .fieldGoal(points: 2, made: true), team: i % 2 == 0 ? .home : .away, clock: 690 - Double(i) * 10))
        }
        let marbles = Self.run(events, configuration: configuration, until: 400)
        #expect(marbles.map(\.priority) == [10, 5, 10], "\(marbles)")
    }

    @Test func aLargeBudgetSendsEachPartOfAPlayAtOnce() {
        let marbles = Self.run([
            Self.at(0, 1, .fieldGoal(points: 2, made: true), team: .home),
            Self.at(1, 2, .foul(.shooting), team: .away),
            Self.at(25, 3, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .home),
        ], configuration: .frequentUpdates, until: 100)
        #expect(marbles.map(\.at) == [0, 25])
        #expect(marbles.allSatisfy { $0.priority == 10 }, "\(marbles)")
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

extension Coalescer.Configuration {
    /// This configuration with the price set from the game and the budget again.
    var pricedFromTheGame: Self {
        var copy = self
        copy.threshold = nil
        return copy
    }
}

@Suite("Beyond-budget reasons")
struct BeyondBudgetReasonTests {
    /// The byte search that counts beyond-budget pushes agrees with a plain `contains` on the
    /// reasons the engine writes, and on text around them that is not ASCII.
    @Test(arguments: [
        ("", false),
        ("final", false),
        (Push.beyondBudget, true),
        ("final; \(Push.beyondBudget)", true),
        ("score: J. Wright 3PT (lead change; \(Push.beyondBudget))", true),
        ("score: Dončić 3PT 🏀 (lead change; \(Push.beyondBudget))", true),
        ("beyond the assumed budge", false),
        ("bbeyond the assumed budgeT", false),
        ("score: Dončić 3PT 🏀 (lead change)", false),
    ])
    func beyondBudgetIsFoundWhereverItIs(reason: String, expected: Bool) {
        #expect(Push.isBeyondBudget(reason) == expected)
        #expect(Push.isBeyondBudget(reason) == reason.contains(Push.beyondBudget))
    }
}

import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("Scoring fold")
struct ScoreboardTests {
    /// One scoring rule: events folded from a live Q1 state → (home, away).
    struct ScoringCase: CustomTestStringConvertible, Sendable {
        var name: String
        var events: [GameEvent]
        var home: Int
        var away: Int
        var testDescription: String { name }
    }

    static let scoringCases: [ScoringCase] = [
        .init(name: "2pt made", events: [Make.event(1, .fieldGoal(points: 2, made: true), team: .home)], home: 2, away: 0),
        .init(name: "3pt made", events: [Make.event(1, .fieldGoal(points: 3, made: true), team: .away)], home: 0, away: 3),
        .init(name: "missed shots score nothing", events: [
            Make.event(1, .fieldGoal(points: 3, made: false), team: .away),
            Make.event(2, .fieldGoal(points: 2, made: false), team: .home),
        ], home: 0, away: 0),
        .init(name: "free throws 1 of 2 missed, 2 of 2 made", events: [
            Make.event(1, .foul(.shooting), team: .away),
            Make.event(2, .freeThrow(attempt: 1, of: 2, made: false, points: 1), team: .home),
            Make.event(3, .freeThrow(attempt: 2, of: 2, made: true, points: 1), team: .home),
        ], home: 1, away: 0),
        .init(name: "and-one", events: [
            Make.event(1, .fieldGoal(points: 2, made: true), team: .home),
            Make.event(2, .foul(.shooting), team: .away),
            Make.event(3, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .home),
        ], home: 3, away: 0),
        .init(name: "four-point play", events: [
            Make.event(1, .fieldGoal(points: 3, made: true), team: .away),
            Make.event(2, .foul(.shooting), team: .home),
            Make.event(3, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .away),
        ], home: 0, away: 4),
        .init(name: "technical free throw", events: [
            Make.event(1, .foul(.technical), team: .home),
            Make.event(2, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .away),
        ], home: 0, away: 1),
        .init(name: "flagrant: two free throws", events: [
            Make.event(1, .foul(.flagrant), team: .home),
            Make.event(2, .freeThrow(attempt: 1, of: 2, made: true, points: 1), team: .away),
            Make.event(3, .freeThrow(attempt: 2, of: 2, made: true, points: 1), team: .away),
        ], home: 0, away: 2),
        .init(name: "correction takes points away", events: [
            Make.event(1, .fieldGoal(points: 3, made: true), team: .home),
            Make.event(2, .correction(points: -1), team: .home),
        ], home: 2, away: 0),
        .init(name: "correction gives points", events: [
            Make.event(1, .correction(points: 2), team: .away),
        ], home: 0, away: 2),
        .init(name: "correction never below zero", events: [
            Make.event(1, .correction(points: -3), team: .away),
        ], home: 0, away: 0),
        .init(name: "non-scoring events", events: [
            Make.event(1, .rebound(offensive: false), team: .home),
            Make.event(2, .turnover(kind: "bad pass"), team: .home),
            Make.event(3, .steal, team: .away),
            Make.event(4, .block, team: .home),
            Make.event(5, .violation(kind: "kicked ball"), team: .home),
            Make.event(6, .timeout(.full), team: .away),
            Make.event(7, .substitution(out: "A. B"), team: .away, player: "C. D"),
            Make.event(8, .replay(ruling: "upheld", challenge: false)),
        ], home: 0, away: 0),
    ]

    @Test(arguments: scoringCases)
    func scoring(_ c: ScoringCase) {
        let state = Make.fold(c.events)
        #expect(state.homeScore == c.home)
        #expect(state.awayScore == c.away)
    }

    @Test func functionFormMatchesMutatingForm() {
        let event = Make.event(1, .fieldGoal(points: 3, made: true), team: .away, player: "D. Fox")
        let (state, diff) = Scoreboard.apply(Make.live, event)
        #expect(state.awayScore == 3)
        #expect(diff.contains(.awayScore))
        var board = Scoreboard(state: Make.live)
        #expect(board.apply(event) == diff)
        #expect(board.state == state)
    }

    @Test func diffListsExactlyTheChangedFields() {
        var board = Scoreboard(state: Make.live)
        let diff = board.apply(Make.event(1, .fieldGoal(points: 3, made: true), team: .away, clock: 600, player: "D. Fox"))
        #expect(diff.changes.map(\.field) == [.awayScore, .clock, .possession, .lastPlay, .lastScorer])
        #expect(diff[.awayScore] == Diff.Change(.awayScore, .int(0), .int(3)))
        #expect(diff[.lastPlay]?.new == .text("D. Fox 3PT"))
        #expect(diff[.possession]?.new == .text("home"))
        // Folding an event that changes nothing gives an empty diff.
        #expect(board.apply(Make.event(2, .substitution(out: nil), team: .home)).isEmpty)
    }

    @Test func diffBetweenStatesMatchesFieldByField() {
        var a = Make.live
        var b = a
        b.homeScore = 5
        b.homeTimeouts = 6
        b.lastPlay = "x"
        #expect(Diff(from: a, to: b).changes.map(\.field) == [.homeScore, .homeTimeouts, .lastPlay])
        a.lastPlay = "x"
        #expect(Diff(from: a, to: a).isEmpty)
    }

    @Test func mergingKeepsFirstOldAndLastNew() {
        let first = Diff([.init(.homeScore, .int(10), .int(12)), .init(.possession, .text("home"), .text("away"))])
        let second = Diff([.init(.homeScore, .int(12), .int(13)), .init(.possession, .text("away"), .text("home"))])
        let merged = first.merging(second)
        #expect(merged.changes == [.init(.homeScore, .int(10), .int(13))])
    }

    @Test func periodsAndOvertime() {
        var board = Scoreboard()
        #expect(board.state.phase == .pregame)
        board.apply(Make.event(1, .periodStart, period: 1, clock: 720))
        #expect(board.state.phase == .live)
        board.apply(Make.event(2, .periodEnd, period: 1, clock: 0))
        #expect(board.state.phase == .endOfPeriod)
        board.apply(Make.event(3, .periodStart, period: 2, clock: 720))
        board.apply(Make.event(4, .periodEnd, period: 2, clock: 0))
        #expect(board.state.phase == .halftime)
        for (seq, period) in [(5, 3), (7, 4), (9, 5), (11, 6)] {
            board.apply(Make.event(seq, .periodStart, period: period, clock: period > 4 ? 300 : 720))
            board.apply(Make.event(seq + 1, .periodEnd, period: period, clock: 0))
        }
        #expect(board.state.period == 6)
        #expect(board.state.periodLabel == "2OT")
        board.apply(Make.event(20, .gameEnd, period: 6, clock: 0))
        #expect(board.state.phase == .final)
        #expect(board.state.clock == .stopped(seconds: 0))
    }

    @Test func overtimeGivesTwoFreshTimeoutsAndResetsFouls() {
        var state = Make.live
        state.period = 4
        state.homeTimeouts = 0
        state.awayTimeouts = 1
        state.homeFouls = 6
        state.awayInBonus = true
        let after = Make.fold([Make.event(1, .periodStart, period: 5, clock: 300)], from: state)
        #expect(after.homeTimeouts == 2)
        #expect(after.awayTimeouts == 2)
        #expect(after.homeFouls == 0)
        #expect(after.awayInBonus == false)
        if case .running(let endsAt) = after.clock {
            #expect(endsAt == Make.start.addingTimeInterval(10 + 300))
        } else {
            Issue.record("the clock should run after the overtime tip")
        }
    }

    @Test func teamFoulsResetEachPeriod() {
        let state = Make.fold([
            Make.event(1, .foul(.personal), team: .home, period: 1),
            Make.event(2, .foul(.personal), team: .home, period: 1),
            Make.event(3, .periodStart, period: 2, clock: 720),
        ])
        #expect(state.homeFouls == 0)
    }

    @Test func bonusAfterFourTeamFouls() {
        let fouls = (1...4).map { Make.event($0, .foul(.personal), team: .home, clock: 500 - Double($0)) }
        let three = Make.fold(Array(fouls.prefix(3)))
        #expect(three.homeFouls == 3)
        #expect(three.awayInBonus == false)
        let four = Make.fold(fouls)
        #expect(four.awayInBonus == true, "the 5th home foul gives away free throws")
        #expect(four.homeInBonus == false)
    }

    @Test func offensiveAndTechnicalFoulsAreNotTeamFouls() {
        let state = Make.fold([
            Make.event(1, .foul(.offensive), team: .home),
            Make.event(2, .foul(.technical), team: .home),
            Make.event(3, .foul(.shooting), team: .home),
            Make.event(4, .foul(.looseBall), team: .home),
        ])
        #expect(state.homeFouls == 2)
    }

    @Test func lastTwoMinutesSecondFoulIsPenalized() {
        let one = Make.fold([Make.event(1, .foul(.personal), team: .away, clock: 100)])
        #expect(one.homeInBonus == true, "one foul in the last 2:00 means the next one is penalized")
        let early = Make.fold([Make.event(1, .foul(.personal), team: .away, clock: 300)])
        #expect(early.homeInBonus == false)
    }

    @Test func overtimeQuotaIsThree() {
        var state = Make.live
        state.period = 5
        let fouls = (1...3).map { Make.event($0, .foul(.personal), team: .home, period: 5, clock: 290 - Double($0)) }
        #expect(Make.fold(Array(fouls.prefix(2)), from: state).awayInBonus == false)
        #expect(Make.fold(fouls, from: state).awayInBonus == true)
    }

    @Test func timeoutsSpendAndFourthQuarterCaps() {
        let spent = Make.fold([
            Make.event(1, .timeout(.full), team: .home),
            Make.event(2, .timeout(.official)),
            Make.event(3, .timeout(.challenge), team: .away),
        ])
        #expect(spent.homeTimeouts == 6)
        #expect(spent.awayTimeouts == 6)
        var q4 = Make.live
        q4.period = 4
        let capped = Make.fold([Make.event(1, .rebound(offensive: false), team: .home, period: 4, clock: 600)], from: q4)
        #expect(capped.homeTimeouts == 4)
        let late = Make.fold([Make.event(1, .rebound(offensive: false), team: .home, period: 4, clock: 170)], from: q4)
        #expect(late.homeTimeouts == 2)
    }

    @Test func successfulChallengeRefundsTheTimeout() {
        let state = Make.fold([
            Make.event(1, .timeout(.challenge), team: .home),
            Make.event(2, .replay(ruling: "overturned", challenge: true), team: .home),
        ])
        #expect(state.homeTimeouts == 7)
        let failed = Make.fold([
            Make.event(1, .timeout(.challenge), team: .home),
            Make.event(2, .replay(ruling: "upheld", challenge: true), team: .home),
        ])
        #expect(failed.homeTimeouts == 6)
    }

    @Test(arguments: [
        (GameEvent.Kind.rebound(offensive: true), TeamSide.home, TeamSide?.some(.home)),
        (.steal, .away, .away),
        (.turnover(kind: nil), .home, .away),
        (.fieldGoal(points: 2, made: true), .home, .away),
        (.jumpBall, .away, .away),
    ])
    func possession(kind: GameEvent.Kind, team: TeamSide, expected: TeamSide?) {
        #expect(Make.fold([Make.event(1, kind, team: team)]).possession == expected)
    }

    @Test func lastFreeThrowMadeGivesTheBallAway() {
        let state = Make.fold([
            Make.event(1, .rebound(offensive: false), team: .home),
            Make.event(2, .freeThrow(attempt: 1, of: 2, made: true, points: 1), team: .home),
        ])
        #expect(state.possession == .home)
        let after = Make.fold([Make.event(3, .freeThrow(attempt: 2, of: 2, made: true, points: 1), team: .home)], from: state)
        #expect(after.possession == .away)
    }

    @Test func clockRunsInPlayAndStopsOnWhistles() {
        let run = Make.fold([Make.event(1, .rebound(offensive: false), team: .home, clock: 500, at: 100, player: "A. B")])
        #expect(run.clock == .running(endsAt: Make.start.addingTimeInterval(600)))
        let stop = Make.fold([Make.event(1, .foul(.personal), team: .home, clock: 500)])
        #expect(stop.clock == .stopped(seconds: 500))
        // Made baskets stop the clock only in the last 2:00 of the 4th and overtime.
        var q4 = Make.live
        q4.period = 4
        let early = Make.fold([Make.event(1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 300)], from: q4)
        #expect(early.clock.isRunning)
        let late = Make.fold([Make.event(1, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 90)], from: q4)
        #expect(late.clock == .stopped(seconds: 90))
    }

    @Test func lastPlayAndScorer() {
        let state = Make.fold([
            Make.event(1, .fieldGoal(points: 3, made: true), team: .away, player: "D. Fox"),
            Make.event(2, .rebound(offensive: false), team: .home),
        ])
        #expect(state.lastPlay == "D. Fox 3PT")
        #expect(state.lastScorer == .away)
        let ft = Make.fold([Make.event(1, .freeThrow(attempt: 2, of: 3, made: true, points: 1), team: .home, player: "L. Doncic")])
        #expect(ft.lastPlay == "L. Doncic FT 2/3")
    }

    @Test func playWithoutPeriodStartStillGoesLive() {
        var board = Scoreboard()
        board.apply(Make.event(1, .fieldGoal(points: 2, made: true), team: .home, period: 1, clock: 700))
        #expect(board.state.phase == .live)
        board.apply(Make.event(2, .rebound(offensive: false), team: .home, period: 2, clock: 700))
        #expect(board.state.period == 2)
    }
}

@Suite("Scoring fold: clock and possession details")
struct ScoreboardDetailTests {
    @Test(arguments: [(1, 59.0, false), (1, 61.0, true), (3, 30.0, false), (4, 119.0, false), (4, 121.0, true), (5, 100.0, false)])
    func madeBasketStopsTheClockLate(period: Int, clock: Double, running: Bool) {
        var state = Make.live
        state.period = period
        let after = Make.fold([Make.event(1, .fieldGoal(points: 2, made: true), team: .home, period: period, clock: clock)], from: state)
        #expect(after.clock.isRunning == running)
    }

    @Test func teamReboundLeavesTheClockStopped() {
        let state = Make.fold([
            Make.event(1, .freeThrow(attempt: 1, of: 2, made: false, points: 1), team: .home, clock: 400),
            Make.event(2, .rebound(offensive: true), team: .home, clock: 400),
        ])
        #expect(state.clock == .stopped(seconds: 400))
        let player = Make.fold([Make.event(1, .rebound(offensive: false), team: .home, clock: 400, player: "A. B")])
        #expect(player.clock.isRunning)
    }

    @Test(arguments: [GameEvent.FoulKind.technical, .flagrant])
    func technicalAndFlagrantFreeThrowsKeepTheBall(kind: GameEvent.FoulKind) {
        let state = Make.fold([
            Make.event(1, .rebound(offensive: false), team: .home, player: "A. B"),
            Make.event(2, .foul(kind), team: .away),
            Make.event(3, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .home),
        ])
        #expect(state.possession == .home)
        let after = Make.fold([
            Make.event(4, .foul(.shooting), team: .away),
            Make.event(5, .freeThrow(attempt: 1, of: 1, made: true, points: 1), team: .home),
        ], from: state)
        #expect(after.possession == .away, "an ordinary trip gives the ball back")
    }
}

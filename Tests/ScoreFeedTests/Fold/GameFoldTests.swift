import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// The one fold's own rules, beyond the timelines the session runs through it.
@Suite("GameFold: the rules of applying an event")
struct GameFoldTests {
    typealias Session = GameSessionTests

    @Test func anEditIsACorrectionAtTheGamesCurrentPeriodAndClock() {
        var fold = GameFold()
        fold.apply(Session.tipOff, index: 0, now: Session.tipOff.time)
        fold.apply(Session.two, index: 1, now: Session.two.time)
        let second = Make.event(30, .periodStart, period: 2, clock: 720, at: 900)
        fold.apply(second, index: 2, now: second.time)
        let now = second.time.addingTimeInterval(60)
        let step = fold.apply(Session.three, index: 3, now: now)
        #expect(step.verdict == .edit(previous: EventValidator.AppliedEvent(Session.two)))
        let change = try! #require(step.change)
        #expect(change.event.kind == .correction(points: 1) && change.event.team == .away)
        #expect(change.event.period == 2 && change.event.clock == 660, "a minute into the 2nd period")
        #expect(change.before.awayScore == 2 && change.state.awayScore == 3 && change.changesScore)
    }

    @Test func theFeedsScoreIsFollowedAndSaidSo() {
        var fold = GameFold()
        var basket = Session.two
        basket.feedScore = FinalScore(home: 0, away: 3)
        let step = fold.apply(basket, index: 0, now: basket.time)
        #expect(step.corrected && fold.followsFeedScore)
        #expect(step.change?.state.awayScore == 3 && step.change?.before.awayScore == 0)
        #expect(fold.follow(FinalScore(home: 0, away: 3), time: basket.time, now: basket.time) == nil, "the same score again is no change")
    }

    @Test func afterTheGamesEndNothingMoves() {
        var fold = GameFold()
        let end = Make.event(9, .gameEnd, period: 4, clock: 0)
        fold.apply(end, index: 0, now: end.time)
        #expect(fold.sawGameEnd)
        #expect(fold.follow(FinalScore(home: 5, away: 0), time: end.time, now: end.time) == nil)
        guard case .reject(let error) = fold.apply(Session.two, index: 1, now: end.time).verdict else {
            Issue.record("an event after the end is refused")
            return
        }
        #expect(error.code == .afterGameEnd && fold.state.homeScore == 0)
    }

    @Test func aRepeatIsNoChange() {
        var fold = GameFold()
        fold.apply(Session.two, index: 0, now: Session.two.time)
        let step = fold.apply(Session.two, index: 1, now: Session.two.time)
        guard case .duplicate = step.verdict else {
            Issue.record("a repeat is a duplicate")
            return
        }
        #expect(step.change == nil && fold.state.awayScore == 2)
    }
}

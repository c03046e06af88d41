import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The budget a coalescer assumes when its first arrival meets a game already under way
/// (``Coalescer/JoinBudget``): which arrivals are joins, and what each assumption spends and
/// sends. Pure: a coalescer, a scoreboard and the time, no engine.
@Suite("Budget at a join")
struct JoinBudgetTests {
    /// The first `played` game seconds of a game: the tip-off, then a basket for each side in
    /// turn every 30 s of game clock (periods of 720 s, overtimes of 300 s), at 3 wall seconds
    /// per game second.
    static func game(playing played: Double) -> [GameEvent] {
        var events = [Make.event(1, .periodStart, period: 1, clock: 720, at: 0)]
        for (i, t) in stride(from: 30.0, through: played, by: 30).enumerated() {
            let overtime = max(0, t - 2880)
            let period = overtime > 0 ? 4 + Int((overtime / 300).rounded(.up)) : Int((t / 720).rounded(.up))
            let clock = overtime > 0 ? Double(period - 4) * 300 - overtime : Double(period) * 720 - t
            events.append(Make.event(i + 2, .fieldGoal(points: 2, made: true), team: i % 2 == 0 ? .home : .away, period: period, clock: clock, at: 3 * t))
        }
        return events
    }

    /// Takes `events` into `coalescer` as one arrival at `now` and decides once.
    static func arrive(_ events: [GameEvent], _ coalescer: inout Coalescer, _ board: inout Scoreboard, now: Date) -> PushDecision {
        for event in events {
            let before = board.state
            board.apply(event)
            coalescer.absorb(StateChange(event: event, before: before, after: board.state), now: now)
        }
        return coalescer.decide(now: now)
    }

    static func now(after events: [GameEvent]) -> Date {
        (events.last?.time ?? Make.start).addingTimeInterval(1)
    }

    /// Game seconds played in the first arrival, and whether it is a join: three minutes of game
    /// clock with points on the board, whatever the period.
    @Test(arguments: [
        (0.0, false), (30, false), (150, false), (180, true), (600, true), (1500, true), (2880, true), (3000, true),
    ])
    func aFirstArrivalIsAJoinFromThreeMinutesPlayed(played: Double, joins: Bool) {
        var coalescer = Coalescer(configuration: .standard, values: CoalescerTests.values)
        coalescer.joinBudget = .spent
        var board = Scoreboard()
        let events = Self.game(playing: played)
        let now = Self.now(after: events)
        _ = Self.arrive(events, &coalescer, &board, now: now)
        // A join counts the hour spent (beyond the budget too); a new game keeps the hedge whole
        // (its one decision may spend within the budget, never beyond it).
        #expect((coalescer.availableBeyondBudget(now) == 0) == joins, "\(played) s played")
        #expect(Coalescer.gameSecondsPlayed(coalescer.situation) == (played < 30 ? 0 : (played / 30).rounded(.down) * 30))
    }

    /// What a coalescer under `assumption` decided and spent, taking `arrivals` in turn.
    static func run(_ arrivals: [[GameEvent]], assumption: Coalescer.JoinBudget, oneByOne: Bool = false) -> (decisions: [PushDecision], coalescer: Coalescer) {
        var coalescer = Coalescer(configuration: .standard, values: CoalescerTests.values)
        coalescer.joinBudget = assumption
        var board = Scoreboard()
        var decisions: [PushDecision] = []
        for arrival in arrivals {
            if oneByOne {
                for event in arrival {
                    let before = board.state
                    board.apply(event)
                    decisions.append(coalescer.observe(StateChange(event: event, before: before, after: board.state), now: event.time))
                }
            } else {
                decisions.append(Self.arrive(arrival, &coalescer, &board, now: Self.now(after: arrival)))
            }
        }
        return (decisions, coalescer)
    }

    /// Only a coalescer's first arrival can be a join: a game met before tip-off and then handed
    /// its backlog, or taken one event at a time (replay, feed time), decides and spends the same
    /// whatever the assumption; so does a lost checkpoint's take-over, which keeps its own rule.
    @Test(arguments: Coalescer.JoinBudget.allCases)
    func onlyTheFirstArrivalOfAnUntouchedCoalescerJoins(assumption: Coalescer.JoinBudget) {
        let events = Self.game(playing: 1500)
        for arrivals in [[Array(events.prefix(1)), Array(events.dropFirst())], [events]] {
            let oneByOne = arrivals.count == 1
            let fresh = Self.run(arrivals, assumption: .fresh, oneByOne: oneByOne)
            let other = Self.run(arrivals, assumption: assumption, oneByOne: oneByOne)
            #expect(other.decisions == fresh.decisions)
            #expect(other.coalescer.budget == fresh.coalescer.budget && other.coalescer.beyond == fresh.coalescer.beyond)
        }
        var takenOver = Coalescer(configuration: .standard, values: CoalescerTests.values)
        takenOver.assumeBudgetSpent(at: nil)
        #expect(!takenOver.isUntouched)
    }

    /// What each assumption spends at a join and sends for it, at a fixed price of 0 (every
    /// moment worth priority 10): the whole budget left, none, or the hedge beyond it; the join's
    /// push at priority 10 with its priority-5 copy, or at priority 5.
    @Test(arguments: [
        (Coalescer.JoinBudget.fresh, 10, false, 14, 15),
        (.spent, 5, false, 0, 0),
        (.hedged, 10, true, 0, 14),
        (.spentAfterJoinPush, 10, false, 0, 0),
    ])
    func eachAssumptionSpendsAndSends(
        assumption: Coalescer.JoinBudget, priority: Int, beyondBudget: Bool, within: Int, beyond: Int
    ) throws {
        var coalescer = Coalescer(configuration: Coalescer.Configuration(threshold: 0), values: CoalescerTests.values)
        coalescer.joinBudget = assumption
        var board = Scoreboard()
        let events = Self.game(playing: 1500)
        let now = Self.now(after: events)
        guard case .push(let push) = Self.arrive(events, &coalescer, &board, now: now) else {
            Issue.record("a join sends the present")
            return
        }
        #expect(push.event == .update)
        #expect(push.priority == priority)
        #expect(push.priority5Copy == (priority == 10), "a priority 10 at a join has its priority-5 copy")
        #expect(Push.isBeyondBudget(push.reason) == beyondBudget, "\(push.reason)")
        #expect(coalescer.availableWithinBudget(now) == within)
        #expect(coalescer.availableBeyondBudget(now) == beyond)
        // An hour later the join's assumption has passed.
        let later = now.addingTimeInterval(3601)
        #expect(coalescer.availableWithinBudget(later) == 15)
    }

    @Test func theDefaultIsAFreshBudget() {
        #expect(Coalescer.JoinBudget.standard == .fresh)
        #expect(Coalescer().joinBudget == .fresh)
    }
}

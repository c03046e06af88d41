import Foundation
import ScoreFeedModel

extension Coalescer {
    /// What a coalescer assumes of the device's hourly priority-10 budget when it meets a game
    /// already under way with no state of its own (`poll` started after tip-off, a state dir
    /// lost with its machine, `serve` handed a backlog): an earlier instance may have spent the
    /// whole hour on this activity, or the activity is brand new, and nothing says which.
    /// Measured by `scorefeed freshness --join` (<doc:PushingUnderTheBudget#Budget-at-a-join>).
    public enum JoinBudget: String, Hashable, Sendable, CaseIterable {
        /// Nothing spent: the whole hour's budget, as for a game met before tip-off.
        case fresh
        /// The hour spent at the join, within the assumed budget and beyond it
        /// (``Coalescer/assumeBudgetSpent(at:)``): priority 5 only until it comes back, an hour
        /// later.
        case spent
        /// The assumed budget spent at the join, the hedge beyond it left open: a moment worth the
        /// price still goes at priority 10 with its priority-5 copy, up to the largest budget.
        case hedged
        /// The join's own push decided on a whole budget (at priority 10 with its priority-5 copy
        /// when the moment is worth it), then the rest of the hour counted spent.
        case spentAfterJoinPush

        /// The default: see <doc:PushingUnderTheBudget#Budget-at-a-join> for the figures that chose it.
        public static let standard = JoinBudget.fresh
    }

    /// Whether the coalescer has taken in nothing yet: no event, no push, nothing spent, no
    /// take-over pending. A join can only be the first arrival of such a coalescer.
    var isUntouched: Bool {
        state == GameState() && recent.isEmpty && lastPushAt == nil && budget.spent.isEmpty && beyond.spent.isEmpty
            && phase == .idle(Waits())
    }

    /// Whether `arrival`, just taken in, met a game already under way: it is the first thing the
    /// coalescer took in, and the game it shows has played at least ``joinGameSeconds`` of game
    /// clock with points on the board, so an earlier instance may have pushed (and spent) for it.
    /// A feed met before tip-off, or a moment after it, is a new game: its first arrival holds
    /// the period's start and little more.
    func isJoin(_ arrival: Arrival) -> Bool {
        arrival.isFirst && state.homeScore + state.awayScore > 0 && Self.gameSecondsPlayed(situation) >= Self.joinGameSeconds
    }

    /// Game-clock seconds played before a first arrival counts as a join: three minutes, about
    /// nine of wall time, in which an earlier instance can have spent a few priority-10 pushes
    /// at most.
    public static let joinGameSeconds: Double = 180

    /// Game-clock seconds played at the moment `situation` last read: 12-minute periods, 5-minute
    /// overtimes.
    static func gameSecondsPlayed(_ situation: Situation) -> Double {
        let period = max(1, situation.period)
        let length: Double = period <= 4 ? 720 : 300
        let before = period <= 4 ? Double(period - 1) * 720 : 2880 + Double(period - 5) * 300
        return before + max(0, length - min(max(situation.clock, 0), length))
    }

    /// Decides a join at `now` under ``joinBudget``: what the budget counts as spent, then the one
    /// decision the arrival gets.
    mutating func join(now: Date) -> PushDecision {
        switch joinBudget {
        case .fresh:
            return tick(now: now)
        case .spent:
            assumeBudgetSpent(at: now)
            return tick(now: now)
        case .hedged:
            while availableWithinBudget(now) > 0 { countPriority10(at: now) }
            return tick(now: now)
        case .spentAfterJoinPush:
            let decision = tick(now: now)
            assumeBudgetSpent(at: now)
            return decision
        }
    }
}

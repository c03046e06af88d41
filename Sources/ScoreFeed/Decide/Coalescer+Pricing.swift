import Foundation

/// The price of a priority-10 push: what one buys now against what the rest of the game's
/// budget is likely worth (the offers of the moments still to come).
extension Coalescer {
    /// What a priority 10 likely buys now: the value of the moment within what is left of the
    /// priority-5 delay. While the delay is hedged, an upgrade (the score already on its way at
    /// priority 5) keeps only the share it would still buy were priority 5 as quick as it may be.
    func valueOfPriority10(_ kind: Situation.Kind, _ now: Date) -> Double {
        let left = secondsUntilShown(now)
        let value = values.value(kind, within: left)
        return value * Self.hedgedShare(configuration, elapsed: configuration.priority5Delay - left)
    }

    /// The share of its value an upgrade sent `elapsed` seconds after the priority 5 it overtakes
    /// keeps under the hedge: the part of the shortest delay still ahead.
    static func hedgedShare(_ configuration: Configuration, elapsed: TimeInterval) -> Double {
        guard configuration.hedgesDelay, elapsed > 0 else { return 1 }
        let shortest = configuration.shortestPriority5Delay
        return shortest > 0 ? max(0, shortest - elapsed) / shortest : 0
    }

    /// The least a priority 10 must buy: a third of the priority-5 delay, at most `minimumGain`.
    var minimumGain: TimeInterval {
        min(configuration.minimumGain, configuration.priority5Delay / 3)
    }

    /// The value a priority 10 must promise now. Set by `--threshold`, or the value at which the
    /// moments this game likely still has would use up the priority-10 pushes it can still
    /// spend: each one the hour has left, or that comes back before the end, is good for one
    /// push and one more for every full hour after.
    func price(_ now: Date, available: Int) -> Double {
        if let threshold = configuration.threshold { return threshold }
        // When no moment is worth much more than another, waiting buys nothing: spend at once.
        if offers.isFlat { return 0 }
        let left = max(300, remainingSeconds)
        let end = now.addingTimeInterval(left)
        func uses(from ready: Date) -> Double {
            let span = end.timeIntervalSince(ready)
            return span < 0 ? 0 : 1 + (span / budget.window).rounded(.down)
        }
        var supply = Double(max(0, available - tokensToKeep)) * uses(from: now)
        for spent in budget.spent where spent > now.addingTimeInterval(-budget.window) {
            supply += uses(from: spent.addingTimeInterval(budget.window))
        }
        let affordable = supply / (left / 3600)
        let price = Self.price(offers, affording: affordable)
        guard configuration.hedgesDelay, left > budget.window else { return price }
        // Held past the deadline, the pushes the hour has left lose a use before the end: when
        // priority 5 is quick their count is all that matters, so the moments before it may take
        // a share of them.
        let spendable = Double(max(0, available - tokensToKeep))
        let untilDeadline = max(60, left.truncatingRemainder(dividingBy: budget.window))
        return min(price, Self.price(offers, affording: configuration.keepUsesShare * spendable / (untilDeadline / 3600)))
    }

    /// The value at which the moments wanting priority 10 per hour fit in `affordable`: score
    /// changes worth it, and the upgrades (a pause, a dead ball) of the score changes that were
    /// not, at most one per score change.
    static func price(_ offers: Offers, affording affordable: Double) -> Double {
        for step in offers.steps where step.demand >= affordable {
            // The marginal kind's moments spread below its value (a pause logged late buys
            // less): the share of them the supply affords sets how far into the spread to go.
            let share = step.demand > step.above ? min(1, max(0, (affordable - step.above) / (step.demand - step.above))) : 1
            return step.price - share * (step.price - step.next)
        }
        return 0
    }

    /// Wall-clock seconds the game likely has left, from the period and the game clock.
    var remainingSeconds: Double {
        let period = situation.period, clock = min(max(situation.clock, 0), 720)
        let gameSeconds = period <= 4 ? Double(4 - max(period, 1)) * 720 + clock : clock
        return gameSeconds * values.secondsPerGameSecond
    }

    /// What a priority 10 buys at each kind of moment under one priority-5 delay, and how often
    /// the kind comes: score changes by kind, and the pauses and dead balls that may upgrade a
    /// score still on its way at priority 5 (valued a few seconds into the delay).
    struct Offers: Sendable {
        /// Each kind's value as a price, best first, with the moments per hour wanting priority
        /// 10 at it (score changes worth it, and upgrades of those that are not, at most one per
        /// score change), the demand at the price before, and the next price down.
        private(set) var steps: [(price: Double, demand: Double, above: Double, next: Double)] = []
        /// Whether every score change is worth at least 80 % of the best moment: waiting buys
        /// nothing then.
        private(set) var isFlat = false

        init(scores: [(value: Double, perHour: Double)], upgrades: [(value: Double, perHour: Double)], scoresPerHour: Double) {
            let candidates = (scores.map(\.value) + upgrades.map(\.value)).sorted(by: >)
            var above = 0.0
            for (index, price) in candidates.enumerated() {
                let funded = scores.filter { $0.value >= price }.reduce(0) { $0 + $1.perHour }
                let unfunded = max(0, scoresPerHour - funded)
                let share = scoresPerHour > 0 ? unfunded / scoresPerHour : 0
                let upgrading = upgrades.filter { $0.value >= price }.reduce(0) { $0 + $1.perHour * share }
                let demand = funded + min(upgrading, unfunded)
                steps.append((price, demand, above, index + 1 < candidates.count ? candidates[index + 1] : 0))
                above = demand
            }
            isFlat = (scores.map(\.value).min() ?? 0) >= 0.8 * (candidates.first ?? 0)
        }
    }

    /// The price is set at the assumed delay: a hedge changes which moments take it, not it.
    static func offers(_ values: PushValues, _ configuration: Configuration) -> Offers {
        let delay = configuration.priority5Delay
        let into = max(0, delay - min(15, delay / 2))
        var scores: [(value: Double, perHour: Double)] = []
        var upgrades: [(value: Double, perHour: Double)] = []
        for kind in Situation.Kind.allCases {
            if values.rate(kind) > 0 { scores.append((values.value(kind, within: delay), values.rate(kind))) }
            let upgrading = values.momentRate(kind) - values.rate(kind)
            if kind != .play && upgrading > 0 { upgrades.append((values.value(kind, within: into), upgrading)) }
        }
        return Offers(scores: scores, upgrades: upgrades, scoresPerHour: values.scoresPerHour)
    }

    /// Priority-10 pushes moments other than pauses leave unspent: `reserve` before the 4th, the
    /// crunch reserve in the 4th and overtime until the last 2:00 (both 0 by default: the price
    /// already saves the budget for what is worth more).
    var tokensToKeep: Int {
        situation.period >= 4 ? finalReserve : configuration.reserve
    }

    /// What even a pause leaves, from the 4th period on: the final reserve, and the crunch
    /// reserve until the last 2:00.
    var finalReserve: Int {
        guard situation.period >= 4 else { return 0 }
        return configuration.finalReserve + (situation.isCrunchTime ? 0 : configuration.crunchReserve)
    }
}

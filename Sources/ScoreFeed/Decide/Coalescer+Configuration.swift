import Foundation

extension Coalescer {
    /// The coalescer's knobs. The defaults follow from basketball's rhythm (what the real-game
    /// analysis in the README shows), not from any one game.
    public struct Configuration: Hashable, Sendable, Codable {
        /// Priority-10 pushes allowed per rolling hour.
        public var budget: Int
        /// Priority-10 pushes kept back outside the last 2:00, for crunch time and the final.
        public var reserve: Int
        /// Priority-10 pushes that pushes at score changes leave for long pauses (timeouts,
        /// period ends), on top of the reserve.
        public var pauseHeadroom: Int
        /// Priority-10 pushes per hour spent at score changes rather than at pauses: the rate of
        /// the pacing bucket, so the budget is spread over the hour instead of burnt early.
        public var pacedPerHour: Double
        /// How many paced pushes may be saved up (the bucket starts full).
        public var pacedBurst: Double
        /// Least time between two pushes of the activity (Apple: about 1 s for broadcast).
        public var minInterval: TimeInterval
        /// How late a priority-5 push is assumed to arrive; sets what a priority 10 gains.
        public var priority5Delay: TimeInterval
        /// Whether to hold an and-one or a free-throw trip to send it as one push. Worth it while
        /// priority 10 is scarce; with a budget near a game's ~55 score changes an hour, sending
        /// each part at once is better.
        public var mergePlays: Bool
        /// How long a made basket is held for an and-one foul.
        public var settle: TimeInterval
        /// Longest hold while free throws are still to come.
        public var freeThrowHold: TimeInterval
        /// A score with this little left on the game clock likely ends the period: a long pause.
        public var periodEndWindow: TimeInterval
        /// Unanswered points after which the other team likely calls a timeout.
        public var runLength: Int
        /// A priority 10 must bring the score forward by at least this many seconds.
        public var minimumGain: TimeInterval
        public var alerts: AlertRules

        public init(
            budget: Int = 15, reserve: Int = 2, pauseHeadroom: Int = 3, pacedPerHour: Double? = nil,
            pacedBurst: Double? = nil, minInterval: TimeInterval = 1, priority5Delay: TimeInterval = 120,
            settle: TimeInterval = 3, freeThrowHold: TimeInterval = 45, periodEndWindow: TimeInterval = 24,
            runLength: Int = 8, minimumGain: TimeInterval = 20, alerts: AlertRules = AlertRules(),
            mergePlays: Bool? = nil
        ) {
            self.budget = budget
            self.reserve = reserve
            self.pauseHeadroom = pauseHeadroom
            self.pacedPerHour = pacedPerHour ?? Self.paced(budget, reserve: reserve)
            self.pacedBurst = pacedBurst ?? Self.burst(budget)
            self.minInterval = minInterval
            self.priority5Delay = priority5Delay
            self.mergePlays = mergePlays ?? (budget < 50)
            self.settle = settle
            self.freeThrowHold = freeThrowHold
            self.periodEndWindow = periodEndWindow
            self.runLength = runLength
            self.minimumGain = minimumGain
            self.alerts = alerts
        }

        /// The reported default budget (about 15 priority-10 pushes an hour).
        public static let standard = Configuration()
        /// For apps with `NSSupportsLiveActivitiesFrequentUpdates`: a larger budget.
        public static let frequentUpdates = Configuration(budget: 60, reserve: 3)

        /// This configuration with another budget, the paced rate following it.
        public func withBudget(_ budget: Int) -> Configuration {
            var copy = self
            copy.budget = budget
            copy.pacedPerHour = Self.paced(budget, reserve: reserve)
            copy.pacedBurst = Self.burst(budget)
            copy.mergePlays = Self.merges(budget)
            return copy
        }

        /// A game has about six long pauses an hour; the rest of the budget (less the reserve)
        /// is paced over score changes.
        static func paced(_ budget: Int, reserve: Int) -> Double {
            Double(max(1, budget - reserve - 6))
        }

        /// Plays are merged while the budget is well under a game's rate of score changes.
        static func merges(_ budget: Int) -> Bool {
            budget < 50
        }

        /// A sixth of the hourly budget may be saved up (at least 2): enough for a flurry of
        /// baskets when the budget allows priority 10 on most of them.
        static func burst(_ budget: Int) -> Double {
            max(2, Double(budget) / 6)
        }
    }
}

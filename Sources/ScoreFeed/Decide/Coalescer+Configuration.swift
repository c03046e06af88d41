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

        /// Knobs left nil follow from the budget: while priority 10 is scarce (under 50 an hour)
        /// plays are merged, a reserve of 2 and a headroom of 3 are kept and the rest less six
        /// pauses an hour is paced; when it is plentiful, every score change may have one.
        public init(
            budget: Int = 15, reserve: Int? = nil, pauseHeadroom: Int? = nil, pacedPerHour: Double? = nil,
            pacedBurst: Double? = nil, minInterval: TimeInterval = 1, priority5Delay: TimeInterval = 120,
            settle: TimeInterval = 3, freeThrowHold: TimeInterval = 45, periodEndWindow: TimeInterval = 24,
            runLength: Int = 8, minimumGain: TimeInterval = 20, alerts: AlertRules = AlertRules(),
            mergePlays: Bool? = nil
        ) {
            let scarce = budget < 50
            self.budget = budget
            self.reserve = reserve ?? (scarce ? 2 : 1)
            self.pauseHeadroom = pauseHeadroom ?? (scarce ? 3 : 0)
            self.pacedPerHour = pacedPerHour ?? (scarce ? Double(max(1, budget - self.reserve - 6)) : Double(budget))
            self.pacedBurst = pacedBurst ?? (scarce ? max(2, Double(budget) / 6) : Double(budget) / 2)
            self.mergePlays = mergePlays ?? scarce
            self.minInterval = minInterval
            self.priority5Delay = priority5Delay
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
        public static let frequentUpdates = Configuration(budget: 60)

        /// This configuration with another budget; the knobs that follow from the budget follow it.
        public func withBudget(_ budget: Int) -> Configuration {
            Configuration(
                budget: budget, minInterval: minInterval, priority5Delay: priority5Delay, settle: settle,
                freeThrowHold: freeThrowHold, periodEndWindow: periodEndWindow, runLength: runLength,
                minimumGain: minimumGain, alerts: alerts)
        }
    }
}

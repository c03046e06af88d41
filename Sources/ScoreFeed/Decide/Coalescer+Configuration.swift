import Foundation

extension Coalescer {
    /// The coalescer's knobs. The defaults follow from basketball's rhythm (what the real-game
    /// analysis in the README shows), not from any one game.
    public struct Configuration: Hashable, Sendable, Codable {
        /// Priority-10 pushes allowed per rolling hour.
        public var budget: Int
        /// Priority-10 pushes that moments other than pauses leave unspent before the 4th
        /// period, so a timeout or period end finds one.
        public var reserve: Int
        /// Priority-10 pushes kept for the last 2:00 of the 4th or overtime, besides the final's.
        public var crunchReserve: Int
        /// Seconds of correct screen a priority 10 must likely buy at a moment that is not a
        /// pause: the price of one push from the budget.
        public var threshold: TimeInterval
        /// The lower price in the 4th and overtime, when the budget holds more than the rest of
        /// the game needs.
        public var spareThreshold: TimeInterval
        /// Priority-10 pushes per hour spent at moments other than pauses: the rate of the pacing
        /// bucket, so the budget is spread over the hour instead of burnt early.
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
        /// How long a made basket is held for an and-one foul, and a decisive end of the 4th or
        /// of an overtime for the game's end.
        public var settle: TimeInterval
        /// Longest hold while free throws are still to come.
        public var freeThrowHold: TimeInterval
        /// A score with this little left on the game clock likely ends the period: a long pause.
        public var periodEndWindow: TimeInterval
        /// A score this close (game clock) above an unmet mandatory-timeout mark likely precedes it.
        public var mandatoryWindow: TimeInterval
        /// Unanswered points after which the other team likely calls a timeout.
        public var runLength: Int
        /// A priority 10 must bring the score forward by at least this many seconds.
        public var minimumGain: TimeInterval
        public var alerts: AlertRules

        /// Knobs left nil follow from the budget. Under 25 an hour, 3 are kept for pauses and a
        /// moment must promise 60 s; under 50, 2 and 40 s; in both, plays are merged. When it is
        /// plentiful (50 and more), every score change may have one at once.
        public init(
            budget: Int = 15, reserve: Int? = nil, crunchReserve: Int = 1, threshold: TimeInterval? = nil, spareThreshold: TimeInterval? = nil,
            pacedPerHour: Double? = nil, pacedBurst: Double? = nil, minInterval: TimeInterval = 1,
            priority5Delay: TimeInterval = 120, settle: TimeInterval = 3, freeThrowHold: TimeInterval = 45,
            periodEndWindow: TimeInterval = 24, mandatoryWindow: TimeInterval = 60, runLength: Int = 8,
            minimumGain: TimeInterval = 20, alerts: AlertRules = AlertRules(), mergePlays: Bool? = nil
        ) {
            let scarce = budget < 25, plentiful = budget >= 50
            self.budget = budget
            self.reserve = reserve ?? (scarce ? 3 : plentiful ? 1 : 2)
            self.crunchReserve = crunchReserve
            self.threshold = threshold ?? (scarce ? 60 : plentiful ? 0 : 40)
            self.spareThreshold = spareThreshold ?? (plentiful ? 0 : 40)
            self.pacedPerHour = pacedPerHour ?? Double(budget)
            self.pacedBurst = pacedBurst ?? (plentiful ? Double(budget) / 2 : max(4, Double(budget) / 4))
            self.mergePlays = mergePlays ?? !plentiful
            self.minInterval = minInterval
            self.priority5Delay = priority5Delay
            self.settle = settle
            self.freeThrowHold = freeThrowHold
            self.periodEndWindow = periodEndWindow
            self.mandatoryWindow = mandatoryWindow
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
                budget: budget, crunchReserve: crunchReserve, minInterval: minInterval, priority5Delay: priority5Delay, settle: settle,
                freeThrowHold: freeThrowHold, periodEndWindow: periodEndWindow, mandatoryWindow: mandatoryWindow,
                runLength: runLength, minimumGain: minimumGain, alerts: alerts)
        }
    }
}

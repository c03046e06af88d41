import Foundation

extension Coalescer {
    /// The coalescer's knobs. The defaults follow from basketball's rhythm (what the real-game
    /// analysis in the README shows), not from any one game.
    public struct Configuration: Hashable, Sendable {
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
        /// How many paced pushes may be saved up.
        public var pacedBurst: Double
        /// When a paced push may go out while the screen's score is wrong.
        public var pacedMoments: Set<PacedMoment>
        /// For ``PacedMoment/quiet``: how long the score must have stood.
        public var quietWait: TimeInterval
        /// Least time between two pushes of the activity (Apple: about 1 s for broadcast).
        public var minInterval: TimeInterval
        /// How late a priority-5 push is assumed to arrive; sets what a priority 10 gains.
        public var priority5Delay: TimeInterval
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
            budget: Int = 15, reserve: Int = 2, pauseHeadroom: Int = 1, pacedPerHour: Double? = nil,
            pacedBurst: Double = 2, pacedMoments: Set<PacedMoment> = [.scoreChange], quietWait: TimeInterval = 20,
            minInterval: TimeInterval = 1, priority5Delay: TimeInterval = 120,
            settle: TimeInterval = 3, freeThrowHold: TimeInterval = 45, periodEndWindow: TimeInterval = 24,
            runLength: Int = 8, minimumGain: TimeInterval = 20, alerts: AlertRules = AlertRules()
        ) {
            self.budget = budget
            self.reserve = reserve
            self.pauseHeadroom = pauseHeadroom
            self.pacedPerHour = pacedPerHour ?? Double(max(1, budget - reserve))
            self.pacedBurst = pacedBurst
            self.pacedMoments = pacedMoments
            self.quietWait = quietWait
            self.minInterval = minInterval
            self.priority5Delay = priority5Delay
            self.settle = settle
            self.freeThrowHold = freeThrowHold
            self.periodEndWindow = periodEndWindow
            self.runLength = runLength
            self.minimumGain = minimumGain
            self.alerts = alerts
        }

        /// Moments a paced priority 10 may be spent at.
        public enum PacedMoment: String, Hashable, Sendable, CaseIterable {
            /// When a score change is pushed.
            case scoreChange
            /// At a dead ball (a foul, a turnover, a violation) after the score changed.
            case deadBall
            /// When the score has stood for ``Configuration/quietWait`` seconds.
            case quiet
        }

        /// The reported default budget (about 15 priority-10 pushes an hour).
        public static let standard = Configuration()
        /// For apps with `NSSupportsLiveActivitiesFrequentUpdates`: a larger budget.
        public static let frequentUpdates = Configuration(budget: 60, reserve: 3, pauseHeadroom: 3)

        /// This configuration with another budget, the paced rate following it.
        public func withBudget(_ budget: Int) -> Configuration {
            var copy = self
            copy.budget = budget
            copy.pacedPerHour = Double(max(1, budget - reserve))
            return copy
        }
    }
}

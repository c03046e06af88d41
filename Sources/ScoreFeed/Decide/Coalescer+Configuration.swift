import Foundation

extension Coalescer {
    /// The coalescer's knobs. The defaults follow from basketball's rhythm (the value table fit
    /// on real games), not from any one game; the budget and the priority-5 delay are what
    /// Apple does not disclose, so the defaults are the reported ones and every priority 10 has a
    /// priority-5 copy behind it.
    public struct Configuration: Hashable, Sendable, Codable {
        /// Priority-10 pushes allowed per rolling hour.
        public var budget: Int
        /// The largest budget the policy hedges for (twice `budget` by default: Apple does not
        /// say; equal to it when the budget is known). With its own hour spent, a moment worth
        /// the price still goes at priority 10, with a priority-5 copy, up to this many an hour:
        /// a larger true budget shows it at once, a device at its limit drops it and the copy
        /// brings it one delay later.
        public var largestBudget: Int
        /// Priority-10 pushes that moments other than pauses leave unspent before the 4th
        /// period, so a timeout or period end finds one.
        public var reserve: Int
        /// Priority-10 pushes kept for the last 2:00 of the 4th or overtime.
        public var crunchReserve: Int
        /// Priority-10 pushes kept for the final from the 4th period on (its priority-5 copy
        /// brings it anyway; this brings it at once).
        public var finalReserve: Int
        /// Seconds of correct screen a priority 10 must likely buy; nil: priced from what the
        /// game has left and the budget it can still spend.
        public var threshold: TimeInterval?
        /// The pace the budget is measured against: priority-10 pushes per hour.
        public var pacedPerHour: Double
        /// How far spending may fall behind the pace (the bucket starts full) before the budget
        /// counts as to spare.
        public var pacedBurst: Double
        /// With budget to spare, a moment worth this share of the price gets priority 10.
        public var spareShare: Double
        /// Least time between two pushes of the activity (0; Apple asks about 1 s for broadcast),
        /// but for ``Coalescer/finish(now:)``'s, which sends what is held at once. Each platform's
        /// lane has its own policy: set it on each (``PlatformLane/Options``).
        public var minInterval: TimeInterval
        /// How late a priority-5 push is assumed to arrive; sets what a priority 10 buys.
        public var priority5Delay: TimeInterval
        /// The earliest a priority-5 push may arrive, which the policy hedges for while it is
        /// below `priority5Delay` (15 s by default: Apple does not say). When priority 5 is that
        /// quick every priority 10 buys the same few seconds, so their count is what matters and
        /// a priority 10 behind a score already on its way at priority 5 may buy nothing. Equal
        /// to `priority5Delay` when the delay is known: no hedge.
        public var shortestPriority5Delay: TimeInterval
        /// While hedging: of the priority-10 pushes that would lose a use of the rolling hour
        /// before the game ends if held any longer, the share the price lets the moments before
        /// then take (a priority 10 spent late in its hour comes back too late to be spent again).
        public var keepUsesShare: Double
        /// How long a decisive end of the 4th or of an overtime is held for the game's end.
        public var settle: TimeInterval
        /// A score with this little left on the game clock likely ends the period: a long pause.
        public var periodEndWindow: TimeInterval
        /// A score this close (game clock) above an unmet mandatory-timeout mark likely precedes it.
        public var mandatoryWindow: TimeInterval
        /// Unanswered points after which the other team likely calls a timeout.
        public var runLength: Int
        /// A priority 10 must buy at least this many seconds (and a third of the priority-5 delay).
        public var minimumGain: TimeInterval
        /// Whether a priority 10 that no priority-5 push backs gets a priority-5 copy.
        public var copies: Bool
        public var alerts: AlertRules

        /// Knobs left nil follow from the budget: the pace is the budget, and spending may fall
        /// behind it by a quarter of the budget (at least 4), by half of it from 50.
        public init(
            budget: Int = 15, largestBudget: Int? = nil, reserve: Int = 0, crunchReserve: Int = 0, finalReserve: Int = 0, threshold: TimeInterval? = nil,
            pacedPerHour: Double? = nil, pacedBurst: Double? = nil, spareShare: Double = 0.7, minInterval: TimeInterval = 0,
            priority5Delay: TimeInterval = 60, shortestPriority5Delay: TimeInterval = 15, keepUsesShare: Double = 0.3,
            settle: TimeInterval = 3,
            periodEndWindow: TimeInterval = 24, mandatoryWindow: TimeInterval = 60, runLength: Int = 8,
            minimumGain: TimeInterval = 20, copies: Bool = true, alerts: AlertRules = AlertRules()
        ) {
            let plentiful = budget >= 50
            self.budget = budget
            self.largestBudget = max(budget, largestBudget ?? 2 * budget)
            self.reserve = reserve
            self.crunchReserve = crunchReserve
            self.finalReserve = finalReserve
            self.threshold = threshold
            self.pacedPerHour = pacedPerHour ?? Double(budget)
            self.pacedBurst = pacedBurst ?? (plentiful ? Double(budget) / 2 : max(4, Double(budget) / 4))
            self.spareShare = spareShare
            self.minInterval = minInterval
            self.priority5Delay = priority5Delay
            self.shortestPriority5Delay = shortestPriority5Delay
            self.keepUsesShare = keepUsesShare
            self.settle = settle
            self.periodEndWindow = periodEndWindow
            self.mandatoryWindow = mandatoryWindow
            self.runLength = runLength
            self.minimumGain = minimumGain
            self.copies = copies
            self.alerts = alerts
        }

        /// The reported default budget (about 15 priority-10 pushes an hour) and a priority-5
        /// delay of 60 s (seen: 30–60 s), hedged down to 15 s.
        public static let standard = Configuration()
        /// For apps with `NSSupportsLiveActivitiesFrequentUpdates`: a larger budget.
        public static let frequentUpdates = Configuration(budget: 60)
        /// Android Live Updates (FCM): no device drops a `HIGH` message for want of an hourly
        /// budget (FCM caps a device at 240 messages a minute, 5,000 an hour), so the policy plans
        /// for 600 an hour, known: every change worth a push goes `HIGH` at once, and no
        /// priority-5 copy follows (there is no silent drop to hedge for).
        public static let android = Configuration(
            budget: 600, largestBudget: 600, priority5Delay: AndroidDeviceModel().normalDelay,
            shortestPriority5Delay: AndroidDeviceModel().normalDelay, copies: false)

        /// This configuration with another budget, known: no priority 10 beyond it; the knobs
        /// that follow the budget follow it.
        public func withBudget(_ budget: Int) -> Configuration {
            Configuration(
                budget: budget, largestBudget: budget, reserve: reserve, crunchReserve: crunchReserve, finalReserve: finalReserve, threshold: threshold, spareShare: spareShare,
                minInterval: minInterval,
                priority5Delay: priority5Delay, shortestPriority5Delay: shortestPriority5Delay, keepUsesShare: keepUsesShare, settle: settle, periodEndWindow: periodEndWindow,
                mandatoryWindow: mandatoryWindow, runLength: runLength, minimumGain: minimumGain, copies: copies,
                alerts: alerts)
        }

        /// Priority-10 pushes an hour may go beyond the budget, each with its priority-5 copy.
        public var beyondBudget: Int { copies ? max(0, largestBudget - budget) : 0 }

        /// Whether the priority-5 delay may be shorter than assumed, which the policy hedges for.
        public var hedgesDelay: Bool { shortestPriority5Delay < priority5Delay }

        /// This configuration for a known priority-5 delay: assumed, and no hedge.
        public func knowingDelay(_ delay: TimeInterval) -> Configuration {
            var configuration = self
            configuration.priority5Delay = delay
            configuration.shortestPriority5Delay = delay
            return configuration
        }

        /// Reads a configuration checkpointed by any version: a knob it does not have takes
        /// its default, one it no longer has is ignored.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let budget = try c.decode(Int.self, forKey: .budget)
            // A version before copies had budget-derived reserves and thresholds, not choices.
            let current = c.contains(.copies)
            self.init(
                budget: budget, largestBudget: try c.decodeIfPresent(Int.self, forKey: .largestBudget),
                reserve: current ? try c.decodeIfPresent(Int.self, forKey: .reserve) ?? 0 : 0,
                crunchReserve: current ? try c.decodeIfPresent(Int.self, forKey: .crunchReserve) ?? 0 : 0,
                finalReserve: try c.decodeIfPresent(Int.self, forKey: .finalReserve) ?? 0,
                threshold: current ? try c.decodeIfPresent(Double.self, forKey: .threshold) : nil,
                pacedPerHour: try c.decodeIfPresent(Double.self, forKey: .pacedPerHour),
                pacedBurst: try c.decodeIfPresent(Double.self, forKey: .pacedBurst),
                spareShare: try c.decodeIfPresent(Double.self, forKey: .spareShare) ?? 0.7,
                minInterval: try c.decodeIfPresent(Double.self, forKey: .minInterval) ?? 0,
                priority5Delay: try c.decodeIfPresent(Double.self, forKey: .priority5Delay) ?? 60,
                shortestPriority5Delay: try c.decodeIfPresent(Double.self, forKey: .shortestPriority5Delay) ?? 15,
                keepUsesShare: try c.decodeIfPresent(Double.self, forKey: .keepUsesShare) ?? 0.3,
                settle: try c.decodeIfPresent(Double.self, forKey: .settle) ?? 3,
                periodEndWindow: try c.decodeIfPresent(Double.self, forKey: .periodEndWindow) ?? 24,
                mandatoryWindow: try c.decodeIfPresent(Double.self, forKey: .mandatoryWindow) ?? 60,
                runLength: try c.decodeIfPresent(Int.self, forKey: .runLength) ?? 8,
                minimumGain: try c.decodeIfPresent(Double.self, forKey: .minimumGain) ?? 20,
                copies: try c.decodeIfPresent(Bool.self, forKey: .copies) ?? true,
                alerts: try c.decodeIfPresent(AlertRules.self, forKey: .alerts) ?? AlertRules())
        }
    }
}

import Foundation
import ScoreFeedModel

/// The budget-aware push policy: a pure state machine handed `now` that decides when the lock
/// screen is worth a push and at which priority.
///
/// - Every score change is pushed at priority 5 (free, late) once its play is over: an and-one
///   or a free-throw trip becomes one push.
/// - Priority 10 (instant, budgeted) goes where it buys the most correct-screen time: when a
///   long pause begins with the screen's score still wrong (a timeout, the end of a period, a
///   review), when the score has stood for ``Configuration/quietWait`` seconds with the screen
///   still waiting for its priority-5 push, and on critical moments (a late lead change,
///   overtime, the final).
/// - A reserve of the rolling-hour budget is kept for the last two minutes and the final, which
///   is sent the moment the game ends.
public struct Coalescer: PushPolicy {
    public struct Configuration: Hashable, Sendable {
        /// Priority-10 pushes allowed per rolling hour.
        public var budget: Int
        /// Priority-10 pushes kept back outside crunch time, for the last minutes and the final.
        public var reserve: Int
        /// Least time between two pushes of the activity (Apple: about 1 s for broadcast).
        public var minInterval: TimeInterval
        /// How late a priority-5 push is assumed to arrive; sets what a priority 10 gains.
        public var priority5Delay: TimeInterval
        /// How long a made basket is held for an and-one foul.
        public var settle: TimeInterval
        /// Longest hold while free throws are still to come.
        public var freeThrowHold: TimeInterval
        /// After this long without another score change, a still-waiting screen gets priority 10.
        public var quietWait: TimeInterval
        /// Share of the hourly budget that quiet-time pushes may use; the rest waits for pauses.
        public var quietShare: Double
        /// A priority 10 must bring the score forward by at least this many seconds.
        public var minimumGain: TimeInterval
        public var alerts: AlertRules

        public init(
            budget: Int = 15, reserve: Int = 2, minInterval: TimeInterval = 1, priority5Delay: TimeInterval = 120,
            settle: TimeInterval = 3, freeThrowHold: TimeInterval = 45, quietWait: TimeInterval = 20,
            quietShare: Double = 0.5, minimumGain: TimeInterval = 20, alerts: AlertRules = AlertRules()
        ) {
            self.budget = budget
            self.reserve = reserve
            self.minInterval = minInterval
            self.priority5Delay = priority5Delay
            self.settle = settle
            self.freeThrowHold = freeThrowHold
            self.quietWait = quietWait
            self.quietShare = quietShare
            self.minimumGain = minimumGain
            self.alerts = alerts
        }

        /// The reported default budget (about 15 priority-10 pushes an hour).
        public static let standard = Configuration()
        /// For apps with `NSSupportsLiveActivitiesFrequentUpdates`: a larger budget, spent more freely.
        public static let frequentUpdates = Configuration(budget: 60, reserve: 3, quietWait: 8, quietShare: 0.6)
    }

    public let configuration: Configuration
    public private(set) var budget: PushBudget

    private var state = GameState()
    private var crunchTime = false
    /// Visible changes not yet pushed, the most significant of them, and an alert they earned.
    private var dirty = false
    private var significance = Significance.none
    private var alert: AlertKind?
    /// A play still in progress (and-one window, free throws to come): hold until then.
    private var holdUntil: Date?
    /// When a still-waiting screen becomes worth a priority 10.
    private var quietAt: Date?
    /// A long pause just began (timeout, end of period, review).
    private var pauseBegan = false
    private var lastPushAt: Date?
    /// A wanted push waits for the minimum interval until then.
    private var intervalWait: Date?
    /// Recent pushes, newest last: enough to know what the device shows.
    private var recent: [(at: Date, priority: Int, homeScore: Int, awayScore: Int)] = []
    private var ended = false

    public init(configuration: Configuration = .standard) {
        self.configuration = configuration
        budget = PushBudget(limit: configuration.budget)
    }

    public var deadline: Date? {
        guard !ended else { return nil }
        let candidates = [holdUntil, quietAt, intervalWait].compactMap { $0 }
        return candidates.min()
    }

    public mutating func observe(_ change: StateChange, now: Date) -> PushDecision {
        guard !ended else { return .hold }
        let before = state
        state = change.state
        let event = change.event
        crunchTime = Significance.isCrunchTime(period: event.period, clock: event.clock)
        let significance = Significance.of(change, before: before)
        if significance >= .minor && change.diff.isVisible || significance >= .score {
            dirty = true
            self.significance = max(self.significance, significance)
        }
        if significance == .critical { alert = alert ?? criticalAlert(change, before: before) }
        if change.diff.changesScore { quietAt = nil }

        switch event.kind {
        case .gameEnd:
            return end(now)
        case .fieldGoal(_, true):
            holdUntil = now.addingTimeInterval(configuration.settle)
            pauseBegan = false
        case .freeThrow(let attempt, let of, _, _):
            holdUntil = attempt < of ? now.addingTimeInterval(configuration.freeThrowHold) : nil
        case .foul(let kind):
            // A foul during an and-one window means free throws follow: keep holding.
            if holdUntil != nil && kind != .offensive {
                holdUntil = now.addingTimeInterval(configuration.freeThrowHold)
            }
        case .timeout, .periodEnd, .replay:
            pauseBegan = true
            holdUntil = nil
        case .substitution, .correction, .other:
            break
        case .periodStart, .jumpBall, .fieldGoal, .rebound, .turnover, .steal, .block, .violation:
            holdUntil = nil
            pauseBegan = false
        }
        return decide(now)
    }

    public mutating func tick(now: Date) -> PushDecision {
        guard !ended else { return .hold }
        if let holdUntil, now >= holdUntil { self.holdUntil = nil }
        if let intervalWait, now >= intervalWait { self.intervalWait = nil }
        return decide(now)
    }

    public mutating func finish(now: Date) -> PushDecision {
        guard !ended, dirty || screenIsWrong(now) else { return .hold }
        holdUntil = nil
        let priority = budget.available(at: now) > 0 ? 10 : 5
        return push(Push(event: .update, priority: priority, reason: "feed ended; last state"), now)
    }

    // MARK: - Deciding

    private mutating func decide(_ now: Date) -> PushDecision {
        if let holdUntil, now < holdUntil { return .hold }
        holdUntil = nil
        if let intervalWait, now < intervalWait { return .hold }

        let wrong = screenIsWrong(now)
        let gain = wrong ? gainOfPriority10(now) : 0
        var priority10: String?
        if significance == .critical && (wrong || alert != nil) && budget.available(at: now, keeping: 1) > 0 {
            priority10 = "critical"
        } else if pauseBegan && wrong && gain >= configuration.minimumGain
            && budget.available(at: now, keeping: crunchTime ? 1 : configuration.reserve) > 0 {
            priority10 = "pause begins"
        } else if let quietAt, now >= quietAt, wrong, gain >= configuration.minimumGain,
            budget.available(at: now, keeping: quietKeep) > 0 {
            priority10 = "score stood \(Int(configuration.quietWait)) s"
        }
        if let quietAt, now >= quietAt { self.quietAt = nil }

        let wanted: Push
        if let why = priority10 {
            wanted = Push(event: .update, priority: 10, alert: alert, reason: reason(why))
        } else if dirty && (significance >= .score || pauseBegan) {
            wanted = Push(event: .update, priority: 5, reason: reason(nil))
        } else {
            return .hold
        }
        if let lastPushAt, now < lastPushAt.addingTimeInterval(configuration.minInterval) {
            if priority10 != nil, quietAt == nil, !pauseBegan { quietAt = lastPushAt.addingTimeInterval(configuration.minInterval) }
            intervalWait = lastPushAt.addingTimeInterval(configuration.minInterval)
            return .hold
        }
        return push(wanted, now)
    }

    private mutating func end(_ now: Date) -> PushDecision {
        let priority = budget.available(at: now) > 0 ? 10 : 5
        let push = Push(event: .end, priority: priority, alert: configuration.alerts.final ? .final : nil, reason: "final")
        let decision = self.push(push, now)
        ended = true
        return decision
    }

    private mutating func push(_ push: Push, _ now: Date) -> PushDecision {
        if push.priority == 10 { budget.spend(at: now) }
        recent.append((now, push.priority, state.homeScore, state.awayScore))
        let horizon = now.addingTimeInterval(-configuration.priority5Delay - 1)
        if let keepFrom = recent.lastIndex(where: { $0.at <= horizon }) { recent.removeFirst(keepFrom) }
        lastPushAt = now
        dirty = false
        significance = .none
        alert = nil
        pauseBegan = false
        holdUntil = nil
        intervalWait = nil
        // A score pushed at priority 5 earns a look later: if it still stands, priority 10.
        quietAt = push.priority == 5 && screenIsWrong(now) ? now.addingTimeInterval(configuration.quietWait) : nil
        return .push(push)
    }

    // MARK: - What the device shows

    /// Whether the score the device shows at `now` (under the assumed priority-5 delay) is not the current one.
    private func screenIsWrong(_ now: Date) -> Bool {
        for push in recent.reversed() {
            let arrival = push.priority == 10 ? push.at : push.at.addingTimeInterval(configuration.priority5Delay)
            if arrival <= now {
                return push.homeScore != state.homeScore || push.awayScore != state.awayScore
            }
        }
        return state.homeScore != 0 || state.awayScore != 0
    }

    /// Seconds a priority 10 now would put the current score on screen ahead of the priority-5
    /// push already on its way (or ahead of never, when none is).
    private func gainOfPriority10(_ now: Date) -> TimeInterval {
        guard let last = recent.last, last.homeScore == state.homeScore, last.awayScore == state.awayScore,
            last.priority == 5
        else { return configuration.priority5Delay }
        return last.at.addingTimeInterval(configuration.priority5Delay).timeIntervalSince(now)
    }

    private var quietKeep: Int {
        let quietLimit = Int((Double(configuration.budget) * configuration.quietShare).rounded(.down))
        return max(configuration.reserve, configuration.budget - quietLimit)
    }

    private func criticalAlert(_ change: StateChange, before: GameState) -> AlertKind? {
        let rules = configuration.alerts
        if change.diff.contains(.phase), change.state.phase == .live, change.state.period >= 5, rules.overtime {
            return .overtime
        }
        if change.diff.changesScore, rules.lateLeadChange { return .leadChange }
        return nil
    }

    private func reason(_ priority10: String?) -> String {
        let what = significance == .none ? "held changes" : "\(significance)"
        return priority10.map { "\(what); priority 10: \($0)" } ?? what
    }
}

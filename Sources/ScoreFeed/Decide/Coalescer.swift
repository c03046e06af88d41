import Foundation
import ScoreFeedModel

/// The budget-aware push policy: a pure state machine handed `now` that decides when the lock
/// screen is worth a push and at which priority.
///
/// - Every score change is pushed once its play is over (an and-one or a free-throw trip
///   becomes one push), at priority 5 unless it earns priority 10.
/// - Priority 10 (instant, budgeted) goes where it buys the most correct-screen time. Most of a
///   game's time lies in a few long pauses (timeouts, period breaks, reviews) that begin within
///   seconds of a score, so the screen's score is made right when a pause begins, and at score
///   changes that likely start one (a score in the period's last seconds, in the last 2:00, at
///   the end of a run). A paced share of the budget goes to other score changes, spread over
///   the hour instead of burnt early.
/// - A reserve is kept for the last 2:00 and the final, which is sent the moment the game ends.
public struct Coalescer: PushPolicy, Codable {
    public let configuration: Configuration
    public private(set) var budget: PushBudget

    private var state = GameState()
    /// Period and game clock of the last event.
    private var lastPeriod = 0
    private var lastClock = 720.0
    /// Visible changes not yet pushed, the most significant of them, and an alert they earned.
    private var dirty = false
    private var significance = Significance.none
    private var alert: AlertKind?
    /// A play still in progress (and-one window, free throws to come): hold until then.
    private var holdUntil: Date?
    /// A long pause just began (timeout, end of period, review).
    private var pauseBegan = false
    /// Play stopped for a moment (a foul, a turnover, a violation).
    private var deadBall = false
    /// NBA mandatory timeouts: each quarter's stretches 12:00–7:00 and 7:00–3:00 must see a
    /// timeout; if one passes without, the next dead ball brings a long TV timeout.
    private var mandatory = MandatoryTimeouts()
    /// Points scored in a row by `runTeam`.
    private var runTeam: TeamSide?
    private var runPoints = 0
    /// The pacing bucket: paced pushes available, and when it was last refilled.
    private var paced: Double
    private var pacedAt: Date?
    private var lastPushAt: Date?
    /// A wanted push waits for the minimum interval until then.
    private var intervalWait: Date?
    /// Recent pushes, newest last: enough to know what the device shows.
    private var recent: [SentPush] = []
    private var ended = false

    struct SentPush: Hashable, Sendable, Codable {
        var at: Date
        var priority: Int
        var homeScore: Int
        var awayScore: Int
    }

    public init(configuration: Configuration = .standard) {
        self.configuration = configuration
        budget = PushBudget(limit: configuration.budget)
        paced = configuration.pacedBurst
    }

    public var deadline: Date? {
        guard !ended else { return nil }
        // Asked after every event: the earlier of the two timers, without building an array.
        guard let holdUntil else { return intervalWait }
        guard let intervalWait else { return holdUntil }
        return min(holdUntil, intervalWait)
    }

    public mutating func observe(_ change: StateChange, now: Date) -> PushDecision {
        guard !ended else { return .hold }
        let before = state
        state = change.state
        lastPeriod = change.event.period
        lastClock = change.event.clock
        let significance = Significance.of(change, before: before)
        if significance >= .score || (significance == .minor && change.diff.isVisible) {
            dirty = true
            self.significance = max(self.significance, significance)
        }
        if significance == .critical { alert = alert ?? criticalAlert(change) }
        if change.diff.changesScore { trackRun(before: before) }

        switch change.event.kind {
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
        case .turnover, .violation:
            holdUntil = nil
            pauseBegan = false
            deadBall = true
        case .periodStart, .jumpBall, .fieldGoal, .rebound, .steal, .block:
            holdUntil = nil
            pauseBegan = false
            deadBall = false
        }
        if case .foul = change.event.kind, holdUntil == nil { deadBall = true }
        if case .other = change.event.kind { deadBall = true }
        if mandatory.observe(change.event) && deadBall { pauseBegan = true }
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
        refillPacing(now)
        // Hold a play in progress to merge it into one push, unless the budget is large enough
        // that the score should go out now and the rest of the play in a second push.
        if let holdUntil, now < holdUntil, configuration.mergePlays || !(dirty && significance >= .score && priority10IsPlentiful(now)) {
            return .hold
        }
        holdUntil = nil
        if let intervalWait, now < intervalWait { return .hold }

        let wrong = screenIsWrong(now)
        let worthIt = wrong && gainOfPriority10(now) >= configuration.minimumGain
        let crunch = Significance.isCrunchTime(period: lastPeriod, clock: lastClock)
        let reserve = crunch ? 1 : configuration.reserve
        let atScore = dirty && significance >= .score
        var why: String?
        if significance == .critical && (wrong || alert != nil) && budget.available(at: now, keeping: 1) > 0 {
            why = "critical"
        } else if worthIt && (pauseBegan || (atScore && periodEndsSoon)) && budget.available(at: now, keeping: reserve) > 0 {
            why = pauseBegan ? (deadBall ? "mandatory timeout due" : "pause begins") : "period ends soon"
        } else if worthIt && atScore && budget.available(at: now, keeping: reserve + configuration.pauseHeadroom) > 0 {
            if (crunch || runPoints >= configuration.runLength) && paced >= 1 {
                why = crunch ? "crunch time" : "\(runPoints)-0 run"
            } else if paced >= 1 {
                why = "paced"
            }
        }
        deadBall = false

        let wanted: Push
        if let why {
            wanted = Push(event: .update, priority: 10, alert: alert, reason: "priority 10: \(why)")
        } else if dirty && (significance >= .score || pauseBegan) {
            wanted = Push(event: .update, priority: 5, reason: "priority 5")
        } else {
            return .hold
        }
        if let lastPushAt, now < lastPushAt.addingTimeInterval(configuration.minInterval) {
            intervalWait = lastPushAt.addingTimeInterval(configuration.minInterval)
            return .hold
        }
        if let why, why.hasPrefix("paced") || why.hasSuffix("run") || why == "crunch time" { paced -= 1 }
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
        recent.append(SentPush(at: now, priority: push.priority, homeScore: state.homeScore, awayScore: state.awayScore))
        let horizon = now.addingTimeInterval(-configuration.priority5Delay - 1)
        if let keepFrom = recent.lastIndex(where: { $0.at <= horizon }) { recent.removeFirst(keepFrom) }
        lastPushAt = now
        dirty = false
        significance = .none
        alert = nil
        pauseBegan = false
        holdUntil = nil
        intervalWait = nil
        return .push(push)
    }

    // MARK: - Reading the game

    private mutating func trackRun(before: GameState) {
        let home = state.homeScore - before.homeScore, away = state.awayScore - before.awayScore
        let side: TeamSide = home > 0 ? .home : .away
        let points = max(0, side == .home ? home : away)
        if side == runTeam {
            runPoints += points
        } else {
            runTeam = side
            runPoints = points
        }
    }

    /// The last score came with so little on the clock that the period is about to end.
    private var periodEndsSoon: Bool {
        lastPeriod > 0 && lastClock <= configuration.periodEndWindow
    }

    /// Whether the paced share and the rolling hour both have room for a push now.
    private func priority10IsPlentiful(_ now: Date) -> Bool {
        paced >= 1 && budget.available(at: now, keeping: configuration.reserve + configuration.pauseHeadroom) > 0
    }

    private mutating func refillPacing(_ now: Date) {
        if let pacedAt {
            let earned = now.timeIntervalSince(pacedAt) * configuration.pacedPerHour / 3600
            paced = min(configuration.pacedBurst, paced + max(0, earned))
        }
        pacedAt = now
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

    private func criticalAlert(_ change: StateChange) -> AlertKind? {
        let rules = configuration.alerts
        if change.diff.contains(.phase), change.state.phase == .live, change.state.period >= 5 {
            return rules.overtime ? .overtime : nil
        }
        if change.diff.changesScore { return rules.lateLeadChange ? .leadChange : nil }
        return nil
    }
}

/// Tracks the NBA's mandatory timeouts: a regulation period's stretches down to 7:00 and to
/// 3:00 each need a timeout; when one ends without, the next dead ball brings a TV timeout.
struct MandatoryTimeouts: Hashable, Sendable, Codable {
    private var period = 0
    /// Whether a timeout was taken in the stretch down to 7:00, and down to 3:00.
    private var first = false
    private var second = false

    /// Records `event`; returns whether a mandatory timeout is due at the next dead ball.
    mutating func observe(_ event: GameEvent) -> Bool {
        if event.period != period {
            period = event.period
            first = false
            second = false
        }
        guard event.period <= 4 else { return false }
        if case .timeout = event.kind {
            first = true
            if event.clock < 420 { second = true }
            return false
        }
        return (event.clock < 420 && !first) || (event.clock < 180 && !second)
    }
}

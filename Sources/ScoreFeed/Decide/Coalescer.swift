import Foundation
import ScoreFeedModel

/// The budget-aware push policy: a pure state machine handed `now` that decides when the lock
/// screen is worth a push and at which priority.
///
/// - Every score change is pushed once its play is over (an and-one or a free-throw trip
///   becomes one push), at priority 5 unless it earns priority 10.
/// - Priority 10 (instant, budgeted) goes where it buys the most correct-screen time: each
///   moment while the screen's score is wrong is valued by how long the current score will
///   likely stay (an ``Opportunity``: a timeout or period end, a dead ball when a mandatory
///   timeout is due, a score in the period's last seconds, near a mandatory timeout, in the last
///   2:00, ending a run, a stoppage with players checking in…). A pause takes priority 10
///   whenever the budget has one; anything else must promise at least `threshold` seconds, leave
///   a reserve for pauses, and fit the pacing that spreads the budget over the hour.
/// - From the 3rd period one priority 10 is kept for the final; in the 4th and overtime one more
///   until the last 2:00, the reserve follows the time left, and spare budget that the game's end
///   would waste goes to smaller gains. The `end` is sent the moment the game ends (after the
///   minimum interval, when a push just went).
public struct Coalescer: PushPolicy, Codable {
    public private(set) var configuration: Configuration
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
    /// What the last events promise a priority 10, and what the last score does.
    private var moment = Opportunity.play
    private var scoreMoment = Opportunity.score
    /// NBA mandatory timeouts, to see a TV timeout coming.
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
    /// The game ended; the `end` waits only for the minimum interval.
    private var endPending = false
    /// Count the budget as spent when the first event comes (see ``assumeBudgetSpent(at:)``).
    private var budgetSpentAtFirstEvent = false

    struct SentPush: Hashable, Sendable, Codable {
        var at: Date
        var priority: Int
        var homeScore: Int
        var awayScore: Int
    }

    public init(configuration: Configuration = .standard, values: PushValues) {
        self.init(configuration: configuration)
    }

    public init(configuration: Configuration = .standard) {
        self.configuration = configuration
        budget = PushBudget(limit: configuration.budget)
        paced = configuration.pacedBurst
    }

    /// Counts the whole hour's priority-10 budget as spent at `now` (nil: at the first event it
    /// sees): for a coalescer that takes over a game whose pushes it does not know (a lost
    /// checkpoint), since a priority 10 past the budget is silently dropped while a priority 5 is
    /// only late.
    public mutating func assumeBudgetSpent(at now: Date?) {
        guard let now else {
            budgetSpentAtFirstEvent = true
            return
        }
        while budget.available(at: now) > 0 { budget.spend(at: now) }
    }

    /// Applies the options a restarted service was given to a resumed game: the knobs and the
    /// budget's limit change; the priority-10 pushes already spent in the rolling hour stay spent.
    public mutating func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
        budget.limit = max(0, configuration.budget)
        paced = min(paced, configuration.pacedBurst)
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
        if budgetSpentAtFirstEvent {
            budgetSpentAtFirstEvent = false
            assumeBudgetSpent(at: now)
        }
        let before = state
        state = change.state
        lastPeriod = change.event.period
        lastClock = change.event.clock
        mandatory.observe(change.event)
        let significance = Significance.of(change, before: before)
        if significance >= .score || (significance == .minor && change.diff.isVisible) {
            dirty = true
            self.significance = max(self.significance, significance)
        }
        if significance == .critical { alert = alert ?? criticalAlert(change) }
        if change.diff.changesScore {
            trackRun(before: before)
            scoreMoment = readScore()
        }
        if case .gameEnd = change.event.kind { endPending = true }
        if endPending {
            holdUntil = nil
            return sendEndIfAllowed(now)
        }
        readMoment(change.event.kind, now: now)
        return decide(now)
    }

    public mutating func tick(now: Date) -> PushDecision {
        guard !ended else { return .hold }
        if let holdUntil, now >= holdUntil { self.holdUntil = nil }
        if let intervalWait, now >= intervalWait { self.intervalWait = nil }
        if endPending { return sendEndIfAllowed(now) }
        return decide(now)
    }

    /// Continues a game whose earlier pushes this coalescer did not make (its own state was
    /// lost): `state` is the scoreboard now, `shown` the last state pushed, at `now`. The last push
    /// is taken as a priority 5 sent at `now`, so the screen counts as wrong until it would arrive.
    public mutating func resume(state: GameState, shown: GameState, at now: Date) {
        self.state = state
        lastPeriod = state.period
        lastClock = state.clock.secondsRemaining(at: now)
        recent = [SentPush(at: now, priority: 5, homeScore: shown.homeScore, awayScore: shown.awayScore)]
        lastPushAt = now
        dirty = state != shown
        significance = state.homeScore != shown.homeScore || state.awayScore != shown.awayScore ? .score : dirty ? .minor : .none
    }

    public mutating func finish(now: Date) -> PushDecision {
        guard !ended else { return .hold }
        if endPending { return end(now) }
        guard dirty || screenIsWrong(now) else { return .hold }
        holdUntil = nil
        let priority = budget.available(at: now) > 0 ? 10 : 5
        return push(Push(event: .update, priority: priority, reason: "feed ended; last state"), now)
    }

    // MARK: - Deciding

    private mutating func decide(_ now: Date) -> PushDecision {
        refillPacing(now)
        let atScore = dirty && significance >= .score
        // Hold a play in progress to merge it into one push, unless the budget is large enough
        // that the score should go out now and the rest of the play in a second push.
        if let holdUntil, now < holdUntil, configuration.mergePlays || !(atScore && priority10IsPlentiful(now)) {
            return .hold
        }
        holdUntil = nil
        if let intervalWait, now < intervalWait { return .hold }

        let wrong = screenIsWrong(now)
        let available = budget.available(at: now)
        let opportunity = atScore ? (moment.isPause ? Opportunity.max(moment, scoreMoment) : scoreMoment) : moment
        let value = min(opportunity.value, gainOfPriority10(now))
        let keep = tokensToKeep
        let spare = lastPeriod >= 4 && available > keep + 1
        let threshold = max(configuration.minimumGain, spare ? min(configuration.threshold, configuration.spareThreshold) : configuration.threshold)
        var why: String?
        var usesPacing = false
        if significance == .critical && (wrong || alert != nil) && available > 1 {
            why = "critical"
        } else if wrong && opportunity.isPause && value >= configuration.minimumGain && available > finalReserve {
            why = opportunity.reason
        } else if wrong && value >= threshold && available > keep && (paced >= 1 || spare) {
            why = spare && paced < 1 ? "\(opportunity.reason); spare budget" : opportunity.reason
            usesPacing = paced >= 1
        }
        if let reason = why, !atScore, reason != "critical" { why = "\(reason); the score is not on screen yet" }

        let wanted: Push
        if let why {
            wanted = Push(event: .update, priority: 10, alert: alert, reason: "priority 10: \(why)")
        } else if dirty && (significance >= .score || moment.isPause) {
            wanted = Push(event: .update, priority: 5, reason: "priority 5")
        } else {
            return .hold
        }
        if mustWaitForInterval(now) { return .hold }
        if usesPacing { paced -= 1 }
        return push(wanted, now)
    }

    /// From the 3rd period on a priority 10 spent now may not be back before the game ends, so
    /// even a pause leaves one for the final, and before the last 2:00 of the 4th or overtime
    /// the crunch reserve too.
    private var finalReserve: Int {
        guard lastPeriod >= 3 else { return 0 }
        return 1 + (lastPeriod >= 4 && !isCrunchTime ? configuration.crunchReserve : 0)
    }

    /// Priority-10 pushes left unspent for what may come: the reserve for pauses, and in the 4th
    /// and overtime one for the final, the crunch reserve until the last 2:00, and one for every
    /// ten minutes the game likely has left (a minute of game clock takes about two).
    private var tokensToKeep: Int {
        guard lastPeriod >= 4 else { return max(configuration.reserve, finalReserve) }
        let clock = lastClock.isFinite ? min(max(lastClock, 0), 720) : 720
        return 1 + (isCrunchTime ? 0 : configuration.crunchReserve) + Int(clock * 2 / 600)
    }

    private var isCrunchTime: Bool { Significance.isCrunchTime(period: lastPeriod, clock: lastClock) }

    /// The end goes out the moment the game ends, or as soon as the minimum interval since the
    /// last push allows (a second at most by default).
    private mutating func sendEndIfAllowed(_ now: Date) -> PushDecision {
        mustWaitForInterval(now) ? .hold : end(now)
    }

    /// Whether the minimum interval since the last push has not passed yet; if so, sets the
    /// timer that brings the wanted push back when it has.
    private mutating func mustWaitForInterval(_ now: Date) -> Bool {
        guard let lastPushAt else { return false }
        let allowed = lastPushAt.addingTimeInterval(configuration.minInterval)
        guard now < allowed else { return false }
        intervalWait = allowed
        return true
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
        holdUntil = nil
        intervalWait = nil
        return .push(push)
    }

    // MARK: - Reading the game

    /// Updates the play-in-progress hold and what the moment promises, from the event's kind.
    private mutating func readMoment(_ kind: GameEvent.Kind, now: Date) {
        switch kind {
        case .fieldGoal(_, true):
            holdUntil = now.addingTimeInterval(configuration.settle)
            moment = .play
        case .freeThrow(let attempt, let of, _, _):
            holdUntil = attempt < of ? now.addingTimeInterval(configuration.freeThrowHold) : nil
            moment = .play
        case .foul(let kind):
            // A foul during an and-one window means free throws follow: keep holding.
            if holdUntil != nil && kind != .offensive {
                holdUntil = now.addingTimeInterval(configuration.freeThrowHold)
            }
            switch kind {
            case .offensive, .looseBall: moment = .stoppage
            case .personal: moment = .commonFoul
            default: moment = .play
            }
            if mandatory.isDue(clock: lastClock) { moment = .mandatoryTimeout }
        case .periodEnd where lastPeriod >= 4 && state.homeScore != state.awayScore:
            // The game is over: wait a moment for its end, so the final goes out as one push.
            holdUntil = now.addingTimeInterval(configuration.settle)
            moment = .pause
        case .timeout, .periodEnd, .replay:
            holdUntil = nil
            moment = .pause
        case .substitution:
            if !moment.isPause { moment = mandatory.isDue(clock: lastClock) ? .mandatoryTimeout : .substitution }
        case .other:
            if !moment.isPause { moment = mandatory.isDue(clock: lastClock) ? .mandatoryTimeout : .play }
        case .correction:
            break
        case .turnover(let kind):
            // A bad pass or a lost ball is usually stolen: play goes on. Other turnovers stop it.
            holdUntil = nil
            let live = kind == "bad pass" || kind == "lost ball"
            moment = !live && mandatory.isDue(clock: lastClock) ? .mandatoryTimeout : kind == "offensive foul" ? .stoppage : .play
        case .violation:
            holdUntil = nil
            moment = mandatory.isDue(clock: lastClock) ? .mandatoryTimeout : .play
        case .periodStart, .jumpBall, .fieldGoal, .rebound, .steal, .block, .gameEnd:
            holdUntil = nil
            moment = .play
        }
    }

    /// What the score just made promises, from the game's situation.
    private func readScore() -> Opportunity {
        if lastPeriod > 0 && lastClock <= configuration.periodEndWindow { return .periodEndsSoon }
        if mandatory.isDue(clock: lastClock) { return .scoreBeforeMandatoryTimeout }
        if mandatory.isNear(clock: lastClock, window: configuration.mandatoryWindow) { return .scoreNearMandatoryTimeout }
        if isCrunchTime { return .crunchTime }
        if runPoints >= configuration.runLength {
            var run = Opportunity.run
            run.reason = "\(runPoints)-0 run"
            return run
        }
        return .score
    }

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

    /// Whether the pacing and the rolling hour both have room for a push now.
    private func priority10IsPlentiful(_ now: Date) -> Bool {
        paced >= 1 && budget.available(at: now) > configuration.reserve
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

    /// Seconds a priority 10 now would put the current score on screen ahead of the earliest
    /// priority-5 push already carrying it (or ahead of never, when none does).
    private func gainOfPriority10(_ now: Date) -> TimeInterval {
        var carrier: SentPush?
        for push in recent.reversed() {
            guard push.homeScore == state.homeScore, push.awayScore == state.awayScore, push.priority == 5 else { break }
            carrier = push
        }
        guard let carrier else { return configuration.priority5Delay }
        return carrier.at.addingTimeInterval(configuration.priority5Delay).timeIntervalSince(now)
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

import Foundation
import ScoreFeedModel

/// The budget-aware push policy: a pure state machine handed `now` that decides when the lock
/// screen is worth a push and at which priority.
///
/// - Every score change goes out at once, at priority 5 (free, late by the priority-5 delay)
///   unless it earns priority 10 (instant, from Apple's hourly budget).
/// - A priority 10 is worth the seconds of correct screen it likely buys: E[min(time until the
///   priority-5 push would arrive, wait for the next score)], read from ``PushValues`` by the
///   kind of moment (``Situation``). The value follows the priority-5 delay: when priority 5 is
///   nearly on time, priority 10 buys little anywhere.
/// - Its price follows what is left: the value at which the score changes likely still to come
///   in this game would use up the priority-10 pushes it can still spend (what the hour has left,
///   what comes back before the end, the hours after). Budget to spare (spending a burst behind
///   the budget's pace) goes to lesser moments. A pause (a timeout logged after a score) may
///   upgrade a score still on its way at priority 5.
/// - Every priority 10 that no priority-5 push backs is followed by a priority-5 copy, so a
///   budget smaller than assumed costs the copy's delay, never the score: the final included.
/// - What Apple does not disclose is hedged until it is known (``Configuration/knowingDelay(_:)``,
///   ``Configuration/withBudget(_:)``): an upgrade counts only what it buys before the shortest
///   plausible priority-5 delay; the pushes the hour holds go to lesser moments before they would
///   come back too late for another use; and with the assumed hour spent, a moment worth the
///   price goes at priority 10 beyond it, with its copy, up to the largest plausible budget.
public struct Coalescer: PushPolicy {
    public private(set) var configuration: Configuration
    public internal(set) var budget: PushBudget
    /// The priority-10 pushes sent beyond the budget (its hour spent), each with its priority-5
    /// copy, while the true budget may be larger (`Configuration.largestBudget`).
    public internal(set) var beyond: PushBudget
    /// What a priority 10 buys by kind of moment (not checkpointed: the table the version ships).
    public private(set) var values: PushValues

    /// Where the game is for the coalescer: what waits to be pushed, and until when.
    var phase = Phase.idle(Waits())
    /// The last state observed (what the screen should show).
    var state = GameState()
    var situation: Situation
    /// The pace bucket: how far spending is behind the budget's pace, and when it was last
    /// refilled; full means budget to spare.
    var paced: Double
    var pacedAt: Date?
    var lastPushAt: Date?
    /// Recent pushes, newest last: enough to know what the device shows.
    var recent: [SentPush] = []
    /// The arrival being taken in (``absorb(_:now:)``), until ``decide(now:)``: checkpointed
    /// only while a catch-up waits for the rest of its backlog (an engine commits otherwise only
    /// after the arrival's decision).
    var arrival: Arrival?
    /// What the coalescer assumes of the device's priority-10 budget when its first arrival is a
    /// game already under way (`isJoin(_:)`): not checkpointed, as it acts only before the
    /// coalescer's first decision (a checkpoint written while a first catch-up waits for its
    /// parts resumes under the options given at restart).
    public var joinBudget = JoinBudget.standard
    /// What a priority 10 buys at each kind of moment under the assumed delay, and the price's steps.
    var offers = Offers(scores: [], upgrades: [], scoresPerHour: 0)

    /// An arrival's newest feed time, the feed time of its critical moment, and whether it is the
    /// first thing the coalescer takes in (``isUntouched``).
    struct Arrival: Hashable, Sendable, Codable {
        var newest: Date
        var criticalAt: Date?
        var isFirst = false
    }

    struct SentPush: Hashable, Sendable, Codable {
        var at: Date
        var priority: Int
        var homeScore: Int
        var awayScore: Int
    }

    public init(configuration: Configuration = .standard, values: PushValues = .fitted) {
        self.configuration = configuration
        self.values = values
        budget = PushBudget(limit: configuration.budget)
        beyond = PushBudget(limit: configuration.beyondBudget)
        paced = configuration.pacedBurst
        situation = Situation(
            periodEndWindow: configuration.periodEndWindow, mandatoryWindow: configuration.mandatoryWindow,
            runLength: configuration.runLength)
        offers = Self.offers(values, configuration)
    }

    /// Counts the whole hour's priority-10 budget as spent at `now` (nil: at the first event it
    /// sees): for a coalescer that takes over a game whose pushes it does not know (a lost
    /// checkpoint), since a priority 10 past the budget is silently dropped while a priority 5 is
    /// only late. With nil, the coalescer must not have seen anything yet.
    public mutating func assumeBudgetSpent(at now: Date?) {
        guard let now else {
            phase = .takingOver
            return
        }
        while availableWithinBudget(now) > 0 { spendPriority10(at: now, beyondBudget: false) }
        while availableBeyondBudget(now) > 0 { spendPriority10(at: now, beyondBudget: true) }
    }

    /// Applies the options a restarted service was given to a resumed game: the knobs and the
    /// budget's limit change; the priority-10 pushes already spent in the rolling hour stay spent.
    public mutating func reconfigure(_ configuration: Configuration) {
        self.configuration = configuration
        budget.limit = max(0, configuration.budget)
        beyond.limit = configuration.beyondBudget
        paced = min(paced, configuration.pacedBurst)
        situation.periodEndWindow = configuration.periodEndWindow
        situation.mandatoryWindow = configuration.mandatoryWindow
        situation.runLength = configuration.runLength
        offers = Self.offers(values, configuration)
    }

    public mutating func countPriority10(at now: Date) {
        spendPriority10(at: now, beyondBudget: availableWithinBudget(now) == 0 && availableBeyondBudget(now) > 0)
    }

    /// Gives back the priority 10 booked at `sentAt`, where it was booked (beyond the budget, or
    /// within it; the other when none was booked there then).
    public mutating func refundPriority10(at sentAt: Date, beyondBudget: Bool) {
        if beyondBudget {
            if !beyond.refund(at: sentAt) { budget.refund(at: sentAt) }
        } else if !budget.refund(at: sentAt) {
            beyond.refund(at: sentAt)
        }
    }

    /// The one place a priority 10 is booked: within the assumed budget, or beyond it.
    private mutating func spendPriority10(at now: Date, beyondBudget: Bool) {
        if beyondBudget { beyond.spend(at: now) } else { budget.spend(at: now) }
    }

    /// Priority-10 pushes the assumed budget has left now. The pushes sent beyond it count too
    /// once they pass the largest budget (a restart may have lowered it: with a known budget, all).
    public func availableWithinBudget(_ now: Date) -> Int {
        max(0, min(budget.available(at: now), roomInLargestBudget(now)))
    }

    /// Priority-10 pushes that may still go beyond the budget now: never past the largest budget
    /// in the hour, whatever was spent under another configuration.
    public func availableBeyondBudget(_ now: Date) -> Int {
        max(0, min(beyond.available(at: now), roomInLargestBudget(now)))
    }

    /// What the largest budget has left in the hour, both kinds of priority 10 counted.
    private func roomInLargestBudget(_ now: Date) -> Int {
        configuration.largestBudget - budget.used(at: now) - beyond.used(at: now)
    }

    public var deadline: Date? { phase.deadline }

    public var hasEnded: Bool { phase == .ended }

    public mutating func observe(_ change: StateChange, now: Date) -> PushDecision {
        take(change, now, arriving: false)
        return decideNow(now)
    }

    /// Takes in one change of an arrival. A critical moment (and its alert) counts only while it
    /// is the present: the arrival's last score change, within ``arrivalAlertWindow`` of feed
    /// time before the arrival's newest event. A catch-up's lead changes are moments already
    /// past: their state is worth what any score is.
    public mutating func absorb(_ change: StateChange, now: Date) {
        take(change, now, arriving: true)
    }

    public mutating func decide(now: Date) -> PushDecision {
        if let arrival, arrival.criticalAt.map({ $0 < arrival.newest.addingTimeInterval(-Self.arrivalAlertWindow) }) ?? false {
            forgetCriticalMoment()
        }
        // (A closure, not the method itself: a method taken as a value copies the coalescer.)
        let joins = arrival.map { isJoin($0) } ?? false
        arrival = nil
        return joins ? join(now: now) : tick(now: now)
    }

    /// Feed seconds before an arrival's newest event within which a critical moment of the
    /// arrival is still news worth an alert.
    public static let arrivalAlertWindow: TimeInterval = 30

    /// Takes in `change`; in an arrival, notes what the rule of ``absorb(_:now:)`` needs.
    private mutating func take(_ change: StateChange, _ now: Date, arriving: Bool) {
        guard arriving else { return observeState(change, now) }
        var noted = arrival ?? Arrival(newest: change.event.time, isFirst: isUntouched)
        noted.newest = max(noted.newest, change.event.time)
        if change.changesScore {
            // A later score change makes an earlier critical moment one of the past.
            noted.criticalAt = nil
            forgetCriticalMoment()
        }
        arrival = noted
        let wasCritical = phase.unsent?.significance == .critical
        observeState(change, now)
        if !wasCritical, phase.unsent?.significance == .critical { arrival?.criticalAt = change.event.time }
    }

    /// A critical moment of an arrival that is past: its changes are worth what a score is, and
    /// no alert.
    private mutating func forgetCriticalMoment() {
        guard var unsent = phase.unsent, unsent.significance == .critical else { return }
        unsent.significance = .score
        unsent.alert = nil
        phase = .pending(unsent, phase.waits)
    }

    /// The end of a decision: the `end` once allowed, else the policy's choice for the state now.
    private mutating func decideNow(_ now: Date) -> PushDecision {
        if case .ending = phase { return sendEndIfAllowed(now) }
        if case .ended = phase { return .hold }
        return choose(now)
    }

    private mutating func observeState(_ change: StateChange, _ now: Date) {
        switch phase {
        case .ended: return
        case .takingOver:
            phase = .idle(Waits())
            assumeBudgetSpent(at: now)
        default: break
        }
        // The state before, moved out as the new one moves in (one copy, not two).
        var before = change.state
        swap(&before, &state)
        let kind = situation.observe(change.event, before: before, after: state)
        let significance = Significance.of(change, before: before)
        var waits = phase.waits
        if case .ending = phase {
            // Nothing comes after the game's end but the end itself.
        } else if significance >= .score || (significance == .minor && change.diff.isVisible) {
            var unsent = phase.unsent ?? Unsent()
            unsent.significance = max(unsent.significance, significance)
            if significance == .critical { unsent.alert = unsent.alert ?? criticalAlert(change) }
            phase = .pending(unsent, waits)
        }
        switch change.event.kind {
        case .gameEnd:
            phase = .ending(Waits(interval: waits.interval))
        case .periodEnd where situation.period >= 4 && state.homeScore != state.awayScore:
            waits.settleUntil = now.addingTimeInterval(configuration.settle)
        default:
            if kind != .pause { waits.settleUntil = nil }
        }
        if case .ending(var waits) = phase {
            waits.settleUntil = nil
            phase = .ending(waits)
            return
        }
        phase.waits = waits
    }

    public mutating func tick(now: Date) -> PushDecision {
        guard phase != .ended else { return .hold }
        var waits = phase.waits
        if let settle = waits.settleUntil, now >= settle { waits.settleUntil = nil }
        if let interval = waits.interval, now >= interval { waits.interval = nil }
        phase.waits = waits
        return decideNow(now)
    }

    /// Continues a game whose earlier pushes this coalescer did not make (its own state was
    /// lost): `state` is the scoreboard now, `shown` the last state pushed, at `now`. The last push
    /// is taken as a priority 5 sent at `now`, so the screen counts as wrong until it would arrive.
    /// `ended`: the game's `end` went out.
    public mutating func resume(state: GameState, shown: GameState, at now: Date, ended: Bool = false) {
        self.state = state
        recent = [SentPush(at: now, priority: 5, homeScore: shown.homeScore, awayScore: shown.awayScore)]
        lastPushAt = now
        let significance: Significance = state.homeScore != shown.homeScore || state.awayScore != shown.awayScore ? .score : .minor
        phase = ended ? .ended : state != shown ? .pending(Unsent(significance: significance), phase.waits) : .idle(phase.waits)
    }

    public mutating func reopen(now: Date) {
        guard phase == .ended else { return }
        phase = .idle(Waits())
    }

    /// The feed is over: the end waiting for its moment, or the last state not yet shown, goes at
    /// once (priority 10 while the budget allows), even within ``Configuration/minInterval`` of
    /// the last push: no call comes after this one to send it later.
    public mutating func finish(now: Date) -> PushDecision {
        switch phase {
        case .ended: return .hold
        case .ending: return end(now)
        default: break
        }
        guard phase.unsent != nil || screenIsWrong(now) else { return .hold }
        phase.waits.settleUntil = nil
        let (priority, beyondBudget) = lastPriority(now)
        let reason = "feed ended; last state" + (beyondBudget ? "; \(Push.beyondBudget)" : "")
        return push(Push(event: .update, priority: priority, reason: reason), now, beyondBudget: beyondBudget)
    }

    // MARK: - Deciding

    private mutating func choose(_ now: Date) -> PushDecision {
        refillPacing(now)
        if let settle = phase.waits.settleUntil, now < settle { return .hold }
        phase.waits.settleUntil = nil
        if let interval = phase.waits.interval, now < interval { return .hold }

        let unsent = phase.unsent
        let significance = unsent?.significance ?? .none
        let alert = unsent?.alert
        let atScore = significance >= .score
        let kind = situation.kind
        let value = screenIsWrong(now) ? valueOfPriority10(kind, now) : 0
        let available = availableWithinBudget(now)
        var why: String?
        var usesPacing = false
        var beyondBudget = false
        let worthPriority10 = value > 0 && value >= minimumGain
        if significance == .critical && (value > 0 || alert != nil) && available > 1 {
            why = "critical"
        } else if worthPriority10 && available > 0 {
            let price = self.price(now, available: available)
            if kind.isPause && available > finalReserve && value >= price {
                why = kind.reason
            } else if value >= price && available > tokensToKeep {
                why = kind.reason
                usesPacing = true
            } else if value >= price * configuration.spareShare && available > tokensToKeep && paced >= max(1, configuration.pacedBurst) {
                why = "\(kind.reason); budget to spare"
                usesPacing = true
            }
        }
        if why == nil, available == 0, worthPriority10, availableBeyondBudget(now) > 0,
           value >= self.price(now, available: 1) {
            // The hour the budget assumes is spent; the true one may not be.
            why = "\(kind.reason); \(Push.beyondBudget)"
            beyondBudget = true
        }
        if let reason = why, !atScore, reason != "critical" { why = "\(reason); the score is not on screen yet" }

        let wanted: Push
        if let why {
            wanted = Push(event: .update, priority: 10, alert: alert, reason: "priority 10: \(why)")
        } else if unsent != nil && (significance >= .score || kind.isPause) {
            wanted = Push(event: .update, priority: 5, reason: "priority 5")
        } else {
            return .hold
        }
        if mustWaitForInterval(now) { return .hold }
        if usesPacing { paced -= 1 }
        return push(wanted, now, beyondBudget: beyondBudget)
    }

    /// The end goes out the moment the game ends, or as soon as the minimum interval since the
    /// last push allows.
    private mutating func sendEndIfAllowed(_ now: Date) -> PushDecision {
        mustWaitForInterval(now) ? .hold : end(now)
    }

    /// Whether the minimum interval since the last push has not passed yet; if so, sets the
    /// timer that brings the wanted push back when it has.
    private mutating func mustWaitForInterval(_ now: Date) -> Bool {
        guard let lastPushAt else { return false }
        let allowed = lastPushAt.addingTimeInterval(configuration.minInterval)
        guard now < allowed else { return false }
        phase.waits.interval = allowed
        return true
    }

    /// The last push goes at priority 10 while the budget, or what may lie beyond it, allows.
    private func lastPriority(_ now: Date) -> (priority: Int, beyondBudget: Bool) {
        if availableWithinBudget(now) > 0 { return (10, false) }
        return availableBeyondBudget(now) > 0 ? (10, true) : (5, false)
    }

    private mutating func end(_ now: Date) -> PushDecision {
        let (priority, beyondBudget) = lastPriority(now)
        // A game called off ends as what it is: "postponed" or "suspended", not "final".
        let what = state.phase.isCalledOff ? state.phase.rawValue : "final"
        let push = Push(event: .end, priority: priority, alert: configuration.alerts.final ? .final : nil, reason: beyondBudget ? "\(what); \(Push.beyondBudget)" : what)
        let decision = self.push(push, now, beyondBudget: beyondBudget)
        phase = .ended
        return decision
    }

    private mutating func push(_ push: Push, _ now: Date, beyondBudget: Bool = false) -> PushDecision {
        var push = push
        // A priority 10 no priority-5 push backs gets a priority-5 copy right behind it: if the
        // budget is smaller than assumed and the device drops the first, the copy still comes
        // (a device that showed the first gets the same state again).
        // Beyond the budget the device likely drops it: a copy even when a priority 5 carries the
        // score, since this push may carry more (a timeout, the possession).
        let backed = push.event != .end && !beyondBudget && priority5Arrival(now) < .distantFuture
        if push.priority == 10 && configuration.copies && !backed { push.priority5Copy = true }
        if push.priority == 10 { spendPriority10(at: now, beyondBudget: beyondBudget) }
        recent.append(SentPush(at: now, priority: push.priority, homeScore: state.homeScore, awayScore: state.awayScore))
        if push.priority5Copy {
            recent.append(SentPush(at: now, priority: 5, homeScore: state.homeScore, awayScore: state.awayScore))
        }
        let horizon = now.addingTimeInterval(-configuration.priority5Delay - 1)
        if let keepFrom = recent.lastIndex(where: { $0.at <= horizon }) { recent.removeFirst(keepFrom) }
        lastPushAt = now
        phase = .idle(Waits())
        return .push(push)
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

    /// When the current score reaches the screen without another push: the arrival of the
    /// earliest priority-5 push already carrying it, or never (`distantFuture`) when none does
    /// (a push now at priority 5 would take the whole delay).
    private func priority5Arrival(_ now: Date) -> Date {
        var carrier: SentPush?
        for push in recent.reversed() {
            guard push.homeScore == state.homeScore, push.awayScore == state.awayScore else { break }
            if push.priority == 5 { carrier = push }
        }
        return carrier.map { $0.at.addingTimeInterval(configuration.priority5Delay) } ?? .distantFuture
    }

    /// Seconds until the current score reaches the screen without a priority 10: what is left
    /// of the priority-5 push carrying it, or the whole delay of one sent now.
    func secondsUntilShown(_ now: Date) -> TimeInterval {
        let arrival = priority5Arrival(now)
        return arrival == .distantFuture ? configuration.priority5Delay : max(0, arrival.timeIntervalSince(now))
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

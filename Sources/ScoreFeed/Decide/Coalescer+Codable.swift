import Foundation
import ScoreFeedModel

/// The coalescer's state, checkpointed with its game. The value table is not part of it: a
/// resumed game prices with the table the running version ships. A state written by another
/// version resumes with what it has (the budget spent above all); what it lacks starts afresh.
/// The phase is written as the flags it had before it was one value (`dirty`, `significance`,
/// `alert`, `holdUntil`, `intervalWait`, `ended`, `endPending`, `budgetSpentAtFirstEvent`), so
/// checkpoints of every format read the same.
extension Coalescer: Codable {
    enum CodingKeys: String, CodingKey {
        case configuration, budget, beyond, state, situation, dirty, significance, alert, holdUntil, paced, pacedAt
        case lastPushAt, intervalWait, recent, ended, endPending, budgetSpentAtFirstEvent
        case arrival
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(configuration: try c.decode(Configuration.self, forKey: .configuration))
        budget = try c.decode(PushBudget.self, forKey: .budget)
        budget.limit = max(0, configuration.budget)
        beyond = try c.decodeIfPresent(PushBudget.self, forKey: .beyond) ?? beyond
        beyond.limit = configuration.beyondBudget
        state = try c.decode(GameState.self, forKey: .state)
        situation = try c.decodeIfPresent(Situation.self, forKey: .situation) ?? situation
        let waits = Waits(
            settleUntil: try c.decodeIfPresent(Date.self, forKey: .holdUntil),
            interval: try c.decodeIfPresent(Date.self, forKey: .intervalWait))
        if try c.decodeIfPresent(Bool.self, forKey: .ended) == true {
            phase = .ended
        } else if try c.decodeIfPresent(Bool.self, forKey: .endPending) == true {
            phase = .ending(Waits(interval: waits.interval))
        } else if try c.decodeIfPresent(Bool.self, forKey: .budgetSpentAtFirstEvent) == true {
            phase = .takingOver
        } else if try c.decodeIfPresent(Bool.self, forKey: .dirty) == true {
            phase = .pending(
                Unsent(
                    significance: try c.decodeIfPresent(Significance.self, forKey: .significance) ?? .none,
                    alert: try c.decodeIfPresent(AlertKind.self, forKey: .alert)),
                waits)
        } else {
            phase = .idle(waits)
        }
        paced = try c.decodeIfPresent(Double.self, forKey: .paced) ?? 0
        pacedAt = try c.decodeIfPresent(Date.self, forKey: .pacedAt)
        lastPushAt = try c.decodeIfPresent(Date.self, forKey: .lastPushAt)
        recent = try c.decodeIfPresent([SentPush].self, forKey: .recent) ?? []
        arrival = try c.decodeIfPresent(Arrival.self, forKey: .arrival)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(configuration, forKey: .configuration)
        try c.encode(budget, forKey: .budget)
        try c.encode(beyond, forKey: .beyond)
        try c.encode(state, forKey: .state)
        try c.encode(situation, forKey: .situation)
        let unsent = phase.unsent
        try c.encode(unsent != nil, forKey: .dirty)
        try c.encode(unsent?.significance ?? .none, forKey: .significance)
        try c.encodeIfPresent(unsent?.alert, forKey: .alert)
        try c.encodeIfPresent(phase.waits.settleUntil, forKey: .holdUntil)
        try c.encode(paced, forKey: .paced)
        try c.encodeIfPresent(pacedAt, forKey: .pacedAt)
        try c.encodeIfPresent(lastPushAt, forKey: .lastPushAt)
        try c.encodeIfPresent(phase.waits.interval, forKey: .intervalWait)
        try c.encode(recent, forKey: .recent)
        try c.encode(phase == .ended, forKey: .ended)
        // Once ended, the end was pending before: the flags as they were written.
        try c.encode(phase == .ended || phase.isEnding, forKey: .endPending)
        try c.encode(phase == .takingOver, forKey: .budgetSpentAtFirstEvent)
        // Present only while a catch-up waits for the rest of its backlog (its session saves it
        // open).
        try c.encodeIfPresent(arrival, forKey: .arrival)
    }
}

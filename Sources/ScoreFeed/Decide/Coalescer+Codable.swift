import Foundation
import ScoreFeedModel

/// The coalescer's state, checkpointed with its game. The value table is not part of it: a
/// resumed game prices with the table the running version ships. A state written by another
/// version resumes with what it has (the budget spent above all); what it lacks starts afresh.
extension Coalescer: Codable {
    enum CodingKeys: String, CodingKey {
        case configuration, budget, beyond, state, situation, dirty, significance, alert, holdUntil, paced, pacedAt
        case lastPushAt, intervalWait, recent, ended, endPending, budgetSpentAtFirstEvent
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
        dirty = try c.decodeIfPresent(Bool.self, forKey: .dirty) ?? false
        significance = try c.decodeIfPresent(Significance.self, forKey: .significance) ?? .none
        alert = try c.decodeIfPresent(AlertKind.self, forKey: .alert)
        holdUntil = try c.decodeIfPresent(Date.self, forKey: .holdUntil)
        paced = try c.decodeIfPresent(Double.self, forKey: .paced) ?? 0
        pacedAt = try c.decodeIfPresent(Date.self, forKey: .pacedAt)
        lastPushAt = try c.decodeIfPresent(Date.self, forKey: .lastPushAt)
        intervalWait = try c.decodeIfPresent(Date.self, forKey: .intervalWait)
        recent = try c.decodeIfPresent([SentPush].self, forKey: .recent) ?? []
        ended = try c.decodeIfPresent(Bool.self, forKey: .ended) ?? false
        endPending = try c.decodeIfPresent(Bool.self, forKey: .endPending) ?? false
        budgetSpentAtFirstEvent = try c.decodeIfPresent(Bool.self, forKey: .budgetSpentAtFirstEvent) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(configuration, forKey: .configuration)
        try c.encode(budget, forKey: .budget)
        try c.encode(beyond, forKey: .beyond)
        try c.encode(state, forKey: .state)
        try c.encode(situation, forKey: .situation)
        try c.encode(dirty, forKey: .dirty)
        try c.encode(significance, forKey: .significance)
        try c.encodeIfPresent(alert, forKey: .alert)
        try c.encodeIfPresent(holdUntil, forKey: .holdUntil)
        try c.encode(paced, forKey: .paced)
        try c.encodeIfPresent(pacedAt, forKey: .pacedAt)
        try c.encodeIfPresent(lastPushAt, forKey: .lastPushAt)
        try c.encodeIfPresent(intervalWait, forKey: .intervalWait)
        try c.encode(recent, forKey: .recent)
        try c.encode(ended, forKey: .ended)
        try c.encode(endPending, forKey: .endPending)
        try c.encode(budgetSpentAtFirstEvent, forKey: .budgetSpentAtFirstEvent)
    }
}

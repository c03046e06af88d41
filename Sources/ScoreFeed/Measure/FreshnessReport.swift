import Foundation
import ScoreFeedModel

/// The engine's pushes for one game beside the baselines and the clairvoyant bound, all
/// measured under the same ``DeviceModel``.
public struct FreshnessReport: Hashable, Sendable, Codable {
    public var game: String
    public var budget: Int
    public var priority5Delay: Double
    public var gameHours: Double
    public var scoreChanges: Int
    /// `engine`, the three baselines, `bound` (wrong share only), a stronger baseline that
    /// spends priority 10 whenever the rolling hour has room, and priority 5 on every change.
    public var rows: [Freshness]
    /// The engine's priority-10 pushes sent beyond the budget it assumed, on purpose (each carried
    /// by a priority 5): a device at that budget drops them, one with a larger budget shows them.
    public var engineBeyondBudget: Int

    public init(game: String, records: [PushRecord], timeline: ScoreTimeline, model: DeviceModel) {
        self.game = game
        budget = model.budget
        priority5Delay = model.priority5Delay
        gameHours = timeline.duration / 3600
        scoreChanges = timeline.changes.count
        engineBeyondBudget = records.filter { $0.priority == 10 && Push.isBeyondBudget($0.reason) }.count
        let bound = Baselines.clairvoyantBound(timeline, budget: model.budget, priority5Delay: model.priority5Delay)
        rows = [
            Freshness(policy: "engine", pushes: records.map(DeviceModel.Sent.init), timeline: timeline, model: model),
            Freshness(policy: "p10 every change", pushes: Baselines.everyChange(timeline), timeline: timeline, model: model),
            Freshness(policy: "p10 fixed interval", pushes: Baselines.fixedInterval(timeline, budget: model.budget), timeline: timeline, model: model),
            Freshness(policy: "p10 then p5", pushes: Baselines.budgetThenFive(timeline, budget: model.budget), timeline: timeline, model: model),
            Freshness(policy: "clairvoyant bound", wrongShare: bound.wrongShare, priority10: bound.priority10),
            Freshness(policy: "p10 rolling budget", pushes: Baselines.rollingBudget(timeline, budget: model.budget), timeline: timeline, model: model),
            Freshness(policy: "p5 every change", pushes: Baselines.priority5EveryChange(timeline), timeline: timeline, model: model),
        ]
    }

    public var engine: Freshness { rows[0] }
    /// The lowest wrong share among the baselines (not the bound).
    public var bestBaseline: Freshness { rows.filter { $0.policy != "engine" && $0.policy != "clairvoyant bound" }.min { $0.wrongShare < $1.wrongShare }! }
    public var bound: Freshness { rows[4] }
    public var rollingBaseline: Freshness { rows[5] }

    /// A table for people.
    public var text: String {
        func seconds(_ x: Double?) -> String { x.map { String(format: "%.0f s", $0) } ?? "never" }
        var lines = [
            "Freshness of \(game): \(scoreChanges) score changes over \(String(format: "%.2f", gameHours)) h",
            "device model: priority 10 shown at once while under \(budget) per rolling hour (dropped past it); "
                + "priority 5 shown \(Int(priority5Delay)) s late; an update older than the newest shown is ignored",
            Self.pad("policy", 20, left: true) + Self.pad("pushes", 7) + Self.pad("p10", 5) + Self.pad("p5", 5)
                + Self.pad("peak/h", 8) + Self.pad("overrun", 8) + Self.pad("wrong", 8) + Self.pad("lag p95", 9)
                + Self.pad("lag max", 9) + Self.pad("final", 8),
        ]
        for row in rows {
            let isBound = row.policy == "clairvoyant bound"
            lines.append(
                Self.pad(row.policy, 20, left: true) + Self.pad(isBound ? "" : "\(row.pushes)", 7)
                    + Self.pad("\(row.priority10)", 5) + Self.pad(isBound ? "" : "\(row.priority5)", 5)
                    + Self.pad(isBound ? "" : "\(row.peakHourlyPriority10)", 8) + Self.pad(isBound ? "" : "\(row.budgetOverruns)", 8)
                    + Self.pad(String(format: "%.3f", row.wrongShare), 8) + Self.pad(isBound ? "" : seconds(row.lagP95), 9)
                    + Self.pad(isBound ? "" : seconds(row.lagMax), 9) + Self.pad(isBound ? "" : seconds(row.finalLag), 8))
        }
        if engineBeyondBudget > 0 {
            lines.append("engine: \(engineBeyondBudget) of its priority-10 pushes went beyond its assumed budget on purpose, each carried by a priority 5; this device drops them, one with a larger budget shows them at once")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` right-aligned in a column `width` characters wide (left-aligned with `left`); text
    /// as wide or wider is left whole. For the tables of `text` and of `scorefeed freshness`.
    public static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + fill : fill + text
    }
}

import Foundation
import ScoreFeedModel

/// The engine's Android messages for one game beside the two simple Android senders, all
/// measured under the same ``AndroidDeviceModel``: `HIGH` without a collapse key on every score
/// change (delivered at once: under this model no policy does better), and `HIGH` with one (held
/// by FCM's bucket once 20 are spent).
public struct AndroidFreshnessReport: Hashable, Sendable, Codable {
    public var game: String
    public var gameHours: Double
    public var scoreChanges: Int
    public var model: AndroidDeviceModel
    /// `engine`, `HIGH every change`, `HIGH collapsible` and `NORMAL collapsible` (every change).
    public var rows: [Freshness]

    public init(game: String, records: [PushRecord], timeline: ScoreTimeline, model: AndroidDeviceModel = AndroidDeviceModel()) {
        self.game = game
        gameHours = timeline.duration / 3600
        scoreChanges = timeline.changes.count
        self.model = model
        /// The same messages, each with a `collapse_key`: a sender that lets FCM keep only the newest.
        func collapsible(_ pushes: [DeviceModel.Sent]) -> [DeviceModel.Sent] {
            pushes.map { push in
                var push = push
                push.collapsible = true
                return push
            }
        }
        rows = [
            Freshness(policy: "engine", pushes: records.map(DeviceModel.Sent.init), timeline: timeline, android: model),
            Freshness(policy: "HIGH every change", pushes: Baselines.everyChange(timeline), timeline: timeline, android: model),
            Freshness(policy: "HIGH collapsible", pushes: collapsible(Baselines.everyChange(timeline)), timeline: timeline, android: model),
            Freshness(policy: "NORMAL collapsible", pushes: collapsible(Baselines.priority5EveryChange(timeline)), timeline: timeline, android: model),
        ]
    }

    public var engine: Freshness { rows[0] }
    /// The better of the two `HIGH` senders the engine is measured against.
    public var bestBaseline: Freshness { rows[1].wrongShare <= rows[2].wrongShare ? rows[1] : rows[2] }

    /// A table for people.
    public var text: String {
        func seconds(_ x: Double?) -> String { x.map { String(format: "%.0f s", $0) } ?? "never" }
        var lines = [
            "Android freshness of \(game): \(scoreChanges) score changes over \(String(format: "%.2f", gameHours)) h",
            "device model: \(model.summary)",
            FreshnessReport.pad("policy", 20, left: true) + FreshnessReport.pad("pushes", 7) + FreshnessReport.pad("HIGH", 6)
                + FreshnessReport.pad("NORMAL", 7) + FreshnessReport.pad("wrong", 8) + FreshnessReport.pad("lag p95", 9)
                + FreshnessReport.pad("lag max", 9) + FreshnessReport.pad("final", 8),
        ]
        for row in rows {
            lines.append(
                FreshnessReport.pad(row.policy, 20, left: true) + FreshnessReport.pad("\(row.pushes)", 7)
                    + FreshnessReport.pad("\(row.priority10)", 6) + FreshnessReport.pad("\(row.priority5)", 7)
                    + FreshnessReport.pad(String(format: "%.3f", row.wrongShare), 8) + FreshnessReport.pad(seconds(row.lagP95), 9)
                    + FreshnessReport.pad(seconds(row.lagMax), 9) + FreshnessReport.pad(seconds(row.finalLag), 8))
        }
        return lines.joined(separator: "\n")
    }
}

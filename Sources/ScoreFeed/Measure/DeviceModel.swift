import Foundation
import ScoreFeedModel

/// The stated model of a device receiving an activity's pushes, used to score policies:
///
/// - a priority-10 push is shown on arrival (at `sentAt`) while fewer than `budget` priority-10
///   pushes were shown in the past hour, and dropped otherwise (dropped pushes do not count);
/// - a priority-5 push is shown `priority5Delay` seconds after `sentAt`;
/// - a push whose `aps.timestamp` is not newer than the newest shown is ignored;
/// - priority-10 pushes shown before these (``spentBefore``: an earlier instance's) count against
///   the rolling hour like the device's own.
public struct DeviceModel: Hashable, Sendable {
    public var budget: Int
    public var priority5Delay: TimeInterval
    public var window: TimeInterval = DeviceModel.hour
    /// When the priority-10 pushes shown before this schedule's were shown: an earlier run's, on
    /// a device met in progress (empty: the hour is untouched).
    public var spentBefore: [Date] = []

    /// The rolling hour of the priority-10 budget, seconds: the default `window`.
    public static let hour: TimeInterval = 3600

    public init(budget: Int, priority5Delay: TimeInterval = 120) {
        self.budget = budget
        self.priority5Delay = priority5Delay
    }

    /// The device the coalescer configured by `configuration` plans for: its budget and its
    /// priority-5 delay.
    public init(_ configuration: Coalescer.Configuration) {
        self.init(budget: configuration.budget, priority5Delay: configuration.priority5Delay)
    }

    /// What a push put on the screen, the part the model needs.
    public struct Sent: Hashable, Sendable {
        public var sentAt: Date
        public var priority: Int
        public var timestamp: Int
        public var score: FinalScore
        /// Feed time of the newest event in the push.
        public var sourceTime: Date
        public var isEnd: Bool
        /// Android: the message has a `collapse_key` (``AndroidDeviceModel``'s bucket).
        public var collapsible = false

        public init(sentAt: Date, priority: Int, timestamp: Int, score: FinalScore, sourceTime: Date, isEnd: Bool, collapsible: Bool = false) {
            self.sentAt = sentAt
            self.priority = priority
            self.timestamp = timestamp
            self.score = score
            self.sourceTime = sourceTime
            self.isEnd = isEnd
            self.collapsible = collapsible
        }

        public init(_ record: PushRecord) {
            self.init(
                sentAt: record.sentAt, priority: record.priority, timestamp: record.timestamp,
                score: FinalScore(home: record.state.homeScore, away: record.state.awayScore),
                sourceTime: record.sourceTime ?? record.sentAt, isEnd: record.event == .end,
                collapsible: record.platform == .android && record.payload.range(of: Self.collapseKey) != nil)
        }

        /// What marks a collapsible FCM message in an Android record's body.
        private static let collapseKey = Data(",\"collapse_key\":".utf8)
    }

    /// One change of what the screen shows.
    public struct Shown: Hashable, Sendable {
        public var time: Date
        public var push: Sent
    }

    /// The screen's history for these pushes, in time order.
    public func screen(_ pushes: [Sent]) -> [Shown] {
        let arrivals = pushes.map { push in
            (time: push.priority == 10 ? push.sentAt : push.sentAt.addingTimeInterval(priority5Delay), push: push)
        }.sorted { ($0.time, $0.push.timestamp) < ($1.time, $1.push.timestamp) }
        var shown: [Shown] = []
        var priority10Shown = spentBefore.sorted()
        var newest = Int.min
        for arrival in arrivals {
            guard arrival.push.timestamp > newest else { continue }
            if arrival.push.priority == 10 {
                let from = arrival.time.addingTimeInterval(-window)
                priority10Shown.removeAll { $0 <= from }
                guard priority10Shown.count < budget else { continue }
                priority10Shown.append(arrival.time)
            }
            newest = arrival.push.timestamp
            shown.append(Shown(time: arrival.time, push: arrival.push))
        }
        return shown
    }
}

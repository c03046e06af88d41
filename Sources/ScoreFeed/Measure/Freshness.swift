import Foundation
import ScoreFeedModel

/// How right the lock screen was over a game, for one schedule of pushes under a ``DeviceModel``.
public struct Freshness: Hashable, Sendable, Codable {
    /// Name of the policy measured (`engine`, a baseline, or `bound`).
    public var policy: String
    public var pushes: Int
    public var priority10: Int
    public var priority5: Int
    /// Most priority-10 pushes sent in any rolling hour.
    public var peakHourlyPriority10: Int
    /// Priority-10 pushes sent while the rolling hour was already at the budget (the device drops them).
    public var budgetOverruns: Int
    /// Priority-10 pushes sent in each hour from the first event (hour 1, hour 2, …).
    public var priority10ByHour: [Int]
    /// Share of the game (first to last event) the shown score differed from the true score.
    public var wrongShare: Double
    /// Seconds until a score change was on screen: 95th percentile and maximum; nil when no change was measured.
    public var lagP95: Double?
    public var lagMax: Double?
    /// Score changes never shown within the game window.
    public var unshownChanges: Int
    /// Seconds from the game's end event to the final state on screen; nil if never shown.
    public var finalLag: Double?

    /// Measures `pushes` against the true `timeline`.
    public init(policy: String, pushes: [DeviceModel.Sent], timeline: ScoreTimeline, model: DeviceModel) {
        self.init(policy: policy, pushes: pushes, timeline: timeline, screen: model.screen(pushes), budget: model.budget, window: model.window)
    }

    /// Measures `pushes` against the true `timeline` on an Android phone: budget overruns count
    /// the messages past FCM's hourly cap.
    public init(policy: String, pushes: [DeviceModel.Sent], timeline: ScoreTimeline, android: AndroidDeviceModel) {
        self.init(
            policy: policy, pushes: pushes, timeline: timeline, screen: android.screen(pushes), budget: android.perHour,
            window: DeviceModel.hour)
    }

    /// Measures `pushes`, which put `screen` on the device, against the true `timeline`; a
    /// priority 10 beyond `budget` in a rolling `window` is an overrun.
    init(policy: String, pushes: [DeviceModel.Sent], timeline: ScoreTimeline, screen: [DeviceModel.Shown], budget: Int, window: TimeInterval) {
        self.policy = policy
        self.pushes = pushes.count
        priority10 = pushes.filter { $0.priority == 10 }.count
        priority5 = pushes.count - priority10
        (peakHourlyPriority10, budgetOverruns) = Self.budgetUse(pushes, budget: budget, window: window)
        priority10ByHour = Self.byHour(pushes.filter { $0.priority == 10 }.map(\.sentAt), from: timeline.start)
        wrongShare = Self.wrongShare(screen: screen, timeline: timeline)
        var lags: [Double] = []
        var unshown = 0
        // Shown pushes rise in timestamp and so in source time: one forward pass finds, for
        // each change, the first screen at or after it that includes it.
        var cursor = 0
        for change in timeline.changes {
            while cursor < screen.count && (screen[cursor].time < change.time || screen[cursor].push.sourceTime < change.time) {
                cursor += 1
            }
            if cursor < screen.count {
                lags.append(screen[cursor].time.timeIntervalSince(change.time))
            } else {
                unshown += 1
            }
        }
        unshownChanges = unshown
        lags.sort()
        lagP95 = lags.isEmpty ? nil : lags[min(lags.count - 1, Int((Double(lags.count) * 0.95).rounded(.up)) - 1)]
        lagMax = lags.last
        if let gameEnd = timeline.gameEnd, let hit = screen.first(where: { $0.push.sourceTime >= gameEnd }) {
            finalLag = max(0, hit.time.timeIntervalSince(gameEnd))
        } else {
            finalLag = nil
        }
    }

    /// Builds the figures of an analytic policy (the clairvoyant bound) that has no schedule.
    public init(policy: String, wrongShare: Double, priority10: Int) {
        self.policy = policy
        pushes = 0
        self.priority10 = priority10
        priority5 = 0
        peakHourlyPriority10 = 0
        budgetOverruns = 0
        priority10ByHour = []
        self.wrongShare = wrongShare
        unshownChanges = 0
    }

    static func byHour(_ times: [Date], from start: Date) -> [Int] {
        var hours: [Int] = []
        for time in times {
            let hour = max(0, Int(time.timeIntervalSince(start) / 3600))
            while hours.count <= hour { hours.append(0) }
            hours[hour] += 1
        }
        return hours
    }

    static func budgetUse(_ pushes: [DeviceModel.Sent], budget: Int, window: TimeInterval) -> (peak: Int, overruns: Int) {
        let times = pushes.filter { $0.priority == 10 }.map(\.sentAt).sorted()
        var peak = 0, overruns = 0, low = 0
        for (i, time) in times.enumerated() {
            while times[low] <= time.addingTimeInterval(-window) { low += 1 }
            let count = i - low + 1
            peak = max(peak, count)
            if count > budget { overruns += 1 }
        }
        return (peak, overruns)
    }

    /// Integrates "shown score ≠ true score" over the game window.
    static func wrongShare(screen: [DeviceModel.Shown], timeline: ScoreTimeline) -> Double {
        let duration = timeline.duration
        guard duration > 0 else { return 0 }
        return wrongSpans(screen: screen, timeline: timeline).reduce(0) { $0 + $1.end.timeIntervalSince($1.start) } / duration
    }

    /// The spans of the game window in which the shown score differed from the true score.
    public static func wrongSpans(screen: [DeviceModel.Shown], timeline: ScoreTimeline) -> [DateInterval] {
        let start = timeline.start.timeIntervalSince1970, end = timeline.end.timeIntervalSince1970
        guard end > start else { return [] }
        // Merge the two step functions' breakpoints.
        var points: [(time: Double, isTrue: Bool, score: FinalScore)] = []
        points.reserveCapacity(screen.count + timeline.changes.count)
        for change in timeline.changes { points.append((change.time.timeIntervalSince1970, true, change.score)) }
        for shown in screen { points.append((shown.time.timeIntervalSince1970, false, shown.push.score)) }
        points.sort { $0.time < $1.time }
        var truth = FinalScore(home: 0, away: 0), display = FinalScore(home: 0, away: 0)
        var spans: [DateInterval] = []
        var previous = start
        func close(_ t: Double) {
            guard truth != display, t > previous else { return }
            if let last = spans.last, last.end.timeIntervalSince1970 == previous {
                spans[spans.count - 1] = DateInterval(start: last.start, end: Date(timeIntervalSince1970: t))
            } else {
                spans.append(DateInterval(start: Date(timeIntervalSince1970: previous), end: Date(timeIntervalSince1970: t)))
            }
        }
        for point in points {
            let t = min(max(point.time, start), end)
            close(t)
            previous = t
            if point.isTrue { truth = point.score } else { display = point.score }
        }
        close(end)
        return spans
    }
}

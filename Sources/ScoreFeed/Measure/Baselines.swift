import Foundation
import ScoreFeedModel

/// The policies ScoreFeed is measured against, computed on the same true timeline, and the
/// clairvoyant bound no online policy can beat.
public enum Baselines {
    /// Priority 10 on every score change, and the final: what sample apps do.
    public static func everyChange(_ timeline: ScoreTimeline) -> [DeviceModel.Sent] {
        var schedule = Schedule()
        for change in timeline.changes { schedule.add(change.time, priority: 10, score: change.score) }
        schedule.end(timeline, priority: 10)
        return schedule.pushes
    }

    /// Priority 10 every `3600 / budget` seconds when the score changed since the last push, and the final.
    public static func fixedInterval(_ timeline: ScoreTimeline, budget: Int) -> [DeviceModel.Sent] {
        var schedule = Schedule()
        let interval = 3600 / Double(max(1, budget))
        var tick = timeline.start.addingTimeInterval(interval)
        var index = 0
        var lastSent: FinalScore?
        while tick < timeline.end {
            while index < timeline.changes.count && timeline.changes[index].time <= tick { index += 1 }
            if index > 0, timeline.changes[index - 1].score != lastSent {
                let change = timeline.changes[index - 1]
                schedule.add(tick, priority: 10, score: change.score, source: change.time)
                lastSent = change.score
            }
            tick = tick.addingTimeInterval(interval)
        }
        schedule.end(timeline, priority: 10)
        return schedule.pushes
    }

    /// Priority 10 on every change until the hour's budget is spent, then priority 5 until the
    /// next hour: a counter reset every hour from the first event, as a sample app keeps it.
    public static func budgetThenFive(_ timeline: ScoreTimeline, budget: Int) -> [DeviceModel.Sent] {
        var schedule = Schedule()
        var hour = -1, used = 0
        func priority(at time: Date) -> Int {
            let thisHour = Int(time.timeIntervalSince(timeline.start) / 3600)
            if thisHour != hour { (hour, used) = (thisHour, 0) }
            guard used < budget else { return 5 }
            used += 1
            return 10
        }
        for change in timeline.changes { schedule.add(change.time, priority: priority(at: change.time), score: change.score) }
        schedule.end(timeline, priority: priority(at: timeline.gameEnd ?? timeline.end))
        return schedule.pushes
    }

    /// Priority 10 on every change whenever the rolling hour has room, priority 5 otherwise: a
    /// budget-aware sample app, stronger than the three the product is measured against.
    public static func rollingBudget(_ timeline: ScoreTimeline, budget: Int) -> [DeviceModel.Sent] {
        var schedule = Schedule()
        var spent = PushBudget(limit: budget)
        func priority(at time: Date) -> Int {
            guard spent.available(at: time) > 0 else { return 5 }
            spent.spend(at: time)
            return 10
        }
        for change in timeline.changes { schedule.add(change.time, priority: priority(at: change.time), score: change.score) }
        schedule.end(timeline, priority: priority(at: timeline.gameEnd ?? timeline.end))
        return schedule.pushes
    }

    /// The clairvoyant bound's wrong share: priority 5 on every change (wrong for
    /// min(delay, gap) after each), plus priority 10 on the K = budget × game hours gaps that
    /// gain the most.
    public static func clairvoyantBound(_ timeline: ScoreTimeline, budget: Int, priority5Delay: TimeInterval) -> (wrongShare: Double, priority10: Int) {
        guard timeline.duration > 0 else { return (0, 0) }
        var losses: [Double] = []
        for (i, change) in timeline.changes.enumerated() {
            let next = i + 1 < timeline.changes.count ? timeline.changes[i + 1].time : timeline.end
            losses.append(min(priority5Delay, max(0, next.timeIntervalSince(change.time))))
        }
        let k = Int((Double(budget) * timeline.duration / 3600).rounded(.down))
        losses.sort(by: >)
        let wrong = losses.dropFirst(k).reduce(0, +)
        return (wrong / timeline.duration, min(k, losses.count))
    }

    /// A baseline's pushes with strictly rising timestamps.
    struct Schedule {
        var pushes: [DeviceModel.Sent] = []
        var lastTimestamp = Int.min

        mutating func add(_ time: Date, priority: Int, score: FinalScore, source: Date? = nil, isEnd: Bool = false) {
            let timestamp = max(Int(time.timeIntervalSince1970.rounded(.down)), lastTimestamp + 1)
            lastTimestamp = timestamp
            pushes.append(DeviceModel.Sent(
                sentAt: time, priority: priority, timestamp: timestamp, score: score, sourceTime: source ?? time, isEnd: isEnd))
        }

        mutating func end(_ timeline: ScoreTimeline, priority: Int) {
            let time = timeline.gameEnd ?? timeline.end
            add(time, priority: priority, score: timeline.final, isEnd: true)
        }
    }
}

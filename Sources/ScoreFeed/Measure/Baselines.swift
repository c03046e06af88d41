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

extension Baselines {
    /// Priority 5 on every score change, and the final: free, and late by the priority-5 delay.
    public static func priority5EveryChange(_ timeline: ScoreTimeline) -> [DeviceModel.Sent] {
        var schedule = Schedule()
        for change in timeline.changes { schedule.add(change.time, priority: 5, score: change.score) }
        schedule.end(timeline, priority: 5)
        return schedule.pushes
    }

    /// The feed-information bound: the best a policy could do knowing at each moment only what
    /// the feed had said by then, with hindsight over when to spend. Every change goes at
    /// priority 5 at once (wrong for min(delay, gap) after it); each moment of a gap is valued
    /// by `values` (what a priority 10 then likely buys, from the moment's kind and the time left
    /// before the priority-5 push arrives), and the K = budget × game hours best offers get
    /// priority 10, scored by what they truly bought. A gap offers either its best moment (a
    /// timeout logged after the score) or its first (the score itself, which buys the most when
    /// spent): the better of the two allocations is the bound. Offers are taken best first while
    /// no rolling hour holds more than `budget` of them.
    public static func feedInformationBound(
        _ game: GameMoments, values: PushValues, budget: Int, priority5Delay delay: TimeInterval
    ) -> (wrongShare: Double, priority10: Int) {
        let duration = game.timeline.duration
        guard duration > 0 else { return (0, 0) }
        var lost = 0.0
        var best: [Offer] = []
        var first: [Offer] = []
        let moments = game.moments
        var i = moments.firstIndex { $0.changesScore } ?? moments.count
        while i < moments.count {
            let arrival = moments[i].time.addingTimeInterval(delay)
            lost += min(delay, moments[i].wait)
            var offer = Offer(expected: 0, bought: 0, time: moments[i].time)
            first.append(offer)
            var j = i
            repeat {
                let moment = moments[j]
                let left = arrival.timeIntervalSince(moment.time)
                if left > 0 {
                    let candidate = Offer(expected: values.value(moment.kind, within: left), bought: min(left, moment.wait), time: moment.time)
                    if j == i { first[first.count - 1] = candidate }
                    if candidate.expected > offer.expected { offer = candidate }
                }
                j += 1
            } while j < moments.count && !moments[j].changesScore
            best.append(offer)
            i = j
        }
        let a = spend(best, budget: budget), b = spend(first, budget: budget)
        let chosen = a.bought >= b.bought ? a : b
        return (max(0, lost - chosen.bought) / duration, chosen.count)
    }

    /// What a gap offers a priority 10: its expected and its true gain, and when.
    struct Offer {
        var expected: Double
        var bought: Double
        var time: Date
    }

    /// Takes `offers` best expected first while every rolling hour holds at most `budget`.
    static func spend(_ offers: [Offer], budget: Int) -> (bought: Double, count: Int) {
        var taken: [Date] = []
        var bought = 0.0
        for offer in offers.sorted(by: { $0.expected > $1.expected }) where offer.expected > 0 && budget > 0 {
            let t = offer.time
            let near = taken.filter { abs($0.timeIntervalSince(t)) < DeviceModel.hour }.sorted() 
            var fits = true
            // Every hour-long window holding t must keep room: check the windows that start at
            // t or at a taken time up to an hour before it.
            for start in [t] + near.filter({ $0 <= t }) {
                let count = near.filter { $0 >= start && $0.timeIntervalSince(start) < DeviceModel.hour }.count
                    + (t.timeIntervalSince(start) < DeviceModel.hour ? 1 : 0)
                if count > budget { fits = false; break }
            }
            if fits {
                taken.append(t)
                bought += offer.bought
            }
        }
        return (bought, taken.count)
    }
}

import Foundation
import ScoreFeedModel

extension Baselines {
    /// "Pushing only the newest state" at a join, then `then` from there. At the join (the first
    /// change of `joined`, see ``ScoreTimeline/joined(at:)``) the newest state alone goes at
    /// priority 10 with a priority-5 copy right behind it (shown at once where the device's hour
    /// has room, one priority-5 delay later where it does not); every later push is `then`'s
    /// (computed on `joined`), whose own push for the join's change, if any, the pair replaces.
    public static func newestAtJoin(_ joined: ScoreTimeline, then pushes: [DeviceModel.Sent]) -> [DeviceModel.Sent] {
        guard let join = joined.changes.first else { return pushes }
        var schedule = Schedule()
        schedule.add(join.time, priority: 10, score: join.score)
        schedule.add(join.time, priority: 5, score: join.score)
        for push in pushes where push.isEnd || push.sentAt > join.time {
            schedule.add(push.sentAt, priority: push.priority, score: push.score, source: push.sourceTime, isEnd: push.isEnd)
        }
        return schedule.pushes
    }

    /// The simple baselines of the freshness grid after a join, each behind ``newestAtJoin(_:then:)``:
    /// priority 10 on every change, priority 5 on every change, priority 10 while the rolling
    /// hour has room (the join's push counted in it) and priority 10 at a fixed interval from the
    /// join, the last two at `budget` an hour (what the engine's defaults assume: like the
    /// engine, a baseline does not know what an earlier run spent).
    public static func afterJoin(_ joined: ScoreTimeline, budget: Int) -> [(name: String, pushes: [DeviceModel.Sent])] {
        [
            ("p10 every change", everyChange(joined)),
            ("p5 every change", priority5EveryChange(joined)),
            ("p10 while the hour has room", rollingBudget(joined, budget: budget)),
            ("p10 fixed interval", fixedInterval(joined, budget: budget)),
        ].map { ($0.0, newestAtJoin(joined, then: $0.1)) }
    }
}

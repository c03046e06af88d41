import Foundation
import ScoreFeedModel

/// A game read as the policy reads it: every accepted event's moment (``Situation``) with its
/// feed time, and how long after it the next score came. What the value table is fit on and
/// what the feed-information bound spends on.
public struct GameMoments: Hashable, Sendable {
    /// One accepted event.
    public struct Moment: Hashable, Sendable {
        public var time: Date
        public var kind: Situation.Kind
        /// Whether the event changed the score.
        public var changesScore: Bool
        /// Seconds until the next score change after this event (until the window's end when
        /// none comes).
        public var wait: TimeInterval
    }

    public var moments: [Moment]
    public var timeline: ScoreTimeline
    /// Seconds of game clock played: 48 minutes and 5 per overtime.
    public var gameSeconds: Double

    /// Applies `events` through ``GameFold`` as ``ScoreTimeline`` does and reads each change.
    public init(events: [GameEvent]) {
        timeline = ScoreTimeline(events: events)
        var situation = Situation()
        var read: [Moment] = []
        var last: Date?
        var periods = 4
        GameFold.replay(events) { _, change in
            let time = max(change.event.time, last ?? change.event.time)
            last = time
            periods = max(periods, change.event.period)
            let kind = situation.observe(change.event, before: change.before, after: change.state)
            read.append(Moment(time: time, kind: kind, changesScore: change.changesScore, wait: 0))
        }
        var next = timeline.end
        for i in read.indices.reversed() {
            read[i].wait = max(0, next.timeIntervalSince(read[i].time))
            if read[i].changesScore { next = read[i].time }
        }
        moments = read
        gameSeconds = 2880 + Double(periods - 4) * 300
    }
}

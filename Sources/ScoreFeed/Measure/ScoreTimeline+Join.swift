import Foundation
import ScoreFeedModel

extension ScoreTimeline {
    /// The timeline a screen met in progress at `join` is measured on: from `join` to the same
    /// end, its first change the score at `join` (the present the join must bring: the screen
    /// still shows an older one, the earlier run's last or none), then the changes after it.
    public func joined(at join: Date) -> ScoreTimeline {
        let present = changes.last { $0.time <= join }?.score ?? FinalScore(home: 0, away: 0)
        return ScoreTimeline(
            changes: [Change(time: join, score: present)] + changes.filter { $0.time > join },
            start: join, end: max(end, join), gameEnd: gameEnd.map { max($0, join) })
    }
}

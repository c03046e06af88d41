import Foundation
import ScoreFeedModel

/// The true score over a game: every moment the score changed, from the events as folded.
public struct ScoreTimeline: Hashable, Sendable {
    /// One score change at feed time `time`.
    public struct Change: Hashable, Sendable {
        public var time: Date
        public var score: FinalScore

        public init(time: Date, score: FinalScore) {
            self.time = time
            self.score = score
        }
    }

    /// Score changes in time order (the first is the first basket, not 0-0).
    public var changes: [Change]
    /// First event of the game (the window's start).
    public var start: Date
    /// Last event of the game, normally the game end (the window's end).
    public var end: Date
    /// The game-end event's time, when the feed has one.
    public var gameEnd: Date?

    public init(changes: [Change], start: Date, end: Date, gameEnd: Date?) {
        self.changes = changes
        self.start = start
        self.end = end
        self.gameEnd = gameEnd
    }

    /// Applies `events` through ``GameFold`` (as the engine does: edits and the feed's running
    /// score included) and records each score change.
    public init(events: [GameEvent]) {
        var changes: [Change] = []
        var gameEnd: Date?
        var last: Date?
        GameFold.replay(events) { _, change in
            let time = max(change.event.time, last ?? change.event.time)
            last = time
            if change.changesScore {
                changes.append(Change(time: time, score: FinalScore(home: change.state.homeScore, away: change.state.awayScore)))
            }
            if case .gameEnd = change.event.kind { gameEnd = time }
        }
        let start = events.first?.time ?? Date(timeIntervalSince1970: 0)
        self.init(changes: changes, start: start, end: last ?? start, gameEnd: gameEnd)
    }

    /// The final score.
    public var final: FinalScore { changes.last?.score ?? FinalScore(home: 0, away: 0) }

    /// Length of the measured window, seconds.
    public var duration: TimeInterval { max(0, end.timeIntervalSince(start)) }
}

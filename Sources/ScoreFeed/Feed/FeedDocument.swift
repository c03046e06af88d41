import Foundation
import ScoreFeedModel

/// A whole game read from a file: who plays, the events that decoded, and those that did not.
public struct FeedDocument: Sendable {
    public var attributes: GameAttributes
    /// Decoded events in feed order.
    public var events: [GameEvent]
    /// For each of `events`, its 0-based position in the file's event list (for messages).
    public var positions: [Int]
    /// Events that could not be decoded, each with where and why.
    public var rejected: [ScoreFeedError]
    /// The final score the source states, when it states one; replays are checked against it.
    public var finalScore: FinalScore?
    /// Scheduled start, when the source gives one.
    public var scheduledStart: Date?
    /// The file it was read from, for messages.
    public var file: String?
    /// Where the fold disagreed with the feed's own running score (feeds that carry one).
    public var discrepancies = ScoreDiscrepancies()
    /// Things worth knowing that are not errors (an action type ScoreFeed does not model, …).
    public var warnings: [ScoreFeedError] = []
    /// The format the file was written in.
    public var format: FeedFormat = .fixture
    /// How many events (fixture) or actions (NBA feeds) the file holds, decodable or not; `nil`
    /// when the document was not read from a file. Corrections and a game end that ScoreFeed
    /// adds are not counted.
    public var actionCount: Int?

    public init(
        attributes: GameAttributes, events: [GameEvent], positions: [Int]? = nil,
        rejected: [ScoreFeedError] = [], finalScore: FinalScore? = nil, scheduledStart: Date? = nil,
        file: String? = nil
    ) {
        self.attributes = attributes
        self.events = events
        self.positions = positions ?? Array(events.indices)
        self.rejected = rejected
        self.finalScore = finalScore
        self.scheduledStart = scheduledStart
        self.file = file
    }
}

/// A final (or any) score, home and away.
public struct FinalScore: Codable, Hashable, Sendable, CustomStringConvertible {
    public var home: Int
    public var away: Int

    public init(home: Int, away: Int) {
        self.home = home
        self.away = away
    }

    public var description: String { "\(away)-\(home) (away-home)" }
}

/// How often the fold's score disagreed with the feed's running score; the feed wins each time
/// (a correction event is inserted).
public struct ScoreDiscrepancies: Hashable, Sendable {
    public var count = 0
    /// The first disagreement, for the report.
    public var first: ScoreFeedError?

    public init() {}
}

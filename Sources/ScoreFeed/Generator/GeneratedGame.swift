import Foundation
import ScoreFeedModel

/// A whole game made by ``GameGenerator``: the teams, every feed event, and the final score.
///
/// `finalScore` is what folding `events` with ``Scoreboard`` gives, so a generated game can be
/// written as a fixture whose stated final checks the fold end to end.
public struct GeneratedGame: Hashable, Sendable {
    public var attributes: GameAttributes
    /// Feed events in order: sequence numbers rise (with gaps), times never go back.
    public var events: [GameEvent]
    public var finalScore: FinalScore
    /// When the game was scheduled to tip off; the first event comes a few minutes later.
    public var scheduledStart: Date

    public init(attributes: GameAttributes, events: [GameEvent], finalScore: FinalScore, scheduledStart: Date) {
        self.attributes = attributes
        self.events = events
        self.finalScore = finalScore
        self.scheduledStart = scheduledStart
    }

    /// The game in the fixture format (`Fixtures/README.md`).
    public func fixtureData() -> Data {
        FixtureFormat.encode(
            attributes: attributes, events: events, finalScore: finalScore, scheduledStart: scheduledStart)
    }

    /// The game as a ``FeedDocument``, to replay or measure without writing it out.
    public var document: FeedDocument {
        FeedDocument(attributes: attributes, events: events, finalScore: finalScore, scheduledStart: scheduledStart)
    }

    /// The score after regulation (the last event of period 4), used to check overtime games.
    public var scoreAfterRegulation: FinalScore {
        var fold = GameFold()
        for (index, event) in events.enumerated() where event.period <= 4 { fold.apply(event, index: index, now: event.time) }
        return FinalScore(home: fold.state.homeScore, away: fold.state.awayScore)
    }

    /// The last period played: 4 for regulation, 5 and up after overtime.
    public var periods: Int { events.last?.period ?? 0 }
}

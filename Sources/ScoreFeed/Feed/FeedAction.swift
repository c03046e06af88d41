import Foundation

/// One action of an NBA feed after mapping: the typed event, and the feed's own running score
/// after it when the feed states one there.
public struct FeedAction: Hashable, Sendable {
    public var event: GameEvent
    /// The feed's score after this action (liveData `scoreHome`/`scoreAway`, v2 `SCORE`).
    public var feedScore: FinalScore?
    /// 0-based position of the action in the file's action list, for messages.
    public var position: Int

    public init(event: GameEvent, feedScore: FinalScore? = nil, position: Int) {
        self.event = event
        self.feedScore = feedScore
        self.position = position
    }
}

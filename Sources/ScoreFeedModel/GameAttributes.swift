import Foundation

/// The static attributes of one game's Live Activity: who plays, fixed for the activity's life.
///
/// Shared verbatim with the iOS widget extension; on platforms with ActivityKit it conforms to
/// `ActivityAttributes` and its nested ``ContentState`` is the activity's dynamic state.
public struct GameAttributes: Codable, Hashable, Sendable {
    /// The feed's game identifier, for example the NBA's `0022400762`.
    public var gameId: String
    /// The league name shown on the lock screen, for example `NBA`.
    public var league: String
    public var home: Team
    public var away: Team

    public init(gameId: String, league: String = "NBA", home: Team, away: Team) {
        self.gameId = gameId
        self.league = league
        self.home = home
        self.away = away
    }

    /// The team playing on `side`.
    public func team(_ side: TeamSide) -> Team {
        side == .home ? home : away
    }
}

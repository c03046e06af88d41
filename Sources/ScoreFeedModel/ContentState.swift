import Foundation

extension GameAttributes {
    /// The dynamic state of a game's Live Activity: what the lock screen and Dynamic Island show.
    ///
    /// Its JSON is the `content-state` of every push and is decoded on the device with a default
    /// `JSONDecoder`: property names are the keys and dates are seconds since 2001-01-01.
    public struct ContentState: Codable, Hashable, Sendable {
        public var homeScore: Int
        public var awayScore: Int
        /// 1–4 for the quarters, 5 and up for overtimes.
        public var period: Int
        public var phase: GamePhase
        public var clock: GameClock
        /// The team with the ball, when known.
        public var possession: TeamSide?
        /// Team fouls in the current period.
        public var homeFouls: Int
        public var awayFouls: Int
        /// Whether the team's opponents shoot free throws on its next common foul (the penalty).
        public var homeInBonus: Bool
        public var awayInBonus: Bool
        public var homeTimeouts: Int
        public var awayTimeouts: Int
        /// Short text of the last scoring play, for example `D. Fox 3PT jumper`.
        public var lastPlay: String?
        /// Which team scored last, so the widget can highlight it.
        public var lastScorer: TeamSide?

        public init(
            homeScore: Int = 0,
            awayScore: Int = 0,
            period: Int = 1,
            phase: GamePhase = .pregame,
            clock: GameClock = .stopped(seconds: 720),
            possession: TeamSide? = nil,
            homeFouls: Int = 0,
            awayFouls: Int = 0,
            homeInBonus: Bool = false,
            awayInBonus: Bool = false,
            homeTimeouts: Int = 7,
            awayTimeouts: Int = 7,
            lastPlay: String? = nil,
            lastScorer: TeamSide? = nil
        ) {
            self.homeScore = homeScore
            self.awayScore = awayScore
            self.period = period
            self.phase = phase
            self.clock = clock
            self.possession = possession
            self.homeFouls = homeFouls
            self.awayFouls = awayFouls
            self.homeInBonus = homeInBonus
            self.awayInBonus = awayInBonus
            self.homeTimeouts = homeTimeouts
            self.awayTimeouts = awayTimeouts
            self.lastPlay = lastPlay
            self.lastScorer = lastScorer
        }
    }
}

/// The dynamic state of a game's Live Activity.
public typealias GameState = GameAttributes.ContentState

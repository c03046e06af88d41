import Foundation
import ScoreFeedModel

/// Makes realistic, complete NBA games from a seed: every event a real play-by-play feed would
/// carry, with believable timing, so replays, benchmarks and tests can use as many games as they
/// like without real data.
///
/// The same seed and options always give the same game, on every platform: all randomness
/// comes from ``SeededRandom``. Every event passes ``EventValidator``, and the game's
/// ``GeneratedGame/finalScore`` is what ``Scoreboard`` folds from its events.
///
/// ```swift
/// let game = GameGenerator(seed: 7, options: .init(requirements: [.overtime])).generate()
/// ```
public struct GameGenerator: Sendable {
    /// What to generate besides the seed.
    public struct Options: Hashable, Sendable {
        /// The home team; by default one of ``NBATeams/all`` chosen from the seed.
        public var home: Team?
        /// The away team; by default one of ``NBATeams/all`` other than the home team.
        public var away: Team?
        /// The feed's game id; by default `SF` and the seed padded to eight digits (`SF00000007`).
        public var gameId: String?
        /// The scheduled tip-off; by default an NBA evening in 2025 chosen from the seed.
        public var scheduledStart: Date?
        /// Properties the game must have; see ``Requirement``.
        public var requirements: Set<Requirement>

        public init(
            home: Team? = nil, away: Team? = nil, gameId: String? = nil, scheduledStart: Date? = nil,
            requirements: Set<Requirement> = []
        ) {
            self.home = home
            self.away = away
            self.gameId = gameId
            self.scheduledStart = scheduledStart
            self.requirements = requirements
        }
    }

    /// A property a generated game can be forced to have, for fixtures and tests of rare paths.
    ///
    /// Overtime and one-point games are found by simulating games from seeds derived from the
    /// seed, and for each game that is close with two minutes left, up to 48 different last two
    /// minutes, until one qualifies (a handful of games at most). A score correction is planted
    /// in the first game.
    public enum Requirement: String, Hashable, Sendable, CaseIterable {
        /// Tied after the fourth quarter, so at least one 5:00 overtime is played.
        case overtime
        /// Decided by exactly one point.
        case onePointMargin
        /// Contains a `correction` event changing a team's score after a review.
        case scoreCorrection

        /// Whether `game` has this property.
        public func isSatisfied(by game: GeneratedGame) -> Bool {
            switch self {
            case .overtime:
                // The fold of the whole game only for a game that went past regulation.
                guard game.periods >= 5 else { return false }
                let regulation = game.scoreAfterRegulation
                return regulation.home == regulation.away
            case .onePointMargin:
                return abs(game.finalScore.home - game.finalScore.away) == 1
            case .scoreCorrection:
                return game.events.contains { if case .correction = $0.kind { true } else { false } }
            }
        }
    }

    /// The seed that names the game.
    public let seed: UInt64
    public let options: Options

    public init(seed: UInt64, options: Options = .init()) {
        self.seed = seed
        self.options = options
    }

    /// Simulates the game. Deterministic: the same generator always returns the same game.
    public func generate() -> GeneratedGame {
        var setup = SeededRandom(seed: Self.derive(seed, salt: 1))
        let (home, away) = teams(&setup)
        let scheduledStart = options.scheduledStart ?? Self.defaultStart(&setup)
        let attributes = GameAttributes(gameId: options.gameId ?? Self.defaultGameId(seed), home: home, away: away)
        let homeRoster = NBATeams.roster(for: home)
        let awayRoster = NBATeams.roster(for: away, avoiding: homeRoster)
        let tipOff = scheduledStart.addingTimeInterval(Double(setup.int(in: 7 * 60...12 * 60)))
        let requirements = options.requirements
        let needsEnding = requirements.contains(.overtime) || requirements.contains(.onePointMargin)
        func finish(_ simulation: GameSimulation) -> GeneratedGame {
            GeneratedGame(
                attributes: attributes, events: simulation.events,
                finalScore: FinalScore(home: simulation.score[0], away: simulation.score[1]),
                scheduledStart: scheduledStart)
        }
        var attempt: UInt64 = 0
        while true {
            var simulation = GameSimulation(
                rng: SeededRandom(seed: Self.derive(seed, salt: 1000 &+ attempt)),
                names: [homeRoster, awayRoster], teamNames: [home.name, away.name],
                tipOff: tipOff, forceCorrection: requirements.contains(.scoreCorrection))
            simulation.playToCrunchTime()
            // A close game two minutes from the end: try several endings of this very game
            // before simulating another one.
            let endings = needsEnding && abs(simulation.score[0] - simulation.score[1]) <= 10 ? Self.endingsPerGame : 1
            for ending in 0..<endings {
                var branch = simulation
                if ending > 0 { branch.rng = SeededRandom(seed: Self.derive(seed, salt: 1 << 40 | attempt << 8 | UInt64(ending))) }
                branch.play()
                let game = finish(branch)
                if requirements.allSatisfy({ $0.isSatisfied(by: game) }) { return game }
            }
            attempt &+= 1
        }
    }

    /// How many endings a close game gets when a requirement is about the ending.
    static let endingsPerGame = 48

    /// The two teams: the options', or distinct teams drawn from the seed.
    private func teams(_ rng: inout SeededRandom) -> (Team, Team) {
        let all = NBATeams.all
        let first = rng.below(all.count)
        var second = rng.below(all.count - 1)
        if second >= first { second += 1 }
        let drawn = [all[first], all[second]]
        switch (options.home, options.away) {
        case let (home?, away?): return (home, away)
        case let (home?, nil): return (home, drawn.first { $0 != home }!)
        case let (nil, away?): return (drawn.first { $0 != away }!, away)
        case (nil, nil): return (drawn[0], drawn[1])
        }
    }

    /// `SF` and the seed, zero-padded to eight digits.
    static func defaultGameId(_ seed: UInt64) -> String {
        let digits = String(seed)
        return "SF" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// A 2025 regular-season evening (January to mid-April, late October to December), tipping off
    /// between 23:30 and 03:00 UTC (7:30–10 p.m. US Eastern, give or take daylight saving).
    static func defaultStart(_ rng: inout SeededRandom) -> Date {
        // Days since 2025-01-01 in the two stretches of the 2024–25 and 2025–26 seasons.
        let spring = 0...102            // Jan 1 – Apr 13
        let fall = 293...364            // Oct 21 – Dec 31
        let count = spring.count + fall.count
        let index = rng.below(count)
        let day = index < spring.count ? index : fall.lowerBound + index - spring.count
        let slots = [0, 30, 60, 90, 120, 150, 180, 210]  // minutes after 00:00 UTC of the next day
        let minutes = slots[rng.below(slots.count)] - 30 // 23:30 … 03:00 UTC
        let jan1_2025 = 1_735_689_600.0
        return Date(timeIntervalSince1970: jan1_2025 + Double(day + 1) * 86_400 + Double(minutes) * 60)
    }

    /// An independent seed for one purpose (`salt`) of `seed`.
    static func derive(_ seed: UInt64, salt: UInt64) -> UInt64 {
        var state = seed ^ (salt &* 0xD1B5_4A32_D192_ED03)
        return SeededRandom.splitMix(&state)
    }
}

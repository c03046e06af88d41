import Foundation
import Synchronization

/// The games simulated days draw from: generated ones (made once per seed and kept) and the real
/// recorded games given, which a day uses as they are.
public final class SimulatedGamePool: Sendable {
    public let real: [SimulatedGame]
    /// How many different generated games days draw from.
    public let generated: Int
    /// The generated games made so far, by seed, shared by every pool of the process: a game is
    /// a function of its seed alone, so the simulator's tests, each with a pool of its own, make
    /// each game once.
    private static let made = Mutex<[Int: SimulatedGame]>([:])

    public init(real: [SimulatedGame] = [], generated: Int = 300) {
        self.real = real
        self.generated = max(1, generated)
    }

    /// The real games in `directory`: each liveData `playbyplay_<id>.json` with its
    /// `boxscore_<id>.json` (play-by-play in other formats is left out: the CDN serves liveData).
    public static func realGames(in directory: URL) throws(ScoreFeedError) -> [SimulatedGame] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("playbyplay_") && $0.hasSuffix(".json") }.sorted()
        } catch {
            throw ScoreFeedError(.io, "cannot list the games: \(error.localizedDescription)", at: .init(file: directory.path))
        }
        var games: [SimulatedGame] = []
        for name in names {
            let file = directory.appendingPathComponent(name)
            let box = directory.appendingPathComponent(name.replacingOccurrences(of: "playbyplay_", with: "boxscore_"))
            let data = try Self.read(file)
            guard case .liveData = FeedShape.of(data) else { continue }
            let boxscore = FileManager.default.fileExists(atPath: box.path) ? try Self.read(box) : nil
            games.append(try SimulatedGame(playByPlay: data, boxscore: boxscore, file: file.path))
        }
        return games
    }

    /// A file's bytes, refused past 64 MiB (a real play-by-play is under 1 MB).
    private static func read(_ url: URL) throws(ScoreFeedError) -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= 64 << 20 else { throw ScoreFeedError(.invalidValue, "the file is \(size) bytes, over 64 MiB", at: .init(file: url.path)) }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ScoreFeedError(.io, "cannot read the file: \(error.localizedDescription)", at: .init(file: url.path))
        }
    }

    /// One generated game in this many has a player whose name fills a push (as a feed in a
    /// language written with accents could): its plays reach the payload's limit once escaped, so
    /// the size guard trims them, live, under the day's faults.
    static let longNameEvery = 20

    /// One generated game in this many states the feed's running score on its `serve` lines
    /// (``SimulatedGame/statesScores``).
    static let statingScoresEvery = 3

    /// `game` with the home and away sides swapped: the teams, each event's team, the final.
    static func mirrored(_ game: GeneratedGame) -> GeneratedGame {
        func swapped(_ score: FinalScore) -> FinalScore { FinalScore(home: score.away, away: score.home) }
        var game = game
        swap(&game.attributes.home, &game.attributes.away)
        game.finalScore = swapped(game.finalScore)
        for index in game.events.indices {
            game.events[index].team = game.events[index].team?.opponent
            game.events[index].feedScore = game.events[index].feedScore.map(swapped)
        }
        return game
    }

    /// The player whose name the generated game of `seed` makes long (``withALongName(_:player:)``),
    /// if any: the first named one, in one game in ``longNameEvery``; in one game in two of those
    /// with a decisive moment (a late lead change or tie, which an alert marks), the player who
    /// made its last one, so the alerted priority 10 is trimmed more than its priority-5 copy.
    static func longNamePlayer(_ game: GeneratedGame, seed: Int) -> String? {
        if seed % Self.longNameEvery == 0 { return game.events.lazy.compactMap(\.player).first }
        guard seed % 2 == 1, let last = SimulatedGame.decisive(game.events).last else { return nil }
        return game.events[last].player
    }

    /// `game` with `player`'s name made long enough that a play of theirs, its accents escaped
    /// (`\u00e9`, six bytes), is over every platform's payload limit.
    static func withALongName(_ game: GeneratedGame, player name: String) -> GeneratedGame {
        let long = name + " " + String(repeating: "é", count: 900)
        var game = game
        for index in game.events.indices where game.events[index].player == name { game.events[index].player = long }
        return game
    }

    /// The game a draw picks: a real one for one draw in three (when there are any), else a
    /// generated one.
    public func game(_ draw: UInt64) -> SimulatedGame {
        if !real.isEmpty && draw % 3 == 0 { return real[Int((draw / 3) % UInt64(real.count))] }
        let seed = Int((draw / 3) % UInt64(generated)) + 1
        if let game = Self.made.withLock({ $0[seed] }) { return game }
        var generated = GameGenerator(seed: UInt64(seed)).generate()
        let states = seed % Self.statingScoresEvery == 0
        // Half of those with the teams' sides swapped: the pool's 300 games correct only the away
        // team's score (8 corrections, all away, by chance: 39 and 32 over 1,500 games), and a
        // home score the feed lowers must be followed too.
        if states && seed % 2 == 0 { generated = Self.mirrored(generated) }
        let longName = Self.longNamePlayer(generated, seed: seed)
        if let longName { generated = Self.withALongName(generated, player: longName) }
        var game = SimulatedGame(generated: generated, statingScores: states)
        game.hasLongName = longName != nil
        Self.made.withLock { $0[seed] = game }
        return game
    }
}

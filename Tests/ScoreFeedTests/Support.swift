import Foundation
import ScoreFeed
import ScoreFeedModel

/// Builders shared by the tests.
enum Make {
    static let start = Date(timeIntervalSince1970: 1_739_240_000)

    static let attributes = GameAttributes(
        gameId: "TEST1",
        home: Team(id: "1610612742", tricode: "DAL", name: "Mavericks", city: "Dallas", primaryColor: "#00538C"),
        away: Team(id: "1610612758", tricode: "SAC", name: "Kings", city: "Sacramento", primaryColor: "#5A2D81"))

    /// An event at `at` seconds after ``start``.
    static func event(
        _ seq: Int, _ kind: GameEvent.Kind, team: TeamSide? = nil, period: Int = 1, clock: Double = 600,
        at: Double? = nil, player: String? = nil
    ) -> GameEvent {
        GameEvent(
            seq: seq, time: start.addingTimeInterval(at ?? Double(seq) * 10), period: period, clock: clock,
            kind: kind, team: team, player: player)
    }

    /// A state in the middle of a live first quarter.
    static var live: GameState {
        GameState(period: 1, phase: .live, clock: .stopped(seconds: 600))
    }

    /// Folds `events` from `state` and returns the final state.
    static func fold(_ events: [GameEvent], from state: GameState = live) -> GameState {
        var board = Scoreboard(state: state)
        for event in events { board.apply(event) }
        return board.state
    }

    /// The package's `Fixtures/` folder.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Every `.json` file under `Fixtures/`, relative paths.
    static func fixtureFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: fixtures.path)
        var files: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next.hasSuffix(".json") { files.append(next) }
        }
        return files.sorted()
    }
}

extension Make {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// The real NBA games beside the project (`../shared/nba-pbp`), when that folder is there.
enum RealGames {
    static let folder = Make.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/nba-pbp")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: folder.path) }

    /// The game files (play-by-play in any of the three formats), not the boxscores and summaries.
    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            name.hasSuffix(".json") && !name.hasPrefix("boxscore_") && !name.hasPrefix("stats_summary_")
        }.sorted().map { folder.appendingPathComponent($0).path }
    }()
}

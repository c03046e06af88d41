import Foundation
import Testing
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

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The package's `Fixtures/` folder.
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

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
    /// A record's `aps` dictionary, as a device reads the payload.
    static func aps(_ record: PushRecord) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: record.payload) as? [String: Any]
        return try #require(object?["aps"] as? [String: Any])
    }
}

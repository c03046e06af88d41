import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// Builders shared by the tests.
enum Make {
    static let start = Date(timeIntervalSince1970: 1_739_240_000)

    /// A value table whose waits for the next score are exponential with the given means (a
    /// kind left out waits 40 s): what a priority 10 buys is then mean × (1 − e^(−R/mean)). The
    /// rates are a game's: 50 score changes an hour, 20 pauses.
    static func values(means: [Situation.Kind: Double]) -> PushValues {
        var survival: [Situation.Kind: [Double]] = [:]
        for kind in Situation.Kind.allCases {
            let mean = means[kind] ?? 40
            survival[kind] = (0...Int(PushValues.horizon / PushValues.step)).map { exp(-Double($0) * PushValues.step / mean) }
        }
        return PushValues(
            survival: survival, moments: [.pause: 200, .substitution: 150, .commonFoul: 60, .play: 1000, .score: 400, .freeThrowsToCome: 80, .periodEndsSoon: 20],
            scoreMoments: [.score: 400, .freeThrowsToCome: 80, .periodEndsSoon: 20], hours: 10, secondsPerGameSecond: 2.9)
    }

    /// The game ends once, last: a single `end`, or a priority-10 `end` and right behind it its
    /// priority-5 copy (same state, next timestamp), for a device whose budget dropped the first.
    static func expectOneFinal(_ records: [PushRecord], sourceLocation: SourceLocation = #_sourceLocation) {
        let ends = records.enumerated().filter { $0.element.event == .end }
        #expect(ends.last?.offset == records.count - 1, "the last record ends the activity", sourceLocation: sourceLocation)
        #expect(ends.count == 1 || ends.count == 2, sourceLocation: sourceLocation)
        if ends.count == 2 {
            let (first, copy) = (ends[0].element, ends[1].element)
            #expect(ends[0].offset == records.count - 2, sourceLocation: sourceLocation)
            #expect(first.priority == 10 && copy.priority == 5, sourceLocation: sourceLocation)
            // The same state, but for text the size guard trimmed: the first carries the final
            // alert, so its last play may have been cut shorter to leave the alert room.
            var shown = first.state, copied = copy.state
            if first.trimmed.contains("lastPlay") || copy.trimmed.contains("lastPlay") {
                shown.lastPlay = nil
                copied.lastPlay = nil
            }
            #expect(shown == copied && copy.timestamp == first.timestamp + 1, sourceLocation: sourceLocation)
        }
    }

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

    /// The package's root folder: the nearest folder above this file that holds `Package.swift`
    /// (so it stays right wherever the test folders move).
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
              folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

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

extension PushRenderer.Configuration {
    /// This configuration with channels that linger `seconds` after their game's end.
    func lingering(_ seconds: TimeInterval) -> Self {
        var configuration = self
        configuration.channelLinger = seconds
        return configuration
    }
}

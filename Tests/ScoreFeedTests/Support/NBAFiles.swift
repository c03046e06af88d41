import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// Where the real games are, which files they are, and what they say, read without ScoreFeed.
enum NBAFiles {
    static let folder = Make.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/nba-pbp")

    /// Whether the folder is there.
    static let present = FileManager.default.fileExists(atPath: folder.path)

    /// ``present``, said once when it is not (``Needs``).
    static var available: Bool {
        Needs.check(
            present,
            "../shared/nba-pbp (real NBA play-by-play) is not beside the package: the tests on real games skip, and those that add them to the fixtures run on the fixtures alone")
    }

    static let absentReason: Comment = "../shared/nba-pbp (real NBA play-by-play) is not beside the package"

    /// The liveData games of ``folder`` as the simulator serves them, read once for every test
    /// of the process (each read parses every play-by-play and boxscore again); `get()` throws
    /// what reading them threw.
    static let simulated = Result { () throws(ScoreFeedError) -> [SimulatedGame] in try SimulatedGamePool.realGames(in: folder) }

    /// The ten-digit game id in a file name.
    static func gameId(in name: String) -> String? {
        var run = ""
        for character in name + "." {
            if character.isNumber {
                run.append(character)
            } else {
                if run.count == 10 { return run }
                run = ""
            }
        }
        return nil
    }

    static func path(_ file: String) -> String {
        folder.appendingPathComponent(file).path
    }

    private static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The game files: everything but the companions.
    static let games = files.filter { !$0.hasPrefix("boxscore_") && !$0.hasPrefix("stats_summary_") }

    /// Boxscores and summaries, which are not games.
    static let companions = files.filter { $0.hasPrefix("boxscore_") || $0.hasPrefix("stats_summary_") }

    /// What a file says about itself: the score after each action that states one, in feed order
    /// (with the action's own time where the format has an exact one), and the final from the
    /// companion or page (else the last stated score).
    struct Oracle {
        var scores: [(seq: Int, time: Double?, score: FinalScore)]
        var final: FinalScore
    }

    /// The file does not have what the oracle expects.
    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }

    private static func need<T>(_ value: T?, _ what: String = "a value") throws -> T {
        guard let value else { throw Unexpected(description: "missing \(what)") }
        return value
    }

    static func oracle(_ file: String) throws -> Oracle {
        let root = try need(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path(file)))) as? [String: Any])
        var scores: [(seq: Int, time: Double?, score: FinalScore)] = []
        var final: FinalScore?
        if let sets = root["resultSets"] as? [[String: Any]] {
            let table = try need(sets.first { $0["name"] as? String == "PlayByPlay" })
            let headers = try need(table["headers"] as? [String])
            let rows = try need(table["rowSet"] as? [[Any]])
            let num = try need(headers.firstIndex(of: "EVENTNUM")), scoreColumn = try need(headers.firstIndex(of: "SCORE"))
            for row in rows {
                guard let text = row[scoreColumn] as? String else { continue }
                let parts = text.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces))! }
                scores.append((row[num] as! Int, nil, FinalScore(home: parts[1], away: parts[0])))
            }
            let id = try need(NBAFiles.gameId(in: file))
            let summary = try need(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: path("stats_summary_\(id).json")))) as? [String: Any])
            let summarySets = try need(summary["resultSets"] as? [[String: Any]])
            let game = try need(summarySets.first { $0["name"] as? String == "GameSummary" })
            let gameRow = try need((game["rowSet"] as? [[Any]])?.first)
            let gameHeaders = try need(game["headers"] as? [String])
            let homeId = try need(gameRow[try need(gameHeaders.firstIndex(of: "HOME_TEAM_ID"))] as? Int)
            let lines = try need(summarySets.first { $0["name"] as? String == "LineScore" })
            let lineHeaders = try need(lines["headers"] as? [String])
            var home = 0, away = 0
            for line in try need(lines["rowSet"] as? [[Any]]) {
                let team = line[try need(lineHeaders.firstIndex(of: "TEAM_ID"))] as? Int
                let points = try need(line[try need(lineHeaders.firstIndex(of: "PTS"))] as? Int)
                if team == homeId { home = points } else { away = points }
            }
            final = FinalScore(home: home, away: away)
        } else if let page = (root["props"] as? [String: Any])?["pageProps"] as? [String: Any] {
            let actions = try need((page["playByPlay"] as? [String: Any])?["actions"] as? [[String: Any]])
            for action in actions.sorted(by: { ($0["actionId"] as! Int) < ($1["actionId"] as! Int) }) {
                guard let home = Int(action["scoreHome"] as? String ?? ""), let away = Int(action["scoreAway"] as? String ?? "") else { continue }
                scores.append((action["actionId"] as! Int, nil, FinalScore(home: home, away: away)))
            }
            let game = try need(page["game"] as? [String: Any])
            let home = try need((game["homeTeam"] as? [String: Any])?["score"] as? Int)
            let away = try need((game["awayTeam"] as? [String: Any])?["score"] as? Int)
            final = FinalScore(home: home, away: away)
        } else {
            let game = try need(root["game"] as? [String: Any])
            let actions = try need(game["actions"] as? [[String: Any]])
            let ordered = actions.enumerated().sorted {
                let a = ($0.element["orderNumber"] as? Double) ?? 0, b = ($1.element["orderNumber"] as? Double) ?? 0
                return a != b ? a < b : $0.offset < $1.offset
            }.map(\.element)
            for action in ordered {
                guard let home = Int(action["scoreHome"] as? String ?? ""), let away = Int(action["scoreAway"] as? String ?? "") else { continue }
                scores.append((action["actionNumber"] as! Int, (action["timeActual"] as? String).flatMap(ISOTime.seconds), FinalScore(home: home, away: away)))
            }
            let id = try need(game["gameId"] as? String)
            if let box = try? Data(contentsOf: URL(fileURLWithPath: path("boxscore_\(id).json"))),
                let boxGame = (try JSONSerialization.jsonObject(with: box) as? [String: Any])?["game"] as? [String: Any]
            {
                let home = try need((boxGame["homeTeam"] as? [String: Any])?["score"] as? Int)
                let away = try need((boxGame["awayTeam"] as? [String: Any])?["score"] as? Int)
                final = FinalScore(home: home, away: away)
            } else {
                final = scores.last?.score
            }
        }
        return Oracle(scores: scores, final: try need(final))
    }

    /// Replays `document` on virtual time and returns its push records.
    static func replay(_ document: FeedDocument) async throws -> [PushRecord] {
        let sink = RecordingSink()
        _ = try await Replay().run(document, sink: sink)
        return await sink.records
    }

    /// DESIGN.md contract 4, on every record: one JSON object per line with the required keys,
    /// seq rising by one, strictly rising `aps.timestamp`, a payload of at most 4096 bytes whose
    /// content-state decodes into `GameState`, and the final last: one `end`, or a priority-10
    /// `end` and its priority-5 copy.
    static func expectContract(_ records: [PushRecord], file: String) throws {
        try #require(!records.isEmpty)
        #expect(records.map(\.seq) == Array(1...records.count))
        for (a, b) in zip(records, records.dropFirst()) {
            #expect(a.timestamp < b.timestamp, "\(file): aps.timestamp strictly increases (seq \(b.seq))")
        }
        Make.expectOneFinal(records)
        for record in records {
            let line = record.jsonLine()
            #expect(!line.contains(0x0A))
            #expect(record.payload.count <= 4096)
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            for key in ["activity", "game", "seq", "event", "priority", "sentAt", "sourceTime", "coalesced", "request", "payload", "diff"] {
                #expect(object[key] != nil, "\(file): seq \(record.seq) has no \(key)")
            }
            #expect(object["sourceTime"] is NSNumber, "\(file): seq \(record.seq) sourceTime is a number")
            #expect([5, 10].contains(object["priority"] as? Int))
            let request = try #require(object["request"] as? [String: Any])
            #expect(request["method"] as? String == "POST")
            let headers = try #require(request["headers"] as? [String: String])
            #expect(headers["apns-push-type"] == "liveactivity")
            #expect(headers["apns-priority"] == String(record.priority))
            #expect(headers["apns-expiration"] != nil && headers["apns-id"] != nil)
            let aps = try #require((object["payload"] as? [String: Any])?["aps"] as? [String: Any])
            #expect(aps["timestamp"] as? Int == record.timestamp)
            #expect(aps["event"] as? String == record.event.rawValue)
            let contentState = try JSONSerialization.data(withJSONObject: try #require(aps["content-state"]))
            #expect(try JSONDecoder().decode(GameState.self, from: contentState) == record.state)
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `Tests/Support/nba_live_server.py`: real games from `../shared/nba-pbp` served as the
/// NBA's live endpoints at accelerated time, with injectable faults.
final class LiveNBATestServer: Sendable {
    static let script = Make.packageRoot.appendingPathComponent("Tests/Support/nba_live_server.py")

    let port: Int
    private let process: Process

    /// - Parameter hostile: documents (`boxscore_<id>`, `playbyplay_<id>`) that always answer with
    ///   a hostile body: `huge`, `endless` or `gzip` (see the script's doc).
    init(
        games: [String], speed: Double, failRate: Double = 0, seed: Int = 1, slowSeconds: Double = 3,
        hostile: [String: String] = [:]
    ) throws {
        (process, port) = try TestServerProcess.start(
            Self.script,
            [
                "--folder", NBAFiles.folder.path, "--games", games.joined(separator: ","), "--speed", String(speed),
                "--fail-rate", String(failRate), "--seed", String(seed), "--slow-seconds", String(slowSeconds),
                "--hostile", hostile.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
            ],
            what: "the live NBA test server")
    }

    deinit {
        TestServerProcess.stop(process)
    }

    /// The hostile answers the server has begun so far (its `/control/stats`).
    func hostileAnswers() throws -> Int {
        let stats = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/control/stats")!)
        return (try JSONSerialization.jsonObject(with: stats) as? [String: Any])?["hostile"] as? Int ?? 0
    }

    /// `poll`'s options for this server's endpoints.
    var pollArguments: [String] {
        let base = "http://127.0.0.1:\(port)/static/json/liveData"
        return [
            "--url-template", "\(base)/playbyplay/playbyplay_{gameId}.json",
            "--boxscore-template", "\(base)/boxscore/boxscore_{gameId}.json",
        ]
    }
}

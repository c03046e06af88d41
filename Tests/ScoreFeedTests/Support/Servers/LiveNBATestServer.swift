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

    /// - Parameters:
    ///   - hostile: documents (`boxscore_<id>`, `playbyplay_<id>`) that always answer with a
    ///     hostile body: `huge`, `endless` or `gzip` (see the script's doc).
    ///   - joinAt: each game's clock starts at this fraction of its span (first action 0, last 1)
    ///     instead of a minute before its first action: a game met in progress.
    ///   - holdAt: each game's clock stops at this fraction of its span and stays there (the same
    ///     documents, 304s; live on the boxscore and scoreboard unless 1).
    ///   - outage: while a game's clock lies in [from, to) of its span, its play-by-play and
    ///     boxscore answer 503 with `Retry-After: 1`; its clock runs on.
    ///   - postponed: games today's scoreboard lists as postponed (`gameStatus` 1, "PPD"); their
    ///     play-by-play and boxscore answer 404, as the CDN does for a game that never starts.
    ///   - hold: games whose clock stops at a fraction of their span (silent from there, live on
    ///     the boxscore and scoreboard) while the others go on.
    ///   - step: each game's clock moves this fraction of its span per play-by-play request (not
    ///     with real time), and every copy states its moment in `meta.time`.
    ///   - stale: a stale CDN edge: every `every`-th request of each document is answered with a
    ///     copy `lag` (a fraction of the span, or a range) older than the newest served.
    init(
        games: [String], speed: Double, failRate: Double = 0, seed: Int = 1, slowSeconds: Double = 3,
        hostile: [String: String] = [:], joinAt: Double? = nil, holdAt: Double? = nil,
        outage: (from: Double, to: Double)? = nil, postponed: [String] = [], hold: [String: Double] = [:],
        step: Double? = nil, stale: [(every: Int, lag: String)] = []
    ) throws {
        var arguments = [
            "--folder", NBAFiles.folder.path, "--games", games.joined(separator: ","), "--speed", String(speed),
            "--fail-rate", String(failRate), "--seed", String(seed), "--slow-seconds", String(slowSeconds),
            "--hostile", hostile.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
        ]
        if let joinAt { arguments += ["--join-at", String(joinAt)] }
        if let holdAt { arguments += ["--hold-at", String(holdAt)] }
        if let outage { arguments += ["--outage", "\(outage.from):\(outage.to)"] }
        if !postponed.isEmpty { arguments += ["--postponed", postponed.joined(separator: ",")] }
        for (game, fraction) in hold.sorted(by: { $0.key < $1.key }) { arguments += ["--hold", "\(game):\(fraction)"] }
        if let step { arguments += ["--step", String(step)] }
        for edge in stale { arguments += ["--stale", "\(edge.every):\(edge.lag)"] }
        (process, port) = try TestServerProcess.start(Self.script, arguments, what: "the live NBA test server")
    }

    deinit {
        TestServerProcess.stop(process)
    }

    /// Returns once the server has begun a hostile answer (its `/control/wait-hostile`: one
    /// request the server answers then, or after 45 s); the hostile answers begun so far.
    func waitForHostileAnswer() throws -> Int {
        let answer = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/control/wait-hostile")!)
        return (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["hostile"] as? Int ?? 0
    }

    /// The server's `/control/stats`: counters, and per game (`"games"`) its virtual time, the
    /// feed's score now (`scoreHome`, `scoreAway`), `held`, `inOutage`, `outageEndsAt`, ….
    func stats() throws -> [String: Any] {
        let stats = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/control/stats")!)
        return try JSONSerialization.jsonObject(with: stats) as? [String: Any] ?? [:]
    }

    /// One game's part of ``stats()``.
    func stats(of game: String) throws -> [String: Any] {
        try (stats()["games"] as? [String: Any])?[game] as? [String: Any] ?? [:]
    }

    /// `poll --today`'s scoreboard option for this server.
    var scoreboardArguments: [String] {
        ["--today", "--scoreboard-url", "http://127.0.0.1:\(port)/static/json/liveData/scoreboard/todaysScoreboard_00.json"]
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

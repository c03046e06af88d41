import Foundation
import Testing
import ScoreFeed

/// Issue 32's smoke test of `poll --today`, through the built executable on the system clock,
/// in token mode with push-to-start: a day of real games from `../shared/nba-pbp` served by the
/// live test server, today's scoreboard listing one game played to its end, one whose feed goes
/// silent at 68 % while its boxscore says live, and one postponed ("PPD"; its play-by-play and
/// boxscore answer 404). `poll --today` finishes the day by itself with status 0; the played game
/// ends with its final, the silent one with an `end` in phase `suspended` and the feed's score
/// where it went silent, the postponed one with nothing (it never started here), and stderr says
/// each. The same days in both modes, with kill -9 while a game is given up, a restart and the
/// game coming back, run in process on virtual time: `LiveDayScenarioTests`.
@Suite(
    "every game ends on the lock screen (issue 32)", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
    .enabled(if: Python3.available, Python3.absentReason))
struct EveryGameEndsTests {
    typealias Mode = PollLiveTests.Mode

    static var played: String { JoinTests.games[0] }
    static var silent: String { JoinTests.games[1] }
    /// The game the NBA postponed on 2021-01-16 (not among the served games).
    static let postponed = "0022000194"
    static let silentAt = 0.68
    static let giveUpAfter = "10"

    static func server() throws -> LiveNBATestServer {
        try LiveNBATestServer(games: [played, silent], speed: 800, postponed: [postponed], hold: [silent: silentAt])
    }

    static func poll(_ server: LiveNBATestServer, _ mode: Mode, apns: APNsTestServer?, state: URL? = nil) -> [String] {
        ["poll"] + server.scoreboardArguments + server.pollArguments
            + ["--interval", "0.3", "--timeout", "5", "--clock", "system", "--give-up-after", giveUpAfter, "--bundle-id", "com.acme"]
            + (state.map { ["--state-dir", $0.path] } ?? [])
            + (apns.map {
                ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "0", "--webhook", $0.url.absoluteString,
                 "--delete-unknown-channels"]
            } ?? (mode.platform == .android ? mode.pollArguments : ["--start"]))
    }

    /// Runs `arguments` until the process exits by itself (killed after `bound` seconds: status 9).
    static func runToItsEnd(_ arguments: [String], bound: Double = 50) async throws -> JoinTests.Run {
        try await JoinTests.run(arguments, stop: .terminate, bound: bound) { _ in false }
    }

    /// The phase in a record's content-state.
    static func phase(_ push: JoinTests.Push) -> String? {
        RecordLine(push.line)?.phase
    }

    /// The feed's score of `game` now (the live server's).
    static func score(_ server: LiveNBATestServer, _ game: String) throws -> FinalScore? {
        JoinTests.score(try server.stats(of: game))
    }

    @Test(arguments: [Mode.token])
    func aDayWithASilentAndAPostponedGameFinishesByItself(_ mode: Mode) async throws {
        let server = try Self.server()
        let apns = try mode.server()
        let run = try await Self.runToItsEnd(Self.poll(server, mode, apns: apns))
        #expect(run.status == 0, "\(mode): poll --today exits by itself with status 0: \(run.stderr.suffix(600))")
        let played = run.pushes.filter { $0.game == Self.played }, silent = run.pushes.filter { $0.game == Self.silent }
        let final = try Self.score(server, Self.played), held = try Self.score(server, Self.silent)
        #expect(played.last?.event == "end" && played.last.flatMap(Self.phase) == "final" && played.last?.score == final,
                "\(mode): the played game ends with its final \(final.map { "\($0)" } ?? "?"): \(played.last?.line.prefix(300) ?? "no record")")
        #expect(silent.last?.event == "end" && silent.last.flatMap(Self.phase) == "suspended" && silent.last?.score == held,
                "\(mode): the silent game's last record is an end, suspended, at the feed's score \(held.map { "\($0)" } ?? "?"): \(silent.last?.line.prefix(300) ?? "no record")")
        #expect(!silent.contains { $0.event == "end" && Self.phase($0) == "final" }, "\(mode): no Final for the suspended game")
        let others = run.pushes.filter { $0.game == Self.postponed }
        #expect(others.allSatisfy { $0.event != "update" }, "\(mode): the postponed game gets no update")
        #expect(others.filter { $0.event == "start" }.count <= others.filter { $0.event == "end" && Self.phase($0) == "postponed" }.count,
                "\(mode): a start of the postponed game only with its end")
        #expect(run.stderr.contains("game \(Self.postponed)") && run.stderr.contains("postponed (today's scoreboard says \"PPD\")"),
                "\(mode): stderr says the game is postponed: \(run.stderr.suffix(600))")
        #expect(run.stderr.contains("game \(Self.silent): suspended (no new action for \(Self.giveUpAfter) s"), "\(mode): stderr says the game was given up")
        #expect(run.stderr.contains("poll: 1 final, 1 postponed (\(Self.postponed)), 1 suspended (\(Self.silent))"),
                "\(mode): the day's summary names the postponed and suspended games: \(run.stderr.suffix(400))")
        if let apns {
            let state = try await apns.state()
            #expect(state.open.isEmpty, "broadcast: no channel left open: \(state.open)")
            #expect(state.createsByGame[Self.postponed] == nil, "broadcast: no channel made for the postponed game")
            #expect(state.createsByGame[Self.silent] == 1, "broadcast: the suspended game had one channel, deleted")
        }
        print("every game ends: \(mode): played \(played.count) records, silent \(silent.count) (last: \(silent.last?.event ?? "-") \(silent.last.flatMap(Self.phase) ?? "-")), postponed \(others.count)")
    }
}

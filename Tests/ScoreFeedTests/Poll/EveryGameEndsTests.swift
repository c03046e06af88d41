import Foundation
import Testing
import ScoreFeed

/// Issue 32 end to end, through the built executable on the system clock, in token mode (with
/// push-to-start) and broadcast mode (channels ScoreFeed makes behind the APNs test server): a day
/// of real games from `../shared/nba-pbp` served by the live test server, today's scoreboard
/// listing one game played to its end, one whose feed goes silent at 68 % while its boxscore says
/// live, and one postponed ("PPD"; its play-by-play and boxscore answer 404). `poll --today`
/// finishes the day by itself with status 0; the played game ends with its final, the silent one
/// with an `end` in phase `suspended` and the feed's score where it went silent, the postponed one
/// with nothing (it never started here); no channel is left open. Then the same with a state dir
/// and a kill -9 once the silent game's `end` is out, a restart, and the game coming back.
@Suite(
    "every game ends on the lock screen (issue 32)", .serialized, .timeLimit(.minutes(8)),
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
    static let giveUpAfter = "20"

    static func server(joinAt: Double? = nil, holdSilent: Bool = true) throws -> LiveNBATestServer {
        try LiveNBATestServer(
            games: [played, silent], speed: 400, joinAt: joinAt, postponed: [postponed], hold: holdSilent ? [silent: silentAt] : [:])
    }

    static func poll(_ server: LiveNBATestServer, _ mode: Mode, apns: APNsTestServer?, state: URL? = nil) -> [String] {
        ["poll"] + server.scoreboardArguments + server.pollArguments
            + ["--interval", "0.3", "--timeout", "5", "--clock", "system", "--give-up-after", giveUpAfter, "--bundle-id", "com.acme"]
            + (state.map { ["--state-dir", $0.path] } ?? [])
            + (apns.map {
                ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "0", "--webhook", $0.url.absoluteString,
                 "--delete-unknown-channels"]
            } ?? ["--start"])
    }

    /// Runs `arguments` until the process exits by itself (killed after `bound` seconds: status 9).
    static func runToItsEnd(_ arguments: [String], bound: Double = 150) async throws -> JoinTests.Run {
        try await JoinTests.run(arguments, stop: .terminate, bound: bound) { _ in false }
    }

    /// The phase in a record's content-state.
    static func phase(_ push: JoinTests.Push) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(push.line.utf8)) as? [String: Any]
        let aps = (object?["payload"] as? [String: Any])?["aps"] as? [String: Any]
        return (aps?["content-state"] as? [String: Any])?["phase"] as? String
    }

    /// The feed's score of `game` now (the live server's).
    static func score(_ server: LiveNBATestServer, _ game: String) throws -> FinalScore? {
        JoinTests.score(try server.stats(of: game))
    }

    @Test(arguments: Mode.allCases)
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

    @Test(arguments: Mode.allCases)
    func aKillWhileAGameIsGivenUpThenItsComeback(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let apns = try mode.server()
        let server = try Self.server()
        // 1. kill -9 as soon as the silent game's end is out.
        let first = try await JoinTests.run(Self.poll(server, mode, apns: apns, state: state), stop: .kill, bound: 150) { pushes in
            pushes.contains { $0.game == Self.silent && $0.event == "end" }
        }
        #expect(first.met, "\(mode): the silent game was given up before the bound: \(first.stderr.suffix(400))")
        // 2. The restart finishes the day: the silent game is not ended a second time.
        let second = try await Self.runToItsEnd(Self.poll(server, mode, apns: apns, state: state))
        #expect(second.status == 0, "\(mode): the restart exits by itself with status 0: \(second.stderr.suffix(600))")
        let ends = (first.pushes + second.pushes).filter { $0.game == Self.silent && $0.event == "end" }
        var bodies: [Int: String] = [:]
        for end in ends {
            if let body = bodies[end.seq] { #expect(body == end.body, "\(mode): seq \(end.seq) sent again with the same body") }
            bodies[end.seq] = end.body
        }
        #expect(bodies.count <= 2, "\(mode): one end (and its priority-5 copy) for the suspended game, not \(bodies.count)")
        #expect(ends.allSatisfy { Self.phase($0) == "suspended" }, "\(mode): its ends say suspended")
        #expect(!second.pushes.contains { $0.event == "update" || $0.event == "start" }, "\(mode): the restart sends no update")
        #expect(second.stderr.contains("it was suspended already"), "\(mode): the restart says the game was given up before: \(second.stderr.suffix(400))")
        // 3. The game comes back (completed, as a suspended game is another day): followed again to its final.
        let resumed = try Self.server(joinAt: 0.6, holdSilent: false)
        let third = try await Self.runToItsEnd(Self.poll(resumed, mode, apns: apns, state: state), bound: 200)
        #expect(third.status == 0, "\(mode): the day of the comeback exits by itself with status 0: \(third.stderr.suffix(600))")
        #expect(third.stderr.contains("game \(Self.silent): its feed is back after it was suspended"), "\(mode): stderr says the game is back")
        let back = third.pushes.filter { $0.game == Self.silent }
        let final = try #require(try Self.score(resumed, Self.silent))
        #expect(back.last?.event == "end" && back.last.flatMap(Self.phase) == "final" && back.last?.score == final,
                "\(mode): the game that came back ends with its final \(final): \(back.last?.line.prefix(300) ?? "no record")")
        if mode == .token {
            #expect(back.first?.event == "start", "token: a new activity starts for the game that came back (its first record: \(back.first?.event ?? "none"))")
        }
        if let seq = ends.map(\.seq).max() { #expect(back.allSatisfy { $0.seq > seq }, "\(mode): seq keeps rising after the suspended end") }
        #expect(!third.pushes.contains { $0.game == Self.played }, "\(mode): the game that ended with its final is not pushed again")
        if let apns {
            let channels = try await apns.state()
            #expect(channels.open.isEmpty, "broadcast: no channel left open: \(channels.open)")
            #expect(channels.createsByGame[Self.silent] == 2, "broadcast: the game that came back got a new channel (made \(channels.createsByGame[Self.silent] ?? 0))")
        }
        print("every game ends: \(mode): kill -9 after the give-up: \(first.pushes.count) + \(second.pushes.count) records; the comeback: \(back.count) records, last \(back.last?.event ?? "-") \(back.last.flatMap(Self.phase) ?? "-")")
    }
}

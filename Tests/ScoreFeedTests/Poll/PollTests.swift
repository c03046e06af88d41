import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pure parts of `poll`: when to poll next, and what one snapshot hands the engine.
@Suite("poll: schedule and snapshots")
struct PollCoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_739_240_000)

    @Test func answersKeepTheIntervalAndFailuresBackOffWithJitterAndRetryAfter() {
        var schedule = PollSchedule(interval: 3, backoff: Backoff(initial: 1, multiplier: 2, maximum: 60, jitter: 0.5))
        #expect(schedule.next(after: .fresh, now: Self.t0, random: 0.9) == Self.t0.addingTimeInterval(3))
        #expect(schedule.next(after: .unchanged, now: Self.t0, random: 0.9) == Self.t0.addingTimeInterval(3))
        // Failures: never sooner than the interval; then 4, 8, 16 s before jitter (random 0: none).
        let waits = (1...5).map { _ in schedule.next(after: .failed(retryAfter: nil), now: Self.t0, random: 0).timeIntervalSince(Self.t0) }
        #expect(waits == [3, 3, 4, 8, 16])
        #expect(schedule.failures == 5)
        // Jitter takes up to half off; a Retry-After longer than that wins.
        #expect(schedule.next(after: .failed(retryAfter: nil), now: Self.t0, random: 1).timeIntervalSince(Self.t0) == 16)
        #expect(schedule.next(after: .failed(retryAfter: 90), now: Self.t0, random: 0).timeIntervalSince(Self.t0) == 90)
        // One good answer and the interval is back.
        #expect(schedule.next(after: .fresh, now: Self.t0, random: 0) == Self.t0.addingTimeInterval(3))
        #expect(schedule.failures == 0)
        // A game not published yet (a pregame 404) is asked again at the interval, and undoes no
        // backoff: the failure after it waits as the one before it would have.
        _ = (1...4).map { _ in schedule.next(after: .failed(retryAfter: nil), now: Self.t0, random: 0) }
        #expect(schedule.next(after: .notYetPublished, now: Self.t0, random: 0) == Self.t0.addingTimeInterval(3))
        #expect(schedule.failures == 4)
        #expect(schedule.next(after: .failed(retryAfter: nil), now: Self.t0, random: 0).timeIntervalSince(Self.t0) == 16)
    }

    /// The longest the next request can wait, asked before it is scheduled: what a fresh
    /// instance's wait for a fresh copy must outlast. It is never shorter than the wait `next`
    /// then picks, at any jitter.
    @Test(arguments: [
        ([], PollSchedule.Outcome.fresh, 30.0),
        ([], .unchanged, 30),
        ([], .notYetPublished, 30),
        ([], .failed(retryAfter: nil), 30),
        ([], .failed(retryAfter: 45), 45),
        ([], .failed(retryAfter: 900), 600),
        (Array(repeating: PollSchedule.Outcome.failed(retryAfter: nil), count: 6), .failed(retryAfter: nil), 60),
        (Array(repeating: PollSchedule.Outcome.failed(retryAfter: nil), count: 5), .failed(retryAfter: 10), 32),
    ])
    func theLongestWaitBoundsTheNextRequest(before: [PollSchedule.Outcome], outcome: PollSchedule.Outcome, longest: TimeInterval) {
        var schedule = PollSchedule(interval: 30)
        for earlier in before { _ = schedule.next(after: earlier, now: Self.t0, random: 0.5) }
        #expect(schedule.longestWait(after: outcome) == longest)
        for random in [0.0, 0.5, 0.99] {
            var copy = schedule
            #expect(copy.next(after: outcome, now: Self.t0, random: random).timeIntervalSince(Self.t0) <= longest)
        }
    }

    /// A failed request: whether it is said, and how the next request waits. Before the game is
    /// known, a 404 is asked again at the interval, unsaid; a 403 (a block) and a `Retry-After`
    /// are backed off from, unsaid; once the game is known every failure is said and backed off.
    @Test(arguments: [
        ("HTTP 404 Not Found", nil, false, PollSchedule.Outcome.notYetPublished, false),
        ("HTTP 404 (refused)", nil, false, .notYetPublished, false),
        ("HTTP 404 (refused); retry after 30.0 s", 30, false, .failed(retryAfter: 30), false),
        ("HTTP 403 (refused)", nil, false, .failed(retryAfter: nil), false),
        ("HTTP 503 (the server failed)", nil, false, .failed(retryAfter: nil), true),
        ("no answer: timed out after 10 s", nil, false, .failed(retryAfter: nil), true),
        ("HTTP 404 (refused)", nil, true, .failed(retryAfter: nil), true),
        ("HTTP 403 (refused)", nil, true, .failed(retryAfter: nil), true),
        ("HTTP 4040 (refused)", nil, false, .failed(retryAfter: nil), true),
    ] as [(String, TimeInterval?, Bool, PollSchedule.Outcome, Bool)])
    func aFailureBeforeTheGameIsKnownIsTreatedByItsStatus(message: String, retryAfter: TimeInterval?, known: Bool, outcome: PollSchedule.Outcome, said: Bool) {
        let (got, told) = LivePoller.failure(ScoreFeedError(.io, message), retryAfter: retryAfter, gameKnown: known)
        #expect(got == outcome && told == said)
    }

    @Test(arguments: [
        ("HTTP 404", 404), ("game 1: HTTP 503 (the server failed)", 503), ("HTTP 4040", nil), ("HTTP 40", nil), ("HTTP", nil),
        ("no answer", nil), ("HHTTP 429 (too many requests)", 429), ("", nil),
    ] as [(String, Int?)])
    func anErrorNamesItsHTTPStatus(message: String, status: Int?) {
        #expect(ScoreFeedError(.io, message).httpStatus == status)
    }

    /// A poll's snapshot comes back with where its game stands after, as `standing(of:)` says,
    /// read on the same trip to the engine: part of a game, then the rest with its end (held a
    /// few seconds for a decisive end, or not), in token and broadcast mode.
    @Test(arguments: [PushRenderer.Mode.token, .broadcastPerGame])
    func aSnapshotComesBackWithWhereItsGameStands(_ mode: PushRenderer.Mode) async throws {
        let game = GameGenerator(seed: 5).generate()
        let clock = SimulatedClock(try #require(game.events.first).time)
        let service = try GameService(
            options: .init(clock: .system, renderer: .init(mode: mode), channels: .init(manage: mode != .token), wallClock: clock),
            sink: RecordingSink(answeringChannels: true))
        await service.start(game.attributes)
        let id = game.attributes.gameId
        let events = game.events.enumerated().map { (event: $1, line: $0 + 1) }
        let half = events.count / 2
        let first = await service.receive(snapshot: Array(events[..<half]), score: nil, end: nil, game: id)
        #expect(first.problems.isEmpty)
        #expect(first.standing == (await service.standing(of: id)))
        #expect(first.standing.known && first.standing.ending == nil && first.standing.progress == half)
        let rest = await service.receive(snapshot: Array(events[half..<(events.count - 1)]), score: nil, end: events.last, game: id)
        #expect(rest.standing == (await service.standing(of: id)))
        #expect(rest.standing.progress == events.count)
        let unknown = await service.receive(snapshot: [], score: nil, end: nil, game: "not followed")
        #expect(!unknown.standing.known)
    }

    /// On feed time nothing after a game's end moves its clock. The last copy of a game corrects
    /// the feed's score at the end's own moment, which is worth a push, and the end comes within
    /// the least time between two pushes of it (`--min-interval`, 1 s in broadcast mode). The
    /// end still goes with that snapshot, at its own moment, and the game has ended. Before, it
    /// waited for a drain that a poll only runs once every game has ended: a `poll --clock feed`
    /// of a real game followed it for ever (session 81's hang; `poll --clock feed` stood in for
    /// replay in its tests). Both platforms, token and broadcast.
    @Test(arguments: RealFeedServeTests.Mode.withAndroidToken)
    func anEndHeldAfterAPushAtItsMomentGoesWithItsSnapshotOnFeedTime(_ mode: RealFeedServeTests.Mode) async throws {
        let game = GameGenerator(seed: 5).generate()
        let sink = mode.sink()
        let service = try mode.service(clock: .feed, sink: sink, minInterval: 1)
        await service.start(game.attributes)
        let id = game.attributes.gameId
        let events = game.events.enumerated().map { (event: $1, line: $0 + 1) }
        var end = try #require(events.last)
        try #require(end.event.kind == .gameEnd)
        let played = await service.receive(snapshot: Array(events.dropLast()), score: nil, end: nil, game: id)
        #expect(played.standing.ending == nil)
        let pushed = await sink.records.count
        // The last copy: the feed's score corrected (a basket the fold did not count) and the end,
        // both at one moment after the last action.
        let moment = try #require(events.dropLast().last).event.time.addingTimeInterval(20)
        end.event.time = moment
        let corrected = FinalScore(home: game.finalScore.home + 2, away: game.finalScore.away)
        let last = await service.receive(snapshot: [], score: (corrected, at: moment), end: end, game: id)
        #expect(last.problems.isEmpty)
        #expect(last.standing.ending == .final, "the game has ended with its snapshot")
        let records = await sink.records.dropFirst(pushed)
        #expect(records.contains { $0.event == .update && $0.state.homeScore == corrected.home }, "the correction was pushed")
        let ends = records.filter { $0.event == .end }
        // (On iOS a priority-10 end goes with its priority-5 copy.)
        #expect(ends.count == (mode.platform == .ios ? 2 : 1), "the end: \(ends.map(\.priority))")
        #expect(ends.allSatisfy { $0.state.homeScore == corrected.home && $0.state.awayScore == corrected.away })
        await service.shutDown()
        #expect(await sink.records.filter { $0.event == .end }.count == ends.count, "no end again at the shutdown")
    }

    static let url = "http://cdn.test/playbyplay_0022400762.json"

    @Test(arguments: [
        ("empty", Data()),
        ("cut", Data(#"{"meta":{"version":1},"game":{"gameId":"0022400762","actions":[{"actionNumber":2,"#.utf8)),
        ("garbled", Data(#"{"game": ]]garbage"#.utf8)),
        ("an error page", Data("<html><body>503 Service Unavailable</body></html>".utf8)),
        ("a boxscore", Data(#"{"meta":{},"game":{"gameId":"0022400762","gameStatus":2,"homeTeam":{"teamId":1,"score":3}}}"#.utf8)),
    ])
    func aBadBodyIsOneClearErrorAndNeverHalfAGame(_ name: String, _ body: Data) {
        #expect {
            _ = try LiveSnapshot.decode(playByPlay: body, url: Self.url, boxscore: nil, box: nil, homeTeamId: nil)
        } throws: { error in
            guard let error = error as? ScoreFeedError else { return false }
            return error.location.file == Self.url && !error.message.isEmpty
        }
    }

    /// A play-by-play an edge answers for the boxscore (the simulator's hostile answers found
    /// it: read as a scheduled boxscore, its newer `meta.time` made the next real boxscore look
    /// older, and it was refused) is an error, as any other document that is not a boxscore.
    @Test(arguments: [
        ("a play-by-play", Data(#"{"meta":{"time":"2025-01-03 21:39:57.000"},"game":{"gameId":"0022400762","actions":[]}}"#.utf8)),
        ("no game", Data(#"{"meta":{"time":"2025-01-03 21:39:57.000"}}"#.utf8)),
        ("an error page", Data("<html><body>502 Bad Gateway</body></html>".utf8)),
    ])
    func aBoxscoreThatIsNotOneIsOneClearError(_ name: String, _ body: Data) {
        #expect {
            _ = try LiveBoxscore.decode(body, url: "box")
        } throws: { error in
            guard let error = error as? ScoreFeedError else { return false }
            return error.location.file == "box" && !error.message.isEmpty
        }
        let real = Data(#"{"meta":{"time":"2025-01-03 21:39:56.000"},"game":{"gameId":"0022400762","gameStatus":2}}"#.utf8)
        #expect((try? LiveBoxscore.decode(real, url: "box"))?.status == .live)
    }

    /// The real game cut at a moment, as the live endpoint would have served it then.
    static func snapshot(_ file: String, actions count: Int?, final: Bool) throws -> (LiveSnapshot, Data) {
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file)))) as? [String: Any])
        var game = try #require(root["game"] as? [String: Any])
        let actions = try #require(game["actions"] as? [[String: Any]])
        if let count { game["actions"] = Array(actions.prefix(count)) }
        root["game"] = game
        let data = try JSONSerialization.data(withJSONObject: root)
        let boxData = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file.replacingOccurrences(of: "playbyplay", with: "boxscore"))))
        var box = try LiveBoxscore.decode(boxData, url: "box")
        if !final { box.status = .live }
        return (try LiveSnapshot.decode(playByPlay: data, url: Self.url, boxscore: boxData, box: box, homeTeamId: nil), data)
    }

    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func aSnapshotHandsEveryActionWithoutItsOldScoreThenTheScoreNowThenTheEndOnceFinal() throws {
        let (live, _) = try Self.snapshot("playbyplay_0022400762.json", actions: 300, final: false)
        #expect(live.events.count == 300)
        #expect(live.events.allSatisfy { $0.feedScore == nil }, "an inserted action's score is its own moment's")
        #expect(live.end == nil, "not over while the boxscore says live")
        #expect(live.score != nil)
        #expect(live.attributes.home.tricode == "DAL")

        let (over, _) = try Self.snapshot("playbyplay_0022400762.json", actions: nil, final: true)
        let end = try #require(over.end)
        #expect(over.score == FinalScore(home: 128, away: 129), "the boxscore's final")
        #expect(end.period == 5 && end.time >= (over.newest ?? end.time))
        #expect(!over.events.contains { if case .gameEnd = $0.kind { true } else { false } }, "the end goes last, apart")
    }

    /// Every snapshot of a game handed in turn, each whole, as a poll that restarts from nothing
    /// would: the engine keeps only what is new, and the pushes are replay's.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func wholeSnapshotsInTurnSendWhatReplaySends() async throws {
        let file = "playbyplay_0022400723.json"
        let replay = RecordingSink()
        _ = try await Replay().run(try FeedReader.read(path: NBAFiles.path(file)), sink: replay)
        let sink = RecordingSink()
        let service = try GameService(options: .init(clock: .feed), sink: sink)
        let total = try #require(try Self.snapshot(file, actions: nil, final: false).0.events.count)
        for cut in stride(from: 20, through: total + 40, by: 37) {
            let (live, _) = try Self.snapshot(file, actions: min(cut, total + 1), final: cut > total)
            if await !service.knows("0022400723") { await service.start(live.attributes) }
            for (i, event) in live.events.enumerated() { _ = await service.receive(event, game: "0022400723", line: i + 1) }
            if let score = live.score, let newest = live.newest { _ = await service.follow(score, game: "0022400723", at: newest) }
            if let end = live.end { _ = await service.receive(end, game: "0022400723", line: 0) }
        }
        await service.shutDown()
        let sent = await sink.records, expected = await replay.records
        #expect(sent.last?.event == .end)
        #expect(sent.map { $0.jsonLine() } == expected.map { $0.jsonLine() })
    }
}

@Suite(
    "poll: ending a game whatever the endpoints do", .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct PollEndingTests {
    static let pbp = URL(string: "http://cdn.test/playbyplay_0022400762.json")!
    static let box = URL(string: "http://cdn.test/boxscore_0022400762.json")!
    static let down = LiveFetcher.Answer.failed(ScoreFeedError(.io, "HTTP 503 (the server failed)"), retryAfter: nil)

    /// The whole game's play-by-play (with its end action), and its boxscore as live or final.
    static func documents() throws -> (pbp: Data, live: Data, final: Data) {
        let pbp = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path("playbyplay_0022400762.json")))
        let final = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path("boxscore_0022400762.json")))
        var root = try #require(try JSONSerialization.jsonObject(with: final) as? [String: Any])
        var game = try #require(root["game"] as? [String: Any])
        game["gameStatus"] = 2
        root["game"] = game
        return (pbp, try JSONSerialization.data(withJSONObject: root), final)
    }

    /// Polls `source` every 3 s of virtual time until the game ends (a day at most). `underWay`:
    /// the service has folded these events of the game before the poller starts (a game this
    /// instance already followed, so the poller waits for no fresh first copy).
    static func run(_ source: ScriptedSource, underWay: LiveSnapshot? = nil) async throws -> [PushRecord] {
        let sink = RecordingSink()
        let service = try GameService(options: .init(clock: .feed), sink: sink)
        if let underWay {
            await service.start(underWay.attributes)
            for (index, event) in underWay.events.enumerated() { _ = await service.receive(event, game: "0022400762", line: index + 1) }
        }
        let clock = SimulatedClock(Date(timeIntervalSince1970: 1_739_240_000))
        var poller = LivePoller(gameId: "0022400762", playByPlay: pbp, boxscore: box, interval: 3)
        poller.clock = clock
        poller.random = { 0.5 }
        let ending = try await OffPool.run { [poller] in
            SimulationExecutor.run(on: clock, until: clock.now.addingTimeInterval(86_400)) {
                await poller.run(service: service, fetcher: source) { _ in }
                await service.shutDown()
            }
        }
        guard case .finished = ending else {
            Issue.record("the poll did not end within a day of virtual time: \(ending)")
            return []
        }
        return await sink.records
    }

    /// The play-by-play `pbp` cut to its first `count` actions, as the endpoint served it then.
    static func firstActions(_ count: Int, of pbp: Data) throws -> Data {
        var root = try #require(try JSONSerialization.jsonObject(with: pbp) as? [String: Any])
        var game = try #require(root["game"] as? [String: Any])
        game["actions"] = Array(try #require(game["actions"] as? [[String: Any]]).prefix(count))
        root["game"] = game
        return try JSONSerialization.data(withJSONObject: root)
    }

    static func checkEnded(_ records: [PushRecord]) {
        #expect(records.last?.event == .end)
        #expect(records.last.map { [$0.state.awayScore, $0.state.homeScore] } == [129, 128])
    }

    @Test func theBoxscoreTurnsFinalWhileThePlayByPlayFailsThenStandsStill() async throws {
        let (pbp, live, final) = try Self.documents()
        // Poll 1: both live. Poll 2: the boxscore is final, the play-by-play fails. Then 304s.
        let source = ScriptedSource([
            Self.box: [.body(live), .body(final), .notModified],
            Self.pbp: [.body(pbp), Self.down, .notModified],
        ])
        Self.checkEnded(try await Self.run(source))
    }

    @Test func aFinalBoxscoreEndsTheGameOnItsScoreWhenThePlayByPlayCannotBeHad() async throws {
        let (pbp, live, final) = try Self.documents()
        let partial = try Self.firstActions(300, of: pbp)
        let source = ScriptedSource([Self.box: [.body(live), .body(final), .notModified], Self.pbp: [.body(partial), Self.down]])
        Self.checkEnded(try await Self.run(source))
        #expect(await source.requests[Self.pbp] ?? 0 >= 1 + LivePoller.boxscoreGiveUp, "a few tries for the last actions first")
    }

    @Test func aBoxscoreThatWentAwayLeavesTheEndToThePlayByPlay() async throws {
        let (pbp, live, _) = try Self.documents()
        let source = ScriptedSource([Self.box: [.body(live), Self.down], Self.pbp: [.body(pbp), .notModified]])
        Self.checkEnded(try await Self.run(source))
        #expect(await source.requests[Self.box] ?? 0 >= LivePoller.boxscoreGiveUp + 1)
    }

    /// The same for a game this instance already followed: the play-by-play's copy with the end
    /// action came while the boxscore said live, then only 304s; the boxscore's third failure in a
    /// row makes the play-by-play read its copy again without it, and the game ends on the next
    /// poll. Before (a mutation tried in session 61, which no test failed: the give-up not told),
    /// the end waited for a play-by-play copy that changed, here never; a poller new to the game
    /// reads its copy again anyway, waiting for a fresh one.
    @Test func aBoxscoreThatWentAwayLeavesTheEndToThePlayByPlayOfAGameUnderWay() async throws {
        let (pbp, live, _) = try Self.documents()
        let begun = try LiveSnapshot.decode(
            playByPlay: try Self.firstActions(200, of: pbp), url: Self.pbp.absoluteString, boxscore: live,
            box: try LiveBoxscore.decode(live, url: Self.box.absoluteString), homeTeamId: nil)
        let source = ScriptedSource([Self.box: [.body(live), Self.down], Self.pbp: [.body(pbp), .notModified]])
        Self.checkEnded(try await Self.run(source, underWay: begun))
        let asked = await source.requests[Self.pbp] ?? 0, boxes = await source.requests[Self.box] ?? 0
        #expect(asked <= boxes + 1, "the end on the play-by-play's next poll after the give-up: \(asked) polls, \(boxes) boxscores")
    }
}

/// `scorefeed poll` (the built binary) against the live test server serving real games.
@Suite(
    "poll: real games from a live server", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
    .enabled(if: Python3.available, Python3.absentReason))
struct PollLiveTests {
    static let games = ["0022400762", "0022400723", "0022000180"]
    /// The suite runs faster than the issue's 400× and 0.5 s (`SCOREFEED_POLL_SPEED`,
    /// `SCOREFEED_POLL_INTERVAL` set those; `Tests/LiveChecks/poll.sh` runs them): a game in
    /// about 5 s, each poll 400 s of it (some 25 actions) later than the one before. A poll's cost
    /// is its requests (URLSession's, about 3 ms of CPU each here), so the suite's CPU is the
    /// games' length over the speed and the interval.
    static let speed = ProcessInfo.processInfo.environment["SCOREFEED_POLL_SPEED"].flatMap(Double.init) ?? 2000
    static let interval = ProcessInfo.processInfo.environment["SCOREFEED_POLL_INTERVAL"] ?? "0.2"

    static func replay(_ game: String, platform: PushRenderer.Platform = .ios) async throws -> [PushRecord] {
        try await RealFeedServeTests.replay(
            FeedReader.read(path: NBAFiles.path("playbyplay_\(game).json")), mode: platform == .ios ? .token : .androidToken)
    }

    /// `poll --clock feed`'s arguments for the server: its games, or `--today` from its
    /// scoreboard; broadcast mode with `apns`.
    static func arguments(
        _ server: LiveNBATestServer, state: URL?, today: Bool = false, apns: APNsTestServer? = nil, timeout: String = "5",
        extra: [String] = []
    ) -> [String] {
        let which = today
            ? ["--today", "--scoreboard-url", "http://127.0.0.1:\(server.port)/static/json/liveData/scoreboard/todaysScoreboard_00.json"]
            : ["--games", games.joined(separator: ",")]
        return ["poll"] + which + ["--interval", interval, "--clock", "feed", "--timeout", timeout]
            + server.pollArguments + (state.map { ["--state-dir", $0.path] } ?? [])
            + (apns.map {
                ["--mode", "broadcast", "--bundle-id", "com.acme", "--channels", "manage", "--channel-linger", "0",
                 "--webhook", $0.url.absoluteString, "--delete-unknown-channels"]
            } ?? []) + extra
    }

    /// Runs `poll --clock feed` on the server (its games, or `--today` from its scoreboard);
    /// kills it with SIGKILL after `killAfter` records.
    static func poll(
        _ server: LiveNBATestServer, state: URL?, killAfter: Int? = nil, today: Bool = false, apns: APNsTestServer? = nil,
        timeout: String = "5", extra: [String] = []
    ) async throws -> (lines: [String], status: Int32, killed: Bool, stderr: String) {
        try await OffPool.run {
            try pollBlocking(server, state: state, killAfter: killAfter, today: today, apns: apns, timeout: timeout, extra: extra)
        }
    }

    /// ``poll(_:state:killAfter:today:apns:timeout:extra:)`` on the calling thread.
    static func pollBlocking(
        _ server: LiveNBATestServer, state: URL?, killAfter: Int?, today: Bool, apns: APNsTestServer?, timeout: String,
        extra: [String]
    ) throws -> (lines: [String], status: Int32, killed: Bool, stderr: String) {
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = arguments(server, state: state, today: today, apns: apns, timeout: timeout, extra: extra)
        let out = Pipe()
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("poll-stderr-\(UUID().uuidString)")
        try Data().write(to: errorFile)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = out
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try errorHandle.close()
        let (lines, killed) = ServeTests.readLines(of: process, from: out.fileHandleForReading, killAfter: killAfter)
        return (lines, process.terminationStatus, killed, String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    /// Every game ends with its end and replay's final; at least 90 % of replay's pushes; `seq`
    /// rising per game; one body per apns-id (on Android, per seq and timestamp). The records
    /// are the platform's of `mode`.
    static func check(_ lines: [String], mode: Mode = .token, allowRepeats: Bool = false, label: String = "") async throws {
        if mode == .both {
            // Each lane's lines as its platform's alone.
            let android = lines.filter { $0.hasPrefix(#"{"platform":"android""#) }
            #expect(!android.isEmpty && android.count < lines.count, "both platforms' records")
            try await check(lines.filter { !$0.hasPrefix(#"{"platform":"android""#) }, mode: .token, allowRepeats: allowRepeats, label: label + " (ios)")
            return try await check(android, mode: .androidToken, allowRepeats: allowRepeats, label: label + " (android)")
        }
        var bodies: [String: String] = [:]
        var lastSeq: [String: Int] = [:]
        var byGame: [String: [RecordLine]] = [:]
        for line in lines where !line.hasPrefix("{\"kind\":\"channel\"") {
            let record = try #require(RecordLine(line), "a push record: \(line.prefix(200))")
            #expect(record.isAndroid == (mode.platform == .android), "\(mode)'s records")
            if let body = bodies[record.id] { #expect(body == line, "one body per apns-id") }
            bodies[record.id] = line
            let game = record.game, seq = record.seq
            if let previous = lastSeq[game] {
                #expect(seq == previous + 1 || (allowRepeats && seq == previous), "seq of \(game): \(seq) after \(previous)")
            }
            lastSeq[game] = seq
            if seq > (byGame[game]?.last?.seq ?? 0) { byGame[game, default: []].append(record) }
        }
        for game in games {
            let expected = try await replay(game, platform: mode.platform)
            let mine = byGame[game] ?? []
            #expect(mine.count * 10 >= expected.count * 9, "\(game): \(mine.count) pushes, replay \(expected.count)")
            let last = try #require(mine.last, "\(game) sent nothing")
            #expect(last.event == "end")
            let final = try #require(expected.last?.state)
            #expect(last.score?.home == final.homeScore && last.score?.away == final.awayScore, "\(game)'s final")
            // A figure for Tests/LiveChecks/poll.sh, not an assertion.
            let same = Set(lines.filter { $0.contains("\"game\":\"\(game)\"") }) == Set(expected.map { String(decoding: $0.jsonLine(), as: UTF8.self) })
            print("poll figures: \(label) game \(game): \(mine.count) pushes, replay \(expected.count), records identical to replay's: \(same ? "yes" : "no"), last \(last.event)")
        }
    }

    /// Token mode, or broadcast mode with ScoreFeed managing each game's channel behind the APNs
    /// test server; and Android's two (a device token, each game's FCM topic: no channels).
    /// ``RealFeedServeTests/Mode``: token, iOS broadcast (channels ScoreFeed manages behind the
    /// APNs test server), Android's two, and both platforms at once.
    typealias Mode = RealFeedServeTests.Mode

    /// In broadcast mode, what APNs saw: one channel per game made before its first broadcast,
    /// every broadcast accepted on its own game's channel, each game's end with replay's final,
    /// every channel deleted. Exactly one channel per game unless the run's summary (`stderr`)
    /// counts failed webhook attempts: on a loaded machine a create answered after
    /// `--webhook-timeout` is sent again and makes a second channel (APNs does not deduplicate),
    /// which `--delete-unknown-channels` deletes, so none is left open either way.
    static func checkChannels(_ apns: APNsTestServer?, stderr: String) async throws {
        guard let apns else { return }
        let failed = webhookFailedAttempts(in: stderr)
        #expect(failed != nil, "the webhook's summary line: \(stderr.suffix(400))")
        let oneChannel = failed == 0
        var finals: [String: FinalScore] = [:]
        for game in games {
            let state = try #require(try await replay(game).last?.state)
            finals[game] = FinalScore(home: state.homeScore, away: state.awayScore)
        }
        let audit = try await BroadcastAudit(apns)
        try audit.check(finals: finals, oneChannel: oneChannel)
        print("poll figures: broadcast: \(audit.requests.filter { $0.kind == .broadcast }.count) broadcasts, \(audit.state.created.count) channels made, \(audit.state.deleted.count) deleted, made twice: \(audit.madeTwice), failed webhook attempts: \(failed.map(String.init) ?? "not said")")
    }

    /// The failed attempts the webhook's summary line counts (nil: no summary line).
    static func webhookFailedAttempts(in stderr: String) -> Int? {
        guard let range = stderr.range(of: ", failed attempts ") else { return nil }
        return Int(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// The smoke test of `poll --games`, in broadcast mode (behind the APNs test server) here and
    /// in token mode on both platforms at once (``AndroidPollLiveTests``: one `--platform
    /// ios,android` run checks each lane as its platform's alone, so a token run of iOS alone would
    /// repeat it), each run with everything a server can do wrong at once: 15 % of the requests
    /// fail or stall, and each game's boxscore is hostile (an answer of 8 GB, one that never ends, a
    /// gzip bomb; Tests/Support/nba_live_server.py --hostile). Every game ends with replay's final and
    /// poll exits 0; each hostile boxscore is one clear line naming its URL; `--metrics` counts
    /// every request's outcome and the pushes sum to the records written. Joins, outages, kill -9,
    /// a stale edge and `--today` days run in process on virtual time in both modes
    /// (`LiveDayScenarioTests`, `SimulationTests`); `--today` through the binary is
    /// `EveryGameEndsTests`.
    @Test func eachGameEndsWithItsExactFinal() async throws {
        try await Self.checkEachGameEnds(.broadcast)
    }

    /// ``eachGameEndsWithItsExactFinal()``'s run, in `mode`.
    static func checkEachGameEnds(_ mode: Mode) async throws {
        var hostile: [String: String] = [:]
        for (game, kind) in zip(Self.games, PollHostileTests.kinds) { hostile["boxscore_\(game)"] = kind }
        let server = try LiveNBATestServer(
            games: Self.games, speed: Self.speed, failRate: 0.15, seed: 7, slowSeconds: 3, hostile: hostile)
        let apns = try mode.server()
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("poll.prom")
        let run = try await Self.poll(
            server, state: nil, apns: apns, timeout: "2", extra: ["--metrics", file.path, "--metrics-interval", "0.5"] + mode.pollArguments)
        #expect(run.status == 0, "poll exits 0 when every game has ended: \(run.stderr.suffix(600))")
        try await Self.check(run.lines, mode: mode, label: "\(mode) failures and hostile boxscores:")
        #expect(run.stderr.contains("http://127.0.0.1:\(server.port)"), "failures are named with their URL")
        try Self.checkHostileLines(run.stderr, server: server)
        try Self.checkMetrics(file, lines: run.lines, stderr: run.stderr, server: server)
        try await Self.checkChannels(apns, stderr: run.stderr)
    }

    /// Each game's hostile boxscore is said in one clear line naming the game and the URL: the
    /// `--max-body` cap for 8 GB and for the gzip bomb (decoded bytes), the whole-request
    /// `--timeout` for the answer that never ends. On a starved machine (this smoke test beside
    /// the whole run on two cores took 118 s once, against 10 s alone) the 8 GB or the gzip answer
    /// can pass the 2 s timeout before the cap, and with the backoff a game's few boxscore
    /// requests may all end so: the timeout's line then stands for it (each cap alone is
    /// ``PollHostileTests``'). The server answers a hostile document's first request with it
    /// whatever faults it draws, so each game meets its own (a run once drew a 429 and a cut
    /// connection for every boxscore request of the endless one's game). Every other line naming a
    /// boxscore's URL is a clear line too: the URL, then a code, then the game.
    static func checkHostileLines(_ stderr: String, server: LiveNBATestServer) throws {
        let errors = stderr.split(separator: "\n")
        for (game, kind) in zip(games, PollHostileTests.kinds) {
            let url = "http://127.0.0.1:\(server.port)/static/json/liveData/boxscore/boxscore_\(game).json"
            let timedOut = "\(url): io: game \(game): no whole answer within 2 s (--timeout)"
            let capped = "\(url): body-too-large: game \(game): the answer passed the --max-body cap of 4194304 bytes (decoded) and was dropped"
            let expected = kind == "endless" ? [timedOut] : [capped, timedOut]
            let named = errors.filter { $0.contains(url) }
            #expect(named.contains { expected.contains(String($0)) },
                    "\(game) (\(kind)): the lines naming its boxscore: \(named.joined(separator: "\n"))")
            for line in named {
                let rest = line.dropFirst(url.count)
                let code = rest.dropFirst(2).prefix { $0 != ":" }
                #expect(line.hasPrefix(url + ": ") && !code.isEmpty && !code.contains(" ") && rest.contains(": game \(game): "),
                        "a clear error line: \(line)")
            }
        }
    }

    /// The `--metrics` file of a run: in the exposition format (and promtool's, where it is
    /// installed), the pushes sum to the records written, every request's outcome is counted
    /// (the server's faults and the hostile boxscores among the failures, each failure said on
    /// stderr a counted one), and every game ended.
    static func checkMetrics(_ file: URL, lines: [String], stderr: String, server: LiveNBATestServer) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(ExpositionCheck.problems(text) == [])
        if ExpositionCheck.promtool != nil {
            let check = try ExpositionCheck.promtoolCheck(text)
            #expect(check.status == 0, "promtool: \(check.output)")
        }
        let records = lines.filter { !$0.hasPrefix("{\"kind\":\"channel\"") }.count
        #expect(ExpositionCheck.sum(text, "scorefeed_pushes_total") == Double(records), "the pushes sum to the records written")
        let requests = ExpositionCheck.samples(text).filter { $0.name == "scorefeed_poll_requests_total" }
        func count(_ endpoint: String, _ outcome: (String) -> Bool) -> Double {
            requests.filter { sample in
                sample.labels.contains { $0 == ("endpoint", endpoint) } && sample.labels.contains { $0.0 == "outcome" && outcome($0.1) }
            }.reduce(0) { $0 + $1.value }
        }
        #expect(count("playbyplay", { $0 == "200" }) > 0)
        let failedBoxscores = count("boxscore", { $0 != "200" && $0 != "304" })
        #expect(failedBoxscores > 0, "the hostile boxscores are counted as failures")
        let failed = count("playbyplay", { $0 != "200" && $0 != "304" }) + failedBoxscores
        // Each failure said on stderr (the pregame 404s are counted, not said) is a counted one.
        let said = stderr.split(separator: "\n").filter { $0.contains("http://127.0.0.1:\(server.port)") }.count
        #expect(failed >= Double(said) - 3, "\(failed) failures counted, \(said) lines said")
        #expect(ExpositionCheck.sum(text, "scorefeed_games", ["state": "ended"]) == Double(games.count))
        #expect(text.contains("# TYPE scorefeed_poll_lag_seconds gauge"))
        let outcomes = requests.map { "\($0.labels.map(\.1).joined(separator: " ")): \(Int($0.value))" }.joined(separator: ", ")
        print("metrics figures: poll: \(records) records, requests \(outcomes)")
    }
}

/// ``PollLiveTests/eachGameEndsWithItsExactFinal()`` for Android (records to each game's topic)
/// and for token mode on both platforms, in a suite of its own: it runs beside the iOS run
/// instead of after it.
@Suite(
    "poll: real games from a live server, Android", .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
    .enabled(if: Python3.available, Python3.absentReason))
struct AndroidPollLiveTests {
    @Test func eachGameEndsWithItsExactFinal() async throws {
        try await PollLiveTests.checkEachGameEnds(.androidBroadcast)
    }

    /// `poll --platform ios,android` of the live server (failures, hostile boxscores): each
    /// lane's records as its platform's alone, every game ended on both.
    @Test func bothPlatformsEndEachGameWithItsExactFinal() async throws {
        try await PollLiveTests.checkEachGameEnds(.both)
    }

    /// ``EveryGameEndsTests``'s day (`poll --today` on the system clock, a game played, one gone
    /// silent, one postponed) for Android.
    @Test(.timeLimit(.minutes(1)))
    func aDayWithASilentAndAPostponedGameFinishesByItself() async throws {
        try await EveryGameEndsTests().aDayWithASilentAndAPostponedGameFinishesByItself(.androidBroadcast)
    }
}

extension RealFeedServeTests.Mode {
    /// The APNs test server that answers the channel requests of iOS broadcast; nil otherwise.
    func server() throws -> APNsTestServer? {
        hasChannels ? try APNsTestServer() : nil
    }

    /// `poll`'s options for this mode: ``arguments``, but iOS broadcast's come with its APNs
    /// server (``PollLiveTests/arguments(_:state:today:apns:timeout:extra:)``).
    var pollArguments: [String] { hasChannels ? [] : arguments }
}

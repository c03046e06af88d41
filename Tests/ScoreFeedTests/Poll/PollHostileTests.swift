import Foundation
import Testing
import ScoreFeed

/// Hostile endpoints (Tests/Support/nba_live_server.py --hostile): an answer of 8 GB, one that
/// never ends, and 16 KB of gzip that inflate to 16 MB. Each is one clear error naming the URL,
/// a failed request (so the usual backoff), and never holds more than the cap. Memory and the
/// time SIGTERM takes are figures, not assertions: Tests/LiveChecks/hostile.sh.
@Suite(
    "poll: hostile endpoints", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: Python3.available, Python3.absentReason))
struct PollHostileTests {
    static let kinds = ["huge", "endless", "gzip"]

    /// Asserts: the fetcher gives up on each hostile boxscore with one error naming its URL (the
    /// cap for a body too large, decoded bytes for gzip; the whole-request timeout for a body
    /// that never ends), while the same server's play-by-play still answers in full.
    @Test(arguments: kinds)
    func aHostileAnswerIsOneClearFailure(_ kind: String) async throws {
        let game = PollLiveTests.games[0]
        let server = try LiveNBATestServer(games: [game], speed: 1000, hostile: ["boxscore_\(game)": kind])
        let base = "http://127.0.0.1:\(server.port)/static/json/liveData"
        let box = try #require(URL(string: "\(base)/boxscore/boxscore_\(game).json"))
        let pbp = try #require(URL(string: "\(base)/playbyplay/playbyplay_\(game).json"))
        let fetcher = LiveFetcher(timeout: 2, maxBody: 1 << 20)
        var validators = LiveFetcher.Validators()
        guard case .failed(let error, let retryAfter) = await fetcher.get(box, validators: &validators) else {
            Issue.record("a \(kind) answer was taken")
            return
        }
        #expect(retryAfter == nil)
        #expect(error.location.file == box.absoluteString, "the error names the URL")
        if kind == "endless" {
            #expect(error.code == .io && error.message.contains("no whole answer within 2 s (--timeout)"), "\(error)")
        } else {
            #expect(error.code == .bodyTooLarge && error.message.contains("--max-body cap of 1048576 bytes (decoded)"), "\(error)")
        }
        #expect(validators == LiveFetcher.Validators(), "nothing of it is kept")
        // A generous timeout: libcurl may still be inflating the dropped gzip answer (it cannot
        // be stopped mid-read), and the machine is shared.
        guard case .body(let data) = await LiveFetcher(timeout: 60).get(pbp, validators: &validators) else {
            Issue.record("the play-by-play beside a \(kind) boxscore did not answer")
            return
        }
        #expect(!data.isEmpty)
    }

    /// Injects: each game's boxscore is hostile, one kind per game. Asserts (token and broadcast
    /// mode): poll names each game and its boxscore URL in a clear error line, keeps following
    /// every game (a hostile boxscore is a failed request, and the play-by-play's end decides),
    /// each ends with replay's final, and poll exits 0.
    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason), arguments: PollLiveTests.Mode.allCases)
    func pollGoesOnWithEveryGameBesideHostileBoxscores(_ mode: PollLiveTests.Mode) async throws {
        let games = PollLiveTests.games
        var hostile: [String: String] = [:]
        for (game, kind) in zip(games, Self.kinds) { hostile["boxscore_\(game)"] = kind }
        let server = try LiveNBATestServer(games: games, speed: PollLiveTests.speed, hostile: hostile)
        let apns = try mode.server()
        let run = try await PollLiveTests.poll(server, state: nil, apns: apns, timeout: "2")
        #expect(run.status == 0, "\(run.stderr.suffix(600))")
        try await PollLiveTests.check(run.lines, label: "\(mode) hostile boxscores:")
        let errors = run.stderr.split(separator: "\n")
        for (game, kind) in zip(games, Self.kinds) {
            let url = "http://127.0.0.1:\(server.port)/static/json/liveData/boxscore/boxscore_\(game).json"
            let expected = kind == "endless"
                ? "\(url): io: game \(game): no whole answer within 2 s (--timeout)"
                : "\(url): body-too-large: game \(game): the answer passed the --max-body cap of 4194304 bytes (decoded) and was dropped"
            #expect(errors.contains { $0 == expected }, "\(game) (\(kind)): \(run.stderr.suffix(600))")
            // On a busy machine a request may also run out of time (libcurl may still be inflating
            // a dropped gzip answer), before or after the answer began: those are the other clear
            // lines, never anything else.
            let timedOut = [
                "\(url): io: game \(game): no whole answer within 2 s (--timeout)",
                "\(url): io: game \(game): no answer: timed out",
            ]
            for line in errors where line.contains(url) {
                #expect(line == expected || timedOut.contains(String(line)), "a clear error line: \(line)")
            }
        }
        try await PollLiveTests.checkChannels(apns, stderr: run.stderr)
    }

    /// A signal in the middle of a request: every answer never ends and `--timeout` is 600 s,
    /// so only the signal can stop poll. SIGTERM once the server has begun a hostile answer:
    /// poll exits at once, of itself, with no error line for the requests it cut short.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason), .timeLimit(.minutes(1)),
        arguments: PollLiveTests.Mode.allCases)
    func aSignalInTheMiddleOfARequestStopsPoll(_ mode: PollLiveTests.Mode) async throws {
        let games = PollLiveTests.games
        var hostile: [String: String] = [:]
        for game in games {
            hostile["boxscore_\(game)"] = "endless"
            hostile["playbyplay_\(game)"] = "endless"
        }
        let server = try LiveNBATestServer(games: games, speed: PollLiveTests.speed, hostile: hostile)
        let apns = try mode.server()
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = PollLiveTests.arguments(server, state: state, apns: apns, timeout: "600")
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Waits for a request to be under way: the server answers once it has begun an endless
        // answer (or after 45 s, which fails the test).
        #expect(try server.waitForHostileAnswer() > 0, "no request began within 45 s")
        process.terminate()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "\(said.suffix(400))")
        #expect(!said.contains("cancelled"), "no error line for a request cut short: \(said.suffix(400))")
        #expect(said.contains("poll: following \(games.count) games"))
    }
}

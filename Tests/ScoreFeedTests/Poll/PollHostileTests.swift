import Foundation
import Testing
import ScoreFeed

/// Hostile endpoints (Tests/Support/nba_live_server.py --hostile): an answer of 8 GB, one that
/// never ends, and 16 KB of gzip that inflate to 16 MB. Each is one clear error naming the URL,
/// a failed request (so the usual backoff), and never holds more than the cap. poll following
/// every game beside hostile boxscores is part of its smoke test (`PollLiveTests`). Memory and
/// the time SIGTERM takes are figures, not assertions: Tests/LiveChecks/hostile.sh.
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

    /// A signal in the middle of a request: every answer never ends and `--timeout` is 600 s,
    /// so only the signal can stop poll. SIGTERM once the server has begun a hostile answer:
    /// poll exits at once, of itself, with no error line for the requests it cut short.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason), .timeLimit(.minutes(1)),
        arguments: PollLiveTests.Mode.ofProcesses)
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
        process.arguments = PollLiveTests.arguments(server, state: state, apns: apns, timeout: "600", extra: mode.pollArguments)
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Waits for a request to be under way: the server answers once it has begun an endless
        // answer (or after 45 s, which fails the test).
        #expect(try await OffPool.run { try server.waitForHostileAnswer() } > 0, "no request began within 45 s")
        process.terminate()
        let said = try await OffPool.run {
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return said
        }
        // A crash says why in its first lines (the backtrace follows): both ends are shown.
        #expect(process.terminationReason == .exit, "\(said.prefix(1500)) … \(said.suffix(400))")
        #expect(!said.contains("cancelled"), "no error line for a request cut short: \(said.suffix(400))")
        #expect(said.contains("poll: following \(games.count) games"))
    }
}

import Foundation
import Testing
import ScoreFeed

/// `scorefeed replay --webhook` end to end on the real games, against the local webhook server
/// (Tests/Support/webhook_server.py) failing at the start: the command's own path (its options,
/// the sink's retries and its work beside the game, the summary, the exit status), which the
/// in-process webhook suites do not run. Each real game runs once, in one of the modes in turn
/// (every game through the path, every mode on two or three games: the webhook's side is the
/// same for every game, the game's for every mode); a case costs a Python server and a replay,
/// about half a second of CPU. One case at a time: 24 at once started 24 Python servers and 24
/// replays in one burst, beside the wall-clock suites.
@Suite(
    "replay --webhook on the real games through a webhook that fails", .serialized,
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: Python3.available, "python3 is not on the PATH: the webhook tests need it to run a local HTTP server"))
struct ReplayWebhookTests {
    /// The replay's mode and platform options: iOS token and broadcast mode, and Android's topics.
    static let modes: [(name: String, arguments: [String])] = [
        ("token", []),
        ("broadcast", ["--mode", "broadcast", "--channel-id", "dGVzdA=="]),
        ("android broadcast", ["--platform", "android", "--mode", "broadcast"]),
    ]

    /// The webhook answers 503 to its first 4 requests, each asking to be retried at once
    /// (`Retry-After: 0`, so 24 serialized cases do not each wait out the backoff's seconds on the
    /// wall clock; `WebhookSinkTests` checks the backoff itself): the sink's own retries give up once, so
    /// the run says the webhook failed and is back. Every update the game made meanwhile is
    /// superseded by its end: the run exits 0, the webhook's last request is the game's end with
    /// the real final score, and the summary counts the failed attempt.
    @Test(arguments: zip(NBAFiles.games, NBAFiles.games.indices.map { $0 % modes.count }))
    func aWebhookFailingAtTheStartGetsTheFinal(_ file: String, _ mode: Int) async throws {
        let server = try WebhookTestServer(script: Array(repeating: "503:0", count: 4))
        let run = try await ScoreFeedProcess.run(
            ["replay", NBAFiles.path(file), "--webhook", server.url.absoluteString] + Self.modes[mode].arguments)
        let what = "\(file), \(Self.modes[mode].name)"
        #expect(run.status == 0, "\(what): \(run.standardError.suffix(600))")
        #expect(run.standardError.contains("is back;"), "\(what): \(run.standardError.suffix(600))")
        let summary = try #require(run.standardError.split(separator: "\n").last { $0.contains(": delivered ") }, "\(what)")
        #expect(summary.contains("failed attempts 1"), "\(what): \(summary)")
        let requests = try server.requests()
        #expect(requests.prefix(4).allSatisfy { $0.action == "503:0" } && requests.count > 4, "\(what): \(requests.map(\.action))")
        let body = try #require(requests.last?.body, "\(what): no request")
        let last = try #require(RecordLine(body), "\(what): the last request is not a push record: \(body.prefix(300))")
        #expect(last.event == "end", "\(what): the last request is \(last.event)")
        let final = try NBAFiles.oracle(file).final
        let score = try #require(last.score, "\(what): no score in \(body.prefix(300))")
        #expect(score.home == final.home && score.away == final.away,
                "\(what): the last request shows \(score.home)-\(score.away), the final is \(final.home)-\(final.away)")
    }
}

import Foundation
import Testing
import ScoreFeed

/// `scorefeed replay --webhook` end to end on the real games, against the local webhook server
/// (Tests/Support/webhook_server.py) failing at the start: the command's own path (its options,
/// the sink's retries and its work beside the game, the summary, the exit status), which the
/// in-process webhook suites do not run.
@Suite(
    "replay --webhook on the real games through a webhook that fails",
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

    /// The webhook answers 503 to its first 4 requests: the sink's own retries give up once, so
    /// the run says the webhook failed and is back. Every update the game made meanwhile is
    /// superseded by its end: the run exits 0, the webhook's last request is the game's end with
    /// the real final score, and the summary counts the failed attempt.
    @Test(arguments: NBAFiles.games, modes.indices)
    func aWebhookFailingAtTheStartGetsTheFinal(_ file: String, _ mode: Int) async throws {
        let server = try WebhookTestServer(script: Array(repeating: "503", count: 4))
        let run = try await ScoreFeedProcess.run(
            ["replay", NBAFiles.path(file), "--webhook", server.url.absoluteString] + Self.modes[mode].arguments)
        let what = "\(file), \(Self.modes[mode].name)"
        #expect(run.status == 0, "\(what): \(run.standardError.suffix(600))")
        #expect(run.standardError.contains("is back;"), "\(what): \(run.standardError.suffix(600))")
        let summary = try #require(run.standardError.split(separator: "\n").last { $0.contains(": delivered ") }, "\(what)")
        #expect(summary.contains("failed attempts 1"), "\(what): \(summary)")
        let requests = try server.requests()
        #expect(requests.prefix(4).allSatisfy { $0.action == "503" } && requests.count > 4, "\(what): \(requests.map(\.action))")
        let last = try #require(requests.last, "\(what): no request")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(last.body.utf8)) as? [String: Any])
        #expect(body["event"] as? String == "end", "\(what): the last request is \(body["event"] ?? "nothing")")
        let final = try NBAFiles.oracle(file).final
        let state = try #require(Self.contentState(body), "\(what): no content state in \(last.body.prefix(300))")
        #expect(state["homeScore"] as? Int == final.home && state["awayScore"] as? Int == final.away,
                "\(what): the last request shows \(state["homeScore"] ?? "?")-\(state["awayScore"] ?? "?"), the final is \(final.home)-\(final.away)")
    }

    /// The content state a record's payload carries: APNs' `aps.content-state`, or an FCM
    /// message's data, whose `state` is the same state as JSON text.
    static func contentState(_ record: [String: Any]) -> [String: Any]? {
        let payload = record["payload"] as? [String: Any]
        if let aps = payload?["aps"] as? [String: Any] { return aps["content-state"] as? [String: Any] }
        let data = (payload?["message"] as? [String: Any])?["data"] as? [String: Any]
        guard let text = data?["state"] as? String else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }
}

import Foundation
import Testing
@testable import ScoreFeed

/// `scorefeed poll --metrics` (the built binary) against the live NBA test server with faults, in
/// token and broadcast mode: every request's outcome is counted (200, 304 and the failures), the
/// pushes sum to the records written, and the file keeps the format.
@Suite(
    "metrics: poll on real games from a live server with faults", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
    .enabled(if: Python3.available, Python3.absentReason))
struct MetricsPollTests {
    @Test(arguments: PollLiveTests.Mode.allCases)
    func requestOutcomesAndPushesAreCounted(_ mode: PollLiveTests.Mode) async throws {
        let server = try LiveNBATestServer(games: PollLiveTests.games, speed: PollLiveTests.speed, failRate: 0.15, seed: 11, slowSeconds: 3)
        let apns = try mode.server()
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("poll.prom")
        let run = try await PollLiveTests.poll(server, state: nil, apns: apns, extra: ["--metrics", file.path, "--metrics-interval", "0.5"])
        #expect(run.status == 0, "\(run.stderr.suffix(400))")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(ExpositionCheck.problems(text) == [])
        if ExpositionCheck.promtool != nil {
            let check = try ExpositionCheck.promtoolCheck(text)
            #expect(check.status == 0, "promtool: \(check.output)")
        }
        let records = run.lines.filter { !$0.hasPrefix("{\"kind\":\"channel\"") }.count
        #expect(ExpositionCheck.sum(text, "scorefeed_pushes_total") == Double(records), "the pushes sum to the records written")
        let requests = ExpositionCheck.samples(text).filter { $0.name == "scorefeed_poll_requests_total" }
        func count(_ endpoint: String, _ outcome: (String) -> Bool) -> Double {
            requests.filter { sample in
                sample.labels.contains { $0 == ("endpoint", endpoint) } && sample.labels.contains { $0.0 == "outcome" && outcome($0.1) }
            }.reduce(0) { $0 + $1.value }
        }
        #expect(count("playbyplay", { $0 == "200" }) > 0)
        #expect(count("boxscore", { $0 == "200" }) > 0)
        let failed = count("playbyplay", { $0 != "200" && $0 != "304" }) + count("boxscore", { $0 != "200" && $0 != "304" })
        #expect(failed > 0, "the server's faults are counted by what went wrong")
        // Each failure said on stderr (the pregame 404s are counted, not said) is a counted one.
        let said = run.stderr.split(separator: "\n").filter { $0.contains("http://127.0.0.1:\(server.port)") }.count
        #expect(failed >= Double(said) - 3, "\(failed) failures counted, \(said) lines said")
        #expect(ExpositionCheck.sum(text, "scorefeed_games", ["state": "ended"]) == Double(PollLiveTests.games.count))
        #expect(text.contains("# TYPE scorefeed_poll_lag_seconds gauge"))
        let outcomes = requests.map { "\($0.labels.map(\.1).joined(separator: " ")): \(Int($0.value))" }.joined(separator: ", ")
        print("metrics figures: poll \(mode): \(records) records, requests \(outcomes)")
    }
}

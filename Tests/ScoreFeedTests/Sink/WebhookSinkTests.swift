import Foundation
import Synchronization
import Testing
import ScoreFeed
import ScoreFeedModel

/// The webhook against a real HTTP server on 127.0.0.1 (Tests/Support/webhook_server.py) with
/// injected faults. Backoff and Retry-After wait on a manual clock, so only the time-out test
/// spends real seconds. Every test checks the same delivery guarantees: each body received is
/// a rendered record byte for byte under its own apns-id (never two bodies under one id), each
/// activity's requests arrive in seq order, and its last delivered record is its end with the
/// final state.
/// The two that stop their server and start it again on its port are ``WebhookRestartTests``.
@Suite(
    "Webhook sink against a local HTTP server with injected faults",
    .enabled(if: Python3.available, "python3 is not on the PATH: the webhook tests need it to run a local HTTP server"))
struct WebhookSinkTests {
    static let games = Make.fixtureFiles().filter { !$0.hasPrefix("edge/") }

    /// Replays `games` concurrently (each as its own activity) into `sink`; returns what was
    /// rendered, per activity, in order.
    func replay(_ games: [(file: String, activity: String)], into sink: any PushSink) async throws -> [String: [PushRecord]] {
        try await withThrowingTaskGroup(of: (String, [PushRecord]).self) { group in
            for game in games {
                group.addTask {
                    let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(game.file).path)
                    let recording = RecordingSink()
                    _ = try await Replay(renderer: .init(activity: game.activity)).run(document, sink: FanOutSink([recording, sink]))
                    return (game.activity, await recording.records)
                }
            }
            var rendered: [String: [PushRecord]] = [:]
            for try await (activity, records) in group { rendered[activity] = records }
            return rendered
        }
    }

    /// The guarantees every fault test asserts.
    func verifyDelivery(_ rendered: [String: [PushRecord]], _ received: [WebhookTestServer.Request]) throws {
        let byID = Dictionary(uniqueKeysWithValues: rendered.values.joined().map { ($0.request.headers["apns-id"]!, $0) })
        var bodies: [String: Set<String>] = [:]
        var arrived: [PushRecord] = []
        for request in received {
            let key = try #require(request.key, "Idempotency-Key missing")
            let record = try #require(byID[key], "a request under an apns-id that was never rendered")
            bodies[key, default: []].insert(request.body)
            #expect(request.body == String(decoding: record.jsonLine(), as: UTF8.self), "the body is the record's JSON line")
            #expect(request.contentType == "application/json")
            #expect(request.path == "/push?apiKey=query-secret")
            arrived.append(record)
        }
        #expect(bodies.values.allSatisfy { $0.count == 1 }, "no two different bodies under one apns-id")
        for (activity, records) in rendered {
            let seqs = arrived.filter { $0.activity == activity }.map(\.seq)
            let attempts = seqs.reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }    // retries collapsed
            #expect(zip(attempts, attempts.dropFirst()).allSatisfy { $0 < $1 }, "\(activity) in seq order: \(attempts)")
            let delivered = received.filter { $0.action == "200" }.compactMap { byID[$0.key ?? ""] }.filter { $0.activity == activity }
            #expect(delivered.last?.event == .end, "\(activity): the end is delivered last")
            #expect(delivered.last == records.last, "\(activity): with the final state")
            #expect(records.last?.state.phase == .final)
        }
    }

    func near(_ a: [TimeInterval], _ b: [TimeInterval]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 }
    }

    /// Injects: 500/502/503 answers, up to three in a row (the first record fails three times).
    /// Asserts: the guarantees; each failure was retried inside the webhook (retries = failed
    /// requests, nothing skipped); the waits are the exponential backoff with its jitter.
    @Test func serverErrorsAreRetriedWithBackoff() async throws {
        let server = try WebhookTestServer(
            script: ["500", "500", "503"], cycle: ["200", "500", "200", "502", "200", "200", "500", "503", "200"])
        defer { server.stop() }
        let clock = SleepRecordingClock()
        let webhook = WebhookSink(url: server.url, options: .init(timeout: 10, maxAttempts: 4), clock: clock, random: { 0.5 })
        let sink = ResilientSink(webhook, clock: clock)
        let rendered = try await replay([(try #require(Self.games.first), "GAME1")], into: sink)
        try await sink.flush()
        let received = try server.requests()
        try verifyDelivery(rendered, received)
        let failed = received.filter { $0.action != "200" }.count
        #expect(failed > 10)
        #expect(received.count == rendered["GAME1"]!.count + failed)
        #expect(await webhook.statistics.retries == failed)
        #expect(await sink.statistics.skipped == 0)
        #expect(await sink.statistics.failures == 0, "no record ran out of attempts")
        // Backoff 0.5 s × 2ⁿ⁻¹, three quarters of it with the jitter pinned at 0.5.
        let first = Array(clock.sleeps.prefix(3))
        #expect(near(first, [0.375, 0.75, 1.5]), "\(first)")
        #expect(clock.sleeps.allSatisfy { wait in [0.375, 0.75, 1.5].contains { abs(wait - $0) < 1e-6 } })
    }

    /// Injects: 429 with Retry-After 7 and 2 (seconds). Asserts: the guarantees, and that each
    /// retry waited exactly what the server asked, not the backoff.
    @Test func tooManyRequestsHonoursRetryAfter() async throws {
        let server = try WebhookTestServer(cycle: ["200", "200", "429:7", "200", "200", "429:2"])
        defer { server.stop() }
        let clock = SleepRecordingClock()
        let webhook = WebhookSink(url: server.url, options: .init(maxAttempts: 3), clock: clock, random: { 0 })
        let sink = ResilientSink(webhook, clock: clock)
        let rendered = try await replay([(try #require(Self.games.dropFirst().first), "GAME2")], into: sink)
        try await sink.flush()
        let received = try server.requests()
        try verifyDelivery(rendered, received)
        let asked = received.filter { $0.action.hasPrefix("429:") }.map { Double($0.action.dropFirst(4))! }
        #expect(asked.count > 10)
        #expect(near(clock.sleeps, asked), "waited \(clock.sleeps.prefix(6)), asked \(asked.prefix(6))")
    }

    /// Injects: two responses that take 20 s while the webhook's time-out is 2.5 s (real time).
    /// Asserts: the guarantees; both records were sent again after the time-out, with the same
    /// body and apns-id (the receiver got each twice and can deduplicate). Tolerant of a busy
    /// machine: another request that happens to time out is retried the same way.
    @Test func slowResponsesTimeOutAndAreRetried() async throws {
        let server = try WebhookTestServer(script: ["200", "slow:20", "200", "200", "slow:20"])
        defer { server.stop() }
        let clock = SleepRecordingClock()
        let webhook = WebhookSink(url: server.url, options: .init(timeout: 2.5, maxAttempts: 3), clock: clock, random: { 0 })
        let sink = ResilientSink(webhook, clock: clock)
        let rendered = try await replay([("edge/double-overtime.json", "OT2")], into: sink)
        try await sink.flush()
        let received = try server.requests()
        try verifyDelivery(rendered, received)
        let slow = received.filter { $0.action.hasPrefix("slow:") }
        #expect(slow.count == 2)
        for request in slow {
            let again = received.filter { $0.key == request.key && $0.n > request.n }
            #expect(again.first?.action == "200", "timed out, sent again, answered")
            #expect(again.allSatisfy { $0.body == request.body })
        }
        #expect(await webhook.statistics.retries >= 2)
    }

    /// Injects: two 200 answers whose bodies are 1 GB (a webhook answers with a few bytes), one
    /// saying so in its Content-Length, one without (its end would be the connection's).
    /// Asserts: the guarantees; each was dropped at the 64 KiB cap and counted as a failed
    /// attempt, and its record sent again with the same body and apns-id, then delivered.
    /// Session 24 found the request after a capped answer waiting out the whole time-out (10 s)
    /// although answered, so a record already answered was sent again (about half the runs): the
    /// capped transfer resumed its caller before retiring its lane, and the next request was made
    /// on the session being cancelled.
    @Test func anAnswerOverTheCapIsAFailedAttemptAndRetried() async throws {
        let server = try WebhookTestServer(script: ["200", "huge", "200", "endless"])
        defer { server.stop() }
        let clock = SleepRecordingClock()
        let webhook = WebhookSink(url: server.url, options: .init(maxAttempts: 3), clock: clock, random: { 0 })
        #expect(WebhookSink.Options().maxAnswer == 64 << 10)
        let sink = ResilientSink(webhook, clock: clock)
        let rendered = try await replay([("edge/double-overtime.json", "OT2")], into: sink)
        try await sink.flush()
        let received = try server.requests()
        try verifyDelivery(rendered, received)
        let huge = received.filter { $0.action == "huge" || $0.action == "endless" }
        #expect(huge.count == 2)
        let order = received.map { "\($0.n) \($0.action) \($0.key?.prefix(8) ?? "")" }
        for request in huge {
            let again = received.filter { $0.key == request.key && $0.n > request.n }
            #expect(again.first?.action == "200", "dropped at the cap, sent again, answered: \(order)")
            #expect(again.allSatisfy { $0.body == request.body })
        }
        #expect(await webhook.statistics.retries == 2, "\(order)")
    }

    /// Injects: a server that demands a bearer token. Asserts: the token read by the caller is
    /// sent; a wrong one fails as sink-unavailable (401) and neither the token nor the URL's
    /// query appears in the error or the sink's description.
    @Test func bearerTokenIsSentAndNeverShown() async throws {
        let secret = "s3cret-token-value"
        let server = try WebhookTestServer(token: secret)
        defer { server.stop() }
        let record = try #require(ResilientSinkTests.records("T", count: 1).first)
        try await WebhookSink(url: server.url, bearerToken: secret, clock: SleepRecordingClock()).send(record)
        let wrong = WebhookSink(url: server.url, bearerToken: "not-the-token", clock: SleepRecordingClock())
        do {
            try await wrong.send(record)
            Issue.record("a wrong token must fail")
        } catch let error as ScoreFeedError {
            #expect(error.code == .sinkUnavailable)
            #expect(error.message.contains("401"))
            for leak in ["not-the-token", secret, "query-secret"] {
                #expect(!error.description.contains(leak))
                #expect(!wrong.description.contains(leak))
            }
        }
        let received = try server.requests()
        #expect(received.map(\.authorization) == ["Bearer \(secret)", "Bearer not-the-token"])
        #expect(received.map(\.action) == ["200", "401"])
    }
}

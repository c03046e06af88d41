import Foundation
import Testing
@testable import ScoreFeed

/// ``WebhookSink/manage(_:)`` against the APNs test server: the answer a proxying sender passes
/// back (status, `apns-channel-id`, the body's reason), retries on 5xx, 429 and a create without
/// an id. (That a delete waits for its game's pushes is the engine's rule, from the sink's
/// `pending(game:)`: `BroadcastChannelTests.theDeleteWaitsWhileTheSinkStillHoldsTheEnd`.)
@Suite("webhook: channel requests", .serialized, .enabled(if: APNsTestServer.available, APNsTestServer.absentReason))
struct WebhookChannelTests {
    static func sink(_ server: APNsTestServer, clock: ManualClock = ManualClock(Date(timeIntervalSince1970: 0))) -> WebhookSink {
        WebhookSink(url: server.url, options: .init(timeout: 5, maxAttempts: 4, maxElapsed: 120), clock: clock, random: { 0 })
    }

    static let create = ChannelRequest.create(game: "G1", bundleId: "com.acme", storage: 0, requestID: "R1")

    @Test func aCreateAnswersTheNewChannelAndADeleteOfAGoneOneSaysSo() async throws {
        let server = try APNsTestServer()
        let sink = Self.sink(server)
        let answer = try #require(try await sink.manage(Self.create))
        let id = try #require(answer.channelID)
        #expect(answer.isSuccess && BroadcastChannel.problem(with: id) == nil)
        #expect(try await server.state().open == [id: "G1"])
        let delete = ChannelRequest.delete(game: "G1", bundleId: "com.acme", channel: id, requestID: "D1")
        #expect(try await sink.manage(delete)?.isSuccess == true)
        let again = try #require(try await sink.manage(delete))
        #expect(again.status == 404 && again.reason == "ChannelNotRegistered" && again.meansChannelGone)
        let list = try #require(try await sink.manage(.list(bundleId: "com.acme", requestID: "L1")))
        #expect(list.channels == [])
        #expect(try server.requests().map(\.key) == ["R1", "D1", "D1", "L1"], "Idempotency-Key is the apns-request-id")
    }

    @Test func failuresAreRetriedWithBackoffAndRetryAfterThenTheAnswerComes() async throws {
        let server = try APNsTestServer(script: ["503", "429:7", "noid"], faultOn: [.create])
        let clock = ManualClock(Date(timeIntervalSince1970: 0))
        let sink = Self.sink(server, clock: clock)
        let answer = try #require(try await sink.manage(Self.create))
        #expect(answer.channelID != nil)
        #expect(try server.requests().map(\.action) == ["503", "429:7", "noid", "200"])
        #expect(await sink.statistics.retries == 3)
        // The backoff's 0.5 s, then the Retry-After's 7 s, then the backoff's 2 s.
        #expect(clock.now.timeIntervalSince1970 == 0.5 + 7 + 2)
        #expect(try await server.state().createsByGame["G1"] == 2, "the answer without an id had made a channel")
    }

    @Test func aRefusedCreateIsAnAnswerAndADownEndpointThrows() async throws {
        let server = try APNsTestServer(maxChannels: 0)
        let sink = Self.sink(server)
        let answer = try #require(try await sink.manage(Self.create))
        #expect(answer.status == 400 && answer.reason == "TooManyChannels")
        var channel = BroadcastChannel()
        channel.create(storage: 0)
        #expect(channel.answered(answer, now: .distantPast) == .refused("APNs refused the create: HTTP 400 TooManyChannels"))
        server.stop()
        await #expect(throws: ScoreFeedError.self) { _ = try await sink.manage(Self.create) }
    }
}

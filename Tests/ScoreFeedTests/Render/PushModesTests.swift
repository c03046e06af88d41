import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("Token and broadcast requests, push-to-start, timestamps")
struct PushModesTests {
    static let bundleId = "com.example.app"
    static let channel = "dGVzdA=="
    let update = Push(event: .update, priority: 10, reason: "score")
    let quiet = Push(event: .update, priority: 5, reason: "score")
    let end = Push(event: .end, priority: 10, alert: .final, reason: "final")

    static func renderer(_ mode: PushRenderer.Mode, start: Bool = false) -> PushRenderer {
        PushRenderer(attributes: Make.attributes, configuration: .init(bundleId: bundleId, mode: mode, start: start))
    }

    func outputs(_ renderer: inout PushRenderer, _ push: Push, state: GameState = Make.live, at seconds: Double = 0.5) -> [PushRecord] {
        renderer.outputs(
            for: push, state: state, diff: Diff(), coalesced: 1, sentAt: Make.start.addingTimeInterval(seconds),
            sourceTime: Make.start
        ).compactMap { if case .push(let record) = $0 { record } else { nil } }
    }

    static let sent = Int(Make.start.timeIntervalSince1970)

    /// Path, headers and expiration of every event in each mode, as DESIGN.md states them.
    @Test(arguments: [
        (PushRenderer.Mode.token, Push.Event.update, "\(sent + 3600)"),
        (PushRenderer.Mode.token, Push.Event.end, "\(sent + 4 * 3600)"),
        (PushRenderer.Mode.broadcast(channelId: channel), Push.Event.update, "0"),
        (PushRenderer.Mode.broadcast(channelId: channel), Push.Event.end, "0"),
    ])
    func pathAndHeaders(mode: PushRenderer.Mode, event: Push.Event, expiration: String) throws {
        var renderer = Self.renderer(mode)
        let push = event == .end ? end : update
        let record = try #require(outputs(&renderer, push).first)
        let headers = record.request.headers
        #expect(record.request.method == "POST")
        #expect(headers["apns-push-type"] == "liveactivity")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-expiration"] == expiration)
        #expect(headers["apns-id"] == RequestID.uuid(for: record))
        switch mode {
        case .token:
            #expect(record.request.path == "/3/device/{token}")
            #expect(headers["apns-topic"] == "com.example.app.push-type.liveactivity")
            #expect(headers["apns-channel-id"] == nil)
        case .broadcast:
            #expect(record.request.path == "/4/broadcasts/apps/com.example.app")
            #expect(headers["apns-channel-id"] == Self.channel)
            #expect(headers["apns-topic"] == nil)
            #expect(headers["apns-request-id"] == headers["apns-id"])
        }
    }

    @Test func priorityFiveIsStatedInTheHeader() throws {
        for mode in [PushRenderer.Mode.token, .broadcast(channelId: Self.channel)] {
            var renderer = Self.renderer(mode)
            let record = try #require(outputs(&renderer, quiet).first)
            #expect(record.request.headers["apns-priority"] == "5")
        }
    }

    @Test func limitsFollowTheMode() {
        #expect(PushRenderer.Configuration(mode: .token).payloadLimit == 4096)
        #expect(PushRenderer.Configuration(mode: .broadcast(channelId: "x")).payloadLimit == 5120)
        #expect(PushRenderer.Configuration(mode: .broadcast(channelId: "x"), payloadLimit: 3000).payloadLimit == 3000)
    }

    @Test func pushToStartComesBeforeTheFirstUpdateOnly() throws {
        var renderer = Self.renderer(.token, start: true)
        let first = outputs(&renderer, quiet)
        #expect(first.map(\.event) == [.start], "the start carries the present state: no update says it again")
        #expect(first.map(\.seq) == [1])
        let start = first[0]
        #expect(start.priority == 10, "a start carries an alert, so it is priority 10")
        #expect(start.request.headers["apns-priority"] == "10")
        #expect(start.request.headers["apns-expiration"] == "\(Self.sent + 3600)")
        let aps = try Make.aps(start)
        #expect(aps["event"] as? String == "start")
        #expect(aps["attributes-type"] as? String == "GameAttributes")
        let attributes = try JSONSerialization.data(withJSONObject: try #require(aps["attributes"]))
        #expect(try JSONDecoder().decode(GameAttributes.self, from: attributes) == Make.attributes)
        let contentState = try JSONSerialization.data(withJSONObject: try #require(aps["content-state"]))
        #expect(try JSONDecoder().decode(GameState.self, from: contentState) == Make.live)
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "SAC at DAL")
        #expect((alert["body"] as? String)?.isEmpty == false)
        #expect(aps["stale-date"] as? Int == Self.sent + 300)
        // Later pushes go alone.
        #expect(outputs(&renderer, update, at: 10).map(\.event) == [.update])
        #expect(outputs(&renderer, end, at: 20).map(\.event) == [.end])
    }

    @Test func noStartWhenTheFirstPushIsTheEnd() {
        var renderer = Self.renderer(.token, start: true)
        #expect(outputs(&renderer, end).map(\.event) == [.end])
        #expect(!renderer.startPending)
    }

    @Test func broadcastCannotStart() {
        let configuration = PushRenderer.Configuration(mode: .broadcast(channelId: Self.channel), start: true)
        #expect(throws: ScoreFeedError.self) { try configuration.validate() }
        #expect(!configuration.sendsStart)
        var renderer = PushRenderer(attributes: Make.attributes, configuration: configuration)
        #expect(outputs(&renderer, update).map(\.event) == [.update], "never a start in broadcast mode")
        #expect(throws: ScoreFeedError.self) { try PushRenderer.Configuration(mode: .broadcast(channelId: "")).validate() }
        #expect(throws: Never.self) { try PushRenderer.Configuration(mode: .token, start: true).validate() }
    }

    /// Several pushes in one second still get strictly rising timestamps, start included.
    @Test func timestampsRiseWithinOneSecondInEveryMode() {
        for mode in [PushRenderer.Mode.token, .broadcast(channelId: Self.channel)] {
            var renderer = Self.renderer(mode, start: mode == .token)
            var stamps: [Int] = []
            for at in [0.0, 0.1, 0.2, 0.9, 1.0, 7.5] {
                stamps += outputs(&renderer, quiet, at: at).map(\.timestamp)
            }
            #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "\(stamps)")
            #expect(stamps.last == Self.sent + 7)
        }
    }

    @Test func theEngineSendsTheStartFirst() async throws {
        let sink = RecordingSink()
        let engine = MatchEngine(
            attributes: Make.attributes, clock: ManualClock(Make.start), sink: sink, policy: EveryChangePolicy(),
            renderer: .init(start: true))
        try await engine.receive(Make.event(1, .periodStart, period: 1, clock: 720), index: 0)
        try await engine.receive(Make.event(2, .fieldGoal(points: 2, made: true), team: .home, clock: 700), index: 1)
        let records = await sink.records
        #expect(records.map(\.event) == [.start, .update])
        #expect(records.map(\.seq) == [1, 2])
        #expect(records[0].state.period == 1, "the start carries the state it was decided for")
        #expect(records[1].diff.contains(.homeScore), "the start does not swallow the next diff")
    }

    /// The replayed requests of a whole game are identical run after run, in both modes.
    @Test(arguments: ["token", "broadcast"])
    func replayedRequestsMatchTheContract(mode: String) async throws {
        let file = try #require(Make.fixtureFiles().first { !$0.hasPrefix("edge/") })
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        let configuration = PushRenderer.Configuration(
            bundleId: Self.bundleId, mode: mode == "token" ? .token : .broadcast(channelId: Self.channel),
            start: mode == "token")
        let sink = RecordingSink()
        _ = try await Replay(renderer: configuration).run(document, sink: sink)
        let records = await sink.records
        #expect(records.first?.event == (mode == "token" ? .start : .update))
        #expect(records.last?.event == .end)
        #expect(records.map(\.seq) == Array(1...records.count))
        #expect(Set(records.map { $0.request.headers["apns-id"] }).count == records.count)
        for record in records {
            #expect(record.payload.count <= configuration.payloadLimit)
            #expect(record.request.headers["apns-push-type"] == "liveactivity")
            #expect(record.request.headers["apns-priority"] == String(record.priority))
            if mode == "broadcast" {
                #expect(record.request.path == "/4/broadcasts/apps/com.example.app")
                #expect(record.request.headers["apns-expiration"] == "0")
            } else {
                #expect(record.request.path == "/3/device/{token}")
                #expect(record.request.headers["apns-topic"] == "com.example.app.push-type.liveactivity")
            }
        }
    }
}

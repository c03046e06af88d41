import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("Rendering APNs requests")
struct PushRendererTests {
    let update = Push(event: .update, priority: 10, reason: "score")

    func render(
        _ renderer: inout PushRenderer, _ push: Push, state: GameState = Make.live, at seconds: Double = 0.5
    ) throws -> PushRecord {
        try renderer.render(
            push, state: state, diff: Diff(), coalesced: 1, sentAt: Make.start.addingTimeInterval(seconds),
            sourceTime: Make.start)
    }

    @Test func headersInTokenMode() throws {
        var renderer = PushRenderer(attributes: Make.attributes, configuration: .init(bundleId: "com.acme.scores"))
        let record = try render(&renderer, update)
        #expect(record.request.method == "POST")
        #expect(record.request.path == "/3/device/{token}")
        #expect(record.request.headers["apns-push-type"] == "liveactivity")
        #expect(record.request.headers["apns-topic"] == "com.acme.scores.push-type.liveactivity")
        #expect(record.request.headers["apns-priority"] == "10")
        #expect(record.request.headers["apns-expiration"] == String(Int(Make.start.timeIntervalSince1970) + 3600))
        #expect(record.request.headers["apns-id"] == RequestID.uuid(for: record))
        #expect(record.activity == "TEST1")
        #expect(record.seq == 1)
    }

    /// A record shares its fields between copies (copy on write): a copy changed is its own, and
    /// printing one shows its fields, not its storage.
    @Test func aRecordsCopyChangesAloneAndPrintsItsFields() throws {
        var renderer = PushRenderer(attributes: Make.attributes)
        let record = try render(&renderer, update)
        var copy = record
        copy.seq = 99
        copy.request.headers["apns-id"] = "other"
        #expect(record.seq == 1 && copy.seq == 99)
        #expect(record.request.headers["apns-id"] == RequestID.uuid(for: record))
        #expect(record != copy)
        copy.seq = 1
        copy.request.headers["apns-id"] = record.request.headers["apns-id"]
        #expect(record == copy && record.hashValue == copy.hashValue)
        let printed = "\(record)"
        #expect(printed.hasPrefix("PushRecord(activity: \"TEST1\", game: ") && !printed.contains("storage"), "\(printed)")
    }

    @Test func payloadHasTimestampStaleDateAndDecodableContentState() throws {
        var renderer = PushRenderer(attributes: Make.attributes)
        var state = Make.live
        state.clock = .running(endsAt: Date(timeIntervalSinceReferenceDate: 760_000_123.25))
        let record = try render(&renderer, update, state: state)
        let aps = try Make.aps(record)
        #expect(aps["timestamp"] as? Int == Int(Make.start.timeIntervalSince1970))
        #expect(aps["event"] as? String == "update")
        #expect(aps["stale-date"] as? Int == Int(Make.start.timeIntervalSince1970) + 300)
        #expect(aps["dismissal-date"] == nil)
        #expect(aps["alert"] == nil)
        let relevance = try #require(aps["relevance-score"] as? Double)
        #expect((0...100).contains(relevance))
        // The device decodes content-state with a default JSONDecoder.
        let contentState = try JSONSerialization.data(withJSONObject: try #require(aps["content-state"]))
        let decoded = try JSONDecoder().decode(GameState.self, from: contentState)
        #expect(decoded == state)
    }

    @Test func timestampsStrictlyIncreaseWithinOneSecond() throws {
        var renderer = PushRenderer(attributes: Make.attributes)
        let stamps = try [0.1, 0.2, 0.3, 5.0, 5.1].map { try render(&renderer, update, at: $0).timestamp }
        let base = Int(Make.start.timeIntervalSince1970)
        #expect(stamps == [base, base + 1, base + 2, base + 5, base + 6])
        #expect(try render(&renderer, update, at: 5.2).seq == 6)
    }

    @Test func endCarriesDismissalDateAndFinalAlert() throws {
        var renderer = PushRenderer(attributes: Make.attributes, configuration: .init(dismissAfter: 99_999))
        var state = Make.live
        state.phase = .final
        state.homeScore = 101
        state.awayScore = 100
        let record = try render(&renderer, Push(event: .end, priority: 10, alert: .final, reason: "final"), state: state)
        let aps = try Make.aps(record)
        #expect(aps["event"] as? String == "end")
        #expect(aps["dismissal-date"] as? Int == Int(Make.start.timeIntervalSince1970) + 4 * 3600, "capped at 4 h")
        #expect(aps["stale-date"] == nil)
        let alert = try #require(aps["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Final: SAC 100 – DAL 101")
        #expect((alert["body"] as? String)?.isEmpty == false)
    }

    @Test func noAlertOnPriorityFive() throws {
        let push = Push(event: .update, priority: 5, alert: .leadChange, reason: "x")
        #expect(push.alert == nil)
        var renderer = PushRenderer(attributes: Make.attributes)
        #expect(try Make.aps(try render(&renderer, push))["alert"] == nil)
    }

    @Test func oversizedTextIsTrimmedThenRefused() throws {
        var state = Make.live
        state.lastPlay = String(repeating: "🏀", count: 2000)
        var renderer = PushRenderer(attributes: Make.attributes)
        let record = try render(&renderer, update, state: state)
        #expect(record.payload.count <= 4096)
        #expect(record.state.lastPlay?.hasSuffix("…") == true, "shortened on a character boundary")
        // A limit nothing fits in is refused, and seq does not advance.
        var tiny = PushRenderer(attributes: Make.attributes, configuration: .init(payloadLimit: 50))
        #expect(throws: ScoreFeedError.self) { try render(&tiny, update) }
        #expect(tiny.seq == 0)
    }

    @Test func requestIDsAreDeterministicAndDistinct() {
        let a = RequestID.uuid(activity: "G1", seq: 1)
        #expect(a == RequestID.uuid(activity: "G1", seq: 1))
        #expect(a != RequestID.uuid(activity: "G1", seq: 2))
        #expect(a != RequestID.uuid(activity: "G2", seq: 1))
        #expect(UUID(uuidString: a) != nil)
        let ids = Set((1...5000).map { RequestID.uuid(activity: "G", seq: $0) })
        #expect(ids.count == 5000)
    }

    @Test func jsonLineIsOneObjectWithThePayloadVerbatim() throws {
        var renderer = PushRenderer(attributes: Make.attributes)
        let diff = Diff([.init(.homeScore, .int(88), .int(91))])
        let record = try renderer.render(
            update, state: Make.live, diff: diff, coalesced: 3, sentAt: Make.start.addingTimeInterval(0.5),
            sourceTime: Make.start)
        let line = record.jsonLine()
        #expect(!line.contains(0x0A))
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        for key in ["activity", "game", "seq", "event", "priority", "sentAt", "sourceTime", "coalesced", "request", "payload", "diff"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["sentAt"] as? Double == Make.start.timeIntervalSince1970 + 0.5)
        #expect(object["coalesced"] as? Int == 3)
        #expect((object["diff"] as? [String: Any])?["homeScore"] as? [Int] == [88, 91])
        #expect(String(decoding: line, as: UTF8.self).contains(String(decoding: record.payload, as: UTF8.self)))
    }
}

import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("Size guard: adversarial text is trimmed on character boundaries, or the push refused")
struct SizeGuardTests {
    /// Long and hostile text: multi-byte, multi-scalar characters, escapes that grow in JSON.
    /// Named, so the test log shows the name and not kilobytes of text.
    struct Text: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var testDescription: String { name }
    }

    static let adversarial: [Text] = [
        Text(name: "emoji", text: String(repeating: "🏀", count: 3000)),
        Text(name: "ZWJ families", text: String(repeating: "👨‍👩‍👧‍👦", count: 600)),     // 25 bytes each
        Text(name: "flags", text: String(repeating: "🇺🇸🇨🇦", count: 700)),           // regional-indicator pairs
        Text(name: "combining accents", text: String(repeating: "Jokić e\u{301} ", count: 900)),
        Text(name: "one giant grapheme", text: "Z" + String(repeating: "\u{36B}\u{33E}\u{35C}", count: 1500)),
        Text(name: "JSON escapes", text: String(repeating: "\"\\\n\u{0}\u{1F}", count: 1500)),   // up to 6 bytes per byte
        Text(name: "right-to-left", text: String(repeating: "محمد صلاح ", count: 500)),
        Text(name: "CJK", text: String(repeating: "姚明 ", count: 2000)),
        Text(name: "long play text", text: String(repeating: "Giannis Antetokounmpo 3PT jumper (Middleton assists) ", count: 120)),
    ]

    static let update = Push(event: .update, priority: 10, reason: "score")
    static let final = Push(event: .end, priority: 10, alert: .final, reason: "final")

    func outputs(
        _ renderer: inout PushRenderer, _ push: Push, state: GameState
    ) -> [PushRenderer.Output] {
        renderer.outputs(
            for: push, state: state, diff: Diff([.init(.lastPlay, .null, state.lastPlay.map { .text($0) } ?? .null)]),
            coalesced: 1, sentAt: Make.start, sourceTime: Make.start)
    }

    func record(_ output: PushRenderer.Output?) throws -> PushRecord {
        guard case .push(let record) = try #require(output) else {
            Issue.record("expected a push, got \(String(describing: output))")
            throw ScoreFeedError(.invalidValue, "not a push")
        }
        return record
    }

    /// `shown` is `original` cut after some whole characters, with an ellipsis.
    func isCharacterPrefix(_ shown: String, of original: String) -> Bool {
        guard shown.hasSuffix("…") else { return false }
        return Array(original).starts(with: Array(shown.dropLast()))
    }

    static let modes: [PushRenderer.Mode] = [.token, .broadcast(channelId: "dGVzdA==")]

    @Test(arguments: adversarial, modes)
    func lastPlayIsTrimmedFirst(_ adversarial: Text, mode: PushRenderer.Mode) throws {
        let text = adversarial.text
        var renderer = PushRenderer(attributes: Make.attributes, configuration: .init(mode: mode))
        var state = Make.live
        state.lastPlay = text
        let record = try record(outputs(&renderer, Self.update, state: state).first)
        for serialization in PayloadSerialization.allCases {
            #expect(try serialization.size(of: record.payload) <= mode.payloadLimit, "\(serialization)")
        }
        #expect(record.trimmed == ["lastPlay"])
        if let shown = record.state.lastPlay {
            #expect(isCharacterPrefix(shown, of: text))
            // As much as fits (in the largest serialization the guard covers): one more character
            // of the largest kind here would not.
            #expect(try PayloadSerialization.sizes(of: record.payload).largest.bytes > mode.payloadLimit - 200)
        } else {
            #expect(Array(text).first.map { String($0).utf8.count } ?? 0 > 1000, "only a giant character is dropped whole")
        }
        // The device still decodes it, and the record's diff says what was shown.
        let contentState = try JSONSerialization.data(withJSONObject: try #require(try Make.aps(record)["content-state"]))
        #expect(try JSONDecoder().decode(GameState.self, from: contentState) == record.state)
        #expect(record.diff[.lastPlay]?.new == (record.state.lastPlay.map { .text($0) } ?? .null))
    }

    @Test(arguments: adversarial)
    func longTeamNamesTrimTheAlertAfterTheLastPlay(_ adversarial: Text) throws {
        let text = adversarial.text
        var attributes = Make.attributes
        attributes.home.city = text
        attributes.home.name = text
        var renderer = PushRenderer(attributes: attributes)
        var state = Make.live
        state.phase = .final
        state.homeScore = 101
        state.awayScore = 99
        state.lastPlay = "L. Dončić 3PT 🏀 " + text
        let record = try record(outputs(&renderer, Self.final, state: state).first)
        #expect(record.payload.count <= 4096)
        #expect(record.trimmed.first == "lastPlay", "the least important text goes first")
        #expect(record.trimmed.contains("alert.body"))
        #expect(!record.trimmed.contains("alert.title"), "the title is short enough once the rest is trimmed")
        let alert = try #require(try Make.aps(record)["alert"] as? [String: Any])
        #expect(alert["title"] as? String == "Final: SAC 99 – DAL 101")
        let body = try #require(alert["body"] as? String)
        #expect(body.isEmpty || isCharacterPrefix(body, of: "\(text) \(text) win."))
        #expect(record.state.homeScore == 101, "scores are never touched")
    }

    @Test func aPushToStartTrimsItsAttributesLast() throws {
        var attributes = Make.attributes
        attributes.league = String(repeating: "🏆", count: 400)
        attributes.away.city = String(repeating: "Sacramento ", count: 200)
        attributes.home.name = String(repeating: "Mavs 🐴 ", count: 300)
        var renderer = PushRenderer(attributes: attributes, configuration: .init(start: true))
        var state = Make.live
        state.lastPlay = String(repeating: "🏀", count: 100)
        let first = outputs(&renderer, Self.update, state: state)
        #expect(first.count == 1, "the start carries the present state")
        let start = try record(first.first)
        #expect(start.event == .start)
        #expect(start.payload.count <= 4096)
        #expect(start.trimmed.first == "lastPlay")
        #expect(start.trimmed.contains { $0.hasPrefix("attributes.") })
        let sent = try JSONDecoder().decode(
            GameAttributes.self, from: JSONSerialization.data(withJSONObject: try #require(try Make.aps(start)["attributes"])))
        #expect(sent.gameId == attributes.gameId)
        #expect(sent.home.id == attributes.home.id && sent.home.tricode == "DAL" && sent.away.tricode == "SAC")
        #expect(sent.home.primaryColor == attributes.home.primaryColor)
        let update = try record(outputs(&renderer, Self.update, state: state).last)
        #expect(update.event == .update)
        #expect(update.seq == 2)
    }

    /// Identifiers are never trimmed: a push-to-start with an enormous tricode cannot fit and is
    /// refused with an error record, takes no seq, and the update still goes out.
    @Test func whatCannotFitIsRefusedAndTheGameGoesOn() async throws {
        var attributes = Make.attributes
        attributes.home.tricode = String(repeating: "🏀", count: 1100)
        let sink = RecordingSink()
        let engine = MatchEngine(
            attributes: attributes, clock: ManualClock(Make.start), sink: sink, policy: EveryChangePolicy(),
            renderer: .init(start: true))
        try await engine.receive(Make.event(1, .periodStart, period: 1, clock: 720), index: 0)
        try await engine.receive(Make.event(2, .fieldGoal(points: 2, made: true), team: .home, clock: 700), index: 1)
        let refusals = await sink.refusals
        let records = await sink.records
        #expect(refusals.count == 1)
        let refusal = try #require(refusals.first)
        #expect(refusal.event == .start)
        #expect(refusal.error.code == .payloadTooLarge)
        #expect(refusal.bytes > refusal.limit)
        #expect(refusal.limit == 4096)
        #expect(records.map(\.event) == [.update, .update])
        #expect(records.map(\.seq) == [1, 2], "a refusal takes no seq")
        #expect(records.allSatisfy { $0.payload.count <= 4096 })
        #expect(await engine.statistics.refused == 1)

        // Its JSON line cannot be mistaken for a request.
        let line = try #require(try JSONSerialization.jsonObject(with: refusal.jsonLine()) as? [String: Any])
        let error = try #require(line["error"] as? [String: Any])
        #expect(error["code"] as? String == "payload-too-large")
        #expect((error["message"] as? String)?.contains("not sent") == true)
        #expect(error["bytes"] as? Int == refusal.bytes)
        #expect(line["seq"] is NSNull)
        #expect(line["request"] == nil && line["payload"] == nil)
        #expect(line["activity"] as? String == "TEST1")
    }

    @Test func aLimitNothingFitsInRefusesEveryPush() {
        var renderer = PushRenderer(attributes: Make.attributes, configuration: .init(payloadLimit: 200))
        let outputs = outputs(&renderer, Self.update, state: Make.live)
        guard case .refused(let refusal)? = outputs.first else {
            Issue.record("expected a refusal")
            return
        }
        #expect(outputs.count == 1)
        #expect(refusal.limit == 200)
        #expect(renderer.seq == 0)
        #expect(renderer.lastTimestamp == 0, "a refused push does not move the timestamp either")
    }
}

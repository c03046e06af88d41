import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("Replaying every shipped fixture")
struct ReplayTests {
    static let files = Make.fixtureFiles()

    func replay(_ file: String, strict: Bool = false) async throws -> (ReplaySummary, [PushRecord]) {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        let sink = RecordingSink()
        let summary = try await Replay(strict: strict).run(document, sink: sink)
        return (summary, await sink.records)
    }

    @Test func shipsFourFullGames() throws {
        let full = Self.files.filter { !$0.hasPrefix("edge/") }
        #expect(full.count >= 4)
        let finals = try full.map { try FeedReader.read(path: Make.fixtures.appendingPathComponent($0).path) }
        for (file, document) in zip(full, finals) {
            #expect(document.events.count >= 400, "\(file) is a full game")
        }
        #expect(finals.contains { $0.events.contains { $0.period >= 5 } }, "an overtime game")
        #expect(finals.contains { $0.finalScore.map { abs($0.home - $0.away) == 1 } ?? false }, "a one-point game")
        #expect(finals.contains { $0.events.contains { if case .correction = $0.kind { true } else { false } } }, "a score correction")
    }

    @Test(arguments: files)
    func emitsOnlyValidRecords(file: String) async throws {
        let (summary, records) = try await replay(file)
        try #require(!records.isEmpty)
        #expect(records.map(\.seq) == Array(1...records.count), "seq rises by one")
        for (a, b) in zip(records, records.dropFirst()) {
            #expect(a.timestamp < b.timestamp, "aps.timestamp strictly increases (seq \(b.seq))")
        }
        for record in records {
            #expect(record.payload.count <= 4096)
            let line = record.jsonLine()
            #expect(!line.contains(0x0A))
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            let payload = try #require(object["payload"] as? [String: Any])
            let aps = try #require(payload["aps"] as? [String: Any])
            #expect(aps["timestamp"] as? Int == record.timestamp)
            let contentState = try JSONSerialization.data(withJSONObject: try #require(aps["content-state"]))
            #expect(try JSONDecoder().decode(GameState.self, from: contentState) == record.state)
        }
        let last = try #require(records.last)
        #expect(last.event == .end, "the last record ends the activity")
        Make.expectOneFinal(records)
        #expect(summary.ended)
        if let final = summary.expectedFinal {
            #expect(last.state.homeScore == final.home)
            #expect(last.state.awayScore == final.away)
            #expect(last.state.phase == .final)
        }
        if !file.contains("rejections") {
            #expect(summary.rejected.isEmpty, "\(summary.rejected.first?.description ?? "")")
        }
    }

    @Test func replayIsDeterministic() async throws {
        let file = try #require(Self.files.first { !$0.hasPrefix("edge/") })
        let (_, first) = try await replay(file)
        let (_, second) = try await replay(file)
        #expect(first.map { $0.jsonLine() } == second.map { $0.jsonLine() })
    }

    @Test func rejectionsAreReportedInFeedOrderAndTheGameGoesOn() async throws {
        let file = "edge/rejections.json"
        try #require(Self.files.contains(file))
        let (summary, records) = try await replay(file)
        #expect(summary.rejected.count >= 6)
        #expect(summary.duplicates.count >= 1)
        let indices = summary.rejected.compactMap(\.location.eventIndex)
        #expect(indices == indices.sorted())
        #expect(summary.rejected.allSatisfy { $0.location.file?.hasSuffix(file) == true && $0.location.eventIndex != nil })
        #expect(summary.finalMatches)
        #expect(records.last?.event == .end)
    }

    @Test func strictStopsAtTheFirstRejection() async throws {
        let file = "edge/rejections.json"
        try #require(Self.files.contains(file))
        await #expect(throws: ScoreFeedError.self) { try await replay(file, strict: true) }
    }

    @Test func feedWithoutGameEndStillSendsTheLastState() async throws {
        let events = [
            Make.event(1, .periodStart, period: 1, clock: 720),
            Make.event(2, .fieldGoal(points: 2, made: true), team: .home, clock: 700),
            Make.event(3, .rebound(offensive: false), team: .away, clock: 690),
        ]
        let sink = RecordingSink()
        let summary = try await Replay().run(FeedDocument(attributes: Make.attributes, events: events), sink: sink)
        #expect(!summary.ended)
        let records = await sink.records
        #expect(records.last?.state.possession == .away, "the held change is flushed at the end of the feed")
        #expect(records.last?.event == .update)
    }

    /// The push-to-start goes at priority 10 (Apple wants an alert on it): the budget counts it.
    @Test func thePushToStartCountsAgainstTheBudget() async throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("one-point.json").path)
        var configuration = Coalescer.Configuration.standard.withBudget(3)
        configuration.threshold = 0
        let sink = RecordingSink()
        _ = try await Replay(policy: Coalescer(configuration: configuration), renderer: .init(start: true)).run(document, sink: sink)
        let records = await sink.records
        #expect(records.first?.event == .start && records.first?.priority == 10)
        let tens = records.filter { $0.priority == 10 }.map(\.sentAt)
        for t in tens {
            #expect(tens.filter { $0 > t.addingTimeInterval(-3600) && $0 <= t }.count <= 3, "rolling hour at \(t)")
        }
    }
}

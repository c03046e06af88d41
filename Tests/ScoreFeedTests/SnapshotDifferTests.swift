import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("Live snapshots: only what is new, changed or deleted")
struct SnapshotDifferTests {
    typealias Live = NBAFormatLiveDataTests

    /// Actions as one poll's body.
    static func snapshot(_ actions: [[String: Any]]) -> Data {
        Live.file(actions)
    }

    /// The differ after a first snapshot of the short game's first five actions (score 5-3).
    static func primed() throws -> (SnapshotDiffer, [[String: Any]]) {
        var differ = SnapshotDiffer()
        let first = Array(Live.short.prefix(5))
        let diff = try differ.next(snapshot(first))
        #expect(diff.added.map(\.seq) == [2, 4, 7, 9, 12])
        #expect(diff.events.map(\.seq) == [2, 4, 7, 9, 12] && diff.corrections.isEmpty)
        #expect(diff.score == FinalScore(home: 5, away: 3))
        return (differ, first)
    }

    @Test func anUnchangedSnapshotYieldsNothing() throws {
        var (differ, first) = try Self.primed()
        let diff = try differ.next(Self.snapshot(first))
        #expect(diff.isEmpty && diff.events.isEmpty)
    }

    @Test func aMakeTurnedMissIsAChangeAndACorrection() throws {
        var (differ, actions) = try Self.primed()
        actions[2]["shotResult"] = "Missed"
        for i in 2..<actions.count { actions[i]["scoreHome"] = String(Int(actions[i]["scoreHome"] as! String)! - (i >= 2 ? 2 : 0)) }
        let diff = try differ.next(Self.snapshot(actions))
        #expect(diff.changed.map(\.seq) == [7] && diff.added.isEmpty && diff.deleted.isEmpty)
        #expect(diff.events.map(\.kind) == [.correction(points: -2)] && diff.events.first?.team == .home)
        #expect(diff.score == FinalScore(home: 3, away: 3))
    }

    @Test func aDeletedBasketIsAScoreCorrection() throws {
        var (differ, actions) = try Self.primed()
        actions.remove(at: 3)  // SAC's 3
        actions[3]["scoreAway"] = "0"
        let diff = try differ.next(Self.snapshot(actions))
        #expect(diff.deleted.map(\.seq) == [9] && diff.changed.isEmpty)
        #expect(diff.corrections.map(\.kind) == [.correction(points: -3)] && diff.corrections.first?.team == .away)
        #expect(diff.score == FinalScore(home: 5, away: 0))
    }

    @Test func aTwoThatBecomesAThreeIsAOnePointCorrection() throws {
        var (differ, actions) = try Self.primed()
        actions[2]["actionType"] = "3pt"
        actions[2]["scoreHome"] = "3"
        actions[3]["scoreHome"] = "3"
        actions[4]["scoreHome"] = "6"
        let diff = try differ.next(Self.snapshot(actions))
        #expect(diff.changed.map(\.seq) == [7])
        #expect(diff.events.map(\.kind) == [.correction(points: 1)])
        #expect(diff.score == FinalScore(home: 6, away: 3))
    }

    @Test func anInsertedActionIsAddedInFeedOrderAndAnEditedTextIsNotResent() throws {
        var (differ, actions) = try Self.primed()
        actions.insert(Live.action(20, "turnover", "bad pass", order: 75_000, clock: "PT11M20.00S", team: Live.sac, home: 2), at: 3)
        actions.append(Live.action(21, "2pt", "Layup", clock: "PT10M20.00S", time: "2025-02-11T01:43:00.0Z", team: Live.sac, home: 5, away: 5, result: "Made"))
        actions[1]["description"] = "Jump Ball (edited)"
        let diff = try differ.next(Self.snapshot(actions))
        #expect(diff.added.map(\.seq) == [20, 21])
        #expect(diff.changed.map(\.seq) == [4], "later actions pushed to the inserted one's time are not changes")
        #expect(diff.events.map(\.seq) == [20, 21], "a text edit is reported, not sent again")
        #expect(diff.corrections.isEmpty && diff.score == FinalScore(home: 5, away: 5))
    }

    @Test func aBasketInsertedIntoAnEarlierPeriodComesAsACorrection() throws {
        var (differ, actions) = try Self.primed()
        actions.append(Live.action(30, "period", "start", period: 2, clock: "PT12M00.00S", time: "2025-02-11T02:00:00.0Z", home: 5, away: 3))
        _ = try differ.next(Self.snapshot(actions))
        actions.insert(Live.action(13, "2pt", "Dunk", order: 125_000, clock: "PT10M40.00S", team: Live.sac, home: 5, away: 5, result: "Made"), at: 5)
        actions[6]["scoreAway"] = "5"
        let diff = try differ.next(Self.snapshot(actions))
        #expect(diff.added.map(\.seq) == [13])
        #expect(diff.events.map(\.kind) == [.correction(points: 2)] && diff.events.first?.period == 2,
                "the engine would refuse a period-1 event in period 2; its points still arrive")
        #expect(diff.score == FinalScore(home: 5, away: 5))
    }

    @Test func theFeedsScoreWinsWhenNoActionExplainsIt() throws {
        var (differ, actions) = try Self.primed()
        actions[4]["scoreHome"] = "6"  // a point with no action behind it
        let diff = try differ.next(Self.snapshot(actions))
        #expect(diff.changed.isEmpty && diff.added.isEmpty)
        #expect(diff.events.map(\.kind) == [.correction(points: 1)] && diff.events.first?.team == .home)
        #expect(diff.score == FinalScore(home: 6, away: 3))
    }

    @Test func theEngineFedWithTheDiffsShowsTheFeedsScore() async throws {
        var differ = SnapshotDiffer()
        var actions = Array(Live.short.prefix(5))
        var events = try differ.next(Self.snapshot(actions)).events
        actions[2]["shotResult"] = "Missed"
        for i in 2..<actions.count { actions[i]["scoreHome"] = String(Int(actions[i]["scoreHome"] as! String)! - 2) }
        events += try differ.next(Self.snapshot(actions)).events
        let rest = Live.short.dropFirst(5).map { action -> [String: Any] in
            var action = action
            action["scoreHome"] = String(Int(action["scoreHome"] as! String)! - 2)
            return action
        }
        events += try differ.next(Self.snapshot(actions + rest)).events
        let sink = RecordingSink()
        let document = FeedDocument(attributes: try #require(differ.attributes), events: events)
        let summary = try await Replay().run(document, sink: sink)
        #expect(summary.rejected.isEmpty && summary.ended)
        let last = try #require(await sink.records.last)
        #expect(last.event == .end && last.state.homeScore == 3 && last.state.awayScore == 3)
    }

    /// Real games cut into growing prefixes, as a poller would see them: every action arrives
    /// exactly once, nothing is changed or deleted, the score after every poll is the feed's, and
    /// the engine fed with the diffs ends on the final.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason), arguments: NBAFiles.games.filter { $0.hasPrefix("playbyplay_") })
    func growingPrefixesOfARealGame(file: String) async throws {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file)))) as? [String: Any])
        let game = try #require(root["game"] as? [String: Any])
        let actions = try #require(game["actions"] as? [[String: Any]])
            .sorted { ($0["orderNumber"] as! Double) < ($1["orderNumber"] as! Double) }
        var differ = SnapshotDiffer()
        var events: [GameEvent] = []
        var seen: [Int] = []
        var cuts = Array(stride(from: 1, to: actions.count, by: 37))
        cuts.append(actions.count)
        for cut in cuts {
            let prefix = Array(actions.prefix(cut))
            let body = try JSONSerialization.data(withJSONObject: ["meta": root["meta"] ?? [:], "game": ["gameId": game["gameId"]!, "actions": prefix]])
            let diff = try differ.next(body)
            #expect(diff.changed.isEmpty && diff.deleted.isEmpty && diff.corrections.isEmpty, "\(file) at \(cut)")
            seen += diff.added.map(\.seq)
            events += diff.events
            let stated = prefix.last { Int($0["scoreHome"] as? String ?? "") != nil }
            if let stated {
                #expect(diff.score == FinalScore(home: Int(stated["scoreHome"] as! String)!, away: Int(stated["scoreAway"] as! String)!))
            }
        }
        #expect(seen.count == actions.count && Set(seen).count == actions.count)
        let oracle = try NBAFiles.oracle(file)
        let document = FeedDocument(attributes: try #require(differ.attributes), events: events)
        let sink = RecordingSink()
        let summary = try await Replay().run(document, sink: sink)
        #expect(summary.rejected.isEmpty && summary.ended)
        let end = try #require(await sink.records.last)
        #expect(FinalScore(home: end.state.homeScore, away: end.state.awayScore) == oracle.final)
        #expect(document.attributes.home.tricode == (try FeedReader.read(path: NBAFiles.path(file))).attributes.home.tricode)
    }
}

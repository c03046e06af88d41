import Foundation
import Testing
@testable import ScoreFeed

/// A poller reads each copy of a play-by-play after the last one (``LiveSnapshot/Memo``): the
/// actions it repeats are not read, mapped or handed again. That changes nothing it hands.
@Suite("poll: reading a copy after the last one changes nothing handed", .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct PollMemoTests {
    typealias Mode = RealFeedServeTests.Mode

    /// A real game's copies with an early action edited half way (a rebound's kind) and a late
    /// insert that sorts first for a while, polled as the CDN spells them (each copy repeats the
    /// last one's bytes) and with the first action spelled anew each time (each copy read whole):
    /// the same records and the same figures, the edit and the insert handed.
    @Test(arguments: zip(
        ["playbyplay_0022000001.json", "playbyplay_0022400723.json", "playbyplay_0022000001.json", "playbyplay_0022400723.json"],
        [Mode.token, .broadcast, .androidBroadcast, .androidToken]))
    func copiesReadAfterTheLastOneHandWhatCopiesReadWholeHand(_ file: String, _ mode: Mode) async throws {
        let game = try #require(NBAFiles.gameId(in: file))
        let copies = try GameCopies.of(file)
        let rebound = try #require(copies.actions.firstIndex { $0["actionType"] as? String == "rebound" })
        var edited = copies.actions[rebound]
        edited["subType"] = edited["subType"] as? String == "offensive" ? "defensive" : "offensive"
        var inserted = copies.actions[rebound]
        inserted["actionNumber"] = 90_000
        inserted["orderNumber"] = 1
        let steps = 40
        /// The copy at `step`; `anew`, with its first action spelled unlike the copy before's.
        func copy(_ step: Int, anew: Bool) throws -> Data {
            var replaced = step >= steps / 2 ? [rebound: edited] : [:]
            if anew { replaced[0] = copies.actions[0].merging(["spelling": step]) { $1 } }
            return try copies.copy(at: Double(step) / Double(steps), replacing: replaced, adding: (25..<35).contains(step) ? [inserted] : [])
        }
        let plan = try (0...steps).map { try copy($0, anew: false) }
        let whole = try (0...steps).map { try copy($0, anew: true) }
        let read = try await StaleCopyPollTests.poll(StaleCopyPollTests.edge(plan), game: game, mode: mode)
        let readWhole = try await StaleCopyPollTests.poll(StaleCopyPollTests.edge(whole), game: game, mode: mode)
        #expect(read.records.map { $0.jsonLine() } == readWhole.records.map { $0.jsonLine() })
        #expect(read.statistics == readWhole.statistics)
        #expect(read.statistics.edits >= 1, "the edit was handed")
        let last = try #require(read.records.last)
        let final = try #require(RealFeedServeTests.imported(file).finalScore)
        #expect(last.event == .end && last.state.homeScore == final.home && last.state.awayScore == final.away)
    }

    /// The same game with every seventh action's `timeActual` gone (as real feeds sometimes have
    /// it), so their times are estimated between their neighbours' and a later copy's anchor moves
    /// them: the memo extends the last copy's estimate, and hands what copies read whole hand.
    @Test(arguments: zip(
        ["playbyplay_0022000001.json", "playbyplay_0022400723.json", "playbyplay_0022000001.json", "playbyplay_0022400723.json"],
        [Mode.broadcast, .token, .androidToken, .androidBroadcast]))
    func copiesWithTimesMissingHandWhatCopiesReadWholeHand(_ file: String, _ mode: Mode) async throws {
        let game = try #require(NBAFiles.gameId(in: file))
        let copies = try GameCopies.of(file)
        var untimed: [Int: [String: Any]] = [:]
        for index in copies.actions.indices where index % 7 == 3 {
            var action = copies.actions[index]
            action["timeActual"] = nil
            untimed[index] = action
        }
        let steps = 40
        // Written once: each of the 82 copies takes the same untimed actions.
        let untimedBytes = try GameCopies.written(untimed)
        func copy(_ step: Int, anew: Bool) throws -> Data {
            var replaced = untimedBytes
            if anew { replaced[0] = try JSONSerialization.data(withJSONObject: copies.actions[0].merging(["spelling": step]) { $1 }) }
            return copies.copy(at: Double(step) / Double(steps), replacingBytes: replaced)
        }
        let read = try await StaleCopyPollTests.poll(StaleCopyPollTests.edge(try (0...steps).map { try copy($0, anew: false) }), game: game, mode: mode)
        let readWhole = try await StaleCopyPollTests.poll(StaleCopyPollTests.edge(try (0...steps).map { try copy($0, anew: true) }), game: game, mode: mode)
        #expect(read.records.map { $0.jsonLine() } == readWhole.records.map { $0.jsonLine() })
        #expect(read.statistics == readWhole.statistics)
        let last = try #require(read.records.last)
        let final = try #require(RealFeedServeTests.imported(file).finalScore)
        #expect(last.event == .end && last.state.homeScore == final.home && last.state.awayScore == final.away)
    }

    /// What the memo fuzz target (`Tests/Fuzz/run.sh memo`) checks, on its seeds: each real
    /// game's first actions as copies read one after the other with one memo give, copy by copy,
    /// what each copy gives read alone: a copy that grows, one that shrinks (a stale edge's),
    /// one with an action edited, one with an action's time gone, one with an action inserted out
    /// of order and then more.
    @Test(arguments: NBAFiles.games.filter { $0.hasPrefix("playbyplay_") })
    func copiesReadAfterOneAnotherGiveWhatEachGivesAlone(_ file: String) throws {
        let copies = try GameCopies.of(file)
        let actions = Array(copies.actions.prefix(30))
        try #require(actions.count == 30)
        // Keys sorted: each copy spells the actions it shares with the last one as it did.
        func text(_ items: [[String: Any]], minute: Int) throws -> Data {
            try JSONSerialization.data(withJSONObject: [
                "meta": ["version": 1, "time": GameCopies.metaTime(1_735_779_600 + 60 * Double(minute))],
                "game": ["gameId": NBAFiles.gameId(in: file) ?? "", "actions": items],
            ], options: .sortedKeys)
        }
        var edited = Array(actions.prefix(24)), untimed = Array(actions.prefix(24)), inserted = Array(actions.prefix(22))
        edited[18]["subType"] = "edited"
        untimed[10]["timeActual"] = nil
        var extra = actions[5]
        extra["actionNumber"] = 90_000
        extra["orderNumber"] = 1
        inserted.append(extra)
        let sequences: [[Data]] = [
            [try text(Array(actions.prefix(20)), minute: 1), try text(Array(actions.prefix(24)), minute: 2)],
            [try text(Array(actions.prefix(24)), minute: 2), try text(Array(actions.prefix(20)), minute: 1)],
            [try text(Array(actions.prefix(20)), minute: 1), try text(edited, minute: 2)],
            [try text(Array(actions.prefix(20)), minute: 1), try text(untimed, minute: 2)],
            [try text(Array(actions.prefix(20)), minute: 1), try text(inserted, minute: 2), try text(Array(actions.prefix(26)), minute: 3)],
        ]
        for (index, sequence) in sequences.enumerated() {
            var memo = LiveSnapshot.Memo()
            for (step, copy) in sequence.enumerated() {
                let alone = try LiveSnapshot.decode(playByPlay: copy, url: file, boxscore: nil, box: nil, homeTeamId: nil)
                let after = try LiveSnapshot.decode(playByPlay: copy, url: file, boxscore: nil, box: nil, homeTeamId: nil, memo: &memo)
                let place = "sequence \(index), copy \(step)"
                #expect(!alone.events.isEmpty, "\(place)")
                // The growing copy repeats the last one's actions: the memo is used.
                if index == 0 && step == 1 { #expect(after.repeated > 0 && alone.repeated == 0, "\(place)") }
                #expect(alone.events == after.events && alone.score == after.score && alone.end == after.end, "\(place)")
                #expect(alone.stamp == after.stamp && alone.newest == after.newest && alone.attributes == after.attributes, "\(place)")
                #expect(alone.rejected.map(\.description) == after.rejected.map(\.description), "\(place)")
            }
        }
    }
}

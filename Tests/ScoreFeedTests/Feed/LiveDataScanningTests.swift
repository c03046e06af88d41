import Foundation
import Testing
@testable import ScoreFeed

/// The byte reader's liveData path gives what `JSONDecoder` gives, and takes the real documents.
@Suite("liveData read by the byte reader = JSONDecoder")
struct LiveDataScanningTests {
    static func decoded(_ data: Data) -> LiveDataFormat.Root? {
        try? JSONDecoder().decode(LiveDataFormat.Root.self, from: data)
    }

    /// Every real play-by-play and boxscore: taken by the byte reader, equal to `JSONDecoder`'s.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func realDocumentsReadTheSame() throws {
        var taken = 0
        for name in NBAFiles.games + NBAFiles.companions {
            let data = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(name)))
            guard case .liveData = FeedShape.of(data) else { continue }
            let scanned = try #require(LiveDataFormat.Root.scanning(data), "\(name) declined")
            #expect(scanned == Self.decoded(data), "\(name)")
            #expect(scanned.game?.actions.map { !$0.isEmpty } ?? true)
            taken += 1
        }
        #expect(taken >= 5)
    }

    /// A poller's copies read one after the other with the last copy's actions kept
    /// (``LiveDataFormat/Root/scanning(_:memo:)``) read as each copy alone does: growing copies
    /// (the repeats taken from the memo), a correction of an early action, a deletion, the same
    /// actions spelled with other bytes, a declined copy, and the game back from its start.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func copiesReadAfterTheLastOneReadAsEachAlone() throws {
        var read = 0
        for (name, copies) in try Self.liveDataGames() {
            let half = copies.visibleIndices(at: 0.5)
            var edited = copies.actions[half[3]]
            edited["description"] = "corrected"
            var deleted = half
            deleted.remove(at: half.count / 2)
            var sequence: [(String, Data)] = (1...10).map { ("copy at \(Double($0) / 10)", try! copies.copy(at: Double($0) / 10)) }
            sequence.insert(("an early action corrected", try copies.copy(of: half, replacing: [half[3]: edited], written: 1)), at: 5)
            sequence.insert(("an action deleted", try copies.copy(of: deleted, written: 2)), at: 7)
            sequence.append(("back to the start (the memo longer than the copy)", try copies.copy(at: 0.2)))
            sequence.append(("the same again", try copies.copy(at: 0.2)))
            let spaced = try JSONSerialization.data(
                withJSONObject: try #require(try JSONSerialization.jsonObject(with: copies.copy(at: 0.3)) as? [String: Any]),
                options: [.prettyPrinted])
            sequence.append(("the same actions spelled with other bytes", spaced))
            sequence.append(("cut short", try copies.copy(at: 0.9).dropLast(7)))
            sequence.append(("after a declined copy", try copies.copy(at: 0.95)))
            var memo: LiveDataFormat.ActionsMemo?
            for (what, copy) in sequence {
                let read = LiveDataFormat.Root.scanning(copy, memo: &memo)
                #expect(read == LiveDataFormat.Root.scanning(copy), "\(name), \(what)")
                #expect((read == nil) == (memo == nil), "\(name), \(what): a declined copy leaves no memo")
            }
            // The repeats do come from the memo: one marked there shows in the next copy's reading.
            _ = LiveDataFormat.Root.scanning(try copies.copy(at: 0.3), memo: &memo)
            memo?.slots[0].action?.description = "from the memo"
            let next = LiveDataFormat.Root.scanning(try copies.copy(at: 0.4), memo: &memo)
            #expect(next?.game?.actions?.first?.action?.description == "from the memo", "\(name)")

            // What a poll makes of them (the rows mapped again only for the actions read again)
            // is what each copy alone makes: also when the home team becomes known half way.
            var snapshots = LiveSnapshot.Memo()
            let someTeam = copies.actions.lazy.compactMap { $0["teamId"] as? Int }.first { $0 != 0 }
            for (step, (what, copy)) in sequence.enumerated() {
                let home = step < sequence.count / 2 ? nil : someTeam
                let alone = Result { () throws(ScoreFeedError) in
                    try LiveSnapshot.decode(playByPlay: copy, url: name, boxscore: nil, box: nil, homeTeamId: home)
                }
                let after = Result { () throws(ScoreFeedError) in
                    try LiveSnapshot.decode(playByPlay: copy, url: name, boxscore: nil, box: nil, homeTeamId: home, memo: &snapshots)
                }
                #expect(Self.same(alone, after), "\(name), \(what)")
            }
            // A copy that adds an action before the last (a late insert) is mapped whole, with the
            // rows it repeats taken from the memo.
            _ = try LiveSnapshot.decode(playByPlay: try copies.copy(at: 0.3), url: name, boxscore: nil, box: nil, homeTeamId: nil, memo: &snapshots)
            let first = try #require(snapshots.actions?.rows.firstIndex { $0 != nil }, "\(name): rows kept")
            snapshots.actions?.rows[first]?.description = "mapped before"
            var inserted = try #require(copies.visible(at: 0.3).first)
            inserted["actionNumber"] = 90_000
            inserted["orderNumber"] = 1
            let later = try LiveSnapshot.decode(
                playByPlay: try copies.copy(at: 0.3, adding: [inserted]), url: name, boxscore: nil, box: nil, homeTeamId: nil,
                memo: &snapshots)
            #expect(later.events.contains { $0.description == "mapped before" }, "\(name): the row is taken from the memo")
            #expect(later.repeated == 0 && snapshots.actions?.lastFeed?.kept == 0, "\(name): mapped whole")
            read += 1
        }
        #expect(read >= 5, "the real liveData games were read")
    }

    /// A poll's copies that only add actions after the last one are mapped and folded for the new
    /// ones alone (``LiveDataFormat/FeedMemo``), and read as each copy alone does. So are the
    /// copies that cannot be: an action added before the last (a late insert), a number used
    /// before, teams not yet known, a slot that is not an object. The new actions may be odd:
    /// without a time (the estimate moves times before them), of a team named only by the
    /// boxscore, of an unknown type, a challenge naming no team, without a period. A snapshot's `repeated` events have the digests of the
    /// snapshot before.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func copiesThatOnlyAddActionsAreMappedForTheNewOnes() throws {
        var games = 0
        for (name, copies) in try Self.liveDataGames() {
            var sequence: [(String, Data)] = try (1...12).map { ("copy at \(Double($0) / 12)", try copies.copy(at: Double($0) / 12)) }
            let base = copies.visible(at: 0.5)
            let last = try #require(base.last)
            var number = 80_000
            func after(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
                var action = last
                number += 1
                action["actionNumber"] = number
                action["orderNumber"] = Double(number) * 100
                change(&action)
                return action
            }
            let untimed = after { $0["timeActual"] = nil }
            let timed = after { _ in }
            let odd: [Any] = [
                untimed, timed,
                after { $0["teamId"] = Self.foreignTeam; $0["teamTricode"] = "ZZZ" },
                after { $0["actionType"] = "mystery"; $0["subType"] = "kind" },
                after { $0["actionType"] = "timeout"; $0["subType"] = "challenge" },
                after { $0["actionType"] = "instantreplay"; $0["subType"] = "challenge"; $0["teamId"] = nil; $0["descriptor"] = "overturned" },
                after { $0["period"] = nil },
            ]
            let oddSteps = sequence.count..<(sequence.count + odd.count)
            for count in 1...odd.count {
                sequence.append(("at 0.5 with \(count) odd actions", try copies.copy(at: 0.5, adding: Array(odd.prefix(count)))))
            }
            let reused = after { $0["actionNumber"] = last["actionNumber"] }
            sequence.append(("a number used before", try copies.copy(at: 0.5, adding: odd + [reused])))
            let following = after { _ in }
            sequence.append(("after it", try copies.copy(at: 0.5, adding: odd + [reused, following])))
            sequence.append(("and then one", try copies.copy(at: 0.5, adding: odd + [reused, following, after { _ in }])))
            // Not an object: `JSONDecoder` reads the copy, and the next is read whole.
            sequence.append(("not an object", try copies.copy(at: 0.5, adding: odd + [reused, following, 7])))
            var early = after { _ in }
            early["orderNumber"] = 5
            sequence.append(("a late insert", try copies.copy(at: 0.5, adding: odd + [reused, following, 7, early])))
            sequence.append(("the whole game", try copies.copy(at: 1)))

            var memo = LiveSnapshot.Memo()
            var before: LiveSnapshot?
            var added = 0
            for (what, copy) in sequence {
                let alone = Result { () throws(ScoreFeedError) in
                    try LiveSnapshot.decode(playByPlay: copy, url: name, boxscore: nil, box: nil, homeTeamId: nil)
                }
                let read = Result { () throws(ScoreFeedError) in
                    try LiveSnapshot.decode(playByPlay: copy, url: name, boxscore: nil, box: nil, homeTeamId: nil, memo: &memo)
                }
                #expect(Self.same(alone, read), "\(name), \(what)")
                if memo.actions?.lastFeed?.kept ?? 0 > 0 { added += 1 }
                guard case .success(let snapshot) = read else { continue }
                let repeated = snapshot.repeated
                #expect(repeated <= min(snapshot.events.count, before?.events.count ?? 0), "\(name), \(what)")
                #expect(
                    zip(snapshot.events.prefix(repeated), before?.events.prefix(repeated) ?? []).allSatisfy { $0.digest == $1.digest },
                    "\(name), \(what)")
                before = snapshot
            }
            #expect(added >= 8, "\(name): \(added) of \(sequence.count) copies mapped for their new actions alone")

            // The feeds themselves (warnings, stated final, start, counts), with a boxscore whose
            // scores change at every copy and whose home team is one the actions do not name
            // (without a tricode) while the odd actions come, one of which is that team's.
            var feedMemo: LiveDataFormat.ActionsMemo?
            var kept = 0
            for ((what, copy), boxscore) in zip(sequence, try Self.boxscores(for: name, count: sequence.count, foreignHome: oddSteps)) {
                let alone = try? LiveDataFormat.feed(copy, file: name, boxscore: boxscore)
                let root = LiveDataFormat.Root.scanning(copy, memo: &feedMemo) ?? (try? JSONDecoder().decode(LiveDataFormat.Root.self, from: copy))
                let read = root.flatMap { try? LiveDataFormat.feed(root: $0, file: name, boxscore: boxscore, homeTeamId: nil, memo: &feedMemo) }
                #expect(Self.same(alone, read), "\(name), \(what), with a boxscore")
                if feedMemo?.lastFeed?.kept ?? 0 > 0 { kept += 1 }
            }
            #expect(kept >= 8, "\(name): \(kept) of \(sequence.count) copies with a boxscore mapped for their new actions alone")
            games += 1
        }
        #expect(games >= 5, "the real liveData games were read")
    }

    /// A team id no real game names.
    static let foreignTeam = 1_610_612_999

    /// `count` small boxscores for the game of `playByPlay` (its teams and start from its real
    /// boxscore, none when it has none): the scores change at every one, and at the steps in
    /// `foreignHome` the home team is ``foreignTeam``, without a tricode.
    static func boxscores(for playByPlay: String, count: Int, foreignHome: Range<Int>) throws -> [Data?] {
        let file = NBAFiles.path(playByPlay.replacingOccurrences(of: "playbyplay_", with: "boxscore_"))
        guard let data = FileManager.default.contents(atPath: file),
              let game = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["game"] as? [String: Any]
        else { return Array(repeating: nil, count: count) }
        func team(_ key: String, score: Int, foreign: Bool) -> [String: Any] {
            let team = game[key] as? [String: Any] ?? [:]
            var small: [String: Any] = ["score": score]
            for field in ["teamId", "teamName", "teamCity"] + (foreign ? [] : ["teamTricode"]) { small[field] = team[field] }
            if foreign { small["teamId"] = foreignTeam }
            return small
        }
        return try (0..<count).map { step in
            let box: [String: Any] = [
                "game": [
                    "gameId": game["gameId"] ?? "", "gameTimeUTC": game["gameTimeUTC"] ?? "", "gameStatus": 2,
                    "homeTeam": team("homeTeam", score: step, foreign: foreignHome.contains(step)),
                    "awayTeam": team("awayTeam", score: step + 1, foreign: false),
                ]
            ]
            return try JSONSerialization.data(withJSONObject: box)
        }
    }

    /// Two readings of a copy give the same feed: actions, teams, rejections, warnings, the
    /// stated final, the start, the counts.
    static func same(_ a: NBAFeed?, _ b: NBAFeed?) -> Bool {
        guard let a, let b else { return (a == nil) == (b == nil) }
        return a.actions == b.actions && a.attributes == b.attributes && a.rejected.map(\.description) == b.rejected.map(\.description)
            && a.warnings.map(\.description) == b.warnings.map(\.description) && a.statedFinal == b.statedFinal
            && a.scheduledStart == b.scheduledStart && a.actionCount == b.actionCount && a.written == b.written
            && a.homeTeamId == b.homeTeamId && a.format == b.format && a.file == b.file
    }

    /// The real liveData play-by-play games, each ready to be cut into copies.
    static func liveDataGames() throws -> [(name: String, copies: GameCopies)] {
        try NBAFiles.games.filter { $0.hasPrefix("playbyplay_") }.compactMap { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(name)))
            guard case .liveData = FeedShape.of(data) else { return nil }
            return (name, try GameCopies.of(name))
        }
    }

    /// Two polls' readings are the same: the same events, score, end, teams and rejections.
    static func same(_ a: Result<LiveSnapshot, ScoreFeedError>, _ b: Result<LiveSnapshot, ScoreFeedError>) -> Bool {
        switch (a, b) {
        case (.success(let a), .success(let b)):
            a.events == b.events && a.score == b.score && a.end == b.end && a.attributes == b.attributes
                && a.rejected.map(\.description) == b.rejected.map(\.description) && a.teamsKnown == b.teamsKnown
                && a.newest == b.newest && a.stamp == b.stamp
        case (.failure(let a), .failure(let b)): a.description == b.description
        default: false
        }
    }

    /// Odd spellings: the byte reader declines (and `JSONDecoder` decides) or reads them alike.
    @Test(arguments: [
        (#"{"game":{"gameId":"1","actions":[{"actionNumber":1,"period":1,"actionType":"period","subType":"start","clock":"PT12M00.00S","scoreHome":"0","scoreAway":"0"}]}}"#, true),
        (#"{"game":{"gameId":"1","actions":[{"actionNumber":"7","period":1.0,"scoreHome":3}]}}"#, false),
        (#"{"game":{"gameId":"1","actions":[1,"x",null,{"actionNumber":2}]}}"#, false),
        (#"{"game":{"gameId":"1","actions":[{"actionNumber":2,"actionNumber":3}]}}"#, false),
        (#"{"meta":{"time":"2025-02-11 01:16:27.797538"},"game":{"gameId":"1","actions":[]}}"#, true),
        (#"{"meta":"x","game":{"gameId":"1","actions":[],"homeTeam":7,"awayTeam":{"teamId":5,"score":"101"}}}"#, false),
        (#"{"game":null,"meta":null}"#, true),
        (#"{"game":{"gameId":"\u0031","gameStatus":3,"gameStatusText":"Final","homeTeam":{"teamId":1610612742,"teamTricode":"DAL","score":120}}}"#, true),
        (#"{"game":{"actions":[{"orderNumber":12.5,"description":"Jokić 3' Layup (2 PTS)","x":1.5e3,"qualifiers":["a",{"b":[]}]}]}}"#, true),
        (#"[1,2]"#, false),
        (#"{"game":{"actions":[{"period":1}]}} x"#, false),
    ])
    func oddDocumentsReadTheSame(_ text: String, taken: Bool) {
        let data = Data(text.utf8)
        let scanned = LiveDataFormat.Root.scanning(data)
        #expect((scanned != nil) == taken)
        if let scanned { #expect(scanned == Self.decoded(data)) }
    }

    /// The documents a simulated day serves (generated games rendered as liveData) are taken.
    @Test func simulatedDocumentsAreTaken() throws {
        let game = SimulatedGame(generated: GameGenerator(seed: 3).generate())
        let data = game.playByPlay(actions: 200, written: Date(timeIntervalSince1970: 1_739_240_000))
        let scanned = try #require(LiveDataFormat.Root.scanning(data))
        #expect(scanned == Self.decoded(data) && scanned.game?.actions?.count == 200)
    }
}

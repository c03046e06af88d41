import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("NBA liveData play-by-play: order, mapping, the feed's score, time")
struct NBAFormatLiveDataTests {
    static let dal = 1_610_612_742, sac = 1_610_612_758

    /// One liveData action; `home`/`away` is the feed's score after it.
    static func action(
        _ number: Int, _ type: String, _ sub: String? = nil, order: Double? = nil, period: Int = 1,
        clock: String = "PT10M00.00S", time: String? = "2025-02-11T01:45:00.0Z", team: Int? = nil,
        home: Int = 0, away: Int = 0, result: String? = nil, descriptor: String? = nil, value: String? = nil,
        player: String? = nil
    ) -> [String: Any] {
        var action: [String: Any] = [
            "actionNumber": number, "orderNumber": order ?? Double(number * 10_000), "clock": clock, "period": period,
            "actionType": type, "scoreHome": String(home), "scoreAway": String(away), "qualifiers": [String](),
        ]
        if let time { action["timeActual"] = time }
        if let sub { action["subType"] = sub }
        if let team {
            action["teamId"] = team
            action["teamTricode"] = team == dal ? "DAL" : "SAC"
        }
        if let result { action["shotResult"] = result }
        if let descriptor { action["descriptor"] = descriptor }
        if let value { action["value"] = value }
        if let player { action["playerNameI"] = player }
        return action
    }

    static func file(_ actions: [[String: Any]], gameId: String = "0022400762") -> Data {
        let root: [String: Any] = ["meta": ["version": 1], "game": ["gameId": gameId, "actions": actions]]
        return try! JSONSerialization.data(withJSONObject: root)
    }

    static let boxscore = try! JSONSerialization.data(withJSONObject: [
        "game": [
            "gameId": "0022400762", "gameTimeUTC": "2025-02-11T01:30:00Z",
            "homeTeam": ["teamId": dal, "teamName": "Mavericks", "teamCity": "Dallas", "teamTricode": "DAL", "score": 5],
            "awayTeam": ["teamId": sac, "teamName": "Kings", "teamCity": "Sacramento", "teamTricode": "SAC", "score": 3],
        ],
    ])

    /// A short game: tip-off, a home 2, an away 3, a home 3, the end.
    static var short: [[String: Any]] { [
        action(2, "period", "start", clock: "PT12M00.00S", time: "2025-02-11T01:40:36.6Z"),
        action(4, "jumpball", "recovered", clock: "PT11M57.00S", time: "2025-02-11T01:40:39.2Z", team: dal, descriptor: "startperiod"),
        action(7, "2pt", "Layup", clock: "PT11M30.00S", time: "2025-02-11T01:41:05.0Z", team: dal, home: 2, result: "Made", player: "K. Irving"),
        action(9, "3pt", "Jump Shot", clock: "PT11M10.00S", time: "2025-02-11T01:41:30.0Z", team: sac, home: 2, away: 3, result: "Made", player: "M. Monk"),
        action(12, "3pt", "Jump Shot", clock: "PT10M50.00S", time: "2025-02-11T01:42:00.0Z", team: dal, home: 5, away: 3, result: "Made", player: "K. Irving"),
        action(15, "period", "end", period: 1, clock: "PT00M00.00S", time: "2025-02-11T01:50:00.0Z", home: 5, away: 3),
        action(16, "game", "end", period: 1, clock: "PT00M00.00S", time: "2025-02-11T01:50:05.0Z", home: 5, away: 3),
    ] }

    @Test func decodesAShortGameWithItsBoxscore() throws {
        let document = try FeedReader.decode(Self.file(Self.short), file: "pbp.json", boxscore: Self.boxscore)
        #expect(document.format == .liveData)
        #expect(document.actionCount == 7)
        #expect(document.attributes.home.name == "Mavericks" && document.attributes.away.tricode == "SAC")
        #expect(document.finalScore == FinalScore(home: 5, away: 3))
        #expect(document.scheduledStart == Date(timeIntervalSince1970: 1_739_237_400))
        #expect(document.events.map(\.seq) == [2, 4, 7, 9, 12, 15, 16])
        #expect(document.events[2].kind == .fieldGoal(points: 2, made: true))
        #expect(document.events[2].team == .home && document.events[3].team == .away)
        #expect(document.events[0].time == Date(timeIntervalSince1970: 1_739_238_036.6))
        #expect(document.discrepancies.count == 0 && document.warnings.isEmpty && document.rejected.isEmpty)
    }

    @Test func withoutABoxscoreTheHomeTeamIsTheOneWhoseBasketMovesScoreHome() throws {
        let document = try FeedReader.decode(Self.file(Self.short))
        #expect(document.attributes.home.tricode == "DAL" && document.attributes.away.tricode == "SAC")
        #expect(document.attributes.home.name == "Mavericks", "known NBA teams are filled in by id")
        #expect(document.finalScore == FinalScore(home: 5, away: 3), "the feed's last score")
    }

    @Test func actionsFollowOrderNumberNotActionNumber() throws {
        // #20 was inserted later between #7 and #9 (orderNumber 75000); #8 and #10–#11 were deleted.
        var actions = Self.short
        actions.insert(Self.action(20, "turnover", "bad pass", order: 75_000, clock: "PT11M20.00S", time: "2025-02-11T01:41:10.0Z", team: Self.sac, home: 2), at: 5)
        let document = try FeedReader.decode(Self.file(actions))
        #expect(document.events.map(\.seq) == [2, 4, 7, 20, 9, 12, 15, 16])
        #expect(document.events[3].kind == .turnover(kind: "bad pass"))
        #expect(document.discrepancies.count == 0)
    }

    @Test func whereTheFoldDisagreesTheFeedWinsAndTheDiscrepancyIsReported() throws {
        // The feed says 3-0 after a 2: its score is authoritative.
        var actions = Self.short
        actions[2]["scoreHome"] = "3"
        for i in 3..<actions.count { actions[i]["scoreHome"] = String(Int(actions[i]["scoreHome"] as! String)! + 1) }
        let document = try FeedReader.decode(Self.file(actions), file: "x.json")
        #expect(document.discrepancies.count == 1)
        let first = try #require(document.discrepancies.first)
        #expect(first.location.sequence == 7 && first.location.eventIndex == 2 && first.location.file == "x.json")
        #expect(first.message.contains("3-0") || first.message.contains("0-3"))
        // The basket carries the feed's 3 points, so no state ever shows the fold's 2-0.
        let corrections = document.events.filter { if case .correction = $0.kind { true } else { false } }
        #expect(corrections.count == 1)
        #expect(corrections.first?.kind == .correction(points: 3) && corrections.first?.team == .home)
        #expect(corrections.first?.seq == 7 && corrections.first?.description?.contains("scored as the feed says") == true)
        var board = Scoreboard()
        let feedScores = Set([0, 3, 6].flatMap { home in [0, 3].map { FinalScore(home: home, away: $0) } })
        for event in document.events {
            board.apply(event)
            #expect(feedScores.contains(FinalScore(home: board.state.homeScore, away: board.state.awayScore)))
        }
        #expect(board.state.homeScore == 6)
    }

    @Test func aScoreChangeOnANonScoringActionIsFollowedByACorrection() throws {
        // The feed gives the visitors a point during a timeout, with no action for it.
        var actions = Self.short
        actions.insert(Self.action(13, "timeout", "full", clock: "PT10M50.00S", team: Self.sac, home: 5, away: 4), at: 5)
        actions[6]["scoreAway"] = "4"
        actions[7]["scoreAway"] = "4"
        let document = try FeedReader.decode(Self.file(actions))
        #expect(document.discrepancies.count == 1)
        let corrections = document.events.filter { if case .correction = $0.kind { true } else { false } }
        #expect(corrections.map(\.kind) == [.correction(points: 1)])
        #expect(corrections.allSatisfy { $0.team == .away && $0.seq >= 1_000_000_000 })
        #expect(document.events.firstIndex { $0.seq == 13 }! + 1 == document.events.firstIndex { $0 == corrections[0] }!)
        #expect(Make.fold(document.events, from: GameState()).awayScore == 4, "the feed's last score")
    }

    @Test func anUnknownTypeIsANonScoringEventWithOneWarning() async throws {
        var actions = Self.short
        actions.insert(Self.action(13, "memo", "note", clock: "PT10M40.00S", home: 5, away: 3), at: 5)
        actions.insert(Self.action(14, "memo", "note", clock: "PT10M30.00S", home: 5, away: 3), at: 6)
        let document = try FeedReader.decode(Self.file(actions), file: "m.json")
        #expect(document.events.filter { $0.kind == .other(type: "memo note") }.count == 2)
        #expect(document.warnings.count == 1)
        let warning = try #require(document.warnings.first)
        #expect(warning.code == .unknownEventType && warning.message.contains("memo") && warning.message.contains("2 actions"))
        #expect(warning.location.sequence == 13)
        let sink = RecordingSink()
        let summary = try await Replay().run(document, sink: sink)
        #expect(summary.rejected.isEmpty && summary.finalMatches && summary.ended)
    }

    @Test func challengesAndInstantReplayRulingsAreMapped() throws {
        let actions = [
            Self.action(2, "period", "start", clock: "PT12M00.00S"),
            Self.action(7, "2pt", "Layup", clock: "PT11M30.00S", team: Self.dal, home: 2, result: "Made"),
            Self.action(8, "timeout", "challenge", clock: "PT11M30.00S", team: Self.sac, home: 2),
            // The ruling names no team: it is the challenger's.
            Self.action(9, "instantreplay", "challenge", clock: "PT11M30.00S", home: 2, descriptor: "overturned", value: "Corrected to Offensive Foul"),
            Self.action(10, "instantreplay", "request", clock: "PT11M30.00S", home: 2, descriptor: "support", value: "Good Basket"),
            Self.action(11, "jumpball", "recovered", clock: "PT11M30.00S", team: Self.sac, home: 2, descriptor: "challenge"),
        ]
        let document = try FeedReader.decode(Self.file(actions))
        let kinds = document.events.map(\.kind)
        #expect(kinds[2] == .timeout(.challenge))
        #expect(kinds[3] == .replay(ruling: "overturned: Corrected to Offensive Foul", challenge: true))
        #expect(document.events[3].team == .away)
        #expect(kinds[4] == .replay(ruling: "support: Good Basket", challenge: false))
        #expect(kinds[5] == .jumpBall && document.events[5].team == .away)
        let state = Make.fold(Array(document.events.prefix(4)), from: GameState())
        #expect(state.awayTimeouts == Scoreboard.regulationTimeouts, "an overturned challenge gives the timeout back")
        #expect(document.warnings.isEmpty)
    }

    @Test func stoppagesAndEjectionsAreKeptAsNonScoringEventsWithoutWarnings() throws {
        let actions = [
            Self.action(2, "period", "start", clock: "PT12M00.00S"),
            Self.action(3, "stoppage", "out-of-bounds", clock: "PT11M00.00S"),
            Self.action(4, "stoppage", "blood rule", clock: "PT10M00.00S"),
            Self.action(5, "ejection", "second technical", clock: "PT09M00.00S", team: Self.dal, player: "L. Dončić"),
        ]
        let document = try FeedReader.decode(Self.file(actions))
        #expect(document.events.dropFirst().map(\.kind) == [
            .other(type: "stoppage out-of-bounds"), .other(type: "stoppage blood rule"), .other(type: "ejection second technical"),
        ])
        #expect(document.events[3].player == "L. Dončić")
        #expect(document.warnings.isEmpty)
    }

    @Test func theGameEndGoesLastAndOnlyOnce() async throws {
        var actions = Self.short
        actions.append(Self.action(17, "substitution", "out", period: 1, clock: "PT00M00.00S", time: "2025-02-11T01:50:09.0Z", team: Self.dal, home: 5, away: 3, player: "K. Irving"))
        actions.append(Self.action(18, "game", "end", period: 1, clock: "PT00M00.00S", time: "2025-02-11T01:50:10.0Z", home: 5, away: 3))
        let document = try FeedReader.decode(Self.file(actions))
        #expect(document.events.last?.kind == .gameEnd && document.events.last?.seq == 16)
        #expect(document.events.filter { $0.kind == .gameEnd }.count == 1)
        #expect(document.events.last!.time >= document.events.dropLast().last!.time)
        let sink = RecordingSink()
        let summary = try await Replay().run(document, sink: sink)
        #expect(summary.rejected.isEmpty)
        #expect(await sink.records.last?.event == .end)
    }

    @Test func timesComeFromTimeActualAndNeverGoBack() throws {
        var actions = Self.short
        actions[3]["timeActual"] = nil                       // none: placed between its neighbours
        actions[5]["timeActual"] = "2025-02-11T01:41:00.0Z"  // earlier than the action before it
        let document = try FeedReader.decode(Self.file(actions))
        let times = document.events.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times[3] > times[2] && times[3] < times[4])
        #expect(times[5] == times[4], "an earlier timeActual keeps the time reached")
    }

    @Test func oddFieldValuesDoNotLoseTheAction() throws {
        var actions = Self.short
        actions[2]["actionNumber"] = "7"        // a number as a string
        actions[2]["scoreHome"] = 2              // a number where liveData has a string
        actions[2]["descriptor"] = ["driving"]  // an array where a string was expected
        actions[3]["actionType"] = nil          // no type: rejected with its place
        let document = try FeedReader.decode(Self.file(actions), file: "odd.json")
        #expect(document.events.contains { $0.seq == 7 && $0.kind == .fieldGoal(points: 2, made: true) })
        #expect(document.rejected.count == 1)
        let rejection = try #require(document.rejected.first)
        #expect(rejection.code == .missingField && rejection.location.eventIndex == 3 && rejection.location.sequence == 9)
        #expect(document.discrepancies.count == 1, "the lost 3 is put back by the feed's score")
        #expect(Make.fold(document.events, from: GameState()).awayScore == 3)
    }

    static let broken: [(String, Data)] = [
        ("actions is a string", Data(#"{"meta":{},"game":{"gameId":"1","actions":"x"}}"#.utf8)),
        ("game is a number", Data(#"{"meta":{},"game":5,"actions":[]}"#.utf8)),
        ("truncated", Data(#"{"meta":{},"game":{"gameId":"1","actions":[{"actionNumber":1,"#.utf8)),
        ("actions of scalars", Data(#"{"game":{"gameId":"1","actions":[1,null,"x",true]}}"#.utf8)),
        ("huge numbers", Data(#"{"game":{"gameId":"1","actions":[{"actionNumber":1e300,"period":99999999999999999999,"actionType":"2pt","clock":"PT99999999999999M00.00S","timeActual":"9999-99-99T99:99:99Z","scoreHome":"1e400"}]}}"#.utf8)),
        ("absurd period and clock", Data(#"{"game":{"gameId":"1","actions":[{"actionNumber":5,"period":9223372036854775807,"actionType":"period","subType":"start","clock":"PT9999999999999M"}]}}"#.utf8)),
        ("deep nesting", Data(("{\"game\":{\"gameId\":\"1\",\"actions\":" + String(repeating: "[", count: 5000)).utf8)),
        ("binary", Data([0x7B, 0x22, 0x67, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0xFF, 0xFE, 0x00])),
    ]

    @Test(arguments: broken)
    func brokenInputIsAnErrorOrARejectionNeverACrash(name: String, data: Data) async throws {
        do {
            let document = try FeedReader.decode(data, file: "b.json")
            // What decodes must replay without crashing; bad actions are rejections.
            _ = try await Replay().run(document, sink: RecordingSink())
        } catch let error as ScoreFeedError {
            #expect(error.location.file == "b.json", "\(name): \(error)")
        }
    }
}

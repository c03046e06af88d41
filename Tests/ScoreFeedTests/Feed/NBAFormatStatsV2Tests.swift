import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("stats.nba.com playbyplayv2: SCORE, file order, the time fallback")
struct NBAFormatStatsV2Tests {
    static let tor = 1_610_612_761, nop = 1_610_612_740
    static let headers = [
        "GAME_ID", "EVENTNUM", "EVENTMSGTYPE", "EVENTMSGACTIONTYPE", "PERIOD", "WCTIMESTRING", "PCTIMESTRING",
        "HOMEDESCRIPTION", "NEUTRALDESCRIPTION", "VISITORDESCRIPTION", "SCORE", "SCOREMARGIN", "PERSON1TYPE",
        "PLAYER1_ID", "PLAYER1_NAME", "PLAYER1_TEAM_ID", "PLAYER1_TEAM_CITY", "PLAYER1_TEAM_NICKNAME",
        "PLAYER1_TEAM_ABBREVIATION", "PERSON2TYPE", "PLAYER2_ID", "PLAYER2_NAME", "PLAYER2_TEAM_ID",
        "PERSON3TYPE", "PLAYER3_ID", "PLAYER3_NAME", "PLAYER3_TEAM_ID",
    ]

    /// One row; `home: true` puts the description in HOMEDESCRIPTION and makes player 1 a home player.
    static func row(
        _ num: Int, _ type: Int, _ action: Int = 0, period: Int = 1, wc: String = "8:04 PM", pc: String = "12:00",
        text: String? = nil, home: Bool? = nil, score: String? = nil, player: String? = nil,
        tipTo: (name: String, home: Bool)? = nil
    ) -> [Any] {
        let team: Any = home.map { $0 ? tor : nop } ?? NSNull()
        let description: Any = text.map { $0 as Any } ?? NSNull()
        let values: [String: Any] = [
            "GAME_ID": "0021900001", "EVENTNUM": num, "EVENTMSGTYPE": type, "EVENTMSGACTIONTYPE": action,
            "PERIOD": period, "WCTIMESTRING": wc, "PCTIMESTRING": pc,
            "HOMEDESCRIPTION": home == true ? description : NSNull(), "NEUTRALDESCRIPTION": NSNull(),
            "VISITORDESCRIPTION": home == false ? description : NSNull(), "SCORE": score ?? NSNull(), "SCOREMARGIN": NSNull(),
            "PERSON1TYPE": home.map { $0 ? 4 : 5 } ?? 0, "PLAYER1_ID": player == nil ? 0 : 1, "PLAYER1_NAME": player ?? NSNull(),
            "PLAYER1_TEAM_ID": player == nil ? NSNull() : team, "PLAYER1_TEAM_CITY": home.map { $0 ? "Toronto" : "New Orleans" } ?? NSNull(),
            "PLAYER1_TEAM_NICKNAME": home.map { $0 ? "Raptors" : "Pelicans" } ?? NSNull(),
            "PLAYER1_TEAM_ABBREVIATION": home.map { $0 ? "TOR" : "NOP" } ?? NSNull(),
            "PERSON2TYPE": 0, "PLAYER2_ID": 0, "PLAYER2_NAME": NSNull(), "PLAYER2_TEAM_ID": NSNull(),
            "PERSON3TYPE": tipTo.map { $0.home ? 4 : 5 } ?? 0, "PLAYER3_ID": 0, "PLAYER3_NAME": tipTo?.name ?? NSNull(),
            "PLAYER3_TEAM_ID": tipTo.map { $0.home ? tor : nop } ?? NSNull(),
        ]
        return headers.map { values[$0] ?? NSNull() }
    }

    static func file(_ rows: [[Any]]) -> Data {
        try! JSONSerialization.data(withJSONObject: [
            "resource": "playbyplay", "parameters": ["GameID": "0021900001"],
            "resultSets": [["name": "PlayByPlay", "headers": headers, "rowSet": rows], ["name": "AvailableVideo", "headers": ["VIDEO_AVAILABLE_FLAG"], "rowSet": [[1]]]],
        ])
    }

    static func summary(date: String = "2019-10-22T00:00:00", code: String = "20191022/NOPTOR", final: Bool = true, home: Int = 5, away: Int = 3) -> Data {
        try! JSONSerialization.data(withJSONObject: [
            "resource": "boxscoresummaryv2",
            "resultSets": [
                ["name": "GameSummary", "headers": ["GAME_DATE_EST", "GAME_ID", "GAME_STATUS_ID", "GAME_STATUS_TEXT", "GAMECODE", "HOME_TEAM_ID", "VISITOR_TEAM_ID"],
                 "rowSet": [[date, "0021900001", final ? 3 : 2, final ? "Final" : "Q4", code, tor, nop]]],
                ["name": "LineScore", "headers": ["GAME_DATE_EST", "GAME_ID", "TEAM_ID", "TEAM_ABBREVIATION", "TEAM_CITY_NAME", "TEAM_NICKNAME", "PTS"],
                 "rowSet": [[date, "0021900001", tor, "TOR", "Toronto", "Raptors", home], [date, "0021900001", nop, "NOP", "New Orleans", "Pelicans", away]]],
            ],
        ])
    }

    /// Tip-off, a visitors' 3, a missed and a made home free throw, a home 2 in a row entered late
    /// (EVENTNUM lower than the row before), end of regulation.
    static var rows: [[Any]] { [
        row(2, 12, period: 1, wc: "8:04 PM", pc: "12:00"),
        row(4, 10, wc: "8:04 PM", pc: "12:00", text: "Jump Ball Gasol vs. Favors: Tip to Ball", home: true, player: "Marc Gasol", tipTo: ("Lonzo Ball", false)),
        row(7, 1, 1, wc: "8:04 PM", pc: "11:40", text: "Ingram 25' 3PT Jump Shot (3 PTS)", home: false, score: "3 - 0", player: "Brandon Ingram"),
        row(9, 3, 11, wc: "8:04 PM", pc: "11:20", text: "MISS Lowry Free Throw 1 of 2", home: true, player: "Kyle Lowry"),
        row(10, 3, 12, wc: "8:05 PM", pc: "11:20", text: "Lowry Free Throw 2 of 2 (1 PTS)", home: true, score: "3 - 1", player: "Kyle Lowry"),
        row(14, 4, 0, wc: "8:05 PM", pc: "11:05", text: "Favors REBOUND (Off:0 Def:1)", home: false, player: "Derrick Favors"),
        row(12, 1, 1, wc: "8:05 PM", pc: "11:00", text: "Siakam 2' Layup (2 PTS)", home: true, score: "3 - 3", player: "Pascal Siakam"),
        row(20, 1, 1, period: 4, wc: "10:40 PM", pc: "0:10", text: "Siakam 2' Layup (4 PTS)", home: true, score: "3 - 5", player: "Pascal Siakam"),
        row(21, 13, period: 4, wc: "10:41 PM", pc: "0:00", score: "3 - 5"),
    ] }

    @Test func scoreIsAwayDashHomeAndTheFoldMatchesItOnEveryRow() throws {
        let document = try FeedReader.decode(Self.file(Self.rows), file: "v2.json", boxscore: Self.summary())
        #expect(document.format == .statsV2)
        #expect(document.discrepancies.count == 0, "\(document.discrepancies.first?.description ?? "")")
        #expect(document.attributes.home.tricode == "TOR" && document.attributes.away.name == "Pelicans")
        #expect(document.finalScore == FinalScore(home: 5, away: 3))
        let kinds = document.events.map(\.kind)
        #expect(kinds[2] == .fieldGoal(points: 3, made: true) && document.events[2].team == .away)
        #expect(kinds[3] == .freeThrow(attempt: 1, of: 2, made: false, points: 1))
        #expect(kinds[4] == .freeThrow(attempt: 2, of: 2, made: true, points: 1))
        #expect(kinds[5] == .rebound(offensive: false), "the visitors rebound the home team's miss")
        #expect(document.events[1].team == .away && document.events[1].player == "L. Ball", "the ball is tipped to Ball")
        #expect(document.events[2].player == "B. Ingram")
        #expect(kinds.last == .gameEnd, "a final game gets its end")
        #expect(Make.fold(document.events, from: GameState()).phase == .final)
    }

    @Test func rowsKeepFileOrderWhenEventnumGoesBack() throws {
        let document = try FeedReader.decode(Self.file(Self.rows), boxscore: Self.summary())
        #expect(Array(document.events.map(\.seq).prefix(8)) == [2, 4, 7, 9, 10, 14, 12, 20])
    }

    @Test func timesAreEstimatedWithinEachStatedMinuteOnTheSummarysDate() throws {
        let document = try FeedReader.decode(Self.file(Self.rows), boxscore: Self.summary())
        let times = document.events.map { $0.time.timeIntervalSince1970 }
        // 2019-10-22 8:04 PM EDT = 2019-10-23 00:04 UTC.
        let minute804 = 1_571_789_040.0
        #expect(times[0] == minute804, "the first row of a minute is at its start")
        #expect(times[0..<4].allSatisfy { $0 >= minute804 && $0 < minute804 + 60 }, "8:04 PM rows stay in that minute")
        #expect(times[4] == minute804 + 60)
        #expect(times[4..<7].allSatisfy { $0 >= minute804 + 60 && $0 < minute804 + 120 })
        #expect(times[7] == 1_571_798_400, "10:40 PM")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(Set(times[0..<4]).count == 4, "rows of one minute are spread, not stacked")
    }

    @Test func winterGamesAreOnStandardTimeAndMidnightMovesToTheNextDay() throws {
        let rows = [
            Self.row(1, 12, wc: "11:58 PM", pc: "12:00"),
            Self.row(2, 1, 1, wc: "11:59 PM", pc: "11:40", text: "Siakam 2' Layup (2 PTS)", home: true, score: "0 - 2", player: "Pascal Siakam"),
            Self.row(3, 1, 1, wc: "12:01 AM", pc: "11:00", text: "Ball 2' Layup (2 PTS)", home: false, score: "2 - 2", player: "Lonzo Ball"),
        ]
        let document = try FeedReader.decode(Self.file(rows), boxscore: Self.summary(date: "2016-11-30T00:00:00", code: "20161130/NOPTOR"))
        let times = document.events.map { $0.time.timeIntervalSince1970 }
        // 2016-11-30 11:58 PM EST = 2016-12-01 04:58 UTC; 12:01 AM is three minutes later, not a day back.
        #expect(times[0] == 1_480_568_280)
        #expect(times[2] == 1_480_568_280 + 180)
    }

    @Test func withoutASummaryTheGameIsPlacedOnItsSeasonWithAWarning() throws {
        let document = try FeedReader.decode(Self.file(Self.rows), file: "v2.json")
        #expect(document.warnings.contains { $0.message.contains("2019-10-01") && $0.location.file == "v2.json" })
        #expect(document.attributes.home.tricode == "TOR", "teams come from the rows")
        #expect(document.finalScore == FinalScore(home: 5, away: 3), "the feed's last SCORE")
        #expect(document.events.last?.kind == .gameEnd, "regulation ended with the score not tied")
        // 2019-10-01 8:04 PM EDT.
        #expect(document.events[0].time == Date(timeIntervalSince1970: 1_569_974_640))
    }

    @Test func noGameEndWhenTheGameIsNotOver() throws {
        let tied = try FeedReader.decode(Self.file(Array(Self.rows.prefix(7)) + [Self.row(21, 13, period: 4, wc: "10:41 PM", pc: "0:00", score: "3 - 3")]))
        #expect(tied.events.last?.kind == .periodEnd, "tied after regulation: overtime follows")
        let live = try FeedReader.decode(Self.file(Self.rows), boxscore: Self.summary(final: false))
        #expect(live.events.last?.kind == .periodEnd, "the summary says the game is not final")
    }

    @Test func instantReplayRowsWithAndWithoutScore() throws {
        var rows = Self.rows
        rows.insert(Self.row(15, 18, 4, wc: "8:05 PM", pc: "11:05", score: "3 - 1"), at: 6)
        rows.insert(Self.row(16, 18, 0, wc: "8:05 PM", pc: "11:05"), at: 7)
        rows.insert(Self.row(17, 99, 0, wc: "8:05 PM", pc: "11:05"), at: 8)
        let document = try FeedReader.decode(Self.file(rows), boxscore: Self.summary())
        #expect(document.discrepancies.count == 0)
        #expect(document.events[6].kind == .replay(ruling: "instant replay (action type 4)", challenge: false))
        #expect(document.events[7].kind == .replay(ruling: nil, challenge: false))
        #expect(document.events[8].kind == .other(type: "stats event type 99"))
        #expect(document.warnings.count == 1 && document.warnings[0].code == .unknownEventType)
    }

    @Test func aSummaryAloneNamesThePlayByPlayFile() {
        #expect {
            try FeedReader.decode(Self.summary(), file: "stats_summary_0021900001.json")
        } throws: { error in
            let error = error as! ScoreFeedError
            return error.code == .unknownFormat && error.message.contains("stats_0021900001.json")
        }
    }

    @Test func aRowThatIsNotAnArrayIsRejectedWithItsPlace() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Self.file(Self.rows)) as? [String: Any])
        var sets = object["resultSets"] as! [[String: Any]]
        var rows = sets[0]["rowSet"] as! [Any]
        rows[3] = "not a row"
        sets[0]["rowSet"] = rows
        object["resultSets"] = sets
        let document = try FeedReader.decode(try JSONSerialization.data(withJSONObject: object), file: "r.json")
        #expect(document.rejected.count == 1 && document.rejected[0].location.eventIndex == 3)
        #expect(document.discrepancies.count == 0, "the lost row was a miss")
    }
}

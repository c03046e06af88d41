import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("playbyplayv3 actions: game pages and the v3 endpoint")
struct NBAFormatV3Tests {
    static let mem = 1_610_612_763, ind = 1_610_612_754

    /// One v3 action; `side` is "h", "v" or "".
    static func action(
        _ id: Int, _ type: String, _ sub: String = "", number: Int? = nil, period: Int = 1, clock: String = "PT10M00.00S",
        side: String = "", player: String = "", initial: String = "", description: String = "",
        home: String = "", away: String = "", shotValue: Int = 0, teamId: Int? = nil, personId: Int = 0
    ) -> [String: Any] {
        [
            "actionId": id, "actionNumber": number ?? id * 2, "clock": clock, "period": period,
            "teamId": teamId ?? (side == "h" ? mem : side == "v" ? ind : 0), "teamTricode": side == "h" ? "MEM" : side == "v" ? "IND" : "",
            "personId": personId, "playerName": player, "playerNameI": initial, "location": side, "description": description,
            "actionType": type, "subType": sub, "scoreHome": home, "scoreAway": away, "shotValue": shotValue,
            "shotResult": type == "Made Shot" ? "Made" : type == "Missed Shot" ? "Missed" : "",
        ]
    }

    static var actions: [[String: Any]] { [
        action(1, "period", "start", clock: "PT12M00.00S", description: "Start of 1st Period (3:41 PM EST)", home: "0", away: "0"),
        action(2, "Jump Ball", clock: "PT12M00.00S", side: "h", player: "Jackson Jr.", initial: "J. Jackson Jr.", description: "Jump Ball Jackson Jr. vs. Turner: Tip to Haliburton"),
        action(3, "Missed Shot", "Jump Shot", number: 7, clock: "PT11M45.00S", side: "v", player: "Turner", initial: "M. Turner", description: "MISS Turner 26' 3PT Jump Shot", shotValue: 3),
        action(4, "", number: 7, clock: "PT11M45.00S", side: "h", player: "Clarke", initial: "B. Clarke", description: "Clarke BLOCK (1 BLK)"),
        action(5, "Rebound", "Unknown", clock: "PT11M41.00S", side: "v", player: "Haliburton", initial: "T. Haliburton", description: "Haliburton REBOUND (Off:1 Def:0)"),
        action(6, "Made Shot", "Jump Shot", clock: "PT11M30.00S", side: "v", player: "Haliburton", initial: "T. Haliburton", description: "Haliburton 25' 3PT Jump Shot (3 PTS)", home: "0", away: "3", shotValue: 3),
        action(7, "", clock: "PT11M10.00S", side: "h", player: "Morant", initial: "J. Morant", description: "Morant STEAL (1 STL)"),
        action(8, "Timeout", "Regular", clock: "PT09M18.00S", side: "h", description: "GRIZZLIES Timeout: Regular (Full 1 Short 0)", teamId: 0, personId: mem),
        action(9, "Instant Replay", "Coach Challenge Overturn Ruling", clock: "PT09M18.00S", description: "Instant Replay1st Period (3:44 PM EST)", home: "0", away: "3"),
        action(10, "Free Throw", "Free Throw 1 of 2", clock: "PT09M18.00S", side: "h", player: "Morant", initial: "J. Morant", description: "Morant Free Throw 1 of 2 (1 PTS)", home: "1", away: "3"),
        action(11, "Free Throw", "Free Throw 2 of 2", clock: "PT09M18.00S", side: "h", player: "Morant", initial: "J. Morant", description: "MISS Morant Free Throw 2 of 2"),
        action(12, "Substitution", clock: "PT09M18.00S", side: "v", player: "Turner", initial: "M. Turner", description: "SUB: Haliburton FOR Turner"),
        action(13, "Foul", "Offensive Charge", clock: "PT08M00.00S", side: "v", player: "Turner", initial: "M. Turner", description: "Turner Offensive Charge Foul (P1)"),
        action(14, "period", "end", period: 1, clock: "PT00M00.00S", description: "End of 1st Period (4:08 PM EST)", home: "1", away: "3"),
    ] }

    static func page(_ actions: [[String: Any]], status: Int = 3) -> Data {
        try! JSONSerialization.data(withJSONObject: ["props": ["pageProps": [
            "game": [
                "gameId": "0022400306", "gameCode": "20241201/INDMEM", "gameStatus": status, "gameTimeUTC": "2024-12-01T20:30:00Z",
                "homeTeamId": mem, "awayTeamId": ind,
                "homeTeam": ["teamId": mem, "teamName": "Grizzlies", "teamCity": "Memphis", "teamTricode": "MEM", "score": 1],
                "awayTeam": ["teamId": ind, "teamName": "Pacers", "teamCity": "Indiana", "teamTricode": "IND", "score": 3],
            ],
            "playByPlay": ["gameId": "0022400306", "actions": actions, "source": "hanaV3"],
        ]]])
    }

    @Test func aGamePageBecomesTheSameDocumentAsOtherFormats() throws {
        let document = try FeedReader.decode(Self.page(Self.actions), file: "page.json")
        #expect(document.format == .playByPlayV3)
        #expect(document.attributes.gameId == "0022400306" && document.attributes.home.tricode == "MEM")
        #expect(document.finalScore == FinalScore(home: 1, away: 3))
        #expect(document.discrepancies.count == 0 && document.rejected.isEmpty && document.warnings.isEmpty)
        let kinds = document.events.map(\.kind)
        #expect(kinds[2] == .fieldGoal(points: 3, made: false))
        #expect(kinds[3] == .block && document.events[3].seq == 4, "the block shares its shot's actionNumber; actionId tells them apart")
        #expect(kinds[4] == .rebound(offensive: true), "the team that missed got it back")
        #expect(kinds[6] == .steal && document.events[6].team == .home)
        #expect(kinds[7] == .timeout(.full) && document.events[7].team == .home)
        #expect(kinds[8] == .replay(ruling: "Coach Challenge Overturn Ruling", challenge: true))
        #expect(document.events[8].team == .home, "the challenge is the team that called the timeout at that moment")
        #expect(kinds[9] == .freeThrow(attempt: 1, of: 2, made: true, points: 1))
        #expect(kinds[10] == .freeThrow(attempt: 2, of: 2, made: false, points: 1))
        #expect(kinds[11] == .substitution(out: "M. Turner") && document.events[11].player == "T. Haliburton")
        #expect(kinds[12] == .foul(.offensive))
        #expect(kinds.last == .gameEnd, "gameStatus 3 is final")
        #expect(document.events[1].team == .away && document.events[1].player == "T. Haliburton", "tipped to Haliburton, a Pacer")
    }

    @Test func timesComeFromTheMinutesInDescriptions() throws {
        let document = try FeedReader.decode(Self.page(Self.actions))
        let times = document.events.map { $0.time.timeIntervalSince1970 }
        // 2024-12-01 3:41 PM EST = 20:41 UTC; 3:44 PM at the replay; 4:08 PM at the end of the period.
        #expect(times[0] == 1_733_085_660)
        #expect(times[8] == 1_733_085_660 + 180)
        #expect(times[13] == 1_733_085_660 + 27 * 60)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times[1..<8].allSatisfy { $0 > times[0] && $0 < times[8] }, "spread between the anchors")
    }

    @Test func theV3EndpointShapeIsDetectedByContent() throws {
        let data = try JSONSerialization.data(withJSONObject: ["meta": ["version": 1], "game": ["gameId": "0022400306", "actions": Self.actions]])
        let document = try FeedReader.decode(data)
        #expect(document.format == .playByPlayV3)
        #expect(document.attributes.home.tricode == "MEM" && document.attributes.away.tricode == "IND")
        #expect(document.events.last?.kind == .periodEnd, "no status and period 1: not over")
        #expect(document.warnings.contains { $0.message.contains("no date") })
    }

    @Test func aLiveGameGetsNoEndAndAnUnknownTypeIsWarnedOnce() throws {
        var actions = Self.actions
        actions[13]["actionId"] = 15
        actions.insert(Self.action(14, "Mystery", "Thing", clock: "PT08M00.00S"), at: 13)
        let document = try FeedReader.decode(Self.page(actions, status: 2))
        #expect(document.events.last?.kind == .periodEnd)
        #expect(document.events.contains { $0.kind == .other(type: "mystery thing") })
        #expect(document.warnings.count == 1 && document.warnings[0].code == .unknownEventType)
    }

    @Test func aPageWithoutPlayByPlayIsAClearError() throws {
        let data = try JSONSerialization.data(withJSONObject: ["props": ["pageProps": ["game": ["gameId": "0022400306"]]]])
        #expect {
            try FeedReader.decode(data, file: "page.json")
        } throws: { error in
            let error = error as! ScoreFeedError
            return error.code == .unknownFormat && error.message.contains("no play-by-play") && error.location.file == "page.json"
        }
    }
}

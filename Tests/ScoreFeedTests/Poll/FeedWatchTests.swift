import Foundation
import Testing
@testable import ScoreFeed

/// Issue 32's rule for when a followed game has ended without a final, as a table of moments.
@Suite("FeedWatch: when a game is called off")
struct FeedWatchTests {
    static let start = Date(timeIntervalSince1970: 1_795_651_200)

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Tip-off, seconds after the watch started (nil: none known).
        var tipOff: Double?
        /// Seconds after the start when the feed brought news.
        var news: [Double]
        /// The boxscore's status and text (nil: none read).
        var boxscore: (LiveBoxscore.Status, String?)?
        /// Seconds after the start.
        var now: Double
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a game under way with news within the limit", news: [0, 50], boxscore: (.live, "Q2"), now: 100, expected: "follow"),
        Case(name: "silent exactly the limit while live: suspended", news: [0, 50], boxscore: (.live, "Q3"), now: 150, expected: "suspended"),
        Case(name: "silent without a boxscore: suspended too", news: [10], now: 111, expected: "suspended"),
        Case(name: "the boxscore says final: the final ends it, not the watch", news: [0], boxscore: (.final, "Final"), now: 500, expected: "follow"),
        Case(name: "no play-by-play yet, before tip-off + the limit", tipOff: 60, news: [], now: 150, expected: "follow"),
        Case(name: "no play-by-play the limit after tip-off: postponed", tipOff: 60, news: [], now: 160, expected: "postponed"),
        Case(name: "a tip-off before the start counts from the start", tipOff: -9000, news: [], now: 99, expected: "follow"),
        Case(name: "a recorded tip-off long past: postponed the limit after the start", tipOff: -9000, news: [], now: 100, expected: "postponed"),
        Case(name: "no tip-off known: never postponed for want of a play-by-play", news: [], now: 100_000, expected: "follow"),
        Case(name: "the boxscore says PPD: postponed at once", news: [], boxscore: (.scheduled, "PPD"), now: 0, expected: "postponed"),
        Case(name: "the boxscore says Postponed", news: [], boxscore: (.scheduled, " Postponed "), now: 0, expected: "postponed"),
        Case(name: "the boxscore says Cancelled", news: [], boxscore: (.scheduled, "Cancelled"), now: 0, expected: "postponed"),
        Case(name: "white space at one end only is trimmed", news: [], boxscore: (.scheduled, "\tppd"), now: 0, expected: "postponed"),
        Case(name: "a no-break space is white space", news: [], boxscore: (.scheduled, "\u{00A0}Cancelled"), now: 0, expected: "postponed"),
        Case(name: "a line break is not trimmed (as before)", news: [], boxscore: (.scheduled, "PPD\n"), now: 0, expected: "follow"),
        Case(name: "a scheduled game's time is no call-off", news: [], boxscore: (.scheduled, "7:30 pm ET"), now: 10, expected: "follow"),
        Case(name: "a final is never called off, whatever its text", news: [0], boxscore: (.final, "PPD"), now: 10, expected: "follow"),
    ]

    @Test(arguments: cases)
    func verdicts(_ c: Case) {
        var watch = FeedWatch(giveUpAfter: 100, started: Self.start, tipOff: c.tipOff.map { Self.start.addingTimeInterval($0) })
        for second in c.news { watch.news(at: Self.start.addingTimeInterval(second)) }
        let boxscore = c.boxscore.map { LiveBoxscore(status: $0.0, statusText: $0.1) }
        let verdict = watch.verdict(now: Self.start.addingTimeInterval(c.now), boxscore: boxscore)
        #expect(verdict.phase?.rawValue ?? "follow" == c.expected, "\(c.name): \(verdict)")
        if verdict.phase != nil { #expect(!verdict.why.isEmpty, "a call-off says why") }
    }

    @Test func theDeadlineIsWhenTheSilenceWouldBeTooLong() {
        var watch = FeedWatch(giveUpAfter: 100, started: Self.start)
        #expect(watch.deadline == nil, "no tip-off known, no play-by-play: no deadline")
        watch.heard(tipOff: Self.start.addingTimeInterval(-50))
        #expect(watch.deadline == Self.start.addingTimeInterval(100), "a tip-off before the start counts from the start")
        watch.news(at: Self.start.addingTimeInterval(30))
        #expect(watch.deadline == Self.start.addingTimeInterval(130))
        // News out of order never moves it back.
        watch.news(at: Self.start.addingTimeInterval(10))
        #expect(watch.deadline == Self.start.addingTimeInterval(130))
        // A tip-off heard once the feed is under way changes nothing.
        watch.heard(tipOff: Self.start.addingTimeInterval(500))
        #expect(watch.deadline == Self.start.addingTimeInterval(130))
    }

    @Test func theDefaultIsLongerThanAnyStoppageAGameCameBackFrom() {
        // Halftime is 15 minutes; delays that ended in play resuming took under an hour.
        #expect(FeedWatch.defaultGiveUpAfter > 3600)
        #expect(FeedWatch.defaultGiveUpAfter < 8 * 3600, "and an activity's 8 hours are not all spent")
    }

    @Test func todaysScoreboardListsAPostponedGameSo() throws {
        // As the NBA's liveData scoreboard listed game 0022000194 on 2021-01-16.
        let json = Data(#"""
            {"scoreboard":{"games":[
             {"gameId":"0022000194","gameStatus":1,"gameStatusText":"PPD","gameTimeUTC":"2021-01-17T00:00:00Z",
              "homeTeam":{"teamId":1610612737,"teamTricode":"ATL","teamName":"Hawks","teamCity":"Atlanta"},
              "awayTeam":{"teamId":1610612738,"teamTricode":"BOS","teamName":"Celtics","teamCity":"Boston"}},
             {"gameId":"0022000195","gameStatus":1,"gameStatusText":"7:30 pm ET"},
             {"gameId":"0022000196","gameStatus":2,"gameStatusText":"Q2 5:00"}]}}
            """#.utf8)
        let board = try LiveScoreboard.decode(json, url: "scoreboard")
        #expect(board.games.map(\.isCalledOff) == [true, false, false])
        #expect(board.games[0].statusText == "PPD")
    }
}

extension LiveBoxscore {
    init(status: Status, statusText: String?) {
        self.init(gameId: nil, status: status, statusText: statusText, homeTeamId: nil, score: nil, tipOff: nil)
    }
}

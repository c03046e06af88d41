import Foundation
import Testing
@testable import ScoreFeed

@Suite("Wall clocks of feeds without one: Eastern time and the estimate")
struct NBAFormatTimeTests {
    static let minutes: [(String, Int?)] = [
        ("8:04 PM", 20 * 60 + 4), ("12:05 AM", 5), ("12:30 PM", 12 * 60 + 30), ("11:59 pm", 23 * 60 + 59),
        ("Start of 1st Period (3:41 PM EST)", 15 * 60 + 41), ("Instant Replay1st Period (4:08 PM EST)", 16 * 60 + 8),
        ("13:00 PM", nil), ("7:61 PM", nil), ("7:41", nil), ("PT11M42.00S", nil), ("", nil), ("SUB: 3:0 PM", nil),
    ]

    @Test(arguments: minutes)
    func minuteOfDayIsReadFromText(text: String, expected: Int?) {
        #expect(EasternTime.minuteOfDay(in: text) == expected)
    }

    @Test func daylightSavingFollowsTheUSRules() {
        func dst(_ y: Int, _ m: Int, _ d: Int) -> Bool { EasternTime.isDaylightSaving(.init(year: y, month: m, day: d)) }
        #expect(!dst(2019, 3, 9) && dst(2019, 3, 10), "second Sunday in March")
        #expect(dst(2019, 11, 2) && !dst(2019, 11, 3), "first Sunday in November")
        #expect(!dst(2024, 12, 1) && dst(2019, 10, 22))
        #expect(!dst(2005, 4, 2) && dst(2005, 4, 3) && dst(2005, 10, 29) && !dst(2005, 10, 30), "1987–2006 rules")
        // 2019-10-22 8:04 PM EDT = 2019-10-23T00:04Z; 2024-12-01 3:41 PM EST = 20:41Z.
        #expect(EasternTime.unixSeconds(day: .init(year: 2019, month: 10, day: 22), minuteOfDay: 20 * 60 + 4) == 1_571_789_040)
        #expect(EasternTime.unixSeconds(day: .init(year: 2024, month: 12, day: 1), minuteOfDay: 15 * 60 + 41) == 1_733_085_660)
    }

    /// liveData's `meta.time` states Eastern wall-clock time: a real game's boxscore, fetched two
    /// hours after its last action (03:27:54 UTC), says `2025-02-06 00:38:15.616266`.
    static let wallTimes: [(utc: String, wall: String)] = [
        ("2025-02-06T05:38:15Z", "2025-02-06T00:38:15Z"),
        ("2025-03-09T06:59:59Z", "2025-03-09T01:59:59Z"), ("2025-03-09T07:00:00Z", "2025-03-09T03:00:00Z"),
        ("2025-07-01T00:30:00Z", "2025-06-30T20:30:00Z"),
        ("2025-11-02T05:59:59Z", "2025-11-02T01:59:59Z"), ("2025-11-02T07:00:00Z", "2025-11-02T02:00:00Z"),
        ("2005-10-30T05:30:00Z", "2005-10-30T01:30:00Z"), ("2005-10-30T07:00:00Z", "2005-10-30T02:00:00Z"),
    ]

    @Test(arguments: wallTimes)
    func metaTimeIsEasternWallClockTime(utc: String, wall: String) throws {
        let instant = Date(timeIntervalSince1970: try #require(ISOTime.seconds(utc)))
        let read = Date(timeIntervalSince1970: try #require(ISOTime.seconds(wall)))
        #expect(EasternTime.wall(of: instant) == read)
        #expect(EasternTime.instant(wall: read) == instant)
    }

    @Test func theHourTheClocksGoBackIsReadAsDaylightTime() throws {
        // 1:30 a.m. comes twice on 2025-11-02: 05:30 UTC (EDT), then 06:30 UTC (EST).
        let wall = Date(timeIntervalSince1970: try #require(ISOTime.seconds("2025-11-02T01:30:00Z")))
        #expect(EasternTime.wall(of: Date(timeIntervalSince1970: try #require(ISOTime.seconds("2025-11-02T05:30:00Z")))) == wall)
        #expect(EasternTime.wall(of: Date(timeIntervalSince1970: try #require(ISOTime.seconds("2025-11-02T06:30:00Z")))) == wall)
        #expect(EasternTime.instant(wall: wall).timeIntervalSince1970 == ISOTime.seconds("2025-11-02T05:30:00Z"))
    }

    /// Read beside the clock, the repeated hour's time is the later of its two moments unless
    /// that one is more than five minutes ahead of the clock: a copy written in the second pass is
    /// not taken for one an hour older (every copy of a game live across the change was refused as
    /// a stale edge's for an hour), and one from the first pass is still read as it was.
    @Test(arguments: [
        // (the copy's meta.time, the clock, the moment read)
        ("2025-11-02T01:30:00Z", "2025-11-02T06:31:00Z", "2025-11-02T06:30:00Z"),
        ("2025-11-02T01:30:00Z", "2025-11-02T06:26:00Z", "2025-11-02T06:30:00Z"),
        ("2025-11-02T01:30:00Z", "2025-11-02T06:24:00Z", "2025-11-02T05:30:00Z"),
        ("2025-11-02T01:50:00Z", "2025-11-02T06:10:00Z", "2025-11-02T05:50:00Z"),
        ("2025-11-02T01:30:00Z", "2025-11-02T05:31:00Z", "2025-11-02T05:30:00Z"),
        ("2025-11-02T00:59:59Z", "2025-11-02T06:30:00Z", "2025-11-02T04:59:59Z"),
        ("2025-11-02T02:00:00Z", "2025-11-02T07:00:01Z", "2025-11-02T07:00:00Z"),
        ("2025-06-30T20:30:00Z", "2025-07-01T03:00:00Z", "2025-07-01T00:30:00Z"),
    ])
    func theHourTheClocksGoBackIsReadNearTheClock(wall: String, clock: String, read: String) throws {
        let wallTime = Date(timeIntervalSince1970: try #require(ISOTime.seconds(wall)))
        let now = Date(timeIntervalSince1970: try #require(ISOTime.seconds(clock)))
        #expect(EasternTime.instant(wall: wallTime, near: now).timeIntervalSince1970 == ISOTime.seconds(read))
    }

    @Test func datesAreReadFromGameCodesAndTimestamps() {
        #expect(EasternTime.Day.parse("20191022/NOPTOR") == .init(year: 2019, month: 10, day: 22))
        #expect(EasternTime.Day.parse("2016-11-30T00:00:00") == .init(year: 2016, month: 11, day: 30))
        #expect(EasternTime.Day.parse("2024-13-01") == nil)
        #expect(EasternTime.Day.parse("x") == nil)
    }

    @Test func pastMidnightTheMinuteClockMovesToTheNextDay() {
        var clock = EasternTime.MinuteClock(day: .init(year: 2016, month: 11, day: 30))
        let before = clock.unixSeconds(minuteOfDay: 23 * 60 + 58)
        let after = clock.unixSeconds(minuteOfDay: 1)
        #expect(after - before == 180)
        #expect(clock.unixSeconds(minuteOfDay: 0) - before == 120, "a small step back stays on the same day")
    }

    typealias Row = WallClockEstimate.Row

    @Test func exactTimesAreKeptAndGapsInterpolated() {
        let rows = [
            Row(period: 1, clock: 720, exact: 1000), Row(period: 1, clock: 700), Row(period: 1, clock: 680, exact: 1100),
        ]
        let times = WallClockEstimate.times(rows, start: 0)
        #expect(times[0] == 1000 && times[2] == 1100)
        #expect(times[1] > 1000 && times[1] < 1100)
    }

    @Test func aStatedMinuteBoundsItsRowsAndTimesNeverDecrease() {
        // Three rows in 8:04 (the third long after, by game clock), then a timeout's long gap to 8:09.
        let rows = [
            Row(period: 1, clock: 720, minute: 60), Row(period: 1, clock: 700, minute: 60), Row(period: 1, clock: 500, minute: 60),
            Row(period: 1, clock: 480, minute: 360), Row(period: 1, clock: 490, minute: 300),
        ]
        let times = WallClockEstimate.times(rows, start: 0)
        #expect(times[0] == 60)
        #expect(times[1] > 60 && times[2] < 120, "rows of a minute stay in it even when the next minute stated is far")
        #expect(times[3] == 360)
        #expect(times[4] == 360, "a minute stated out of order does not move time back")
    }

    @Test func withNoKnownTimeTheGameRunsAtTheStatedPaceFromStart() {
        let rows = (0..<520).map { i in Row(period: 1 + i / 130, clock: 720 - Double(i % 130) * 5.5) }
        let times = WallClockEstimate.times(rows, start: 10_000)
        #expect(times[0] == 10_000)
        let hours = (times.last! - times[0]) / 3600
        #expect(hours > 1.9 && hours < 2.6, "\(hours) h for a regulation game")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func absurdPeriodsAndClocksDoNotTrap() {
        let rows = [Row(period: Int.max, clock: .infinity), Row(period: Int.min, clock: -.infinity), Row(period: 3, clock: .nan)]
        let times = WallClockEstimate.times(rows, start: 0)
        #expect(times.allSatisfy { $0.isFinite })
    }

    /// Rows of every kind, seeded: exact times, stated minutes (some out of order), none.
    static func mixedRows(seed: UInt64, count: Int) -> [Row] {
        var random = SeededRandom(seed: seed)
        var rows: [Row] = []
        var time = 1000.0
        for i in 0..<count {
            time += random.double(in: 0...40)
            let period = 1 + i / 40
            let clock = 720 - Double(i % 40) * 17
            switch random.below(4) {
            case 0: rows.append(Row(period: period, clock: clock, exact: time))
            case 1: rows.append(Row(period: period, clock: clock, minute: (time / 60).rounded(.down) * 60))
            case 2: rows.append(Row(period: period, clock: clock, minute: (time / 60).rounded(.down) * 60 - 120))
            default: rows.append(Row(period: period, clock: clock))
            }
        }
        return rows
    }

    /// A copy's rows estimated from the last copy's estimate are timed as the whole copy is:
    /// rows appended one or several at a time, after rows with and without anchors.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func anEstimateExtendedGivesTheWholeEstimatesTimes(seed: UInt64) {
        let rows = Self.mixedRows(seed: seed, count: 200)
        var random = SeededRandom(seed: seed &* 31)
        var estimate = WallClockEstimate.Estimate()
        var end = 0
        while end < rows.count {
            end = min(rows.count, end + 1 + random.below(6))
            let prefix = Array(rows[..<end])
            WallClockEstimate.extend(&estimate, to: prefix, start: 500)
            #expect(estimate.times == WallClockEstimate.times(prefix, start: 500), "rows 0..<\(end)")
        }
        // No anchor at all: each extension works the whole game out again.
        let none = (0..<30).map { Row(period: 1, clock: 720 - Double($0) * 10) }
        var all = WallClockEstimate.Estimate()
        WallClockEstimate.extend(&all, to: Array(none[..<20]), start: 500)
        WallClockEstimate.extend(&all, to: none, start: 500)
        #expect(all.kept == 0 && all.times == WallClockEstimate.times(none, start: 500))
        // Every row exact: only the new rows are worked out.
        let exact = (0..<30).map { Row(period: 1, clock: 720 - Double($0) * 10, exact: 1000 + Double($0)) }
        var timed = WallClockEstimate.Estimate()
        WallClockEstimate.extend(&timed, to: Array(exact[..<20]), start: 0)
        WallClockEstimate.extend(&timed, to: exact, start: 0)
        #expect(timed.kept == 20 && timed.times == WallClockEstimate.times(exact, start: 0))
    }
}

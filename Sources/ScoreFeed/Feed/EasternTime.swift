import Foundation

/// US Eastern wall-clock time, in which stats.nba.com (`WCTIMESTRING`) and nba.com game pages
/// ("Start of 1st Period (3:41 PM EST)") state their minute-precision clocks. Pure arithmetic: no
/// time-zone database or formatter, so it is fast and the same on every platform.
enum EasternTime {
    /// A calendar date.
    struct Day: Hashable, Sendable {
        var year: Int
        var month: Int
        var day: Int

        /// Days since 1970-01-01.
        var daysSinceEpoch: Int { ISOTime.daysFromCivil(year: year, month: month, day: day) }

        /// `2019-10-22` from `2019-10-22T00:00:00` or `2019-10-22`; `20191022` from a game code
        /// such as `20191022/NOPTOR`.
        static func parse(_ text: String) -> Day? {
            let digits = Array(text.utf8.prefix(10))
            func number(_ range: Range<Int>) -> Int? { ASCIIDigits.number(digits, range) }
            let day: Day?
            if digits.count >= 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-") {
                day = number(0..<4).flatMap { y in number(5..<7).flatMap { m in number(8..<10).map { Day(year: y, month: m, day: $0) } } }
            } else {
                day = number(0..<4).flatMap { y in number(4..<6).flatMap { m in number(6..<8).map { Day(year: y, month: m, day: $0) } } }
            }
            guard let day, (1900...2999).contains(day.year), (1...12).contains(day.month), (1...31).contains(day.day) else {
                return nil
            }
            return day
        }
    }

    /// Unix seconds of `minuteOfDay` minutes after midnight Eastern on `day` (values of 1440 and
    /// more run into the next days, for games that go past midnight).
    static func unixSeconds(day: Day, minuteOfDay: Int) -> Double {
        let offsetHours = isDaylightSaving(day) ? 4 : 5
        return Double(day.daysSinceEpoch * 86_400 + (minuteOfDay + offsetHours * 60) * 60)
    }

    /// Turns a game's successive minute-of-day readings into Unix seconds on its date, moving
    /// to the next day when the clock goes past midnight (a drop of over 12 hours).
    struct MinuteClock: Sendable {
        let day: Day
        private var last: Int?
        private var shift = 0

        init(day: Day) {
            self.day = day
        }

        mutating func unixSeconds(minuteOfDay minute: Int) -> Double {
            if let last, minute + shift < last - 720 { shift += 1440 }
            last = minute + shift
            return EasternTime.unixSeconds(day: day, minuteOfDay: minute + shift)
        }
    }

    /// Whether US daylight-saving time is in force on `day` (decided for the whole day; games
    /// are not played at 2 a.m.). Rules since 2007: second Sunday in March to first Sunday in
    /// November; 1987–2006: first Sunday in April to last Sunday in October.
    static func isDaylightSaving(_ day: Day) -> Bool {
        let (start, end) = daylightSaving(year: day.year)
        let days = day.daysSinceEpoch
        return days >= start && days < end
    }

    /// The moment an Eastern wall-clock time read as if it were UTC stands for: liveData's
    /// `meta.time` (`2025-02-11 01:16:27.797538` is 06:16:27 UTC), which a poller reads as UTC to
    /// compare a document's copies, and turns into a moment only to tell a copy's age. Daylight
    /// saving from 2 a.m. on its first day to 2 a.m. on its last; the hour the clocks go back
    /// repeats, and is read as daylight time. A time past any calendar's reach is left as it is.
    static func instant(wall: Date) -> Date {
        // 2 a.m. on each day, in wall-clock time.
        isDaylight(wall, from: 2, to: 2).map { wall.addingTimeInterval($0 ? 4 * 3600 : 5 * 3600) } ?? wall
    }

    /// The moment an Eastern wall-clock time stands for, read beside the clock `now`: as
    /// ``instant(wall:)``, but the hour the clocks go back, which comes twice, is read as its
    /// second pass (standard time) unless that moment lies more than ``clockSkew`` ahead of
    /// `now`. A copy written in the second pass is then not taken for one an hour older than the
    /// first pass's last copies (read as daylight time, every copy of a game live across the
    /// change was refused as a stale edge's for an hour); one from the first pass, read in the
    /// second, is what it was unless it is over 55 minutes old (then it reads as the second pass,
    /// which a poller orders by its actions: ``NewestCopy/admit(_:received:)``).
    static func instant(wall: Date, near now: Date) -> Date {
        let daylight = instant(wall: wall)
        // In the repeated hour: before 2 a.m. on daylight saving's last day, not before 1 a.m.
        guard isDaylight(wall, from: 2, to: 2) == true, isDaylight(wall, from: 2, to: 1) == false else { return daylight }
        let standard = daylight.addingTimeInterval(3600)
        return standard.timeIntervalSince(now) > clockSkew ? daylight : standard
    }

    /// Whether `moment` lies in the second pass of the hour the clocks go back (1 a.m. to 2 a.m.
    /// standard time on daylight saving's last day): where ``instant(wall:near:)`` may have read
    /// a time of the first pass.
    static func isSecondPass(_ moment: Date) -> Bool {
        isDaylight(moment, from: 7, to: 7) == true && isDaylight(moment, from: 7, to: 6) == false
    }

    /// How far ahead of the clock a copy's moment may be (the CDN's clock and ours differ by
    /// seconds) and still be read so.
    static let clockSkew: TimeInterval = 300

    /// The Eastern wall-clock time of `instant`, as a `Date` that reads it as UTC: what liveData's
    /// `meta.time` writes (``instant(wall:)`` reads it back, but in the hour the clocks go back).
    static func wall(of instant: Date) -> Date {
        // 2 a.m. standard time on the first day, 2 a.m. daylight time on the last, in UTC.
        isDaylight(instant, from: 7, to: 6).map { instant.addingTimeInterval($0 ? -4 * 3600 : -5 * 3600) } ?? instant
    }

    /// Whether `date`, read as UTC, falls from `from` o'clock on the first day of daylight saving
    /// of its year to `to` o'clock on its last; nil for a time past any calendar's reach.
    private static func isDaylight(_ date: Date, from: Int, to: Int) -> Bool? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        let (start, end) = daylightSaving(year: Day(daysSinceEpoch: Int((seconds / 86_400).rounded(.down))).year)
        return seconds >= Double(start * 86_400 + from * 3600) && seconds < Double(end * 86_400 + to * 3600)
    }

    /// The first and the last day of daylight saving in `year` (days since 1970-01-01; the
    /// clocks change at 2 a.m. on each): the rules since 2007, and 1987–2006's before them.
    private static func daylightSaving(year: Int) -> (start: Int, end: Int) {
        year >= 2007
            ? (nthSunday(2, year: year, month: 3), nthSunday(1, year: year, month: 11))
            : (nthSunday(1, year: year, month: 4), lastSunday(year: year, month: 10))
    }

    /// 0 = Sunday … 6 = Saturday, of a day given as days since 1970-01-01 (a Thursday).
    static func weekday(_ days: Int) -> Int {
        ((days % 7) + 11) % 7
    }

    private static func nthSunday(_ n: Int, year: Int, month: Int) -> Int {
        let first = ISOTime.daysFromCivil(year: year, month: month, day: 1)
        return first + (7 - weekday(first)) % 7 + (n - 1) * 7
    }

    private static func lastSunday(year: Int, month: Int) -> Int {
        let next = ISOTime.daysFromCivil(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1)
        let last = next - 1
        return last - weekday(last)
    }

    /// Minutes after midnight of the first `h:mm AM|PM` in `text` (`8:04 PM` → 1204,
    /// `12:05 AM` → 5), or nil when there is none.
    static func minuteOfDay(in text: String) -> Int? {
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            guard let colon = bytes[i...].firstIndex(of: UInt8(ascii: ":")) else { return nil }
            i = colon + 1
            // Hours: one or two digits before the colon.
            var start = colon
            while start > 0, start > colon - 2, isDigit(bytes[start - 1]) { start -= 1 }
            guard start < colon, start == 0 || !isDigit(bytes[start - 1]),
                let hour = ASCIIDigits.number(bytes, start..<colon),
                let minute = ASCIIDigits.number(bytes, colon + 1..<colon + 3)
            else { continue }
            var j = colon + 3
            while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j += 1 }
            guard j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "M") || bytes[j + 1] == UInt8(ascii: "m") else { continue }
            let meridiem = bytes[j] | 0x20
            guard meridiem == UInt8(ascii: "a") || meridiem == UInt8(ascii: "p"), (1...12).contains(hour), minute < 60 else {
                continue
            }
            let hour24 = (hour % 12) + (meridiem == UInt8(ascii: "p") ? 12 : 0)
            return hour24 * 60 + minute
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 48 && byte <= 57
    }
}

extension EasternTime.Day {
    /// The day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: doy - (153 * mp + 2) / 5 + 1)
    }
}

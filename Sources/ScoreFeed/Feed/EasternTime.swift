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
        let start: Int, end: Int
        if day.year >= 2007 {
            start = nthSunday(2, year: day.year, month: 3)
            end = nthSunday(1, year: day.year, month: 11)
        } else {
            start = nthSunday(1, year: day.year, month: 4)
            end = lastSunday(year: day.year, month: 10)
        }
        let days = day.daysSinceEpoch
        return days >= start && days < end
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

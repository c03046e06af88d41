import Foundation

/// Fast parsing of the feeds' UTC timestamps (`2025-02-11T01:40:36.6Z`), without a formatter.
public enum ISOTime {
    /// Unix seconds, or nil when the text is not `YYYY-MM-DDTHH:MM:SS[.f…][Z|+00:00]`.
    public static func seconds(_ text: String) -> Double? {
        var utf8 = Array(text.utf8)
        if utf8.last == UInt8(ascii: "Z") { utf8.removeLast() }
        if utf8.count >= 6, utf8[utf8.count - 6] == UInt8(ascii: "+"), utf8.suffix(5).elementsEqual("00:00".utf8) {
            utf8.removeLast(6)
        }
        guard utf8.count >= 19, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: " "),
            utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? { ASCIIDigits.number(utf8, range) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if utf8.count > 19 {
            guard utf8[19] == UInt8(ascii: "."), utf8.count > 20, let digits = number(20..<utf8.count), utf8.count - 20 <= 9 else {
                return nil
            }
            fraction = Double(digits) / pow(10, Double(utf8.count - 20))
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// Reads fixed-width decimal fields out of ASCII bytes, for the feeds' dates and times without
/// a formatter.
enum ASCIIDigits {
    /// The number spelled by `bytes[range]`, or nil when the range runs past the end or holds a
    /// byte that is not a digit.
    static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.upperBound <= bytes.count else { return nil }
        var value = 0
        for i in range {
            let digit = Int(bytes[i]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}

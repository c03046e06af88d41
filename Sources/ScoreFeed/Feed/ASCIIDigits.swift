/// Reads fixed-width decimal fields and hexadecimal digits out of ASCII bytes, for the feeds'
/// dates and times without a formatter, and the escapes and digests that spell numbers in hex;
/// and writes fixed-width fields of digits, with the tables the writers spell digits with.
enum ASCIIDigits {
    /// The hexadecimal digits, lower case (a digit's value is its place).
    static let lowerHex: StaticString = "0123456789abcdef"

    /// The two digits of each number from 00 to 99, one after another (a number's pair starts at
    /// twice it).
    static let decimalPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes the last `count` decimal digits of `value` (not negative) at `place`, the last digit
    /// lowest, leading zeros kept: a fixed-width field.
    @inline(__always)
    static func writeDecimal(_ value: Int, digits count: Int, to place: UnsafeMutablePointer<UInt8>) {
        var rest = value
        for at in stride(from: count - 1, through: 0, by: -1) {
            place[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    /// Writes the last `count` hexadecimal digits of `value`, lower case, at `place`, the last
    /// digit lowest, leading zeros kept; each digit looked up, not branched on.
    @inline(__always)
    static func writeHex(_ value: UInt64, digits count: Int, to place: UnsafeMutablePointer<UInt8>) {
        let table = lowerHex.utf8Start
        var rest = value
        for at in stride(from: count - 1, through: 0, by: -1) {
            place[at] = table[Int(truncatingIfNeeded: rest & 0xF)]
            rest >>= 4
        }
    }

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

    /// The value of one hexadecimal digit, either case; nil for any other byte.
    @inline(__always)
    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

import Foundation

extension JSONScanner {
    /// A number's bytes, checked against JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    struct NumberText {
        var start: Int
        var end: Int
        var negative: Bool
        var fraction: Bool
        var exponent: Bool
    }

    /// Scans a number, or declines what is not one.
    mutating func numberText() throws(Declined) -> NumberText {
        skipWhitespace()
        let start = index
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        switch peek() {
        case UInt8(ascii: "0"):
            index += 1
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            index += 1
            skipDigits()
        default:
            throw Declined()
        }
        var fraction = false, exponent = false
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard isDigit(peek()) else { throw Declined() }
            skipDigits()
            fraction = true
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard isDigit(peek()) else { throw Declined() }
            skipDigits()
            exponent = true
        }
        return NumberText(start: start, end: index, negative: negative, fraction: fraction, exponent: exponent)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always)
    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    /// An integer spelled as one, of at most 18 digits (so it fits without a check). Other
    /// spellings `JSONDecoder` may take as an `Int` (`1.0`, `1e2`, 19 digits) are declined.
    mutating func int() throws(Declined) -> Int {
        let text = try numberText()
        let first = text.negative ? text.start + 1 : text.start
        guard !text.fraction, !text.exponent, text.end - first <= 18 else { throw Declined() }
        var value = 0
        for i in first..<text.end {
            value = value &* 10 &+ Int(bytes[i] &- UInt8(ascii: "0"))
        }
        return text.negative ? -value : value
    }

    /// A number without an exponent, correctly rounded as `JSONDecoder` rounds it. When its
    /// digits, read as an integer, are at most 2⁵³ with at most 22 after the point, that integer
    /// and the power of ten are exact doubles and one division rounds correctly; longer ones (the
    /// 17 digits of a time estimated to the microsecond) go through the standard library's
    /// correctly rounded conversion. Exponents and numbers of more than 32 bytes are declined.
    mutating func double() throws(Declined) -> Double {
        let text = try numberText()
        guard !text.exponent, text.end - text.start <= 32 else { throw Declined() }
        let first = text.negative ? text.start + 1 : text.start
        // At most 19 digits are summed: they fit a UInt64 (20 could wrap, and a wrapped sum
        // under 2⁵³ would pass for the number: 18446744073709551616 read as 0).
        guard text.end - first <= 19 else { return try longDouble(text) }
        var mantissa: UInt64 = 0
        var fractionDigits = 0, inFraction = false
        for i in first..<text.end {
            let byte = bytes[i]
            if byte == UInt8(ascii: ".") {
                inFraction = true
                continue
            }
            mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
            if inFraction { fractionDigits += 1 }
        }
        guard mantissa <= 1 << 53, fractionDigits < Self.powersOfTen.count else { return try longDouble(text) }
        let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
        return text.negative ? -value : value
    }

    /// A number checked by ``numberText()``, converted by the standard library (`strtod`).
    private func longDouble(_ text: NumberText) throws(Declined) -> Double {
        let spelled = String(decoding: UnsafeBufferPointer(rebasing: bytes[text.start..<text.end]), as: UTF8.self)
        guard let value = Double(spelled), value.isFinite else { throw Declined() }
        return value
    }

    /// 10⁰ … 10²², every one an exact double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}

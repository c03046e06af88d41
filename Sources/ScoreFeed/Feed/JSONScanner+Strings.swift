import Foundation

extension JSONScanner {
    /// A string's bytes between its quotes, checked: escapes well formed (a `\u` high surrogate
    /// followed by a low one, no lone surrogate), no raw control character, valid UTF-8.
    struct StringText {
        var start: Int
        var end: Int
        var escaped: Bool
    }

    /// A string. One without escapes becomes a `String` straight from its bytes.
    mutating func string() throws(Declined) -> String {
        string(try stringText())
    }

    /// The text of a string ``stringText()`` read.
    func string(_ text: StringText) -> String {
        let raw = bytes(of: text)
        guard text.escaped else { return String(decoding: raw, as: UTF8.self) }
        return Self.unescape(raw)
    }

    /// The bytes between a string's quotes, escapes as they are spelled.
    func bytes(of text: StringText) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[text.start..<text.end])
    }

    /// Reads past a string, checking it as ``string()`` does.
    mutating func skipString() throws(Declined) {
        _ = try stringText()
    }

    /// Scans a string from its opening quote to past its closing one.
    mutating func stringText() throws(Declined) -> StringText {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw Declined() }
        index += 1
        let start = index
        var escaped = false, ascii = true
        skipPlain()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = StringText(start: start, end: index, escaped: escaped)
                index += 1
                // Escapes are ASCII, so the raw bytes are valid UTF-8 exactly when the string is
                // (a sequence cut by an escape is invalid both ways).
                if !ascii, !Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[start..<text.end])) { throw Declined() }
                return text
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try skipEscape()
                continue
            }
            guard byte >= 0x20 else { throw Declined() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw Declined()
    }

    /// Reads past the plain bytes at `index` eight at a time: printable ASCII that is neither a
    /// quote nor a backslash, which need no check one by one (in a string or a key). Stops at
    /// the first byte of a word that is not plain (most often the closing quote), or at the last
    /// bytes, for the byte loop to read.
    @inline(__always)
    mutating func skipPlain() {
        guard let base = bytes.baseAddress else { return }
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let others = Self.notPlain(word)
            guard others == 0 else {
                index += others.trailingZeroBitCount / 8
                return
            }
            index += 8
        }
    }

    /// The high bit of each byte of `word` (the first byte lowest) that is not plain: plain is
    /// below 0x80, at least 0x20, and neither `"` nor `\`. Zero exactly when all eight are (the
    /// tests for a zero byte and a byte below a bound have no false "none"); above the lowest one
    /// set, a plain byte may be flagged too (a borrow carries into it), but the lowest is exact.
    @inline(__always)
    static func notPlain(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & high }
        let below = (word &- ones &* 0x20) & ~word & high
        return (word & high) | below | hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x5C))
    }

    /// Checks one escape at `index` (its backslash) and reads past it.
    private mutating func skipEscape() throws(Declined) {
        guard index + 1 < bytes.count else { throw Declined() }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            guard let unit = Self.hex4(bytes, at: index + 2) else { throw Declined() }
            index += 6
            if unit >= 0xDC00 && unit < 0xE000 { throw Declined() }
            if unit >= 0xD800 && unit < 0xDC00 {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                      let low = Self.hex4(bytes, at: index + 2), low >= 0xDC00, low < 0xE000
                else { throw Declined() }
                index += 6
            }
        default:
            throw Declined()
        }
    }

    /// The four hex digits at `position` as a UTF-16 code unit, or nil.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt32? {
        guard position >= 0, position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in position..<position + 4 {
            guard let digit = ASCIIDigits.hex(bytes[i]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The text of a checked string with escapes (``stringText()`` has checked every escape; what
    /// does not decode is dropped rather than trusted).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\"), i + 1 < raw.count else {
                out.append(byte)
                i += 1
                continue
            }
            let kind = raw[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(raw, at: i) else { continue }
                i += 4
                if scalar >= 0xD800 && scalar < 0xDC00, i + 1 < raw.count, raw[i] == UInt8(ascii: "\\"),
                   let low = hex4(raw, at: i + 2), low >= 0xDC00, low < 0xE000 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                guard let value = Unicode.Scalar(scalar) else { continue }
                out.append(contentsOf: value.utf8)
            default: out.append(kind)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `bytes` are well-formed UTF-8: no overlong form, no surrogate, nothing past U+10FFFF.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        func continuation(_ at: Int) -> UInt8? {
            guard at < n, bytes[at] & 0xC0 == 0x80 else { return nil }
            return bytes[at]
        }
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
            } else if lead < 0xC2 {
                return false
            } else if lead < 0xE0 {
                guard continuation(i + 1) != nil else { return false }
                i += 2
            } else if lead < 0xF0 {
                guard let second = continuation(i + 1), continuation(i + 2) != nil else { return false }
                if lead == 0xE0 && second < 0xA0 { return false }
                if lead == 0xED && second >= 0xA0 { return false }
                i += 3
            } else if lead < 0xF5 {
                guard let second = continuation(i + 1), continuation(i + 2) != nil, continuation(i + 3) != nil else {
                    return false
                }
                if lead == 0xF0 && second < 0x90 { return false }
                if lead == 0xF4 && second >= 0x90 { return false }
                i += 4
            } else {
                return false
            }
        }
        return true
    }
}

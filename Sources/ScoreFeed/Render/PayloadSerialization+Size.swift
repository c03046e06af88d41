import Foundation

extension PayloadSerialization {
    /// One payload's size in bytes in each covered serialization.
    public struct Sizes: Hashable, Sendable {
        /// The payload's own bytes (``PayloadSerialization/compact``).
        public var compact: Int
        public var escapedSlashes: Int
        public var spaced: Int
        public var spacedASCII: Int

        public subscript(_ serialization: PayloadSerialization) -> Int {
            switch serialization {
            case .compact: return compact
            case .escapedSlashes: return escapedSlashes
            case .spaced: return spaced
            case .spacedASCII: return spacedASCII
            }
        }

        /// The largest size and the serialization that has it (the first in `allCases` order
        /// on a tie): what the size guard holds to the limit.
        public var largest: (serialization: PayloadSerialization, bytes: Int) {
            var best = (serialization: PayloadSerialization.compact, bytes: compact)
            for serialization in PayloadSerialization.allCases where self[serialization] > best.bytes {
                best = (serialization, self[serialization])
            }
            return best
        }
    }

    /// How many times its compact bytes a payload can take in any serialization: a payload of
    /// at most `limit / largestGrowth` bytes fits `limit` in all of them, unmeasured. The most a
    /// byte grows is 6, a DEL or control character written raw that becomes `\u007f`; a 2-byte
    /// character becomes 6 bytes, a separator 2, a float such as `1e15` at most 4.5 times its text.
    public static let largestGrowth = 6

    /// This serialization's size of `payload`; see ``sizes(of:)``.
    public func size(of payload: Data) throws(ScoreFeedError) -> Int {
        try Self.sizes(of: payload)[self]
    }

    /// The size of `payload` (JSON text) in every covered serialization, computed in one pass
    /// over its bytes: the compact size is the byte count; the others re-spell each token as that
    /// serializer does.
    ///
    /// - Separators: every `,` and `:` between values gains a space in the spaced forms; white
    ///   space between tokens is dropped (a serializer writes its own).
    /// - Strings, per character (escapes in `payload` decoded first): `"` `\` and
    ///   `\b \f \n \r \t` take 2 bytes and other controls 6 (`\u00XX`) everywhere; `/` takes 2 with
    ///   escaped slashes; otherwise a character takes its UTF-8 length, except in the ASCII form,
    ///   where everything outside `U+0020…U+007E` takes 6 (`\uXXXX`), or 12 above `U+FFFF` (a
    ///   surrogate pair).
    /// - Numbers: integers keep their digits (`-0` is `0` to Python); a number with a fraction or
    ///   an exponent is a float, spelled as Python's `repr` spells it (``pythonRepr(_:)``) in the
    ///   spaced forms and as `JSONEncoder` does with escaped slashes.
    ///
    /// Throws `invalid-value` for text that is not JSON (a token that is not one, brackets that do
    /// not balance, nothing at all); it does not check where commas and colons stand.
    public static func sizes(of payload: Data) throws(ScoreFeedError) -> Sizes {
        var scanner = SizeScanner()
        let scanned: Bool = payload.withUnsafeBytes { raw in
            scanner.scan(raw.bindMemory(to: UInt8.self))
        }
        guard scanned else { throw ScoreFeedError(.invalidValue, "the payload is not JSON text (at byte \(scanner.failedAt))") }
        return Sizes(
            compact: payload.count, escapedSlashes: scanner.escapedSlashes, spaced: scanner.spaced,
            spacedASCII: scanner.spacedASCII)
    }

    /// `value` as Python's `repr(float)` (and so `json.dumps`) spells it: the shortest digits that
    /// read back as `value` (Swift's `description` has the same digits), in fixed notation with at
    /// least one decimal (`12.5`, `720.0`) when the decimal exponent is in -4 ..< 16, else as
    /// `d.ddde±XX` (`1e+16`, `1e-05`); non-finite values as `json.dumps` writes them.
    public static func pythonRepr(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        var text = Substring(value.description)
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        var digits = Array(whole + fraction)
        // The decimal point stands after this many digits.
        var point = whole.count + exponent
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let decimalExponent = point - 1
        var out = negative ? "-" : ""
        if decimalExponent >= -4 && decimalExponent < 16 {
            if point <= 0 {
                out += "0." + String(repeating: "0", count: -point) + String(digits)
            } else if point >= digits.count {
                out += String(digits) + String(repeating: "0", count: point - digits.count) + ".0"
            } else {
                out += String(digits[..<point]) + "." + String(digits[point...])
            }
        } else {
            out.append(digits[0])
            if digits.count > 1 { out += "." + String(digits[1...]) }
            let magnitude = abs(decimalExponent)
            out += (decimalExponent < 0 ? "e-" : "e+") + (magnitude < 10 ? "0" : "") + String(magnitude)
        }
        return out
    }

    /// `value` as `JSONEncoder` (and ``JSONBytes``) spells a `Double`.
    static func encoderSpelling(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        var out = JSONBytes(capacity: 32)
        do { try out.double(value) } catch { return "" }
        return out.string()
    }

    /// The one pass of ``sizes(of:)``. It counts the payload re-spelled compactly (white space
    /// between tokens dropped, escapes in strings decoded and re-escaped as the serializers do),
    /// and what each other serialization adds to that: a tight loop over bytes, since the guard
    /// measures every push it renders (and each step of its trimming).
    private struct SizeScanner {
        /// The compact re-spelling, numbers as Python spells them.
        var compact = 0
        /// What `\/` adds, and what `JSONEncoder`'s float spelling adds over Python's.
        var slashes = 0
        /// What the spaces after `,` and `:` add.
        var separators = 0
        /// What `\uXXXX` for non-ASCII and DEL adds.
        var escapes = 0
        var failedAt = 0

        var escapedSlashes: Int { compact + slashes }
        var spaced: Int { compact + separators }
        var spacedASCII: Int { compact + separators + escapes }

        /// Counts `bytes`; false (with ``failedAt``) where they are not JSON: a token that is not
        /// one, brackets that do not balance, nothing at all.
        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var at = 0, values = 0
            var open: [UInt8] = []
            open.reserveCapacity(8)
            let count = bytes.count
            while at < count {
                let byte = bytes[at]
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D:
                    at &+= 1
                case 0x2C, 0x3A:  // , :
                    compact &+= 1
                    separators &+= 1
                    at &+= 1
                case 0x7B, 0x5B:  // { [
                    open.append(byte)
                    values &+= 1
                    compact &+= 1
                    at &+= 1
                case 0x7D, 0x5D:  // } ]
                    guard let opener = open.popLast(), opener == byte &- 2 else { failedAt = at; return false }
                    compact &+= 1
                    at &+= 1
                case 0x22:
                    guard let end = string(bytes, from: at) else { failedAt = at; return false }
                    values &+= 1
                    at = end
                case 0x74, 0x66, 0x6E:  // t f n
                    let word: StaticString = byte == 0x74 ? "true" : byte == 0x66 ? "false" : "null"
                    let length = word.utf8CodeUnitCount
                    guard at + length <= count, memcmp(bytes.baseAddress! + at, word.utf8Start, length) == 0 else {
                        failedAt = at
                        return false
                    }
                    compact &+= length
                    values &+= 1
                    at &+= length
                case 0x2D, 0x30...0x39:  // - 0…9
                    guard let end = number(bytes, from: at) else { failedAt = at; return false }
                    values &+= 1
                    at = end
                default:
                    failedAt = at
                    return false
                }
            }
            failedAt = at
            return open.isEmpty && values > 0
        }

        /// Counts the number token at `start`; returns where it ends.
        mutating func number(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            var end = start, isFloat = false, digits = 0, nonZero = false
            while end < bytes.count {
                let c = bytes[end]
                if c >= 0x30 && c <= 0x39 {
                    digits &+= 1
                    if c != 0x30 && !isFloat { nonZero = true }
                } else if c == 0x2E || c == 0x65 || c == 0x45 {  // . e E
                    isFloat = true
                } else if c != 0x2D && c != 0x2B {  // - +
                    break
                }
                end &+= 1
            }
            guard digits > 0 else { return nil }
            let length = end - start
            if !isFloat {
                // Python (and `JSONEncoder`, through an `Int`) reads `-0` as the integer 0.
                compact &+= bytes[start] == 0x2D && !nonZero ? length - 1 : length
                return end
            }
            let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            guard let value = Double(token) else { return nil }
            let encoder = PayloadSerialization.encoderSpelling(value)
            // A fraction in fixed notation spelled as Swift spells it (as ScoreFeed writes every
            // clock) is Python's spelling too: the same shortest digits, and Swift's fixed range
            // lies within Python's. Anything else is spelled out.
            let fixed = encoder == token && !token.utf8.contains(0x65) && !token.utf8.contains(0x45)
            let python = fixed ? length : PayloadSerialization.pythonRepr(value).utf8.count
            compact &+= python
            slashes &+= encoder.utf8.count - python
            return end
        }

        /// Counts the string whose opening quote is at `start`; returns the index after its
        /// closing quote.
        mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            compact &+= 2
            var at = start &+ 1
            let count = bytes.count
            while at < count {
                let byte = bytes[at]
                if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
                    // Printable ASCII: one byte everywhere, `/` two with escaped slashes.
                    compact &+= 1
                    if byte == 0x2F { slashes &+= 1 }
                    at &+= 1
                } else if byte >= 0x80 {
                    // Only the UTF-8 length matters: 2 and 3 bytes are in the BMP (`\uXXXX`, 6),
                    // 4 bytes above it (a surrogate pair, 12).
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    guard at &+ length <= count else { return nil }
                    compact &+= length
                    escapes &+= length == 4 ? 8 : 6 - length
                    at &+= length
                } else if byte == 0x22 {
                    return at &+ 1
                } else if byte == 0x5C {
                    guard at &+ 1 < count else { return nil }
                    let scalar: UInt32
                    switch bytes[at &+ 1] {
                    case 0x22: scalar = 0x22
                    case 0x5C: scalar = 0x5C
                    case 0x2F: scalar = 0x2F
                    case 0x62: scalar = 0x08
                    case 0x66: scalar = 0x0C
                    case 0x6E: scalar = 0x0A
                    case 0x72: scalar = 0x0D
                    case 0x74: scalar = 0x09
                    case 0x75:  // u
                        guard var unit = hex4(bytes, at &+ 2) else { return nil }
                        at &+= 4
                        // A surrogate pair is one character.
                        if (0xD800...0xDBFF).contains(unit), at &+ 7 < count, bytes[at &+ 2] == 0x5C, bytes[at &+ 3] == 0x75,
                           let low = hex4(bytes, at &+ 4), (0xDC00...0xDFFF).contains(low) {
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            at &+= 6
                        }
                        scalar = unit
                    default: return nil
                    }
                    at &+= 2
                    character(scalar)
                } else {
                    // A raw control character (not JSON, but measured as Python would write it) or DEL.
                    character(UInt32(byte))
                    at &+= 1
                }
            }
            return nil
        }

        /// Counts one decoded character of a string in each serialization.
        mutating func character(_ scalar: UInt32) {
            switch scalar {
            case 0x22, 0x5C, 0x08, 0x09, 0x0A, 0x0C, 0x0D: compact &+= 2
            case 0..<0x20: compact &+= 6
            case 0x2F: compact &+= 1; slashes &+= 1
            case 0x20..<0x7F: compact &+= 1
            case 0x7F: compact &+= 1; escapes &+= 5
            case 0x80..<0x800: compact &+= 2; escapes &+= 4
            case 0x800..<0x10000: compact &+= 3; escapes &+= 3
            default: compact &+= 4; escapes &+= 8
            }
        }

        func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in at..<(at + 4) {
                let c = bytes[index]
                let digit: UInt8
                switch c {
                case 0x30...0x39: digit = c - 0x30
                case 0x61...0x66: digit = c - 0x61 + 10
                case 0x41...0x46: digit = c - 0x41 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}

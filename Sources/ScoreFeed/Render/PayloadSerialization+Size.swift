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

        /// The largest size and the serialization that has it (the first in ``allCases`` order
        /// on a tie): what the size guard holds to the limit.
        public var largest: (serialization: PayloadSerialization, bytes: Int) {
            var best = (serialization: PayloadSerialization.compact, bytes: compact)
            for serialization in PayloadSerialization.allCases where self[serialization] > best.bytes {
                best = (serialization, self[serialization])
            }
            return best
        }
    }

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

    /// The one pass of ``sizes(of:)``: counts bytes per serialization as it reads tokens.
    private struct SizeScanner {
        var escapedSlashes = 0
        var spaced = 0
        var spacedASCII = 0
        var failedAt = 0
        /// The brackets open at this point (`{` or `[`), to catch text that is not one balanced value.
        var open: [UInt8] = []
        var values = 0

        mutating func add(compact: Int, spaced spacedBytes: Int? = nil, ascii: Int? = nil, slashes: Int? = nil) {
            escapedSlashes += slashes ?? compact
            spaced += spacedBytes ?? compact
            spacedASCII += ascii ?? spacedBytes ?? compact
        }

        /// Counts `bytes`; false (with ``failedAt``) where they are not JSON.
        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var at = 0
            while at < bytes.count {
                let byte = bytes[at]
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D:
                    at += 1
                case UInt8(ascii: ","), UInt8(ascii: ":"):
                    add(compact: 1, spaced: 2)
                    at += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    open.append(byte)
                    values += 1
                    add(compact: 1)
                    at += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard let opener = open.popLast(), opener == (byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "["))
                    else { failedAt = at; return false }
                    add(compact: 1)
                    at += 1
                case UInt8(ascii: "\""):
                    guard let end = string(bytes, from: at) else { failedAt = at; return false }
                    values += 1
                    at = end
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let word = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
                    guard at + word.utf8.count <= bytes.count,
                          word.utf8.elementsEqual(bytes[at..<(at + word.utf8.count)])
                    else { failedAt = at; return false }
                    add(compact: word.utf8.count)
                    values += 1
                    at += word.utf8.count
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let end = number(bytes, from: at) else { failedAt = at; return false }
                    values += 1
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
            var end = start
            var isFloat = false
            while end < bytes.count {
                let c = bytes[end]
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                    isFloat = true
                } else if !(c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)) {
                    break
                }
                end += 1
            }
            let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            if isFloat {
                guard let value = Double(token) else { return nil }
                let python = PayloadSerialization.pythonRepr(value).utf8.count
                add(compact: token.utf8.count, spaced: python, ascii: python, slashes: PayloadSerialization.encoderSpelling(value).utf8.count)
            } else {
                guard token.contains(where: \.isNumber) else { return nil }
                // Python (and `JSONEncoder`, through an `Int`) reads `-0` as the integer 0.
                let read = token.hasPrefix("-") && token.dropFirst().allSatisfy { $0 == "0" } ? token.utf8.count - 1 : token.utf8.count
                add(compact: read)
            }
            return end
        }

        /// Counts the string whose opening quote is at `start`, character by character; returns
        /// the index after its closing quote.
        mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            add(compact: 2)
            var at = start + 1
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") { return at + 1 }
                var scalar: UInt32
                if byte == UInt8(ascii: "\\") {
                    guard at + 1 < bytes.count else { return nil }
                    switch bytes[at + 1] {
                    case UInt8(ascii: "\""): scalar = 0x22
                    case UInt8(ascii: "\\"): scalar = 0x5C
                    case UInt8(ascii: "/"): scalar = 0x2F
                    case UInt8(ascii: "b"): scalar = 0x08
                    case UInt8(ascii: "f"): scalar = 0x0C
                    case UInt8(ascii: "n"): scalar = 0x0A
                    case UInt8(ascii: "r"): scalar = 0x0D
                    case UInt8(ascii: "t"): scalar = 0x09
                    case UInt8(ascii: "u"):
                        guard let unit = hex4(bytes, at + 2) else { return nil }
                        scalar = unit
                        at += 4
                        // A surrogate pair is one character.
                        if (0xD800...0xDBFF).contains(unit), at + 7 < bytes.count, bytes[at + 2] == UInt8(ascii: "\\"),
                           bytes[at + 3] == UInt8(ascii: "u"), let low = hex4(bytes, at + 4), (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            at += 6
                        }
                    default: return nil
                    }
                    at += 2
                } else if byte < 0x80 {
                    scalar = UInt32(byte)
                    at += 1
                } else {
                    // Only the UTF-8 length matters: 2 and 3 bytes are in the BMP, 4 bytes above it.
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    guard at + length <= bytes.count else { return nil }
                    scalar = length == 4 ? 0x10000 : length == 3 ? 0x800 : 0x80
                    at += length
                }
                count(scalar)
            }
            return nil
        }

        /// Counts one character of a string in each serialization.
        mutating func count(_ scalar: UInt32) {
            switch scalar {
            case 0x22, 0x5C, 0x08, 0x09, 0x0A, 0x0C, 0x0D: add(compact: 2)
            case 0..<0x20: add(compact: 6)
            case 0x2F: add(compact: 1, slashes: 2)
            case 0x20..<0x7F: add(compact: 1)
            case 0x7F: add(compact: 1, ascii: 6)
            case 0x80..<0x800: add(compact: 2, ascii: 6)
            case 0x800..<0x10000: add(compact: 3, ascii: 6)
            default: add(compact: 4, ascii: 12)
            }
        }

        func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in at..<(at + 4) {
                let c = bytes[index]
                let digit: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}

import Foundation

/// A byte-level JSON reader for the hot paths (`serve`'s lines, fixture files): it reads values
/// straight from the bytes into the types that need them, with no intermediate tree and no
/// `JSONDecoder`.
///
/// It is strict and small on purpose: it takes only input it reads exactly as `JSONDecoder` does
/// and *declines* everything else (``Declined``): malformed JSON, a wrong type, a duplicate or
/// escaped or non-ASCII key, a number it cannot convert exactly, invalid UTF-8, nesting deeper
/// than ``maxDepth``. A caller that is declined decodes the same bytes with `JSONDecoder`, which
/// then accepts or rejects them with today's message; so errors stay what they were, and the
/// usual input never meets `JSONDecoder`. Every read is bounded by the buffer and by ``maxDepth``.
struct JSONScanner {
    /// The reader does not take this input; decode it with `JSONDecoder` instead.
    struct Declined: Error, Hashable {}

    /// Containers nested deeper than this are declined (`JSONDecoder` allows about 512).
    static let maxDepth = 64

    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads `data` with `read`, or nil when the reader declines it (`JSONDecoder` then reads it).
    static func reading<T>(_ data: Data, _ read: (inout JSONScanner) throws(Declined) -> T) -> T? {
        data.withUnsafeBytes { reading($0, read) }
    }

    /// Reads `bytes` with `read`, or nil when the reader declines them.
    static func reading<T>(_ bytes: UnsafeRawBufferPointer, _ read: (inout JSONScanner) throws(Declined) -> T) -> T? {
        var scanner = JSONScanner(bytes.bindMemory(to: UInt8.self))
        do {
            return try read(&scanner)
        } catch {
            return nil
        }
    }

    /// The byte at `index`, or 0 past the end (0 is never valid JSON outside a string, and
    /// strings check the end themselves).
    @inline(__always)
    func peek() -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    /// Skips JSON white space (space, tab, line feed, carriage return: nothing else, as `JSONDecoder`).
    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Whether the bytes from `index` on start with `prefix` (one `memcmp`).
    func follows(_ prefix: [UInt8]) -> Bool {
        guard bytes.count - index >= prefix.count, let base = bytes.baseAddress else { return false }
        return prefix.withUnsafeBytes { memcmp(base + index, $0.baseAddress!, prefix.count) == 0 }
    }

    /// After the top-level value: only white space may follow.
    mutating func end() throws(Declined) {
        skipWhitespace()
        guard index == bytes.count else { throw Declined() }
    }

    // MARK: Containers

    /// Consumes `{`; returns whether a member follows (false for `{}`, which is consumed whole).
    mutating func beginObject() throws(Declined) -> Bool {
        try begin(UInt8(ascii: "{"), UInt8(ascii: "}"))
    }

    /// After a member's value: consumes `,` (true: another member follows) or `}` (false).
    /// A trailing comma is declined (a key must follow it).
    mutating func nextMember() throws(Declined) -> Bool {
        try next(UInt8(ascii: "}"))
    }

    /// Consumes `[`; returns whether an element follows (false for `[]`, which is consumed whole).
    mutating func beginArray() throws(Declined) -> Bool {
        try begin(UInt8(ascii: "["), UInt8(ascii: "]"))
    }

    /// After an element: consumes `,` (true: another element follows) or `]` (false).
    mutating func nextElement() throws(Declined) -> Bool {
        try next(UInt8(ascii: "]"))
    }

    private mutating func begin(_ open: UInt8, _ close: UInt8) throws(Declined) -> Bool {
        skipWhitespace()
        guard peek() == open else { throw Declined() }
        index += 1
        skipWhitespace()
        if peek() == close {
            index += 1
            return false
        }
        return true
    }

    private mutating func next(_ close: UInt8) throws(Declined) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","): index += 1; return true
        case close: index += 1; return false
        default: throw Declined()
        }
    }

    /// A member's key and its colon. Only keys of ASCII from 0x20 without escapes are taken:
    /// `JSONDecoder` matches keys as Swift strings (canonical equivalence: `"\u212A"` is `"K"`), so
    /// a key with an escape or a non-ASCII byte is left to it.
    mutating func key() throws(Declined) -> Key {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw Declined() }
        index += 1
        let start = index
        // Most keys are read in one word: the scan stops at their closing quote.
        skipPlain()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let key = Key(start: bytes.baseAddress! + start, count: index - start)
                index += 1
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw Declined() }
                index += 1
                return key
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw Declined() }
            index += 1
        }
        throw Declined()
    }

    /// A key's bytes, compared with the names of fields.
    struct Key {
        let start: UnsafePointer<UInt8>
        let count: Int

        /// Whether the key is exactly `name` (an ASCII literal). Only a `StaticString`: with a
        /// `String` overload beside it, every literal took that one (a literal is a `String` by
        /// default), a generic byte-by-byte comparison that was a fifth of a debug build's poll.
        @inline(__always)
        func `is`(_ name: StaticString) -> Bool {
            name.utf8CodeUnitCount == count && memcmp(start, name.utf8Start, count) == 0
        }

        /// Whether the key is exactly `name`, a name known only at run time.
        func `is`(named name: String) -> Bool {
            var name = name
            return name.withUTF8 { $0.count == count && (count == 0 || memcmp(start, $0.baseAddress!, count) == 0) }
        }
    }

    // MARK: Scalars

    /// Consumes `null` when it is next; returns whether it was.
    mutating func null() -> Bool {
        skipWhitespace()
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
              bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// `true` or `false`.
    mutating func bool() throws(Declined) -> Bool {
        skipWhitespace()
        if literal("true") { return true }
        if literal("false") { return false }
        throw Declined()
    }

    /// Consumes `word` when the bytes at `index` spell it.
    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else {
            return false
        }
        index += count
        return true
    }

    /// A string, or nil for `null`.
    mutating func optionalString() throws(Declined) -> String? {
        null() ? nil : try string()
    }

    /// An integer, or nil for `null`.
    mutating func optionalInt() throws(Declined) -> Int? {
        null() ? nil : try int()
    }

    /// A number, or nil for `null`.
    mutating func optionalDouble() throws(Declined) -> Double? {
        null() ? nil : try double()
    }

    /// A boolean, or nil for `null`.
    mutating func optionalBool() throws(Declined) -> Bool? {
        null() ? nil : try bool()
    }

    // MARK: Skipping

    /// Reads past one value of any kind, checking it as strictly as a value that is read.
    /// `depth` is the number of containers around it; deeper than ``maxDepth`` is declined.
    mutating func skipValue(depth: Int = 1) throws(Declined) {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw Declined() }
            if try beginObject() {
                repeat {
                    skipWhitespace()
                    try skipString()
                    skipWhitespace()
                    guard peek() == UInt8(ascii: ":") else { throw Declined() }
                    index += 1
                    try skipValue(depth: depth + 1)
                } while try nextMember()
            }
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw Declined() }
            if try beginArray() {
                repeat {
                    try skipValue(depth: depth + 1)
                } while try nextElement()
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try bool()
        case UInt8(ascii: "n"):
            guard null() else { throw Declined() }
        default:
            _ = try numberText()
        }
    }
}

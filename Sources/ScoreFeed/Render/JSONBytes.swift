import Foundation

/// An append-only JSON writer over a byte array, for the hot path of rendering a push (one
/// payload per push, sometimes several while the size guard trims) and for checkpoints
/// (``CheckpointEncoder``). It spells strings and numbers exactly as Foundation's `JSONEncoder`
/// does, so a hand-written payload is byte for byte what the encoder would give with
/// `.sortedKeys` (and `.withoutEscapingSlashes`, unless asked to escape them):
///
/// - strings: `"` and `\` escaped, `\b \t \n \f \r` short, other controls as `\u00xx`
///   (lower-case hex), `/` raw or as `\/` (``string(_:escapingSlashes:)``), everything else
///   (DEL, non-ASCII) as raw UTF-8;
/// - integers in decimal; doubles as Swift's shortest round-trip `description` without a
///   trailing `.0` (`720`, `12.5`, `1e+16`); a non-finite double is an error, as in the encoder.
///
/// Callers write keys in sorted (UTF-8 byte) order themselves.
struct JSONBytes: ~Copyable {
    /// The bytes so far, in a buffer from `malloc` that grows by doubling; handed to `Data`
    /// without a copy at the end.
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        guard let memory = malloc(self.capacity) else { fatalError("out of memory") }
        start = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        free(start)
    }

    /// A double that JSON cannot spell (NaN or an infinity).
    struct NonFinite: Error, CustomStringConvertible {
        var value: Double
        var description: String { "\(value) is not a finite number" }
    }

    /// The bytes written, as `Data` that takes over the buffer.
    consuming func data() -> Data {
        let data = Data(bytesNoCopy: start, count: count, deallocator: .free)
        discard self
        return data
    }

    /// Calls `body` with the bytes written so far, as `Data` that borrows the buffer (valid only
    /// during the call), then empties the buffer and keeps its memory: a writer that puts out
    /// chunk after chunk reuses one buffer instead of touching fresh pages each time.
    mutating func drain<T, E: Error>(_ body: (Data) throws(E) -> T) throws(E) -> T {
        defer { count = 0 }
        return try body(Data(bytesNoCopy: start, count: count, deallocator: .none))
    }

    /// Forgets the bytes written and keeps the memory, up to `limit` bytes of it: a buffer kept
    /// from use to use does not hold on to what one large use needed.
    mutating func removeAll(keepingAtMost limit: Int = .max) {
        count = 0
        guard capacity > limit, let memory = realloc(start, max(limit, 16)) else { return }
        capacity = max(limit, 16)
        start = memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Appends what `other` holds.
    mutating func append(_ other: borrowing JSONBytes) {
        other.withBytes { append($0.bindMemory(to: UInt8.self)) }
    }

    /// Calls `body` with the bytes written so far (valid only during the call).
    func withBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The bytes written, as text.
    consuming func string() -> String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    @inline(__always)
    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        grow(to: count + more)
    }

    /// Doubles the buffer until `needed` bytes fit (kept out of line: the writers inline
    /// ``reserve(_:)``'s check).
    @inline(never)
    private mutating func grow(to needed: Int) {
        while needed > capacity { capacity *= 2 }
        guard let memory = realloc(start, capacity) else { fatalError("out of memory") }
        start = memory.assumingMemoryBound(to: UInt8.self)
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (start + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// Appends JSON text as is (punctuation, keys written by hand): a literal, copied from where
    /// the binary holds it (a literal passed where a `String` is also taken would be made a
    /// `String` first, so text made at run time has a name of its own, ``raw(text:)``).
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        // Not `utf8Start`: a one-character literal is held as its scalar, without a pointer.
        text.withUTF8Buffer { append($0) }
    }

    /// Appends JSON text made elsewhere (a number spelled, a payload already encoded) as is.
    mutating func raw(text: String) {
        text.readingUTF8 { append($0) }
    }

    mutating func raw(_ bytes: Data) {
        bytes.withUnsafeBytes { append($0.bindMemory(to: UInt8.self)) }
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    mutating func int(_ value: Int) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            // The magnitude of Int.min does not fit an Int; UInt's does.
            unsigned(UInt(bitPattern: 0) &- UInt(bitPattern: value))
        } else {
            unsigned(UInt(value))
        }
    }

    mutating func unsigned(_ value: UInt) {
        // The length first, by comparisons (a division per digit cost twice as much), then the
        // digits from the last, two at a time from a table.
        var digits = 1, bound: UInt = 10
        while digits < 20, value >= bound {
            digits += 1
            bound = bound &* 10
        }
        reserve(digits)
        var at = start + count + digits
        var rest = value
        let pairs = ASCIIDigits.decimalPairs.utf8Start
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            at -= 2
            at[0] = pairs[pair]
            at[1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            at[-2] = pairs[pair]
            at[-1] = pairs[pair &+ 1]
        } else {
            at[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        count += digits
    }

    /// Appends `value` in lower-case hexadecimal without leading zeros, as
    /// `String(value, radix: 16)` spells it.
    mutating func hex(_ value: UInt64) {
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        reserve(digits)
        ASCIIDigits.writeHex(value, digits: digits, to: start + count)
        count += digits
    }

    /// Appends a double as `JSONEncoder` spells it.
    mutating func double(_ value: Double) throws(NonFinite) {
        guard value.isFinite else { throw NonFinite(value: value) }
        // Whole numbers below 10^15 print without a fraction or an exponent: as an integer.
        if value == value.rounded(.towardZero), abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
            int(Int(value))
            return
        }
        if decimal(value) { return }
        shortest(value)
    }

    /// Appends `value`'s `description` without a trailing `.0`, without making the description:
    /// the standard library writes the same shortest round-trip digits into a buffer on the stack
    /// (``ShortestDigits``), where a `String` of over 15 bytes would be allocated for each.
    private mutating func shortest(_ value: Double) {
        var digits = ShortestDigits()
        value.write(to: &digits)
        guard !digits.overflowed else { return described(value.description) }
        var length = digits.count
        withUnsafeBytes(of: &digits.storage) { raw in
            raw.withMemoryRebound(to: UInt8.self) { text in
                if length >= 2, text[length - 2] == UInt8(ascii: "."), text[length - 1] == UInt8(ascii: "0") { length -= 2 }
                append(UnsafeBufferPointer(rebasing: text[..<length]))
            }
        }
    }

    /// Appends `value` when it is the double nearest a number of at most three decimals (a feed's
    /// times and clocks: `632450473.3`, `11.25`), as its shortest description spells it, without
    /// making the description: the integer `m` with `m / 10^k == value` for the fewest decimals
    /// `k`, written with its point. Below 2^52 / 10^k the doubles are closer together than 10^-k,
    /// so no other number of `k` decimals reads back as `value`, and none of fewer decimals does
    /// (`k` is the fewest): that spelling is the shortest that round-trips, as `description`'s is.
    /// Returns false, writing nothing, for any other double.
    mutating func decimal(_ value: Double) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 1e-3, magnitude < 4e12 else { return false }
        var scale = 1.0
        for places in 1...3 {
            scale *= 10
            let scaled = (magnitude * scale).rounded()
            guard scaled / scale == magnitude else { continue }
            if value < 0 { byte(UInt8(ascii: "-")) }
            let whole = UInt(scaled)
            var divisor: UInt = 1
            for _ in 0..<places { divisor *= 10 }
            unsigned(whole / divisor)
            byte(UInt8(ascii: "."))
            // The fraction's digits, leading zeros kept.
            reserve(places)
            ASCIIDigits.writeDecimal(Int(whole % divisor), digits: places, to: start + count)
            count += places
            return true
        }
        return false
    }

    /// A `Float` as `JSONEncoder` spells it: its own shortest description (not the `Double` it
    /// widens to) without a trailing `.0`; a non-finite one is an error.
    mutating func float(_ value: Float) throws(NonFinite) {
        guard value.isFinite else { throw NonFinite(value: Double(value)) }
        described(value.description)
    }

    /// A number's `description` without a trailing `.0`.
    private mutating func described(_ description: String) {
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        text.withUTF8 { append($0) }
    }

    /// Appends a JSON string; with `escapingSlashes`, `/` as `\/`, as `JSONEncoder` writes it by
    /// default (what a checkpoint holds).
    mutating func string(_ value: String, escapingSlashes: Bool = false) {
        // The byte escaped besides `"`, `\` and controls: `/` when asked, else `"` again (so one
        // comparison per byte serves both spellings).
        let slash = escapingSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        value.readingUTF8 { quoted($0, slash: slash) }
    }

    /// Appends `utf8` as a JSON string: room for it whole is made once (most strings need no
    /// escaping), its bytes copied eight at a time while none of the eight needs an escape, the
    /// rest byte by byte. (Finding the plain prefix first and copying it apart cost a second pass
    /// and a `memcpy` call per string: most are names and headers of a dozen bytes.)
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>, slash: UInt8) {
        reserve(utf8.count + 2)
        start[count] = UInt8(ascii: "\"")
        count += 1
        if let source = utf8.baseAddress {
            let end = utf8.count
            var at = 0
            // Where the next byte goes, kept in a local: a byte stored through the buffer's
            // pointer could, for all the compiler knows, change `count`, which it would read again.
            var next = start + count
            while at < end {
                while at + 8 <= end {
                    let word = UnsafeRawPointer(source + at).loadUnaligned(as: UInt64.self)
                    guard Self.isPlain(word, slash: slash) else { break }
                    // Room for the whole string was made: a plain word fits where it goes.
                    UnsafeMutableRawPointer(next).storeBytes(of: word, as: UInt64.self)
                    next += 8
                    at += 8
                }
                guard at < end else { break }
                // The last few bytes of a string of eight or more: its last eight read at once
                // (those before them again, already copied), and stored where they go when plain.
                if end >= 8, at + 8 > end {
                    let word = UnsafeRawPointer(source + end - 8).loadUnaligned(as: UInt64.self)
                    if Self.isPlain(word, slash: slash) {
                        UnsafeMutableRawPointer(next - (at + 8 - end)).storeBytes(of: word, as: UInt64.self)
                        next += end - at
                        break
                    }
                }
                let c = source[at]
                at += 1
                guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c == slash else {
                    next.pointee = c
                    next += 1
                    continue
                }
                // An escape is longer than its byte: room for it and for the rest as it is.
                count = next - start
                reserve(6 + end - at + 1)
                byte(UInt8(ascii: "\\"))
                switch c {
                case UInt8(ascii: "\""): byte(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): byte(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): byte(UInt8(ascii: "/"))
                case 0x08: byte(UInt8(ascii: "b"))
                case 0x09: byte(UInt8(ascii: "t"))
                case 0x0A: byte(UInt8(ascii: "n"))
                case 0x0C: byte(UInt8(ascii: "f"))
                case 0x0D: byte(UInt8(ascii: "r"))
                default:
                    raw("u00")
                    byte(ASCIIDigits.lowerHex.utf8Start[Int(c >> 4)])
                    byte(ASCIIDigits.lowerHex.utf8Start[Int(c & 0xF)])
                }
                next = start + count
            }
            count = next - start
        }
        start[count] = UInt8(ascii: "\"")
        count += 1
    }

    /// Whether none of `word`'s eight bytes needs an escape: no control, `"`, `\` or `slash`.
    @inline(__always)
    private static func isPlain(_ word: UInt64, slash: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A high bit set where `word` has a zero byte; none where it has none (no false alarm).
        func zeroByte(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        // Bytes below 0x20 (a byte of 0x80 or more keeps its high bit out through `~word`).
        let control = (word &- ones &* 0x20) & ~word & highs
        let special = zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C)) | zeroByte(word ^ (ones &* UInt64(slash)))
        return control | special == 0
    }
}

/// The text a `Double` writes of itself (`write(to:)`, its `description` for a finite number), up
/// to 32 bytes kept inline: the standard library hands its digits over as ASCII bytes
/// (`_writeASCII`), so no `String` is made. A longer text (none is: at most 24 bytes) is noted.
private struct ShortestDigits: TextOutputStream {
    var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var count = 0
    var overflowed = false

    mutating func write(_ string: String) {
        string.readingUTF8 { _writeASCII($0) }
    }

    mutating func _writeASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        guard count + bytes.count <= MemoryLayout.size(ofValue: storage) else { return overflowed = true }
        let at = count
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.baseAddress.map { ($0 + at).copyMemory(from: source, byteCount: bytes.count) }
        }
        count += bytes.count
    }
}

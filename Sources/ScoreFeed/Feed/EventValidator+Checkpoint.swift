import Foundation
import ScoreFeedModel

/// The validator in a checkpoint: `{"period": 2, "ended": false, "applied": "<entries>"}`, the
/// applied events as one string, by rising `seq`, each `seq:digest:points:team` with the digest
/// in hex (`?` when unknown), the team `h`, `a` or `-`, and any earlier versions' digests after
/// further colons. One string instead of a JSON value per event: a game's ~600 events are
/// written after every event it applies, and this keeps that cheap.
extension EventValidator: Codable {
    enum CodingKeys: String, CodingKey {
        case period, ended, applied
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(period, forKey: .period)
        try container.encode(ended, forKey: .ended)
        try container.encode(appliedText, forKey: .applied)
    }

    /// The `applied` entries as the checkpoint spells them, written as bytes (a snapshot of a
    /// whole game writes ~600 of them; strings built piece by piece cost more than the rest).
    var appliedText: String {
        var text = JSONBytes(capacity: applied.count * 28)
        appendApplied(to: &text)
        return text.string()
    }

    /// Appends the `applied` entries (``appliedText``): digits, hex digits, `:`, `?`, `h`, `a`,
    /// `-` and spaces, nothing a JSON string escapes.
    func appendApplied(to text: inout JSONBytes) {
        var first = true
        // The numbers sorted, not the entries: no entry (and its earlier digests) is moved.
        for seq in applied.keys.sorted() {
            guard let event = applied[seq] else { continue }
            if !first { text.byte(UInt8(ascii: " ")) }
            first = false
            text.int(seq)
            text.byte(UInt8(ascii: ":"))
            if let digest = event.digest { text.hex(digest) } else { text.byte(UInt8(ascii: "?")) }
            text.byte(UInt8(ascii: ":"))
            text.int(event.points)
            text.byte(UInt8(ascii: ":"))
            text.byte(event.team == .home ? UInt8(ascii: "h") : event.team == .away ? UInt8(ascii: "a") : UInt8(ascii: "-"))
            for earlier in event.earlier {
                text.byte(UInt8(ascii: ":"))
                text.hex(earlier)
            }
        }
    }

    /// The validator as its `encode(to:)` spells it in a checkpoint (``CheckpointEncoder``), its
    /// keys in order: written straight into the bytes, without the entries' text made first.
    func appendCheckpoint(to out: inout JSONBytes) {
        out.raw("{\"applied\":\"")
        appendApplied(to: &out)
        out.raw("\",\"ended\":")
        out.bool(ended)
        out.raw(",\"period\":")
        out.int(period)
        out.byte(UInt8(ascii: "}"))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        period = try container.decode(Int.self, forKey: .period)
        ended = try container.decode(Bool.self, forKey: .ended)
        var text = try container.decode(String.self, forKey: .applied)
        var applied: [Int: AppliedEvent] = [:]
        if let wrong = text.withUTF8({ Self.read(applied: $0, into: &applied) }) {
            throw DecodingError.dataCorruptedError(forKey: .applied, in: container, debugDescription: wrong)
        }
        self.applied = applied
    }

    /// Reads the `applied` entries of `text` into `applied`, byte by byte (a restart reads every
    /// game's, ~600 entries each); returns what is wrong with the first entry that does not read,
    /// nil when all do. Entries are apart by one space or more; fields by one colon.
    static func read(applied text: UnsafeBufferPointer<UInt8>, into applied: inout [Int: AppliedEvent]) -> String? {
        let space = UInt8(ascii: " ")
        var index = 0
        while index < text.count {
            if text[index] == space {
                index += 1
                continue
            }
            let start = index
            while index < text.count, text[index] != space { index += 1 }
            let entry = UnsafeBufferPointer(rebasing: text[start..<index])
            var fields = Fields(entry: entry)
            func spelled(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: entry[range]), as: UTF8.self) }
            guard let seq = fields.next().flatMap({ Self.integer(entry[$0]) }),
                  let first = fields.next().flatMap({ Self.digest(entry[$0]) }),
                  let points = fields.next().flatMap({ Self.integer(entry[$0]) }),
                  let side = fields.next(), side.count == 1, let team = Self.team(entry[side.lowerBound])
            else { return "applied event \"\(spelled(0..<entry.count))\" is not seq:digest:points:team" }
            var event = AppliedEvent(unknown: ())
            event.digest = first
            event.points = points
            event.team = team
            while let part = fields.next() {
                guard let earlier = Self.hex(entry[part]) else {
                    return "applied event \"\(spelled(0..<entry.count))\": \"\(spelled(part))\" is not a digest"
                }
                event.earlier.append(earlier)
            }
            applied[seq] = event
        }
        return nil
    }

    /// The colon-separated fields of one entry, in order (an entry ending in a colon ends with an
    /// empty field).
    private struct Fields {
        let entry: UnsafeBufferPointer<UInt8>
        var cursor = 0

        mutating func next() -> Range<Int>? {
            guard cursor <= entry.count else { return nil }
            let from = cursor
            while cursor < entry.count, entry[cursor] != UInt8(ascii: ":") { cursor += 1 }
            defer { cursor += 1 }
            return from..<cursor
        }
    }

    /// A decimal integer with an optional sign, as `Int(_:)` reads one; nil when it is not one or
    /// overflows.
    private static func integer(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedToo) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowed, !overflowedToo else { return nil }
            value = sum
        }
        return value
    }

    /// A digest in hexadecimal (`?`: unknown, `.some(nil)`); nil when it is neither.
    private static func digest(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64?? {
        if bytes.count == 1, bytes.first == UInt8(ascii: "?") { return .some(nil) }
        return hex(bytes).map { .some($0) }
    }

    /// Up to 16 hexadecimal digits, either case; nil when it is not that.
    private static func hex(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        var digits = bytes[...]
        if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = ASCIIDigits.hex(byte), value >> 60 == 0 else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// `h`, `a` or `-`: the side that scored, or none (`.some(nil)`); nil for any other byte.
    private static func team(_ byte: UInt8) -> TeamSide?? {
        switch byte {
        case UInt8(ascii: "h"): .some(.home)
        case UInt8(ascii: "a"): .some(.away)
        case UInt8(ascii: "-"): .some(nil)
        default: nil
        }
    }
}

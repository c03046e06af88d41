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
        for (seq, event) in applied.sorted(by: { $0.key < $1.key }) {
            if text.count > 0 { text.byte(UInt8(ascii: " ")) }
            text.int(seq)
            text.byte(UInt8(ascii: ":"))
            if let digest = event.digest { text.hex(digest) } else { text.byte(UInt8(ascii: "?")) }
            text.byte(UInt8(ascii: ":"))
            text.int(event.points)
            text.raw(event.team == .home ? ":h" : event.team == .away ? ":a" : ":-")
            for earlier in event.earlier {
                text.byte(UInt8(ascii: ":"))
                text.hex(earlier)
            }
        }
        return text.string()
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        period = try container.decode(Int.self, forKey: .period)
        ended = try container.decode(Bool.self, forKey: .ended)
        let text = try container.decode(String.self, forKey: .applied)
        for entry in text.split(separator: " ") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            func digest(_ part: Substring) -> UInt64?? { part == "?" ? .some(nil) : UInt64(part, radix: 16).map { .some($0) } }
            guard parts.count >= 4, let seq = Int(parts[0]), let first = digest(parts[1]), let points = Int(parts[2]),
                ["h", "a", "-"].contains(parts[3])
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .applied, in: container, debugDescription: "applied event \"\(entry)\" is not seq:digest:points:team")
            }
            var event = AppliedEvent(unknown: ())
            event.digest = first
            event.points = points
            event.team = parts[3] == "h" ? .home : parts[3] == "a" ? .away : nil
            for part in parts.dropFirst(4) {
                guard let earlier = UInt64(part, radix: 16) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .applied, in: container, debugDescription: "applied event \"\(entry)\": \"\(part)\" is not a digest")
                }
                event.earlier.append(earlier)
            }
            applied[seq] = event
        }
    }
}

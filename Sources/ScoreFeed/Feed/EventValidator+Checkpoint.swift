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
        var text = ""
        text.reserveCapacity(applied.count * 28)
        for seq in applied.keys.sorted() {
            let event = applied[seq]!
            if !text.isEmpty { text += " " }
            text += String(seq)
            text += ":" + (event.digest.map { String($0, radix: 16) } ?? "?")
            text += ":" + String(event.points)
            text += event.team == .home ? ":h" : event.team == .away ? ":a" : ":-"
            for earlier in event.earlier { text += ":" + String(earlier, radix: 16) }
        }
        try container.encode(text, forKey: .applied)
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

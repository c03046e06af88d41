import Foundation
import ScoreFeedModel

extension PushRecord {
    /// The record as one line of JSON (no newline): DESIGN.md contract 4, with `payload`
    /// spliced in byte for byte, and `"trimmed":[…]` at the end when the size guard shortened
    /// text. The same record always gives the same bytes, so a retried request has the same body.
    public func jsonLine() -> Data {
        var out = Data()
        out.reserveCapacity(payload.count + 600)
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        raw("{\"activity\":"); raw(JSONText.string(activity))
        raw(",\"game\":"); raw(JSONText.string(game))
        raw(",\"seq\":\(seq)")
        raw(",\"event\":\"\(event.rawValue)\"")
        raw(",\"priority\":\(priority)")
        raw(",\"sentAt\":"); raw(JSONText.number(sentAt.timeIntervalSince1970))
        raw(",\"sourceTime\":"); raw(sourceTime.map { JSONText.number($0.timeIntervalSince1970) } ?? "null")
        raw(",\"coalesced\":\(coalesced)")
        raw(",\"reason\":"); raw(JSONText.string(reason))
        raw(",\"request\":{\"method\":"); raw(JSONText.string(request.method))
        raw(",\"path\":"); raw(JSONText.string(request.path))
        raw(",\"headers\":{")
        for (i, key) in request.headers.keys.sorted().enumerated() {
            raw((i == 0 ? "" : ",") + JSONText.string(key) + ":" + JSONText.string(request.headers[key]!))
        }
        raw("}},\"payload\":")
        out.append(payload)
        raw(",\"diff\":{")
        for (i, change) in diff.changes.enumerated() {
            raw((i == 0 ? "" : ",") + "\"\(change.field.rawValue)\":[")
            raw(JSONText.value(change.old)); raw(","); raw(JSONText.value(change.new)); raw("]")
        }
        raw("}")
        if !trimmed.isEmpty {
            raw(",\"trimmed\":[" + trimmed.map(JSONText.string).joined(separator: ",") + "]")
        }
        raw("}")
        return out
    }
}

/// Minimal JSON spelling for the record's hand-assembled parts.
enum JSONText {
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Integers without a fraction, others with up to millisecond precision.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        let ms = (x * 1000).rounded() / 1000
        return "\(ms)"
    }

    static func value(_ value: Diff.Value) -> String {
        switch value {
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .text(let s): return string(s)
        case .null: return "null"
        case .clock(let clock):
            // As `JSONEncoder` with `.sortedKeys` spells it: `{"running":{"endsAt":…}}`.
            var out = JSONBytes(capacity: 40)
            do { try out.write(clock) } catch { return "null" }
            return out.string()
        }
    }
}

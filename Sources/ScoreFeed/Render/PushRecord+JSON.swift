import Foundation
import ScoreFeedModel

extension PushRecord {
    /// The record as one line of JSON (no newline): the push record (the README's "The push
    /// record"), with `payload` spliced in byte for byte, and `"trimmed":[…]` at the end when the
    /// size guard shortened text. The same record always gives the same bytes, so a retried
    /// request has the same body.
    public func jsonLine() -> Data {
        var out = JSONBytes(capacity: payload.count + 600)
        write(into: &out)
        return out.data()
    }

    /// Appends ``jsonLine()``'s bytes to `out` (a writer puts many lines in one buffer).
    func write(into out: inout JSONBytes) {
        out.raw(platform == .android ? "{\"platform\":\"android\",\"activity\":" : "{\"activity\":"); out.string(activity)
        out.raw(",\"game\":"); out.string(game)
        out.raw(",\"seq\":"); out.int(seq)
        out.raw(",\"event\":"); out.string(event.rawValue)
        out.raw(",\"priority\":"); out.int(priority)
        out.raw(",\"sentAt\":"); out.number(sentAt.timeIntervalSince1970)
        out.raw(",\"sourceTime\":")
        if let sourceTime { out.number(sourceTime.timeIntervalSince1970) } else { out.raw("null") }
        out.raw(",\"coalesced\":"); out.int(coalesced)
        out.raw(",\"reason\":"); out.string(reason)
        out.raw(",\"request\":"); out.request(request)
        out.raw(",\"payload\":")
        out.raw(payload)
        out.raw(",\"diff\":{")
        // Each change read where it lies (a loop over the array copies each first).
        diff.changes.withUnsafeBufferPointer { changes in
            for i in changes.indices {
                if i > 0 { out.byte(UInt8(ascii: ",")) }
                out.string(changes[i].field.rawValue)
                out.raw(":[")
                out.diffValue(changes[i].old)
                out.byte(UInt8(ascii: ","))
                out.diffValue(changes[i].new)
                out.byte(UInt8(ascii: "]"))
            }
        }
        out.byte(UInt8(ascii: "}"))
        if !trimmed.isEmpty {
            out.raw(",\"trimmed\":[")
            for (i, text) in trimmed.enumerated() {
                if i > 0 { out.byte(UInt8(ascii: ",")) }
                out.string(text)
            }
            out.byte(UInt8(ascii: "]"))
        }
        out.byte(UInt8(ascii: "}"))
    }
}

/// Numbers for the record and for messages: integers without a fraction, others with up to
/// millisecond precision.
enum JSONText {
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        if let whole = whole(x) { return String(whole) }
        let ms = (x * 1000).rounded() / 1000
        return "\(ms)"
    }

    /// The value ``number(_:)`` writes for `x` (a finite `x`): itself when whole, else rounded to
    /// the millisecond. What a reader of the line parses back, exactly (the spelling is Swift's
    /// shortest that reads back as this value).
    static func written(_ x: Double) -> Double {
        whole(x) != nil || !x.isFinite ? x : (x * 1000).rounded() / 1000
    }

    /// `x` as an integer when it is one that ``number(_:)`` spells without a fraction.
    static func whole(_ x: Double) -> Int? {
        x.isFinite && x == x.rounded() && abs(x) < 1e15 ? Int(x) : nil
    }
}

extension JSONBytes {
    /// Appends ``JSONText/number(_:)``'s spelling of `x`, an integer without making a string.
    mutating func number(_ x: Double) {
        if let whole = JSONText.whole(x) { return int(whole) }
        // A millisecond that is not a whole second: at most three decimals, spelled without its
        // description (``JSONBytes/decimal(_:)``: the same spelling).
        let ms = (x * 1000).rounded() / 1000
        if x.isFinite, ms != ms.rounded(), decimal(ms) { return }
        raw(text: JSONText.number(x))
    }

    /// Appends `{"method":…,"path":…,"headers":{…}}`, the headers in sorted order.
    mutating func request(_ request: PushRecord.Request) {
        raw("{\"method\":"); string(request.method)
        raw(",\"path\":"); string(request.path)
        raw(",\"headers\":{")
        // Kept in name order: written as they are.
        for (i, header) in request.fields.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            string(header.name)
            byte(UInt8(ascii: ":"))
            string(header.value)
        }
        raw("}}")
    }

    /// Appends one side of a diff entry.
    mutating func diffValue(_ value: Diff.Value) {
        switch value {
        case .int(let i): int(i)
        case .bool(let b): bool(b)
        case .text(let s): string(s)
        case .null: raw("null")
        case .clock(let clock):
            // As `JSONEncoder` with `.sortedKeys` spells it: `{"running":{"endsAt":…}}`.
            do { try write(clock) } catch { raw("null") }
        }
    }
}

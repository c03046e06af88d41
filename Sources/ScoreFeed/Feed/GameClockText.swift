import Foundation

/// Parses and prints game-clock strings: `11:42`, `0:24.3`, and the NBA's `PT11M42.00S`.
public enum GameClockText {
    /// Seconds remaining, or nil when the text is not a clock.
    public static func seconds(_ text: String) -> Double? {
        plainSeconds(text) ?? spelledSeconds(text)
    }

    /// ``seconds(_:)`` for any spelling (the general path, and the reference for ``plainSeconds(_:)``).
    static func spelledSeconds(_ text: String) -> Double? {
        if text.hasPrefix("PT") { return isoDuration(text) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let minutes = Int(parts[0]), minutes >= 0,
            let seconds = Double(parts[1]), seconds.isFinite, seconds >= 0, seconds < 60
        else { return nil }
        return Double(minutes) * 60 + seconds
    }

    /// `M:SS` or `M:SS.t` (tenths when present). Absurd values (from a bad feed, for messages)
    /// are spelled as plain numbers rather than trapping.
    public static func format(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 1e9 else { return "\(seconds) s" }
        let tenths = Int((max(0, seconds) * 10).rounded())
        let whole = tenths / 10
        let secs = whole % 60
        let base = "\(whole / 60):\(secs < 10 ? "0" : "")\(secs)"
        return tenths % 10 == 0 ? base : base + ".\(tenths % 10)"
    }

    /// A spelling that ``seconds(_:)`` reads back to exactly `seconds`, so a fixture written by
    /// ``FixtureFormat/encode(attributes:events:finalScore:scheduledStart:)`` replays exactly
    /// like its source: `M:SS.t` when that is exact, else `M:SS.hh`, else `PT<seconds>S`.
    public static func exact(_ seconds: Double) -> String {
        let text = format(seconds)
        if seconds.isFinite, seconds >= 0, seconds < 1e9 {
            if Self.seconds(text) == seconds { return text }
            let hundredths = Int((seconds * 100).rounded())
            let whole = hundredths / 100, fraction = hundredths % 100
            let secs = whole % 60
            let fine = "\(whole / 60):\(secs < 10 ? "0" : "")\(secs).\(fraction < 10 ? "0" : "")\(fraction)"
            if Self.seconds(fine) == seconds { return fine }
        }
        return "PT\(seconds)S"
    }

    /// The common spellings, read from the bytes without splitting: `M:SS` and `M:SS.f`, digits
    /// only (up to 6 before the colon, 15 after it, under 60 seconds). The value is the one the
    /// general path computes: the digits after the colon, read as an integer below 2⁵³, divided
    /// by an exact power of ten, round exactly as `Double(String)` does. Anything else is nil, for
    /// the general path to decide.
    static func plainSeconds(_ text: String) -> Double? {
        text.utf8.withContiguousStorageIfAvailable { plainSeconds($0) } ?? nil
    }

    /// ``plainSeconds(_:)`` of the text's UTF-8 bytes.
    static func plainSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        var minutes = 0
        while i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10 {
            guard i < 6 else { return nil }
            minutes = minutes * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
            i += 1
        }
        guard i > 0, i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        let start = i
        var mantissa = 0, fractionDigits = 0, point = false
        while i < bytes.count {
            guard i - start < 15 else { return nil }
            let byte = bytes[i]
            if byte == UInt8(ascii: "."), !point, i > start {
                point = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa * 10 + Int(byte &- UInt8(ascii: "0"))
                if point { fractionDigits += 1 }
            } else {
                return nil
            }
            i += 1
        }
        guard i > start, !point || fractionDigits > 0 else { return nil }
        let seconds = Double(mantissa) / powersOfTen[fractionDigits]
        guard seconds < 60 else { return nil }
        return Double(minutes) * 60 + seconds
    }

    /// 10⁰ … 10¹⁵, exact doubles.
    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// `PT11M42.00S` → 702.
    static func isoDuration(_ text: String) -> Double? {
        var rest = text.dropFirst(2)
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        if let m = rest.firstIndex(of: "M") {
            guard let minutes = Int(rest[..<m]), minutes >= 0 else { return nil }
            total += Double(minutes) * 60
            rest = rest[rest.index(after: m)...]
        }
        guard rest.hasSuffix("S") else { return rest.isEmpty ? total : nil }
        guard let seconds = Double(rest.dropLast()), seconds.isFinite, seconds >= 0 else { return nil }
        return total + seconds
    }
}

import Foundation
import ScoreFeedModel

/// Reading an event with the byte reader (``JSONScanner``), field by field, as its `Decodable`
/// conformance reads it: every field optional, `null` is absent, a wrong type or a repeated
/// field is declined.
extension RawEvent {
    /// An event with no field set.
    init() {}

    /// Reads an event object; other keys are checked and skipped. `depth` is the number of
    /// containers around it.
    static func scan(_ scanner: inout JSONScanner, depth: Int) throws(JSONScanner.Declined) -> RawEvent {
        var raw = RawEvent()
        var seen: UInt32 = 0
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if try !raw.read(key, from: &scanner, seen: &seen, depth: depth + 1) {
                    try scanner.skipValue(depth: depth + 1)
                }
            } while try scanner.nextMember()
        }
        return raw
    }

    /// Reads the value of `key` into its field when `key` names one, and returns whether it did
    /// (the value is left unread when it does not). `seen` has a bit per field already read.
    mutating func read(
        _ key: JSONScanner.Key, from scanner: inout JSONScanner, seen: inout UInt32, depth: Int
    ) throws(JSONScanner.Declined) -> Bool {
        @inline(__always)
        func mark(_ bit: UInt32) throws(JSONScanner.Declined) {
            guard seen & bit == 0 else { throw JSONScanner.Declined() }
            seen |= bit
        }
        switch key.count {
        case 2:
            guard key.is("of") else { return false }
            try mark(1 << 0)
            of = try scanner.optionalInt()
        case 3:
            if key.is("seq") {
                try mark(1 << 1)
                seq = try scanner.optionalInt()
            } else if key.is("out") {
                try mark(1 << 2)
                out = try scanner.optionalString()
            } else {
                return false
            }
        case 4:
            if key.is("time") {
                try mark(1 << 3)
                time = try scanner.optionalDouble()
            } else if key.is("type") {
                try mark(1 << 4)
                type = try scanner.optionalString()
            } else if key.is("team") {
                try mark(1 << 5)
                team = try scanner.optionalString()
            } else if key.is("made") {
                try mark(1 << 6)
                made = try scanner.optionalBool()
            } else if key.is("kind") {
                try mark(1 << 7)
                kind = try scanner.optionalString()
            } else {
                return false
            }
        case 5:
            if key.is("clock") {
                try mark(1 << 8)
                clock = try scanner.optionalString()
            } else if key.is("score") {
                try mark(1 << 9)
                score = scanner.null() ? nil : try scanner.finalScore(depth: depth)
            } else {
                return false
            }
        case 6:
            if key.is("period") {
                try mark(1 << 10)
                period = try scanner.optionalInt()
            } else if key.is("player") {
                try mark(1 << 11)
                player = try scanner.optionalString()
            } else if key.is("points") {
                try mark(1 << 12)
                points = try scanner.optionalInt()
            } else if key.is("ruling") {
                try mark(1 << 13)
                ruling = try scanner.optionalString()
            } else {
                return false
            }
        case 7:
            guard key.is("attempt") else { return false }
            try mark(1 << 14)
            attempt = try scanner.optionalInt()
        case 9:
            if key.is("offensive") {
                try mark(1 << 15)
                offensive = try scanner.optionalBool()
            } else if key.is("challenge") {
                try mark(1 << 16)
                challenge = try scanner.optionalBool()
            } else {
                return false
            }
        case 11:
            guard key.is("description") else { return false }
            try mark(1 << 17)
            description = try scanner.optionalString()
        default:
            return false
        }
        return true
    }
}

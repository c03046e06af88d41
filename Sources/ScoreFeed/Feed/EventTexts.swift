import Foundation
import ScoreFeedModel

/// Where an event's `clock`, `type` and `team` lie in the scanner's bytes: the byte reader reads
/// every other field of a ``RawEvent`` into it, and keeps these three as text, so the usual event
/// is typed without making strings of them.
struct EventTexts {
    var clock: JSONScanner.StringText?
    var type: JSONScanner.StringText?
    var team: JSONScanner.StringText?

    /// Sets `raw`'s `clock`, `type` and `team` to these texts as strings (read in `scanner`, the
    /// bytes the event was read from): the event as the fixture spells it.
    func spell(into raw: inout RawEvent, in scanner: JSONScanner) {
        raw.clock = clock.map(scanner.string)
        raw.type = type.map(scanner.string)
        raw.team = team.map(scanner.string)
    }

    /// The typed event of `fields` (the event's other fields, read beside these texts) when it
    /// is valid and its `clock`, `type` and `team` are spelled plainly (no escape; `M:SS` or
    /// `M:SS.f`, a type's name, `home` or `away`): the value ``RawEvent/event(index:)`` gives for
    /// the same event. Nil for anything else, which that then reads (and says what is wrong with).
    func plainEvent(_ fields: RawEvent, index: Int, in scanner: JSONScanner) -> GameEvent? {
        guard let seq = fields.seq, let time = fields.time, RawEvent.isValid(time: time), let period = fields.period,
              let clock, !clock.escaped, let seconds = GameClockText.plainSeconds(scanner.bytes(of: clock)),
              let type, !type.escaped, let eventType = RawEvent.EventType(bytes: scanner.bytes(of: type))
        else { return nil }
        if let score = fields.score, !RawEvent.isValid(score: score) { return nil }
        var side: TeamSide?
        if let team {
            guard !team.escaped else { return nil }
            let bytes = scanner.bytes(of: team)
            guard bytes.count == 4 else { return nil }
            if memcmp(bytes.baseAddress!, "home", 4) == 0 {
                side = .home
            } else if memcmp(bytes.baseAddress!, "away", 4) == 0 {
                side = .away
            } else {
                return nil
            }
        }
        let location = ScoreFeedError.Location(eventIndex: index, sequence: seq)
        return try? fields.event(eventType, seq: seq, time: time, period: period, clock: seconds, team: side, at: location)
    }

    /// Reads the value of `key` into its field when `key` names one, and returns whether it did
    /// (the value is left unread when it does not). `seen` has a bit per field already read.
    mutating func read(
        _ key: JSONScanner.Key, from scanner: inout JSONScanner, into fields: inout RawEvent, seen: inout UInt32, depth: Int
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
            fields.of = try scanner.optionalInt()
        case 3:
            if key.is("seq") {
                try mark(1 << 1)
                fields.seq = try scanner.optionalInt()
            } else if key.is("out") {
                try mark(1 << 2)
                fields.out = try scanner.optionalString()
            } else {
                return false
            }
        case 4:
            if key.is("time") {
                try mark(1 << 3)
                fields.time = try scanner.optionalDouble()
            } else if key.is("type") {
                try mark(1 << 4)
                type = scanner.null() ? nil : try scanner.stringText()
            } else if key.is("team") {
                try mark(1 << 5)
                team = scanner.null() ? nil : try scanner.stringText()
            } else if key.is("made") {
                try mark(1 << 6)
                fields.made = try scanner.optionalBool()
            } else if key.is("kind") {
                try mark(1 << 7)
                fields.kind = try scanner.optionalString()
            } else {
                return false
            }
        case 5:
            if key.is("clock") {
                try mark(1 << 8)
                clock = scanner.null() ? nil : try scanner.stringText()
            } else if key.is("score") {
                try mark(1 << 9)
                fields.score = scanner.null() ? nil : try scanner.finalScore(depth: depth)
            } else {
                return false
            }
        case 6:
            if key.is("period") {
                try mark(1 << 10)
                fields.period = try scanner.optionalInt()
            } else if key.is("player") {
                try mark(1 << 11)
                fields.player = try scanner.optionalString()
            } else if key.is("points") {
                try mark(1 << 12)
                fields.points = try scanner.optionalInt()
            } else if key.is("ruling") {
                try mark(1 << 13)
                fields.ruling = try scanner.optionalString()
            } else {
                return false
            }
        case 7:
            guard key.is("attempt") else { return false }
            try mark(1 << 14)
            fields.attempt = try scanner.optionalInt()
        case 9:
            if key.is("offensive") {
                try mark(1 << 15)
                fields.offensive = try scanner.optionalBool()
            } else if key.is("challenge") {
                try mark(1 << 16)
                fields.challenge = try scanner.optionalBool()
            } else {
                return false
            }
        case 11:
            guard key.is("description") else { return false }
            try mark(1 << 17)
            fields.description = try scanner.optionalString()
        default:
            return false
        }
        return true
    }
}

import Foundation
import ScoreFeedModel

extension StreamLine {
    /// The usual line, a valid event, read in one pass straight into its value; nil for any
    /// other line (a header, an error, input the byte reader declines), which the general path
    /// then reads. So this path gives only what the general one gives for the same line.
    static func event(reading line: UnsafeRawBufferPointer, number: Int) -> StreamLine? {
        guard line.first == UInt8(ascii: "{") else { return nil }
        var scanner = JSONScanner(line.bindMemory(to: UInt8.self))
        var raw = RawEvent(), texts = EventTexts()
        let game: JSONScanner.StringText
        do {
            guard let text = try scanEvent(&scanner, into: &raw, &texts) else { return nil }
            game = text
        } catch {
            return nil
        }
        guard !game.escaped, GameID.isValidASCII(scanner.bytes(of: game)),
              var event = texts.plainEvent(raw, index: number - 1, in: scanner)
        else { return nil }
        event.description = shortened(event.description)
        return .event(game: scanner.string(game), event, line: number)
    }

    /// Reads an event line's object into `raw` and `texts`; returns where its game id lies, or nil for
    /// a line that is not one (no game, or a header's key).
    private static func scanEvent(
        _ scanner: inout JSONScanner, into raw: inout RawEvent, _ texts: inout EventTexts
    ) throws(JSONScanner.Declined) -> JSONScanner.StringText? {
        var seen: UInt32 = 0
        var game: JSONScanner.StringText?, gameSeen = false
        guard try scanner.beginObject() else { return nil }
        repeat {
            let key = try scanner.key()
            if try texts.read(key, from: &scanner, into: &raw, seen: &seen, depth: 1) { continue }
            if key.is("game") {
                guard !gameSeen else { return nil }
                gameSeen = true
                game = scanner.null() ? nil : try scanner.stringText()
            } else if key.is("home") || key.is("away") || key.is("gameId") || key.is("league") || key.is("channel") {
                return nil
            } else {
                try scanner.skipValue(depth: 1)
            }
        } while try scanner.nextMember()
        try scanner.end()
        return game
    }
}

extension StreamLine.Parsed {
    /// The line read by the byte reader (``JSONScanner``), or nil when it declines the line and
    /// `JSONDecoder` must read it (which then gives today's result or message). It reads only
    /// results, never errors: a line it takes is one `JSONDecoder` decodes to the same value.
    static func scanning(_ line: Data) -> Self? {
        JSONScanner.reading(line) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) in try scan(&scanner) }
    }

    /// One pass over the object: the event's fields, the header's, and `game`, `channel`.
    private static func scan(_ scanner: inout JSONScanner) throws(JSONScanner.Declined) -> Self {
        var raw = RawEvent(), texts = EventTexts()
        var seen: UInt32 = 0
        var game: String?, home: Team?, away: Team?, gameId: String?, league: String?, channel: String?
        /// Bits for the keys that are not the event's, so a repeated one is declined too.
        var seenOther: UInt32 = 0
        func mark(_ bit: UInt32) throws(JSONScanner.Declined) {
            guard seenOther & bit == 0 else { throw JSONScanner.Declined() }
            seenOther |= bit
        }
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if try texts.read(key, from: &scanner, into: &raw, seen: &seen, depth: 1) { continue }
                if key.is("game") {
                    try mark(1 << 0)
                    game = try scanner.optionalString()
                } else if key.is("home") {
                    try mark(1 << 1)
                    home = scanner.null() ? nil : try scanner.team(depth: 1)
                } else if key.is("away") {
                    try mark(1 << 2)
                    away = scanner.null() ? nil : try scanner.team(depth: 1)
                } else if key.is("gameId") {
                    try mark(1 << 3)
                    gameId = try scanner.optionalString()
                } else if key.is("league") {
                    try mark(1 << 4)
                    league = try scanner.optionalString()
                } else if key.is("channel") {
                    // As the header keeps it: the string, or "" for any other value.
                    try mark(1 << 5)
                    scanner.skipWhitespace()
                    if scanner.peek() == UInt8(ascii: "\"") {
                        channel = try scanner.string()
                    } else {
                        try scanner.skipValue(depth: 1)
                        channel = ""
                    }
                } else {
                    try scanner.skipValue(depth: 1)
                }
            } while try scanner.nextMember()
        }
        try scanner.end()
        if home != nil || away != nil {
            guard let home, let away, let gameId, let league else { throw JSONScanner.Declined() }
            return Self(
                body: .header(.success(GameAttributes(gameId: gameId, league: league, home: home, away: away))),
                channel: channel)
        }
        if let game {
            texts.spell(into: &raw, in: scanner)
            return Self(body: .event(game: game, .success(raw)), channel: nil)
        }
        return Self(body: .neither, channel: nil)
    }
}

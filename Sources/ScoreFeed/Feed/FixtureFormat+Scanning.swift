import Foundation
import ScoreFeedModel

extension PlainFixture {
    /// The file read by the byte reader (``JSONScanner``), or nil when it declines the file and
    /// `JSONDecoder` must read it (which then gives today's result or message).
    static func scanning(_ data: Data) -> PlainFixture? {
        JSONScanner.reading(data) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) in try scan(&scanner) }
    }

    /// The top-level object: `format`, `game`, `scheduledStart`, `final`, `events`.
    private static func scan(_ scanner: inout JSONScanner) throws(JSONScanner.Declined) -> PlainFixture {
        var format: String?, game: GameAttributes?, scheduledStart: Double?, final: FinalScore?
        var events: [RawEvent]?
        var seen: UInt32 = 0
        func mark(_ bit: UInt32) throws(JSONScanner.Declined) {
            guard seen & bit == 0 else { throw JSONScanner.Declined() }
            seen |= bit
        }
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if key.is("events") {
                    try mark(1 << 0)
                    var list: [RawEvent] = []
                    if try scanner.beginArray() {
                        list.reserveCapacity(512)
                        repeat {
                            list.append(try RawEvent.scan(&scanner, depth: 2))
                        } while try scanner.nextElement()
                    }
                    events = list
                } else if key.is("format") {
                    try mark(1 << 1)
                    format = try scanner.optionalString()
                } else if key.is("game") {
                    try mark(1 << 2)
                    game = try scanner.gameAttributes(depth: 1)
                } else if key.is("scheduledStart") {
                    try mark(1 << 3)
                    scheduledStart = try scanner.optionalDouble()
                } else if key.is("final") {
                    try mark(1 << 4)
                    final = scanner.null() ? nil : try scanner.finalScore(depth: 1)
                } else {
                    try scanner.skipValue(depth: 1)
                }
            } while try scanner.nextMember()
        }
        try scanner.end()
        guard let game, let events else { throw JSONScanner.Declined() }
        return PlainFixture(format: format, game: game, scheduledStart: scheduledStart, final: final, events: events)
    }
}

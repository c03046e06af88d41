import Foundation
import ScoreFeedModel

/// Reads and writes ScoreFeed's own fixture format (documented in `Fixtures/README.md`).
///
/// Decoding is lenient per event: an event with a wrong field becomes a rejection with its index
/// and sequence number, and the rest of the game still decodes.
public enum FixtureFormat {
    /// The value of the top-level `format` field (``FeedFormat/fixture``'s raw value).
    public static let formatName = FeedFormat.fixture.rawValue

    /// Decodes a fixture file's bytes. Well-formed files take a fast path (one pass of the byte
    /// reader, `JSONScanner`); a file it declines is decoded with `JSONDecoder` (one plain
    /// decode, and only a file with a bad event again leniently, event by event), so bad input
    /// gets the same result and message as before.
    public static func decode(_ data: Data, file: String? = nil) throws(ScoreFeedError) -> FeedDocument {
        try decode(data, file: file, decoding: .bytes)
    }

    /// ``decode(_:file:)`` with the reader chosen: `.foundation` is the reference the
    /// differential tests and fuzz targets compare the byte reader with.
    static func decode(_ data: Data, file: String?, decoding: JSONDecoding) throws(ScoreFeedError) -> FeedDocument {
        if decoding == .bytes, let plain = PlainFixture.scanning(data) {
            return try document(plain.root, file: file)
        }
        if let plain = try? JSONDecoder().decode(PlainFixture.self, from: data) {
            return try document(plain.root, file: file)
        }
        let root = try DecodingErrorText.decode(RawFixture.self, from: data, file: file)
        return try document(root, file: file)
    }

    /// Checks the format and turns raw events into typed ones, rejecting bad ones one by one.
    private static func document(_ root: RawFixture, file: String?) throws(ScoreFeedError) -> FeedDocument {
        if let format = root.format, format != formatName {
            throw ScoreFeedError(
                .unknownFormat, "format is \"\(format)\"; this version reads \"\(formatName)\"",
                at: .init(file: file))
        }
        var events: [GameEvent] = []
        var positions: [Int] = []
        var rejected: [ScoreFeedError] = []
        events.reserveCapacity(root.events.count)
        positions.reserveCapacity(root.events.count)
        for (index, slot) in root.events.enumerated() {
            do {
                let raw = try slot.result.get()
                events.append(try raw.event(index: index))
                positions.append(index)
            } catch var error {
                error.location.file = file
                error.location.eventIndex = index
                rejected.append(error)
            }
        }
        var document = FeedDocument(
            attributes: root.game, events: events, positions: positions, rejected: rejected,
            finalScore: root.final,
            scheduledStart: root.scheduledStart.map { Date(timeIntervalSince1970: $0) }, file: file)
        document.actionCount = root.events.count
        return document
    }

    /// Encodes a game as a fixture file, one event per line so diffs of fixtures stay readable.
    public static func encode(
        attributes: GameAttributes, events: [GameEvent], finalScore: FinalScore?, scheduledStart: Date? = nil
    ) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = "{\n  \"format\": \"\(formatName)\",\n"
        out += "  \"game\": " + String(decoding: (try? encoder.encode(attributes)) ?? Data(), as: UTF8.self) + ",\n"
        if let scheduledStart, let seconds = LenientNumber.int(scheduledStart.timeIntervalSince1970.rounded(.down)) {
            out += "  \"scheduledStart\": \(seconds),\n"
        }
        if let finalScore {
            out += "  \"final\": " + String(decoding: (try? encoder.encode(finalScore)) ?? Data(), as: UTF8.self) + ",\n"
        }
        out += "  \"events\": [\n"
        for (i, event) in events.enumerated() {
            let line = (try? encoder.encode(RawEvent(event))) ?? Data()
            out += "    " + String(decoding: line, as: UTF8.self) + (i + 1 < events.count ? ",\n" : "\n")
        }
        out += "  ]\n}\n"
        return Data(out.utf8)
    }
}

/// The top level of a well-formed fixture file: the fast path's shape.
struct PlainFixture: Decodable {
    var format: String?
    var game: GameAttributes
    var scheduledStart: Double?
    var final: FinalScore?
    var events: [RawEvent]
}

extension PlainFixture {
    /// As a ``RawFixture`` whose every event decoded.
    var root: RawFixture {
        RawFixture(
            format: format, game: game, scheduledStart: scheduledStart, final: final,
            events: events.map { EventSlot(result: .success($0)) })
    }
}

/// The top level of a fixture file.
struct RawFixture: Decodable {
    var format: String?
    var game: GameAttributes
    var scheduledStart: Double?
    var final: FinalScore?
    var events: [EventSlot]
}

/// One element of `events`: the decoded event, or why it could not be decoded (keeping its
/// sequence number when that much could be read), without failing the enclosing array.
struct EventSlot: Decodable {
    var result: Result<RawEvent, ScoreFeedError>

    init(result: Result<RawEvent, ScoreFeedError>) {
        self.result = result
    }

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try RawEvent(from: decoder))
        } catch {
            var failure = (error as? DecodingError).map(DecodingErrorText.eventError)
                ?? ScoreFeedError(.invalidValue, "\(error)")
            failure.location.sequence = try? decoder.container(keyedBy: RawEvent.CodingKeys.self)
                .decodeIfPresent(Int.self, forKey: .seq)
            result = .failure(failure)
        }
    }
}

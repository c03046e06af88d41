import Foundation
import ScoreFeedModel

/// One line of the `serve` input stream: a game header, an event of a game, an empty line, or a
/// bad one. What `serve`'s reader hands the engines (parsed on its own thread, where the line's
/// bytes lie: ``init(_:source:)``), and what ``parse(_:number:source:)-(Data,_,_)`` reads.
///
/// - A header is the game's attributes: `{"gameId": "G1", "league": "NBA", "home": {…}, "away": {…}}`,
///   with, in broadcast mode, the game's channel when your backend made it: `"channel": "<base64>"`.
/// - An event is a fixture-format event plus the game it belongs to:
///   `{"game": "G1", "seq": 7, "time": 1739240000.5, "period": 1, "clock": "11:42", "type": "fieldGoal", …}`.
public enum StreamLine: Sendable {
    /// `channel`: the header's `"channel"` as given ("" when it is not a string); checked when
    /// the game starts, so a bad one costs the game its channel, not its header.
    case header(GameAttributes, channel: String? = nil)
    /// An event of `game`, found on line `line` (1-based: the event's index in the stream is
    /// `line - 1`).
    case event(game: String, GameEvent, line: Int)
    /// An empty line: nothing to do.
    case blank
    /// A line too long, or neither a header nor an event: the error says what and where.
    case bad(ScoreFeedError)

    /// The game of an event line, nil for any other: read where the line lies, its event not
    /// copied (a batch is routed by every line's game; a copy of the line cost a copy of its event).
    var eventGame: String? {
        if case .event(let game, _, _) = self { return game }
        return nil
    }

    /// Parses line `number` (its bytes without the newline), from `source`, for messages: a bad
    /// line is ``bad(_:)``, an empty one ``blank``. For a line an embedder has in hand, not from a
    /// ``LineReader``.
    public init(_ line: Data, number: Int, source: String?) {
        self = line.withUnsafeBytes { StreamLine(LineReader.Found.line($0, number: number), source: source) }
    }

    /// Parses a line the reader found, from its bytes in place (from `source`, for messages).
    public init(_ found: LineReader.Found, source: String?) {
        switch found {
        case .oversized(let number, let length):
            self = .bad(ScoreFeedError(
                .invalidValue, "line of \(length)+ bytes exceeds the limit; skipped", at: .init(file: source, line: number)))
        case .line(let bytes, let number):
            if bytes.isEmpty {
                self = .blank
            } else {
                do throws(ScoreFeedError) {
                    self = try StreamLine.parse(bytes, number: number, source: source)
                } catch {
                    self = .bad(error)
                }
            }
        }
    }

    /// Parses one line (without its newline): a header or an event, or the error that says why it
    /// is neither. `number` is its 1-based line number, for messages.
    ///
    /// One pass over the bytes per line (`JSONScanner`): the header's and the event's fields
    /// are read together, then the keys that tell a header from an event decide. Input the byte
    /// reader declines (malformed, mistyped, unusual) is decoded with `JSONDecoder`, so it is
    /// accepted or rejected, with the same message, as before.
    public static func parse(_ line: Data, number: Int, source: String? = nil) throws(ScoreFeedError) -> StreamLine {
        try parse(line, number: number, source: source, decoding: .bytes)
    }

    /// ``parse(_:number:source:)`` of bytes where they lie (the reader's buffer): the usual line,
    /// a valid event, is read straight into its value, and only any other line is copied (into
    /// the `Data` the general path reads).
    public static func parse(_ line: UnsafeRawBufferPointer, number: Int, source: String? = nil) throws(ScoreFeedError) -> StreamLine {
        if let event = event(reading: line, number: number) { return event }
        return try parseInFull(Data(line), number: number, source: source, decoding: .bytes)
    }

    /// ``parse(_:number:source:)`` with the reader chosen: `.foundation` is the reference the
    /// differential tests and fuzz targets compare the byte reader with.
    static func parse(
        _ line: Data, number: Int, source: String?, decoding: JSONDecoding
    ) throws(ScoreFeedError) -> StreamLine {
        if decoding == .bytes, let event = line.withUnsafeBytes({ event(reading: $0, number: number) }) { return event }
        return try parseInFull(line, number: number, source: source, decoding: decoding)
    }

    /// Any line, headers and errors too: the byte reader's ``Parsed`` (or `JSONDecoder`'s, for
    /// what it declines) checked and turned into a value or an error.
    static func parseInFull(
        _ line: Data, number: Int, source: String?, decoding: JSONDecoding
    ) throws(ScoreFeedError) -> StreamLine {
        let location = ScoreFeedError.Location(file: source, line: number)
        guard line.first == UInt8(ascii: "{") else {
            throw ScoreFeedError(.malformedJSON, "not a JSON object (\(preview(line)))", at: location)
        }
        let parsed: Parsed
        do {
            if decoding == .bytes, let scanned = Parsed.scanning(line) {
                parsed = scanned
            } else {
                parsed = try decoder.decode(Parsed.self, from: line)
            }
        } catch let error as DecodingError {
            var failure = DecodingErrorText.error(error, data: line, file: source)
            failure.location.line = number
            throw failure
        } catch {
            throw ScoreFeedError(.malformedJSON, "\(error)", at: location)
        }
        switch parsed.body {
        case .header(.success(let attributes)):
            try GameID.check(attributes.gameId, "game header: \"gameId\"", at: location, consequence: "the game is not started")
            return .header(attributes, channel: parsed.channel)
        case .header(.failure(let error as DecodingError)):
            var failure = DecodingErrorText.eventError(error)
            failure.location = location
            failure.message = "game header: " + failure.message
            throw failure
        case .header(.failure(let error)):
            throw ScoreFeedError(.invalidValue, "game header: \(error)", at: location)
        case .neither:
            throw ScoreFeedError(.missingField, "neither a game header (home, away) nor an event (game)", at: location)
        case .event(let game, let decoded):
            try GameID.check(game, "event: \"game\"", at: location, consequence: "skipped")
            do {
                let raw = try decoded.get()
                var event = try raw.event(index: number - 1)
                event.description = shortened(event.description)
                return .event(game: game, event, line: number)
            } catch var error as ScoreFeedError {
                error.location = ScoreFeedError.Location(file: source, line: number, sequence: error.location.sequence)
                error.message = "game \(game): " + error.message
                throw error
            } catch let error as DecodingError {
                var failure = DecodingErrorText.eventError(error)
                failure.location = location
                failure.location.sequence = Self.sequence(in: line)
                failure.message = "game \(game): " + failure.message
                throw failure
            } catch {
                throw ScoreFeedError(.invalidValue, "game \(game): \(error)", at: location)
            }
        }
    }

    /// An event's description as the stream keeps it: at most 500 characters (no longer than
    /// 500 bytes means no more characters).
    static func shortened(_ description: String?) -> String? {
        description.map { $0.utf8.count <= 500 ? $0 : String($0.prefix(500)) }
    }

    /// The line's `seq` when it is a number, for messages about a line that did not decode.
    private static func sequence(in line: Data) -> Int? {
        struct Sequence: Decodable { var seq: Int? }
        return (try? decoder.decode(Sequence.self, from: line))?.seq
    }

    /// Shared by every line (a `JSONDecoder` with default options is safe to share).
    private static let decoder = JSONDecoder()

    /// The first bytes of a bad line, printable.
    static func preview(_ line: Data) -> String {
        let text = String(decoding: line.prefix(40), as: UTF8.self)
        let printable = String(text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "." })
        return "starts \"\(printable)\(line.count > 40 ? "…" : "")\""
    }

    /// One parsed line: the keys that tell a header from an event (`game`, `home`, `away`, read
    /// first and in that order, so a bad one is reported as before), then the header or the
    /// event read from the same document, or why it could not be.
    struct Parsed: Decodable {
        enum Body {
            case header(Result<GameAttributes, any Error>)
            case event(game: String, Result<RawEvent, any Error>)
            case neither
        }

        var body: Body
        var channel: String?

        init(body: Body, channel: String?) {
            self.body = body
            self.channel = channel
        }

        enum Key: String, CodingKey {
            case game, home, away, channel
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let game = try container.decodeIfPresent(String.self, forKey: .game)
            let home = try container.decodeIfPresent(Team.self, forKey: .home)
            let away = try container.decodeIfPresent(Team.self, forKey: .away)
            if home != nil || away != nil {
                body = .header(Result { try GameAttributes(from: decoder) })
                if container.contains(.channel) {
                    channel = (try? container.decodeIfPresent(String.self, forKey: .channel)) ?? ""
                }
            } else if let game {
                body = .event(game: game, Result { try RawEvent(from: decoder) })
            } else {
                body = .neither
            }
        }
    }
}

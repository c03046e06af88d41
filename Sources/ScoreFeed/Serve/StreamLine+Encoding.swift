import Foundation
import ScoreFeedModel

extension StreamLine {
    /// The game header line `serve` reads: the game's attributes as one JSON object, sorted keys,
    /// no newline. `scorefeed stream` writes one per game before the games' events.
    public static func headerLine(_ attributes: GameAttributes) -> Data {
        encode(attributes)
    }

    /// The game header line with `"channel": <id>`: the broadcast channel your backend made for
    /// the game (`serve --mode broadcast` sends the game's pushes there).
    public static func headerLine(_ attributes: GameAttributes, channel: String) -> Data {
        var line = encode(attributes)
        guard line.last == UInt8(ascii: "}") else { return line }
        line.removeLast()
        line.append(Data(",\"channel\":".utf8))
        line.append(encode(channel))
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// The event line `serve` reads: the event in the fixture spelling plus `"game": <id>`, one
    /// JSON object with sorted keys, no newline. ``parse(_:number:source:)-(Data,_,_)`` gives back the same
    /// event, with two limits of the spelling: the time is Unix seconds (a `Date` made from Unix
    /// seconds, as every reader makes them, comes back equal; one from `Date` arithmetic may come
    /// back a fraction of a microsecond off), and a description is cut to 500 characters.
    public static func eventLine(_ event: GameEvent, game: String) -> Data {
        let raw = RawEvent(event)
        // A time JSON cannot spell goes the encoder's way, as a string.
        guard raw.time?.isFinite != false else { return encodedEventLine(raw, game: game) }
        var line = JSONBytes(capacity: 192)
        line.write(raw, game: game)
        return line.data()
    }

    /// ``eventLine(_:game:)`` as `JSONEncoder` writes it: the spelling the byte writer follows.
    static func encodedEventLine(_ raw: RawEvent, game: String) -> Data {
        encode(GameEventLine(game: game, event: raw))
    }

    /// One encoder for every line (a `JSONEncoder` whose options are not changed is safe to share).
    /// A time that is not finite is written as a string, which ``parse(_:number:source:)`` rejects
    /// with a message, instead of failing the encode.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    /// Encodes a value made only of strings, integers, booleans and numbers, which cannot fail.
    private static func encode(_ value: some Encodable) -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            preconditionFailure("a stream line failed to encode: \(error)")
        }
    }

    /// An event's fixture fields and its game's id in one JSON object, encoded in one pass.
    private struct GameEventLine: Encodable {
        var game: String
        var event: RawEvent

        enum Key: String, CodingKey {
            case game
        }

        func encode(to encoder: any Encoder) throws {
            try event.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(game, forKey: .game)
        }
    }
}

import Foundation
import ScoreFeedModel

/// One line of the `serve` input stream: a game header or an event of a game.
///
/// - A header is the game's attributes: `{"gameId": "G1", "league": "NBA", "home": {…}, "away": {…}}`.
/// - An event is a fixture-format event plus the game it belongs to:
///   `{"game": "G1", "seq": 7, "time": 1739240000.5, "period": 1, "clock": "11:42", "type": "fieldGoal", …}`.
public enum StreamLine: Sendable {
    case header(GameAttributes)
    case event(game: String, GameEvent)

    /// Parses one line (without its newline). `number` is its 1-based line number, for messages.
    public static func parse(_ line: Data, number: Int, source: String? = nil) throws(ScoreFeedError) -> StreamLine {
        let location = ScoreFeedError.Location(file: source, line: number)
        guard line.first == UInt8(ascii: "{") else {
            throw ScoreFeedError(.malformedJSON, "not a JSON object (\(preview(line)))", at: location)
        }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: line)
        } catch let error as DecodingError {
            var failure = DecodingErrorText.error(error, data: line, file: source)
            failure.location.line = number
            throw failure
        } catch {
            throw ScoreFeedError(.malformedJSON, "\(error)", at: location)
        }
        if envelope.home != nil || envelope.away != nil {
            do {
                return .header(try JSONDecoder().decode(GameAttributes.self, from: line))
            } catch let error as DecodingError {
                var failure = DecodingErrorText.eventError(error)
                failure.location = location
                failure.message = "game header: " + failure.message
                throw failure
            } catch {
                throw ScoreFeedError(.invalidValue, "game header: \(error)", at: location)
            }
        }
        guard let game = envelope.game else {
            throw ScoreFeedError(.missingField, "neither a game header (home, away) nor an event (game)", at: location)
        }
        do {
            let raw = try JSONDecoder().decode(RawEvent.self, from: line)
            var event = try raw.event(index: number - 1)
            event.description = event.description.map { String($0.prefix(500)) }
            return .event(game: game, event)
        } catch var error as ScoreFeedError {
            error.location = ScoreFeedError.Location(file: source, line: number, sequence: error.location.sequence)
            throw error
        } catch let error as DecodingError {
            var failure = DecodingErrorText.eventError(error)
            failure.location = location
            throw failure
        } catch {
            throw ScoreFeedError(.invalidValue, "\(error)", at: location)
        }
    }

    /// The first bytes of a bad line, printable.
    static func preview(_ line: Data) -> String {
        let text = String(decoding: line.prefix(40), as: UTF8.self)
        let printable = String(text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "." })
        return "starts \"\(printable)\(line.count > 40 ? "…" : "")\""
    }

    /// The keys that tell a header from an event.
    private struct Envelope: Decodable {
        var game: String?
        var home: Team?
        var away: Team?
    }
}

import Foundation
import ScoreFeedModel

extension FixtureFormat {
    /// Decodes the bytes into plain `Codable` structs and nothing more: the floor that the
    /// engine's decode is measured against. Returns the number of events.
    public static func decodeOnlyFloor(_ data: Data) throws -> Int {
        struct Plain: Decodable {
            var game: GameAttributes
            var events: [RawEvent]
        }
        return try JSONDecoder().decode(Plain.self, from: data).events.count
    }

    /// One event as the fixture format spells it (the body of a `serve` event line, less `game`).
    public static func eventJSON(_ event: GameEvent) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(RawEvent(event))
    }
}

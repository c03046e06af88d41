import Foundation

/// An Android Live Update as the app receives it: the `data` of ScoreFeed's FCM message, a map of
/// strings (`RemoteMessage.getData()` in Kotlin). The schema both sides agree on:
///
/// | key | value |
/// |---|---|
/// | `gameId` | the game |
/// | `seq` | rises by one per activity, from 1 |
/// | `event` | `start`, `update` or `end` |
/// | `timestamp` | Unix milliseconds, strictly rising per activity: show a message only if it is newer than the one shown |
/// | `state` | the ``GameAttributes/ContentState`` as compact JSON (the Live Activity's `content-state`) |
/// | `attributes` | the ``GameAttributes`` as compact JSON (every message carries them) |
/// | `alert` | where the moment alerts: `{"title":…,"body":…}` as compact JSON |
/// | `dismiss_after` | on `end`: Unix milliseconds after which the app removes the notification |
///
/// Dates inside `state` (a running clock's `endsAt`) are seconds since 2001-01-01 UTC, as
/// Foundation encodes a `Date`.
public struct LiveUpdateMessage: Hashable, Sendable {
    public enum Event: String, Hashable, Sendable, CaseIterable {
        case start, update, end
    }

    /// An alert's text: the app alerts (sound, heads-up) only on a message that has one.
    public struct Alert: Codable, Hashable, Sendable {
        public var title: String
        public var body: String

        public init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }

    public var gameId: String
    public var seq: Int
    public var event: Event
    /// Unix milliseconds, strictly rising per activity.
    public var timestamp: Int
    public var state: GameAttributes.ContentState
    public var attributes: GameAttributes
    public var alert: Alert?
    /// On `end`: Unix milliseconds after which the notification is removed.
    public var dismissAfter: Int?

    public init(
        gameId: String, seq: Int, event: Event, timestamp: Int, state: GameAttributes.ContentState, attributes: GameAttributes,
        alert: Alert? = nil, dismissAfter: Int? = nil
    ) {
        self.gameId = gameId
        self.seq = seq
        self.event = event
        self.timestamp = timestamp
        self.state = state
        self.attributes = attributes
        self.alert = alert
        self.dismissAfter = dismissAfter
    }

    /// Reads a message's `data`; a key missing or unreadable is a `DecodingError` that names it.
    public init(data: [String: String]) throws {
        func value(_ key: String) throws -> String {
            guard let value = data[key] else {
                throw DecodingError.keyNotFound(Key(key), .init(codingPath: [], debugDescription: "the data has no \"\(key)\""))
            }
            return value
        }
        func number(_ key: String) throws -> Int {
            guard let number = Int(try value(key)) else { throw Self.unreadable(key, "is not an integer") }
            return number
        }
        func json<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
            do {
                return try JSONDecoder().decode(type, from: Data(try value(key).utf8))
            } catch let error as DecodingError {
                throw Self.unreadable(key, "is not a \(type) as JSON (\(error))")
            }
        }
        guard let event = Event(rawValue: try value("event")) else { throw Self.unreadable("event", "is not start, update or end") }
        self.init(
            gameId: try value("gameId"), seq: try number("seq"), event: event, timestamp: try number("timestamp"),
            state: try json(GameAttributes.ContentState.self, "state"), attributes: try json(GameAttributes.self, "attributes"),
            alert: data["alert"] == nil ? nil : try json(Alert.self, "alert"),
            dismissAfter: data["dismiss_after"] == nil ? nil : try number("dismiss_after"))
    }

    /// The message as FCM's `data`: every value a string.
    public var data: [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json(_ value: some Encodable) -> String {
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        var data = [
            "gameId": gameId, "seq": String(seq), "event": event.rawValue, "timestamp": String(timestamp),
            "state": json(state), "attributes": json(attributes),
        ]
        if let alert { data["alert"] = json(alert) }
        if let dismissAfter { data["dismiss_after"] = String(dismissAfter) }
        return data
    }

    /// Whether the app shows this message over `shown`, the newest it has shown for the game:
    /// only a newer `timestamp` (FCM may deliver out of order, and a stored message late).
    public func supersedes(_ shown: LiveUpdateMessage?) -> Bool {
        guard let shown else { return true }
        return timestamp > shown.timestamp
    }

    private static func unreadable(_ key: String, _ why: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [Key(key)], debugDescription: "\"\(key)\" \(why)"))
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

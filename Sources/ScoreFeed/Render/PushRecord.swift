import Foundation
import ScoreFeedModel

/// One finished request for the push sender: the APNs (or FCM) path, headers and payload bytes,
/// plus what the engine knew when it made it. Its JSON line is the push record (the README's "The
/// push record").
public struct PushRecord: Hashable, Sendable, Codable {
    /// The fields, shared by copies of the record until one of them changes (copy on write): a
    /// record is copied at each step from the outbox to the sink, and a copy then costs one
    /// reference count instead of one per string, array and buffer it holds.
    private var storage: SharedFields<Fields>

    /// The Live Activity this push updates (the game id unless configured otherwise).
    public var activity: String {
        get { storage.fields.activity }
        set { SharedFields.own(&storage).fields.activity = newValue }
    }
    public var game: String {
        get { storage.fields.game }
        set { SharedFields.own(&storage).fields.game = newValue }
    }
    /// Rises by one per activity, from 1.
    public var seq: Int {
        get { storage.fields.seq }
        set { SharedFields.own(&storage).fields.seq = newValue }
    }
    public var event: Push.Event {
        get { storage.fields.event }
        set { SharedFields.own(&storage).fields.event = newValue }
    }
    public var priority: Int {
        get { storage.fields.priority }
        set { SharedFields.own(&storage).fields.priority = newValue }
    }
    /// Engine clock when sent (virtual in replay), Unix seconds.
    public var sentAt: Date {
        get { storage.fields.sentAt }
        set { SharedFields.own(&storage).fields.sentAt = newValue }
    }
    /// Feed time of the newest event folded into this push.
    public var sourceTime: Date? {
        get { storage.fields.sourceTime }
        set { SharedFields.own(&storage).fields.sourceTime = newValue }
    }
    /// How many accepted events this push carries.
    public var coalesced: Int {
        get { storage.fields.coalesced }
        set { SharedFields.own(&storage).fields.coalesced = newValue }
    }
    public var request: Request {
        get { storage.fields.request }
        set { SharedFields.own(&storage).fields.request = newValue }
    }
    /// Exactly the bytes to send to APNs.
    public var payload: Data {
        get { storage.fields.payload }
        set { SharedFields.own(&storage).fields.payload = newValue }
    }
    /// What changed since the previous push of this activity.
    public var diff: Diff {
        get { storage.fields.diff }
        set { SharedFields.own(&storage).fields.diff = newValue }
    }
    /// Why it was sent, for people.
    public var reason: String {
        get { storage.fields.reason }
        set { SharedFields.own(&storage).fields.reason = newValue }
    }
    /// The content-state in `payload`, for programs that want it typed.
    public var state: GameState {
        get { storage.fields.state }
        set { SharedFields.own(&storage).fields.state = newValue }
    }
    /// The `aps.timestamp` in `payload`.
    public var timestamp: Int {
        get { storage.fields.timestamp }
        set { SharedFields.own(&storage).fields.timestamp = newValue }
    }
    /// Payload fields the size guard shortened to fit the APNs limit (`lastPlay`, `alert.body`,
    /// …), least important first; empty when nothing was trimmed.
    public var trimmed: [String] {
        get { storage.fields.trimmed }
        set { SharedFields.own(&storage).fields.trimmed = newValue }
    }
    /// The lock screen it is for: an APNs request (iOS) or an FCM HTTP v1 message (Android, whose
    /// line starts `{"platform":"android"`; its `timestamp` is in milliseconds).
    public var platform: PushRenderer.Platform {
        get { platformOption ?? .ios }
        set { platformOption = newValue == .ios ? nil : newValue }
    }
    /// Nil for iOS, so an iOS record is saved as before platforms existed.
    var platformOption: PushRenderer.Platform? {
        get { storage.fields.platformOption }
        set { SharedFields.own(&storage).fields.platformOption = newValue }
    }

    init(
        activity: String, game: String, seq: Int, event: Push.Event, priority: Int, sentAt: Date, sourceTime: Date?,
        coalesced: Int, request: Request, payload: Data, diff: Diff, reason: String, state: GameState, timestamp: Int,
        trimmed: [String] = [], platformOption: PushRenderer.Platform? = nil
    ) {
        storage = SharedFields(Fields(
            activity: activity, game: game, seq: seq, event: event, priority: priority, sentAt: sentAt, sourceTime: sourceTime,
            coalesced: coalesced, request: request, payload: payload, diff: diff, reason: reason, state: state, timestamp: timestamp,
            trimmed: trimmed, platformOption: platformOption))
    }

    /// Saved as the fields themselves, under their names (as before the fields were shared).
    public init(from decoder: any Decoder) throws {
        storage = SharedFields(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }

    public static func == (a: PushRecord, b: PushRecord) -> Bool {
        a.storage === b.storage || a.storage.fields == b.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// A record's fields, as the record was before they were shared: its saved form, equality
    /// and hash are theirs.
    private struct Fields: Hashable, Sendable, Codable {
        var activity: String
        var game: String
        var seq: Int
        var event: Push.Event
        var priority: Int
        var sentAt: Date
        var sourceTime: Date?
        var coalesced: Int
        var request: Request
        var payload: Data
        var diff: Diff
        var reason: String
        var state: GameState
        var timestamp: Int
        var trimmed: [String]
        var platformOption: PushRenderer.Platform?
    }

    /// Method, path and headers of the HTTP/2 request to APNs.
    public struct Request: Hashable, Sendable, Codable {
        public var method: String
        public var path: String
        /// The headers, each name once, in name order: the order the record's line writes them,
        /// kept as made (a push's are made in that order: nothing is hashed or sorted per push).
        private(set) var fields: [Header]

        /// One header.
        struct Header: Hashable, Sendable {
            var name: String
            var value: String
        }

        /// The headers by name (made on each read: ``subscript(header:)`` reads one).
        public var headers: [String: String] {
            get { Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }) }
            set { fields = Self.ordered(newValue) }
        }

        public init(method: String = "POST", path: String, headers: [String: String]) {
            self.method = method
            self.path = path
            self.fields = Self.ordered(headers)
        }

        /// A request whose headers are given in name order, each name once (a renderer's).
        init(method: String = "POST", path: String, ordered fields: [Header]) {
            assert(zip(fields, fields.dropFirst()).allSatisfy { $0.name < $1.name }, "headers out of order: \(fields)")
            self.method = method
            self.path = path
            self.fields = fields
        }

        /// The value of the header `name` (nil: none); setting nil removes it.
        public subscript(header name: String) -> String? {
            get { fields.first { $0.name == name }?.value }
            set {
                if let index = fields.firstIndex(where: { $0.name == name }) {
                    if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
                } else if let newValue {
                    fields.insert(Header(name: name, value: newValue), at: fields.firstIndex { name < $0.name } ?? fields.endIndex)
                }
            }
        }

        private static func ordered(_ headers: [String: String]) -> [Header] {
            headers.map { Header(name: $0.key, value: $0.value) }.sorted { $0.name < $1.name }
        }

        private enum CodingKeys: String, CodingKey {
            case method, path, headers
        }

        /// Saved as before the headers were kept in order: `headers` an object.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            path = try container.decode(String.self, forKey: .path)
            fields = Self.ordered(try container.decode([String: String].self, forKey: .headers))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(method, forKey: .method)
            try container.encode(path, forKey: .path)
            try container.encode(headers, forKey: .headers)
        }
    }
}

extension PushRecord.Request: CustomReflectable {
    /// The method, the path and the headers by name, as the request showed before its headers
    /// were kept in order: what `print`, `dump` and test messages show.
    public var customMirror: Mirror {
        Mirror(self, children: ["method": method, "path": path, "headers": headers], displayStyle: .struct)
    }
}

extension PushRecord: CustomReflectable {
    /// The fields themselves, as a plain struct shows them: what `print`, `dump` and test
    /// messages show of a record, not its storage.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}

import Foundation
import ScoreFeedModel

/// One finished request for the push sender: the APNs (or FCM) path, headers and payload bytes,
/// plus what the engine knew when it made it. Its JSON line is the push record (the README's "The
/// push record").
public struct PushRecord: Hashable, Sendable, Codable {
    /// The fields, shared by copies of the record until one of them changes (copy on write): a
    /// record is copied at each step from the outbox to the sink, and a copy then costs one
    /// reference count instead of one per string, array and buffer it holds.
    private var storage: Storage

    /// The Live Activity this push updates (the game id unless configured otherwise).
    public var activity: String {
        get { storage.activity }
        set { unique().activity = newValue }
    }
    public var game: String {
        get { storage.game }
        set { unique().game = newValue }
    }
    /// Rises by one per activity, from 1.
    public var seq: Int {
        get { storage.seq }
        set { unique().seq = newValue }
    }
    public var event: Push.Event {
        get { storage.event }
        set { unique().event = newValue }
    }
    public var priority: Int {
        get { storage.priority }
        set { unique().priority = newValue }
    }
    /// Engine clock when sent (virtual in replay), Unix seconds.
    public var sentAt: Date {
        get { storage.sentAt }
        set { unique().sentAt = newValue }
    }
    /// Feed time of the newest event folded into this push.
    public var sourceTime: Date? {
        get { storage.sourceTime }
        set { unique().sourceTime = newValue }
    }
    /// How many accepted events this push carries.
    public var coalesced: Int {
        get { storage.coalesced }
        set { unique().coalesced = newValue }
    }
    public var request: Request {
        get { storage.request }
        set { unique().request = newValue }
    }
    /// Exactly the bytes to send to APNs.
    public var payload: Data {
        get { storage.payload }
        set { unique().payload = newValue }
    }
    /// What changed since the previous push of this activity.
    public var diff: Diff {
        get { storage.diff }
        set { unique().diff = newValue }
    }
    /// Why it was sent, for people.
    public var reason: String {
        get { storage.reason }
        set { unique().reason = newValue }
    }
    /// The content-state in `payload`, for programs that want it typed.
    public var state: GameState {
        get { storage.state }
        set { unique().state = newValue }
    }
    /// The `aps.timestamp` in `payload`.
    public var timestamp: Int {
        get { storage.timestamp }
        set { unique().timestamp = newValue }
    }
    /// Payload fields the size guard shortened to fit the APNs limit (`lastPlay`, `alert.body`,
    /// …), least important first; empty when nothing was trimmed.
    public var trimmed: [String] {
        get { storage.trimmed }
        set { unique().trimmed = newValue }
    }
    /// The lock screen it is for: an APNs request (iOS) or an FCM HTTP v1 message (Android, whose
    /// line starts `{"platform":"android"`; its `timestamp` is in milliseconds).
    public var platform: PushRenderer.Platform {
        get { platformOption ?? .ios }
        set { platformOption = newValue == .ios ? nil : newValue }
    }
    /// Nil for iOS, so an iOS record is saved as before platforms existed.
    var platformOption: PushRenderer.Platform? {
        get { storage.platformOption }
        set { unique().platformOption = newValue }
    }

    init(
        activity: String, game: String, seq: Int, event: Push.Event, priority: Int, sentAt: Date, sourceTime: Date?,
        coalesced: Int, request: Request, payload: Data, diff: Diff, reason: String, state: GameState, timestamp: Int,
        trimmed: [String] = [], platformOption: PushRenderer.Platform? = nil
    ) {
        storage = Storage(
            activity: activity, game: game, seq: seq, event: event, priority: priority, sentAt: sentAt, sourceTime: sourceTime,
            coalesced: coalesced, request: request, payload: payload, diff: diff, reason: reason, state: state, timestamp: timestamp,
            trimmed: trimmed, platformOption: platformOption)
    }

    /// The storage, made this record's own first when another record shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Saved as the fields themselves, under their names (as before the fields had storage).
    public init(from decoder: any Decoder) throws {
        storage = try Storage(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.encode(to: encoder)
    }

    public static func == (a: PushRecord, b: PushRecord) -> Bool {
        a.storage === b.storage || a.storage.same(as: b.storage)
    }

    public func hash(into hasher: inout Hasher) {
        storage.hash(into: &hasher)
    }

    /// A record's fields (never changed while another record shares them).
    private final class Storage: Codable, @unchecked Sendable {

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

        init(activity: String, game: String, seq: Int, event: Push.Event, priority: Int, sentAt: Date, sourceTime: Date?, coalesced: Int, request: Request, payload: Data, diff: Diff, reason: String, state: GameState, timestamp: Int, trimmed: [String], platformOption: PushRenderer.Platform?) {
            self.activity = activity
            self.game = game
            self.seq = seq
            self.event = event
            self.priority = priority
            self.sentAt = sentAt
            self.sourceTime = sourceTime
            self.coalesced = coalesced
            self.request = request
            self.payload = payload
            self.diff = diff
            self.reason = reason
            self.state = state
            self.timestamp = timestamp
            self.trimmed = trimmed
            self.platformOption = platformOption
        }

        func copy() -> Storage {
            Storage(activity: activity, game: game, seq: seq, event: event, priority: priority, sentAt: sentAt, sourceTime: sourceTime, coalesced: coalesced, request: request, payload: payload, diff: diff, reason: reason, state: state, timestamp: timestamp, trimmed: trimmed, platformOption: platformOption)
        }

        func same(as other: Storage) -> Bool {
            activity == other.activity && game == other.game && seq == other.seq && event == other.event
                && priority == other.priority && sentAt == other.sentAt && sourceTime == other.sourceTime && coalesced == other.coalesced
                && request == other.request && payload == other.payload && diff == other.diff && reason == other.reason
                && state == other.state && timestamp == other.timestamp && trimmed == other.trimmed && platformOption == other.platformOption
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(activity)
            hasher.combine(game)
            hasher.combine(seq)
            hasher.combine(event)
            hasher.combine(priority)
            hasher.combine(sentAt)
            hasher.combine(sourceTime)
            hasher.combine(coalesced)
            hasher.combine(request)
            hasher.combine(payload)
            hasher.combine(diff)
            hasher.combine(reason)
            hasher.combine(state)
            hasher.combine(timestamp)
            hasher.combine(trimmed)
            hasher.combine(platformOption)
        }
    }

    /// Method, path and headers of the HTTP/2 request to APNs.
    public struct Request: Hashable, Sendable, Codable {
        public var method: String
        public var path: String
        public var headers: [String: String]

        public init(method: String = "POST", path: String, headers: [String: String]) {
            self.method = method
            self.path = path
            self.headers = headers
        }
    }
}

extension PushRecord: CustomReflectable {
    /// The fields themselves, as a plain struct shows them: what `print`, `dump` and test
    /// messages show of a record, not its storage.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "activity": activity, "game": game, "seq": seq, "event": event, "priority": priority, "sentAt": sentAt,
            "sourceTime": sourceTime as Any, "coalesced": coalesced, "request": request, "payload": payload, "diff": diff,
            "reason": reason, "state": state, "timestamp": timestamp, "trimmed": trimmed, "platformOption": platformOption as Any,
        ], displayStyle: .struct)
    }
}

import Foundation
import ScoreFeedModel

/// One finished request for the push sender: the APNs (or FCM) path, headers and payload bytes,
/// plus what the engine knew when it made it. Its JSON line is the push record (the README's "The
/// push record").
public struct PushRecord: Hashable, Sendable, Codable {
    /// The Live Activity this push updates (the game id unless configured otherwise).
    public var activity: String
    public var game: String
    /// Rises by one per activity, from 1.
    public var seq: Int
    public var event: Push.Event
    public var priority: Int
    /// Engine clock when sent (virtual in replay), Unix seconds.
    public var sentAt: Date
    /// Feed time of the newest event folded into this push.
    public var sourceTime: Date?
    /// How many accepted events this push carries.
    public var coalesced: Int
    public var request: Request
    /// Exactly the bytes to send to APNs.
    public var payload: Data
    /// What changed since the previous push of this activity.
    public var diff: Diff
    /// Why it was sent, for people.
    public var reason: String
    /// The content-state in `payload`, for programs that want it typed.
    public var state: GameState
    /// The `aps.timestamp` in `payload`.
    public var timestamp: Int
    /// Payload fields the size guard shortened to fit the APNs limit (`lastPlay`, `alert.body`,
    /// …), least important first; empty when nothing was trimmed.
    public var trimmed: [String] = []
    /// The lock screen it is for: an APNs request (iOS) or an FCM HTTP v1 message (Android, whose
    /// line starts `{"platform":"android"`; its `timestamp` is in milliseconds).
    public var platform: PushRenderer.Platform {
        get { platformOption ?? .ios }
        set { platformOption = newValue == .ios ? nil : newValue }
    }
    /// Nil for iOS, so an iOS record is saved as before platforms existed.
    var platformOption: PushRenderer.Platform? = nil

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

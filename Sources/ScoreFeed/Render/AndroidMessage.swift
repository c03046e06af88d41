import Foundation
import ScoreFeedModel

/// One Android Live Update as FCM HTTP v1 carries it: a data message (`{"message": {...}}`, no
/// `notification`) that the app renders as its promoted ongoing notification. Every message
/// holds the whole picture (the content state and the game's attributes), so an app that missed
/// the `start` (subscribed to the topic late, reinstalled) still draws the game.
///
/// `data` is what ``LiveUpdateMessage`` reads on the device: `gameId`, `seq`, `event`,
/// `timestamp` (Unix milliseconds, strictly rising per activity: the app drops an older one),
/// `state` and `attributes` (compact JSON, as in the Live Activity's `content-state` and
/// attributes), `alert` where the moment alerts, and on the `end` `dismiss_after` (Unix
/// milliseconds: when the app removes the notification). All values are strings, as FCM
/// requires, and no key is one FCM reserves.
struct AndroidMessage: Sendable {
    /// Who receives it: one device's registration token (`{token}`, filled in by the sender) or
    /// the game's topic.
    enum Target: Sendable {
        case token
        case topic(String)
    }

    var target: Target
    var gameId: String
    var seq: Int
    var event: Push.Event
    var timestamp: Int
    var state: GameState
    var attributes: GameAttributes
    var alert: APNsPayload.Alert?
    /// On `end`: when the app removes the notification (Unix milliseconds).
    var dismissAfter: Int?
    /// `android.priority`: `HIGH` for priority 10, `NORMAL` for 5.
    var high: Bool
    /// `android.ttl` in seconds.
    var ttl: Int
    var collapseKey: String?

    /// The keys FCM refuses in `data` (besides any starting with `google` or `gcm`).
    static let reservedKeys: Set<String> = ["from", "notification", "message_type"]

    /// `data`, in the order it is written: every value a string.
    func data() throws(JSONBytes.NonFinite) -> [(key: String, value: String)] {
        var state = JSONBytes(capacity: 400)
        try state.write(self.state)
        var attributes = JSONBytes(capacity: 300)
        attributes.write(self.attributes)
        var data: [(key: String, value: String)] = [
            ("gameId", gameId), ("seq", String(seq)), ("event", event.rawValue), ("timestamp", String(timestamp)),
            ("state", state.string()), ("attributes", attributes.string()),
        ]
        if let alert {
            var text = JSONBytes(capacity: 200)
            text.raw("{\"title\":"); text.string(alert.title)
            text.raw(",\"body\":"); text.string(alert.body)
            text.byte(UInt8(ascii: "}"))
            data.append(("alert", text.string()))
        }
        if let dismissAfter { data.append(("dismiss_after", String(dismissAfter))) }
        return data
    }

    /// What FCM counts against its limit: the data's keys and values, in UTF-8 bytes.
    static func size(of data: [(key: String, value: String)]) -> Int {
        data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }

    /// The request body, compact: `{"message":{"token"|"topic":…,"data":{…},"android":{…}}}`.
    static func body(target: Target, data: [(key: String, value: String)], high: Bool, ttl: Int, collapseKey: String?) -> Data {
        var out = JSONBytes(capacity: 256 + size(of: data) * 5 / 4)
        switch target {
        case .token: out.raw("{\"message\":{\"token\":\"{token}\"")
        case .topic(let topic): out.raw("{\"message\":{\"topic\":"); out.string(topic)
        }
        out.raw(",\"data\":{")
        for (index, entry) in data.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.string(entry.key)
            out.byte(UInt8(ascii: ":"))
            out.string(entry.value)
        }
        out.raw("},\"android\":{\"priority\":")
        out.raw(high ? "\"HIGH\"" : "\"NORMAL\"")
        out.raw(",\"ttl\":\"")
        out.int(ttl)
        out.raw("s\"")
        if let collapseKey { out.raw(",\"collapse_key\":"); out.string(collapseKey) }
        out.raw("}}}")
        return out.data()
    }
}

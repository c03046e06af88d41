import Foundation

/// A push the renderer refused to send: even with its text trimmed the payload is over the APNs
/// limit. It takes no `seq` and no `aps.timestamp`, so the activity's numbering stays gapless,
/// and it is handed to sinks through ``PushSink/refused(_:)``, never as a ``PushRecord``: a
/// push sender cannot mistake it for a request.
///
/// Its JSON line has a different top-level shape from a push record: an `error` object, `seq`
/// null, and no `request` or `payload`:
///
/// ```json
/// {"error":{"code":"payload-too-large","message":"…","bytes":4410,"limit":4096},
///  "activity":"0022300061","game":"0022300061","seq":null,"event":"update","priority":10,
///  "sentAt":1698190872.5,"sourceTime":1698190871,"reason":"…"}
/// ```
public struct PushRefusal: Hashable, Sendable {
    /// The activity the push was for.
    public var activity: String
    /// The game id.
    public var game: String
    /// The event that was not sent.
    public var event: Push.Event
    /// The priority it would have had.
    public var priority: Int
    /// Engine clock when it would have been sent.
    public var sentAt: Date
    /// Feed time of the newest event it would have carried.
    public var sourceTime: Date?
    /// Why the push was wanted.
    public var reason: String
    /// Payload size after trimming everything that may be trimmed, in its largest
    /// ``PayloadSerialization`` (the one the message names when it is not the compact bytes).
    public var bytes: Int
    /// The limit it exceeds.
    public var limit: Int
    /// What went wrong, as an error (`payload-too-large`).
    public var error: ScoreFeedError

    public init(
        activity: String, game: String, event: Push.Event, priority: Int, sentAt: Date, sourceTime: Date?,
        reason: String, bytes: Int, limit: Int, error: ScoreFeedError
    ) {
        self.activity = activity
        self.game = game
        self.event = event
        self.priority = priority
        self.sentAt = sentAt
        self.sourceTime = sourceTime
        self.reason = reason
        self.bytes = bytes
        self.limit = limit
        self.error = error
    }

    /// The refusal as one line of JSON (no newline), in the error shape described above.
    public func jsonLine() -> Data {
        var out = JSONBytes(capacity: 400)
        write(into: &out)
        return out.data()
    }

    /// Appends ``jsonLine()``'s bytes to `out`.
    func write(into out: inout JSONBytes) {
        out.raw("{\"error\":{\"code\":"); out.string(error.code.rawValue)
        out.raw(",\"message\":"); out.string(error.message)
        out.raw(",\"bytes\":"); out.int(bytes)
        out.raw(",\"limit\":"); out.int(limit)
        out.raw("},\"activity\":"); out.string(activity)
        out.raw(",\"game\":"); out.string(game)
        out.raw(",\"seq\":null,\"event\":"); out.string(event.rawValue)
        out.raw(",\"priority\":"); out.int(priority)
        out.raw(",\"sentAt\":"); out.number(sentAt.timeIntervalSince1970)
        out.raw(",\"sourceTime\":")
        if let sourceTime { out.number(sourceTime.timeIntervalSince1970) } else { out.raw("null") }
        out.raw(",\"reason\":"); out.string(reason)
        out.byte(UInt8(ascii: "}"))
    }
}

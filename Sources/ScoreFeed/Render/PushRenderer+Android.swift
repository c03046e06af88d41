import Foundation
import ScoreFeedModel

extension PushRenderer {
    /// Android's request path: FCM HTTP v1's send, the project given or `{project}` for the
    /// sender to fill in.
    static func androidPath(_ configuration: Configuration) -> String {
        "/v1/projects/\(configuration.fcmProject ?? "{project}")/messages:send"
    }

    /// `timestamp`, an iOS `aps.timestamp` (Unix seconds) or an Android one (milliseconds), in
    /// `platform`'s unit, rounded up: a number past 10^11 is milliseconds (seconds would be the
    /// year 5138), one below is seconds. 0 (none known) stays 0.
    static func timestamp(_ timestamp: Int, for platform: Platform) -> Int {
        let isMilliseconds = timestamp >= 100_000_000_000
        switch platform {
        case .ios: return isMilliseconds ? (timestamp + 999) / 1000 : timestamp
        case .android: return isMilliseconds || timestamp <= 0 ? timestamp : timestamp * 1000 + 999
        }
    }

    /// The trimmable text of an Android message, least important first: the same fields, by the
    /// same names, as an APNs payload's (``SizeGuard/fields``).
    static let androidFields: [SizeGuard.TextField<AndroidMessage>] = [
        .init(name: "lastPlay", get: { $0.state.lastPlay }, set: { $0.state.lastPlay = $1 }, removable: true),
        .init(name: "alert.body", get: { $0.alert?.body }, set: { $0.alert?.body = $1 ?? "" }),
        .init(name: "alert.title", get: { $0.alert?.title }, set: { $0.alert?.title = $1 ?? "" }, keep: 1),
        .init(name: "attributes.league", get: { $0.attributes.league }, set: { $0.attributes.league = $1 ?? "" }),
        .init(name: "attributes.away.city", get: { $0.attributes.away.city }, set: { $0.attributes.away.city = $1 ?? "" }),
        .init(name: "attributes.home.city", get: { $0.attributes.home.city }, set: { $0.attributes.home.city = $1 ?? "" }),
        .init(name: "attributes.away.name", get: { $0.attributes.away.name }, set: { $0.attributes.away.name = $1 ?? "" }),
        .init(name: "attributes.home.name", get: { $0.attributes.home.name }, set: { $0.attributes.home.name = $1 ?? "" }),
    ]

    /// `push` as an Android record numbered `seq`, stamped `timestamp` (Unix milliseconds):
    /// an FCM HTTP v1 data message (``AndroidMessage``) in the push record's envelope with
    /// `"platform": "android"`. Its data fits FCM's limit (``Configuration/payloadLimit``), text
    /// trimmed as an APNs payload's is, or it is refused.
    ///
    /// - `android.priority`: `HIGH` for a priority 10 (the `start`, the `end` and every push the
    ///   policy wants seen now), `NORMAL` for a priority 5.
    /// - `android.ttl`: the `start` lives ``Configuration/expiration`` (1 hour); a `HIGH` update
    ///   ``Configuration/staleAfter`` (5 minutes: a phone offline longer gets no backlog of old
    ///   scores, only the next news); a `NORMAL` one, which waits for a phone in Doze and
    ///   collapses to the newest, ``Configuration/expiration``; the `end` 4 hours (a late `end`
    ///   still takes a stale score away).
    /// - `collapse_key` (the game's topic name) on a `NORMAL` update only: a phone in Doze gets the
    ///   newest of them, not each. A `HIGH` message is not collapsible, so it never waits in
    ///   FCM's bucket of collapsible messages (20 a device, refilled one every 3 minutes).
    func android(
        _ push: Push, priority: Int, seq: Int, timestamp: Int, moment: Date, state: GameState, diff: Diff, coalesced: Int,
        sentAt: Date, sourceTime: Date?
    ) -> Output {
        let sent = Int((moment.timeIntervalSince1970 * 1000).rounded(.down))
        let high = priority == 10
        let alert: APNsPayload.Alert? = high ? push.alert.map { alertText($0, state: state, now: moment) } : nil
        let ttl = switch push.event {
        case .start: Int(configuration.expiration)
        // A NORMAL update waits for the phone (Doze), and collapses: only the newest is kept.
        case .update: Int(high ? configuration.staleAfter : configuration.expiration)
        case .end: 4 * 3600
        }
        let topic = Configuration.topic(of: attributes.gameId)
        let message = AndroidMessage(
            target: configuration.mode.isToken ? .token : .topic(topic), gameId: attributes.gameId, seq: seq, event: push.event,
            timestamp: timestamp, state: state, attributes: attributes, alert: alert,
            dismissAfter: push.event == .end ? sent + Int(min(configuration.dismissAfter, Configuration.maximumDismissal)) * 1000 : nil,
            high: high, ttl: max(0, ttl), collapseKey: high || push.event != .update ? nil : topic)
        let limit = configuration.payloadLimit
        func refusal(bytes: Int, _ error: ScoreFeedError) -> Output {
            self.refusal(push, priority: priority, sentAt: sentAt, sourceTime: sourceTime, bytes: bytes, error)
        }
        func encoded(_ message: AndroidMessage) throws(ScoreFeedError) -> [(key: String, value: String)] {
            do {
                return try message.data()
            } catch {
                throw ScoreFeedError(.invalidValue, "could not encode the message: \(error)")
            }
        }
        let fitted: AndroidMessage, data: [(key: String, value: String)], trimmed: [String]
        do {
            // Encoded once; again only for each trimming step of a message over the limit.
            let whole = try encoded(message)
            let size = AndroidMessage.size(of: whole)
            if size <= limit {
                (fitted, data, trimmed) = (message, whole, [])
            } else {
                let (trimmedMessage, bytes, names) = try SizeGuard(limit: limit).trim(
                    message, bytes: size, fields: Self.androidFields) { (message) throws(ScoreFeedError) in
                    AndroidMessage.size(of: try encoded(message))
                }
                guard bytes <= limit else {
                    let what = names.isEmpty ? "" : " even after trimming \(names.joined(separator: ", "))"
                    return refusal(bytes: bytes, ScoreFeedError(
                        .payloadTooLarge,
                        "\(push.event.rawValue) data of \(bytes) bytes exceeds FCM's limit of \(limit) for a \(configuration.mode.isToken ? "token" : "topic") message\(what); not sent"))
                }
                (fitted, data, trimmed) = (trimmedMessage, try encoded(trimmedMessage), names)
            }
        } catch {
            return refusal(bytes: 0, error)
        }
        let payload = AndroidMessage.body(
            target: fitted.target, data: data, high: fitted.high, ttl: fitted.ttl, collapseKey: fitted.collapseKey)
        var record = PushRecord(
            activity: activity, game: attributes.gameId, seq: seq, event: push.event, priority: priority,
            sentAt: sentAt, sourceTime: sourceTime, coalesced: coalesced,
            // `path` is the FCM path on Android (``path(_:)``), made once.
            request: .init(path: path, ordered: [.init(name: "content-type", value: "application/json; charset=UTF-8")]), payload: payload,
            diff: Self.shown(diff, trimmed: trimmed, lastPlay: fitted.state.lastPlay), reason: push.reason, state: fitted.state,
            timestamp: timestamp, trimmed: trimmed)
        record.platform = .android
        return .push(record)
    }
}

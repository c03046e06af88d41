import Foundation
import ScoreFeedModel

/// Turns a decided push and the current state into finished APNs requests, in token or
/// broadcast mode. Pure value type: it keeps the activity's `seq` and last `aps.timestamp` so
/// both strictly increase, and whether the push-to-start is still due.
///
/// - `aps.timestamp` is the send second (Unix, rounded down), or one more than the previous
///   push's when several fall in the same second, so it strictly increases per activity (a
///   device ignores an update not newer than the last it saw). A burst runs ahead of the clock
///   by at most its length in seconds, far below the 8 hours after which devices drop a push.
/// - `apns-id` is ``RequestID/uuid(activity:seq:)``: the same (activity, seq) always names the
///   same body, so a sender that retries can deduplicate.
/// - `apns-expiration`: token mode, send time + ``Configuration/expiration`` (1 hour) for
///   `start` and `update` (older news is not worth showing) and + 4 hours for `end` (the ended
///   activity stays on the lock screen that long, and a late `end` still removes a stale
///   score). Broadcast mode, `0` on a channel that stores nothing (Apple's advice for sports:
///   a push is delivered now or never), as token mode on one that keeps the latest message
///   (``Configuration/messageStorage``).
/// - Payloads are at most ``Configuration/payloadLimit`` bytes in each of their
///   ``PayloadSerialization``s (as sent, and as common senders re-serialize them); see ``SizeGuard``.
public struct PushRenderer: Sendable {
    public let attributes: GameAttributes
    public let configuration: Configuration
    /// The last `seq` rendered (0 before the first).
    public private(set) var seq = 0
    /// The last `aps.timestamp` rendered.
    public private(set) var lastTimestamp = 0
    /// Whether a push-to-start is still to go out before the next update (token mode with
    /// ``Configuration/start``; cleared once tried, and by an `end`).
    public private(set) var startPending: Bool

    /// The Swift type name of the activity's `ActivityAttributes`, sent as `attributes-type` in
    /// a push-to-start.
    public static let attributesType = "GameAttributes"

    /// What rendering one decided push produced, in sending order.
    public enum Output: Hashable, Sendable {
        /// A request for the push sender.
        case push(PushRecord)
        /// A push that does not fit the APNs limit even trimmed: report it, do not send it.
        case refused(PushRefusal)
    }

    /// Token mode's `apns-topic`, the same on every request.
    private let topic: String
    /// Where every `apns-id` of this activity starts (see ``RequestID``).
    private let requestIDPrefix: RequestID.Prefix

    public init(attributes: GameAttributes, configuration: Configuration = Configuration()) {
        self.attributes = attributes
        self.configuration = configuration
        self.startPending = configuration.sendsStart
        topic = "\(configuration.bundleId).push-type.liveactivity"
        requestIDPrefix = RequestID.Prefix(activity: configuration.activity ?? attributes.gameId)
    }

    /// The activity id in records: the configured one, else the game id.
    public var activity: String { configuration.activity ?? attributes.gameId }

    /// This renderer under `configuration`, its numbering kept: a resumed game takes the options
    /// given now (or those its journal was written under) and goes on with its `seq`.
    public func reconfigured(_ configuration: Configuration) -> PushRenderer {
        var renderer = PushRenderer(attributes: attributes, configuration: configuration)
        renderer.resume(seq: seq, lastTimestamp: lastTimestamp, startPending: startPending)
        return renderer
    }

    /// Picks up where a checkpointed renderer stopped, so `seq` and `aps.timestamp` keep rising
    /// across a restart.
    public mutating func resume(seq: Int, lastTimestamp: Int, startPending: Bool) {
        self.seq = seq
        self.lastTimestamp = lastTimestamp
        self.startPending = startPending
    }

    /// Renders `push` of `state`: with push-to-start configured, the first update becomes the
    /// `start` (priority 10, with `attributes-type`, `attributes`, the present `content-state`
    /// and an alert); later pushes go as decided, with the priority-5 copy the policy asked for
    /// behind a priority 10. A payload that does not fit even trimmed becomes a
    /// ``Output/refused(_:)`` and takes no `seq`; rendering never throws, so the game goes on.
    public mutating func outputs(
        for push: Push, state: GameState, diff: Diff, coalesced: Int, sentAt: Date, sourceTime: Date?
    ) -> [Output] {
        var outputs: [Output] = []
        if startPending && push.event == .update {
            // The start carries the present state (and the update's alert): the update itself,
            // and its copy, would only say it again. A device that never got the start has no
            // activity for an update to reach.
            let start = Push(
                event: .start, priority: 10, alert: push.alert, reason: "push-to-start with the present state (\(push.reason))")
            let started = make(start, state: state, diff: diff, coalesced: coalesced, sentAt: sentAt, sourceTime: sourceTime)
            if case .push = started { return [started] }
            // A start too large even trimmed is reported; the update goes as decided.
            outputs.append(started)
        }
        outputs.append(make(push, state: state, diff: diff, coalesced: coalesced, sentAt: sentAt, sourceTime: sourceTime))
        if push.priority5Copy && push.priority == 10 {
            // Right behind it, with the next timestamp and the same state: a device that showed
            // the first shows nothing new; one whose budget dropped it shows this a delay later.
            let copy = Push(event: push.event, priority: 5, reason: "priority-5 copy of the push before, in case the budget dropped it")
            outputs.append(make(copy, state: state, diff: diff, coalesced: 0, sentAt: sentAt, sourceTime: sourceTime))
        }
        return outputs
    }

    /// Renders exactly `push` (no push-to-start is added), throwing the refusal's error
    /// (`payload-too-large`) when it does not fit even trimmed; `seq` then does not advance.
    public mutating func render(
        _ push: Push, state: GameState, diff: Diff, coalesced: Int, sentAt: Date, sourceTime: Date?
    ) throws(ScoreFeedError) -> PushRecord {
        switch make(push, state: state, diff: diff, coalesced: coalesced, sentAt: sentAt, sourceTime: sourceTime) {
        case .push(let record): return record
        case .refused(let refusal): throw refusal.error
        }
    }

    private mutating func make(
        _ push: Push, state: GameState, diff: Diff, coalesced: Int, sentAt: Date, sourceTime: Date?
    ) -> Output {
        if push.event != .update { startPending = false }
        let sent = Int(sentAt.timeIntervalSince1970.rounded(.down))
        let timestamp = max(sent, lastTimestamp + 1)
        // A push-to-start needs an alert, so it is always priority 10.
        let priority = push.event == .start ? 10 : push.priority
        var aps = APNsPayload.APS(
            timestamp: timestamp, event: push.event.rawValue, contentState: state,
            relevanceScore: Self.relevance(of: state))
        switch push.event {
        case .end:
            aps.dismissalDate = sent + Int(min(configuration.dismissAfter, Configuration.maximumDismissal))
        case .start, .update:
            aps.staleDate = sent + Int(configuration.staleAfter)
        }
        if push.event == .start {
            aps.attributesType = Self.attributesType
            aps.attributes = attributes
            aps.alert = push.alert.map { alertText($0, state: state, now: sentAt) } ?? startAlert(state: state, now: sentAt)
        } else if let alert = push.alert, priority == 10 {
            aps.alert = alertText(alert, state: state, now: sentAt)
        }

        let guardrail = SizeGuard(limit: configuration.payloadLimit)
        func refusal(bytes: Int, _ error: ScoreFeedError) -> Output {
            .refused(PushRefusal(
                activity: activity, game: attributes.gameId, event: push.event, priority: priority, sentAt: sentAt,
                sourceTime: sourceTime, reason: push.reason, bytes: bytes, limit: configuration.payloadLimit,
                error: error))
        }
        let fitted: (payload: Data, aps: APNsPayload.APS, trimmed: [String])
        do {
            switch try guardrail.fit(aps) {
            case .fits(let payload, let trimmedAPS, let trimmed):
                fitted = (payload, trimmedAPS, trimmed)
            case .tooLarge(let bytes, let serialization, let trimmed):
                let what = trimmed.isEmpty ? "" : " even after trimming \(trimmed.joined(separator: ", "))"
                let how = serialization == .compact ? "" : " \(serialization.summary)"
                return refusal(bytes: bytes, ScoreFeedError(
                    .payloadTooLarge,
                    "\(push.event.rawValue) payload of \(bytes) bytes\(how) exceeds the \(configuration.mode.name)-mode limit of \(configuration.payloadLimit)\(what); not sent"))
            }
        } catch {
            return refusal(bytes: 0, error)
        }

        seq += 1
        lastTimestamp = timestamp
        let id = RequestID.uuid(after: requestIDPrefix, seq: seq)
        var headers = [String: String](minimumCapacity: 6)
        headers["apns-push-type"] = "liveactivity"
        headers["apns-priority"] = priority == 10 ? "10" : priority == 5 ? "5" : String(priority)
        headers["apns-id"] = id
        let path: String
        let lifetime = push.event == .end ? 4 * 3600 : Int(configuration.expiration)
        switch configuration.mode {
        case .token:
            path = "/3/device/{token}"
            headers["apns-topic"] = topic
            headers["apns-expiration"] = String(sent + lifetime)
        case .broadcast(let channelId):
            path = "/4/broadcasts/apps/\(configuration.bundleId)"
            if let channelId { headers["apns-channel-id"] = channelId }
            // A channel that stores nothing delivers now or never; one that keeps the latest
            // message keeps it as long as a token-mode push would live.
            headers["apns-expiration"] = configuration.messageStorage == 0 ? "0" : String(sent + lifetime)
            // Apple's broadcast and channel APIs name the request's UUID `apns-request-id`.
            headers["apns-request-id"] = id
        }
        var shownDiff = diff
        if fitted.trimmed.contains("lastPlay"), let index = shownDiff.changes.firstIndex(where: { $0.field == .lastPlay }) {
            shownDiff.changes[index].new = fitted.aps.contentState.lastPlay.map { .text($0) } ?? .null
        }
        return .push(PushRecord(
            activity: activity, game: attributes.gameId, seq: seq, event: push.event, priority: priority,
            sentAt: sentAt, sourceTime: sourceTime, coalesced: coalesced,
            request: .init(path: path, headers: headers), payload: fitted.payload, diff: shownDiff,
            reason: push.reason, state: fitted.aps.contentState, timestamp: timestamp, trimmed: fitted.trimmed))
    }

    /// The payload's bytes: what `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes`
    /// gives for ``APNsPayload``, written by hand (``APNsPayload/APS/payloadJSON()``).
    static func encode(_ aps: APNsPayload.APS) throws(ScoreFeedError) -> Data {
        do {
            return try aps.payloadJSON()
        } catch {
            throw ScoreFeedError(.invalidValue, "could not encode the payload: \(error)")
        }
    }

    /// Alert wording; the title is always set (iOS ignores an alert without one).
    func alertText(_ kind: AlertKind, state: GameState, now: Date) -> APNsPayload.Alert {
        let away = attributes.away, home = attributes.home
        let line = "\(away.tricode) \(state.awayScore) – \(home.tricode) \(state.homeScore)"
        switch kind {
        case .final:
            let winner = state.homeScore >= state.awayScore ? home : away
            return .init(title: "Final: \(line)", body: "\(winner.city) \(winner.name) win.", sound: "default")
        case .overtime:
            return .init(title: "Overtime: \(line)", body: "Tied after regulation; \(state.periodLabel) under way.", sound: "default")
        case .leadChange:
            let leader = state.margin >= 0 ? home : away
            return .init(title: "Lead change: \(line)", body: "\(leader.name) lead with \(state.clockText(at: now)) left in \(state.periodLabel).", sound: "default")
        }
    }

    /// The push-to-start's alert (required by iOS): who plays, and the score once under way.
    /// Silent: it announces the activity, it is not news.
    func startAlert(state: GameState, now: Date) -> APNsPayload.Alert {
        let away = attributes.away, home = attributes.home
        let title = "\(away.tricode) at \(home.tricode)"
        let line = "\(away.tricode) \(state.awayScore) – \(home.tricode) \(state.homeScore)"
        let body: String
        switch state.phase {
        case .pregame: body = "\(away.city) \(away.name) at \(home.city) \(home.name), live on your Lock Screen."
        case .live: body = "\(line), \(state.periodLabel) \(state.clockText(at: now))."
        case .endOfPeriod: body = "\(line), end of \(state.periodLabel)."
        case .halftime: body = "\(line) at halftime."
        case .final: body = "Final: \(line)."
        }
        return .init(title: title, body: body, sound: nil)
    }

    /// 0–100: higher for close games late, so the closest live game gets the Dynamic Island.
    public static func relevance(of state: GameState) -> Double {
        if state.phase == .final { return 10 }
        if state.phase == .pregame { return 20 }
        let periods = Double(min(state.period, 4))
        let progress = min(1, periods / 4)
        let closeness = max(0, 1 - Double(abs(state.margin)) / 20)
        return (20 + 30 * progress + 50 * closeness * progress).rounded()
    }
}

import Foundation
import ScoreFeedModel

/// Turns a decided push and the current state into finished APNs requests, in token or
/// broadcast mode, or into FCM HTTP v1 data messages for Android (``Configuration/platform``). Pure value type: it keeps the activity's `seq` and last `aps.timestamp` so
/// both strictly increase, and whether the push-to-start is still due.
///
/// - `aps.timestamp` is the send second (Unix, rounded down), or one more than the previous
///   push's when several fall in the same second, so it strictly increases per activity (a
///   device ignores an update not newer than the last it saw). Its *lead* over the send second
///   grows by one with each push beyond one a second and melts by one a second: 2 s at most on
///   every real game and fixture replayed (token and broadcast mode, with push-to-start). With a
///   ``Configuration/headStart`` (the system clock), an iOS broadcast `update` leads by the head
///   start at least: APNs drops a broadcast update whose timestamp is in the past when it
///   arrives, as a sender taking seconds per request would deliver it.
/// - An activity with no earlier timestamp (``lastTimestamp`` 0: new to this instance, with no
///   state dir, a fresh one, or a checkpoint lost with its numbering) stamps its first push
///   ``Configuration/headStart`` seconds ahead (``Configuration/failoverHeadStart``, 60 s, on
///   the system clock; none in replay and on the feed clock, which stamp the recorded times); an
///   iOS broadcast activity twice that, as its updates all lead by the head start (below).
///   Why: an instance that replaces a lost one (its state dir gone with its machine) cannot know
///   the timestamps the lost one sent, and a device ignores a push below the last it saw. The
///   lost one sent at most `floor(t)` + its lead by wall time `t`; the replacement's first push,
///   at `t₁`, is `floor(t₁)` + the head start, and every later one is above it. So the
///   replacement is never below what the lost one could have sent by the same wall time while
///   the lost one's lead, melted until `t₁`, was within the head start: always at a game's own
///   pace but for a replacement that starts within a second of a lost one's burst (on every
///   recorded game, a replacement one second after any push is never below). A lost instance
///   that pushed faster than one a second for long (a feed replayed many times faster than real
///   time, a backlog rendered push by push) can lead by more. Not capped: a stamp is never
///   repeated, since a device may ignore it. The head start melts like any lead and is far below
///   the 8 hours after which devices drop a push; a restart that finds its checkpoint has the
///   activity's numbering and takes none.
/// - Every date a device reads (`aps.timestamp`, `stale-date`, `dismissal-date`,
///   `apns-expiration`, the game clock's `endsAt`) counts from the send: the engine's clock, or
///   today's wall clock under ``Configuration/pacing`` (a recording replayed against the real
///   clock). The record's `sentAt` stays the engine's clock.
/// - `apns-id` is ``RequestID/uuid(for:)``: a hash of the activity, `seq`, `sentAt` and the
///   request with its payload bytes, so a record retried keeps its id and no id names two bodies,
///   across instances that number from 1 again too (a configuration read from a checkpoint written
///   before this rule keeps ``RequestID/uuid(activity:seq:)``: see ``Configuration/requestIDs``).
/// - `apns-expiration`: token mode, send time + ``Configuration/expiration`` (1 hour) for
///   `start` and `update` (older news is not worth showing) and + 4 hours for `end` (the ended
///   activity stays on the lock screen that long, and a late `end` still removes a stale
///   score). Broadcast mode, `0` on a channel that stores nothing (Apple's advice for sports:
///   a push is delivered now or never), as token mode on one that keeps the latest message
///   (``Configuration/messageStorage``).
/// - Payloads are at most ``Configuration/payloadLimit`` bytes in each of their
///   ``PayloadSerialization``s (as sent, and as common senders re-serialize them); see `SizeGuard`.
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
        /// (Boxed, as refusals are rare: an output is then one reference wide, and an outbox of
        /// them moves and copies little.)
        indirect case refused(PushRefusal)
    }

    /// Token mode's `apns-topic`, the same on every request.
    private let topic: String
    /// The request's path, the same on every request.
    let path: String
    /// Where every `apns-id` of this activity starts (see ``RequestID/uuid(for:)``).
    private let requestIDKey: RequestID.RecordKey

    public init(attributes: GameAttributes, configuration: Configuration = Configuration()) {
        self.attributes = attributes
        self.configuration = configuration
        self.startPending = configuration.sendsStart
        topic = "\(configuration.bundleId).push-type.liveactivity"
        path = Self.path(configuration)
        let shared = [PushRecord.Request.Header(name: "apns-push-type", value: "liveactivity")]
            + (configuration.mode.isToken ? [PushRecord.Request.Header(name: "apns-topic", value: topic)] : [])
        requestIDKey = RequestID.RecordKey(
            activity: configuration.activity ?? attributes.gameId, method: "POST", path: path, headers: shared)
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
        // A final whose activity is still to start (a game met at its end, or one that came back
        // after it was called off, whose activity ended): a start with the final state goes first,
        // so devices show the final before the end takes it away. A game postponed or suspended
        // that never started is shown nothing.
        let startsForTheFinal = push.event == .end && state.phase == .final
        if startPending && (push.event == .update || startsForTheFinal) {
            // The start carries the present state (and the update's alert): the update itself,
            // and its copy, would only say it again. A device that never got the start has no
            // activity for an update to reach.
            // Before an end, the start is silent (its own alert says the final): the end alerts.
            let start = Push(
                event: .start, priority: 10, alert: startsForTheFinal ? nil : push.alert,
                reason: "push-to-start with the present state (\(push.reason))")
            let started = make(start, state: state, diff: diff, coalesced: coalesced, sentAt: sentAt, sourceTime: sourceTime)
            if case .push = started, !startsForTheFinal { return [started] }
            // A start too large even trimmed is reported; the update goes as decided.
            outputs.append(started)
        }
        outputs.append(make(push, state: state, diff: diff, coalesced: coalesced, sentAt: sentAt, sourceTime: sourceTime))
        // Android has no hidden budget to hedge: a HIGH message is delivered, so no copy follows.
        if push.priority5Copy && push.priority == 10 && configuration.platform == .ios {
            // Right behind it, with the next timestamp and the same state: a device that showed
            // the first shows nothing new; one whose budget dropped it shows this a delay later.
            let copy = Push(event: push.event, priority: 5, reason: Push.copyReason)
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

    /// The timestamp of a push sent at `moment`, in the platform's unit (`aps.timestamp`'s
    /// seconds, an Android message's milliseconds): past the last one, and with no earlier one
    /// (this instance cannot know what a lost one sent) put ``Configuration/headStart`` ahead. An
    /// iOS broadcast `update` is put the head start ahead every time: APNs drops a broadcast
    /// update whose timestamp is in the past (an `end` it does not), and a sender that takes
    /// seconds per request, or retries for a while, would deliver it so. A lost instance's
    /// broadcast stamps then led by the head start too, so a broadcast activity's first push
    /// leads by twice the head start.
    private func nextTimestamp(at moment: Date, event: Push.Event) -> Int {
        let perSecond = configuration.platform == .android ? 1000 : 1
        let sent = Int((moment.timeIntervalSince1970 * Double(perSecond)).rounded(.down))
        let headStart = (configuration.headStart ?? 0) * perSecond
        let broadcast = configuration.platform == .ios && !configuration.mode.isToken
        var lead = broadcast && event == .update ? headStart : 0
        if lastTimestamp == 0 { lead = broadcast ? 2 * headStart : headStart }
        return max(sent + lead, lastTimestamp + 1)
    }

    private mutating func make(
        _ push: Push, state: GameState, diff: Diff, coalesced: Int, sentAt: Date, sourceTime: Date?
    ) -> Output {
        if push.event != .update { startPending = false }
        // The dates a device reads: the engine's clock, or today's under a paced replay.
        let moment = configuration.pacing?.wall(sentAt) ?? sentAt
        let state = configuration.pacing?.shown(state, sentAt: sentAt, moment: moment) ?? state
        let timestamp = nextTimestamp(at: moment, event: push.event)
        if configuration.platform == .android {
            let output = android(
                push, priority: push.event == .update ? push.priority : 10, seq: seq + 1, timestamp: timestamp, moment: moment,
                state: state, diff: diff, coalesced: coalesced, sentAt: sentAt, sourceTime: sourceTime)
            if case .push = output {
                seq += 1
                lastTimestamp = timestamp
            }
            return output
        }
        let sent = Int(moment.timeIntervalSince1970.rounded(.down))
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
            // The device answers with the activity's update token (iOS 18+); the size guard
            // measures the payload with it.
            aps.inputPushToken = 1
            aps.alert = push.alert.map { alertText($0, state: state, now: moment) } ?? startAlert(state: state, now: moment)
        } else if let alert = push.alert, priority == 10 {
            aps.alert = alertText(alert, state: state, now: moment)
        }

        let guardrail = SizeGuard(limit: configuration.payloadLimit)
        func refusal(bytes: Int, _ error: ScoreFeedError) -> Output {
            self.refusal(push, priority: priority, sentAt: sentAt, sourceTime: sourceTime, bytes: bytes, error)
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
        let priorityText = priority == 10 ? "10" : priority == 5 ? "5" : String(priority)
        let expiration: String
        let lifetime = push.event == .end ? 4 * 3600 : Int(configuration.expiration)
        var channelId: String?
        switch configuration.mode {
        case .token:
            expiration = String(sent + lifetime)
        case .broadcast(let channel):
            channelId = channel
            // A channel that stores nothing delivers now or never; one that keeps the latest
            // message keeps it as long as a token-mode push would live.
            expiration = configuration.messageStorage == 0 ? "0" : String(sent + lifetime)
        }
        let id: String
        switch configuration.requestIDs {
        case .record:
            // RequestID.uuid(for:) of the record.
            id = requestIDKey.uuid(seq: seq, sentAt: sentAt, priority: priorityText, expiration: expiration, payload: fitted.payload)
        case .sequence:
            id = RequestID.uuid(activity: activity, seq: seq)
        }
        // The headers in name order, as the record keeps them. Apple's broadcast and channel APIs
        // name the request's UUID `apns-request-id`.
        typealias Header = PushRecord.Request.Header
        var headers: [Header] = []
        headers.reserveCapacity(6)
        if let channelId { headers.append(Header(name: "apns-channel-id", value: channelId)) }
        headers.append(Header(name: "apns-expiration", value: expiration))
        headers.append(Header(name: "apns-id", value: id))
        headers.append(Header(name: "apns-priority", value: priorityText))
        headers.append(Header(name: "apns-push-type", value: "liveactivity"))
        if configuration.mode.isToken {
            headers.append(Header(name: "apns-topic", value: topic))
        } else {
            headers.append(Header(name: "apns-request-id", value: id))
        }
        return .push(PushRecord(
            activity: activity, game: attributes.gameId, seq: seq, event: push.event, priority: priority,
            sentAt: sentAt, sourceTime: sourceTime, coalesced: coalesced,
            request: .init(path: path, ordered: headers), payload: fitted.payload,
            diff: Self.shown(diff, trimmed: fitted.trimmed, lastPlay: fitted.aps.contentState.lastPlay),
            reason: push.reason, state: fitted.aps.contentState, timestamp: timestamp, trimmed: fitted.trimmed))
    }

    /// `push` refused (over the payload limit even trimmed, or not encodable): a report for the
    /// sink, not a request, with no `seq`.
    func refusal(_ push: Push, priority: Int, sentAt: Date, sourceTime: Date?, bytes: Int, _ error: ScoreFeedError) -> Output {
        .refused(PushRefusal(
            activity: activity, game: attributes.gameId, event: push.event, priority: priority, sentAt: sentAt,
            sourceTime: sourceTime, reason: push.reason, bytes: bytes, limit: configuration.payloadLimit, error: error))
    }

    /// The record's diff as the pushed state shows it: a `lastPlay` the size guard trimmed is the
    /// trimmed text.
    static func shown(_ diff: Diff, trimmed: [String], lastPlay: String?) -> Diff {
        guard trimmed.contains("lastPlay"), let index = diff.changes.firstIndex(where: { $0.field == .lastPlay }) else { return diff }
        var shown = diff
        shown.changes[index].new = lastPlay.map { .text($0) } ?? .null
        return shown
    }

    /// The request's path in `configuration`'s mode.
    static func path(_ configuration: Configuration) -> String {
        if configuration.platform == .android { return androidPath(configuration) }
        switch configuration.mode {
        case .token: return "/3/device/{token}"
        case .broadcast: return "/4/broadcasts/apps/\(configuration.bundleId)"
        }
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
        case .final where state.phase == .postponed:
            // A game that never started: no score to give, and nothing urgent about it.
            return .init(title: "Postponed: \(away.tricode) at \(home.tricode)", body: "\(away.city) \(away.name) at \(home.city) \(home.name) will not be played today.", sound: nil)
        case .final where state.phase == .suspended:
            return .init(title: "Suspended: \(line)", body: "Play stopped in \(state.periodLabel); the score is not final.", sound: "default")
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
        case .postponed: body = "Postponed."
        case .suspended: body = "Suspended: \(line), \(state.periodLabel)."
        }
        return .init(title: title, body: body, sound: nil)
    }

    /// 0–100: higher for close games late, so the closest live game gets the Dynamic Island.
    public static func relevance(of state: GameState) -> Double {
        if state.phase == .final || state.phase.isCalledOff { return 10 }
        if state.phase == .pregame { return 20 }
        let periods = Double(min(state.period, 4))
        let progress = min(1, periods / 4)
        let closeness = max(0, 1 - Double(abs(state.margin)) / 20)
        return (20 + 30 * progress + 50 * closeness * progress).rounded()
    }
}

import Foundation
import ScoreFeedModel

/// Turns a decided push and the current state into a finished APNs request. Pure value type:
/// it keeps the activity's `seq` and last `aps.timestamp` so both strictly increase.
public struct PushRenderer: Sendable {
    /// How requests are addressed and how long they live.
    public struct Configuration: Hashable, Sendable {
        /// The app's bundle id; the topic is `<bundleId>.push-type.liveactivity`.
        public var bundleId: String
        /// The activity id in records; defaults to the game id.
        public var activity: String?
        /// `stale-date` = send time + this (the widget shows the data as stale after it).
        public var staleAfter: TimeInterval
        /// `apns-expiration` = send time + this for updates; APNs drops an undelivered push after it.
        public var expiration: TimeInterval
        /// `dismissal-date` on `end` = send time + this, at most 4 hours.
        public var dismissAfter: TimeInterval
        /// The APNs limit for one device push.
        public var payloadLimit: Int

        public init(
            bundleId: String = "com.example.app", activity: String? = nil, staleAfter: TimeInterval = 300,
            expiration: TimeInterval = 3600, dismissAfter: TimeInterval = 900, payloadLimit: Int = 4096
        ) {
            self.bundleId = bundleId
            self.activity = activity
            self.staleAfter = staleAfter
            self.expiration = expiration
            self.dismissAfter = min(dismissAfter, 4 * 3600)
            self.payloadLimit = payloadLimit
        }
    }

    public let attributes: GameAttributes
    public let configuration: Configuration
    /// The last `seq` rendered (0 before the first).
    public private(set) var seq = 0
    /// The last `aps.timestamp` rendered.
    public private(set) var lastTimestamp = 0

    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    public init(attributes: GameAttributes, configuration: Configuration = Configuration()) {
        self.attributes = attributes
        self.configuration = configuration
    }

    /// Renders `push` of `state`. The `aps.timestamp` is the send second, or one more than the
    /// previous timestamp when several pushes fall in the same second.
    public mutating func render(
        _ push: Push, state: GameState, diff: Diff, coalesced: Int, sentAt: Date, sourceTime: Date?
    ) throws(ScoreFeedError) -> PushRecord {
        let sent = Int(sentAt.timeIntervalSince1970.rounded(.down))
        let timestamp = max(sent, lastTimestamp + 1)
        let activity = configuration.activity ?? attributes.gameId
        var aps = APNsPayload.APS(
            timestamp: timestamp, event: push.event.rawValue, contentState: state,
            relevanceScore: Self.relevance(of: state))
        if push.event == .end {
            aps.dismissalDate = sent + Int(configuration.dismissAfter)
        } else {
            aps.staleDate = sent + Int(configuration.staleAfter)
        }
        if let alert = push.alert, push.priority == 10 {
            aps.alert = alertText(alert, state: state, now: sentAt)
        }
        var shown = state
        var payload = try encode(aps)
        // Size guard: drop the least important text first, then refuse.
        if payload.count > configuration.payloadLimit {
            shown.lastPlay = nil
            aps.contentState = shown
            payload = try encode(aps)
        }
        if payload.count > configuration.payloadLimit, let alert = aps.alert {
            aps.alert = APNsPayload.Alert(title: String(alert.title.prefix(60)), body: String(alert.body.prefix(120)), sound: alert.sound)
            payload = try encode(aps)
        }
        guard payload.count <= configuration.payloadLimit else {
            throw ScoreFeedError(
                .payloadTooLarge,
                "payload of \(payload.count) bytes exceeds \(configuration.payloadLimit) even after trimming; not sent")
        }
        seq += 1
        lastTimestamp = timestamp
        let expiration = push.event == .end ? sent + 4 * 3600 : sent + Int(configuration.expiration)
        let headers = [
            "apns-push-type": "liveactivity",
            "apns-topic": "\(configuration.bundleId).push-type.liveactivity",
            "apns-priority": String(push.priority),
            "apns-expiration": String(expiration),
            "apns-id": RequestID.uuid(activity: activity, seq: seq),
        ]
        return PushRecord(
            activity: activity, game: attributes.gameId, seq: seq, event: push.event, priority: push.priority,
            sentAt: sentAt, sourceTime: sourceTime, coalesced: coalesced,
            request: .init(path: "/3/device/{token}", headers: headers), payload: payload, diff: diff,
            reason: push.reason, state: shown, timestamp: timestamp)
    }

    private func encode(_ aps: APNsPayload.APS) throws(ScoreFeedError) -> Data {
        do {
            return try encoder.encode(APNsPayload(aps: aps))
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

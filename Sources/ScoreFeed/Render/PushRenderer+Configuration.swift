import Foundation

extension PushRenderer {
    /// Which lock screen the requests are for (APNs or FCM), how they are addressed (token or
    /// broadcast), how long they live and how big they may be.
    public struct Configuration: Hashable, Sendable, Codable {
        /// The app's bundle id: the topic is `<bundleId>.push-type.liveactivity` in token mode, the
        /// path is `/4/broadcasts/apps/<bundleId>` in broadcast mode.
        public var bundleId: String
        /// The activity id in records; defaults to the game id.
        public var activity: String?
        /// Per-device pushes or one broadcast to a channel (iOS 18+), or to a game's FCM topic.
        public var mode: Mode
        /// iOS (APNs Live Activity requests, the default) or Android (FCM HTTP v1 data messages).
        public var platform: Platform {
            get { platformOption ?? .ios }
            set { platformOption = newValue == .ios ? nil : newValue }
        }
        /// Nil for iOS, so an iOS configuration is saved as before platforms existed.
        private var platformOption: Platform?
        /// Android: the Firebase project in the request's path; nil keeps the literal `{project}`
        /// for the sender to fill in.
        public var fcmProject: String?
        /// Token mode only: send a push-to-start (`event: start`, iOS 17.2+) before the first update,
        /// so devices without the activity get one. Broadcast pushes cannot start an activity;
        /// ``validate()`` reports that combination and the renderer never emits a start in it.
        public var start: Bool
        /// `stale-date` = send time + this (the widget shows the data as stale after it).
        public var staleAfter: TimeInterval
        /// Token mode: `apns-expiration` = send time + this for `start` and `update`; APNs drops an
        /// undelivered push after it. (`end` lives 4 hours; broadcast pushes always carry 0.)
        public var expiration: TimeInterval
        /// `dismissal-date` on `end` = send time + this, at most 4 hours (the renderer caps it).
        public var dismissAfter: TimeInterval
        /// The most payload bytes a push may have: 4096 per device push, 5120 per broadcast push
        /// (the mode's own unless set). Longer text is trimmed, then the push is refused. On
        /// Android it bounds FCM's data (its keys and values): 4096 bytes, 2048 to a topic.
        public var payloadLimit: Int {
            get { payloadLimitOverride ?? (platform == .android ? (mode.isToken ? 4096 : 2048) : mode.payloadLimit) }
            set { payloadLimitOverride = newValue }
        }
        private var payloadLimitOverride: Int?
        /// Broadcast mode: the channels' message-storage policy, the one setting of it. 0 (stores
        /// nothing, Apple's advice for sports) gives `apns-expiration: 0`; 1 gives the token-mode
        /// expiration. A channel ScoreFeed creates is made with it; a header's channel is taken
        /// to have it.
        public var messageStorage = 0
        /// Broadcast mode with a channel per game: seconds a channel ScoreFeed made stays after
        /// the game's `end` was delivered, before it is deleted (``defaultChannelLinger``). It is
        /// saved with the game, so a journal is applied under the linger it was written with;
        /// a resumed game then takes today's.
        public var channelLinger: TimeInterval {
            get { lingerOption ?? Self.defaultChannelLinger }
            set { lingerOption = newValue }
        }
        /// Nil until set (so a configuration that keeps the default is saved as before it existed;
        /// a checkpoint from then has the linger beside the configuration).
        var lingerOption: TimeInterval?
        /// Seconds the first `aps.timestamp` of an activity with no earlier timestamp (a game new
        /// to this instance: no state dir, a fresh one, a lost checkpoint) is put ahead of its
        /// send second, so that it is not below any timestamp a lost instance could have sent
        /// for the activity (see ``PushRenderer``'s timestamp rule); an iOS broadcast activity's
        /// first push twice that, and each of its updates at least this much ahead (APNs drops a
        /// broadcast update stamped in the past). Nil (the default) is none: replay and the feed
        /// clock stamp the recorded times; a ``GameService`` on the system clock sets
        /// ``failoverHeadStart``.
        public var headStart: Int?
        /// A recording replayed against the real clock: the dates a device reads are put on the
        /// wall clock (``Pacing``). Nil (the default): they are the engine's clock, today's in
        /// production and the recorded times in instant replay (tests and measures).
        public var pacing: Pacing?
        /// How the pushes' ids are made: ``RequestID/Rule/record`` (every configuration made by
        /// this version), or ``RequestID/Rule/sequence`` for one read from a checkpoint written
        /// before the rule existed (the records its journal makes again keep the ids they had).
        public var requestIDs: RequestID.Rule {
            get { requestIDRule ?? .sequence }
            set { requestIDRule = newValue }
        }
        private var requestIDRule: RequestID.Rule? = .record

        public init(
            bundleId: String = "com.example.app", activity: String? = nil, mode: Mode = .token, start: Bool = false,
            staleAfter: TimeInterval = 300, expiration: TimeInterval = 3600, dismissAfter: TimeInterval = 900,
            payloadLimit: Int? = nil
        ) {
            self.bundleId = bundleId
            self.activity = activity
            self.mode = mode
            self.start = start
            self.staleAfter = staleAfter
            self.expiration = expiration
            self.dismissAfter = dismissAfter
            payloadLimitOverride = payloadLimit
        }

        /// 120 s: with storage policy 0 a broadcast is delivered at once or never, so two minutes
        /// lets APNs finish fanning out the `end` with room to spare, frees the slot well before
        /// the 10,000 cap matters, and fits inside `serve`'s 600 s drain, so the last game's
        /// channel is deleted before `serve` exits.
        public static let defaultChannelLinger: TimeInterval = 120

        /// Apple removes an ended activity at most 4 hours after its `end`.
        public static let maximumDismissal: TimeInterval = 4 * 3600

        /// The ``headStart`` of a ``GameService`` on the system clock: 60 seconds, far above the
        /// largest lead a run's timestamps take over the clock by their own pace (2 s on every
        /// real game and fixture, token and broadcast mode, with and without push-to-start; iOS
        /// broadcast updates lead by the head start on top), far below the 8 hours after which a
        /// device drops a push.
        public static let failoverHeadStart = 60

        /// Whether the push-to-start is actually sent (token mode only); on Android every activity
        /// begins with its `start`, in both modes (the app posts its notification on it).
        public var sendsStart: Bool { platform == .android || (start && mode.isToken) }

        /// Whether each game has a broadcast channel of its own that ScoreFeed keeps (iOS
        /// broadcast mode without a channel id): an FCM topic needs no channel, devices
        /// subscribe to it by name.
        public var hasChannelPerGame: Bool { platform == .ios && mode.isPerGame }

        /// Android broadcast mode: the FCM topic of the game, `game-` and the game id as in file
        /// names (``GameID/fileStem(_:)``: the NBA's ids as they are, any other byte `%XX`, all
        /// within FCM's topic characters), the name the app subscribes to.
        public static func topic(of gameId: String) -> String {
            "game-" + GameID.fileStem(gameId)
        }

        /// Checks combinations APNs would refuse: push-to-start in broadcast mode, an empty
        /// channel id or bundle id.
        public func validate() throws(ScoreFeedError) {
            if bundleId.isEmpty { throw ScoreFeedError(.invalidValue, "the bundle id is empty") }
            if case .broadcast(let channelId) = mode {
                if let channelId, channelId.isEmpty { throw ScoreFeedError(.invalidValue, "broadcast mode needs a channel id") }
                if start {
                    throw ScoreFeedError(
                        .invalidValue,
                        "broadcast pushes cannot start a Live Activity; push-to-start needs token mode")
                }
            }
        }
    }

    /// The lock screen a push is for.
    public enum Platform: String, Hashable, Sendable, Codable, CaseIterable {
        /// Live Activities through APNs (the push record of DESIGN.md, byte for byte as before).
        case ios
        /// Android Live Updates through FCM HTTP v1 data messages (`"platform": "android"`).
        case android
    }

    /// How APNs addresses the push.
    public enum Mode: Hashable, Sendable, Codable {
        /// One request per device: `POST /3/device/{token}` with `apns-topic`. The sender fills in
        /// the activity's push token (for `start`: the app's push-to-start token).
        case token
        /// One request per activity for every subscriber of a channel (iOS 18+):
        /// `POST /4/broadcasts/apps/<bundleId>` with `apns-channel-id` and `apns-expiration: 0`.
        /// A nil channel id is ``broadcastPerGame``, the name the code uses for it.
        case broadcast(channelId: String?)

        /// Broadcast mode with each game on its own channel, stamped on its pushes by its session
        /// when they leave (``BroadcastChannel``).
        public static var broadcastPerGame: Mode { .broadcast(channelId: nil) }

        /// Whether this is ``token`` (read by a match, not by comparing modes: every push asks).
        public var isToken: Bool {
            if case .token = self { true } else { false }
        }

        /// Whether this is ``broadcastPerGame``.
        public var isPerGame: Bool {
            if case .broadcast(channelId: nil) = self { true } else { false }
        }

        /// APNs' payload limit: 4096 bytes per device push, 5120 per broadcast push.
        public var payloadLimit: Int {
            switch self {
            case .token: return 4096
            case .broadcast: return 5120
            }
        }

        /// `token` or `broadcast`, as the CLI spells it.
        public var name: String {
            switch self {
            case .token: return "token"
            case .broadcast: return "broadcast"
            }
        }
    }
}

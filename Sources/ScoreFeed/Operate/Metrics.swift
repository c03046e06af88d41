import Foundation

/// The figures `serve` and `poll` expose with `--metrics`, in one pure value: what the games
/// have done (read from their sessions), what the sink, the checkpoints and the poller did
/// (observed by a ``MetricsRecorder``), at one moment. ``exposition()`` writes it in the
/// Prometheus text format.
public struct Metrics: Hashable, Sendable {
    /// One game's series.
    public struct Game: Hashable, Sendable {
        public var id: String
        /// Events by verdict: `applied`, `duplicate`, `edit`, `rejected`.
        public var events: [String: Int]
        /// Pushes handed to the sink, by ``PushKind``.
        public var pushes: [PushKind: Int]
        /// Priority-10 pushes in the rolling hour (within the assumed budget and beyond it), of
        /// the first lane.
        public var budgetUsed: Int
        /// The same for each other lane (`--platform ios,android`: `android`'s `HIGH` messages),
        /// by platform.
        public var otherLanesBudgetUsed: [String: Int] = [:]
        /// Priority-10 pushes handed to the sink beyond the assumed budget.
        public var beyondBudget: Int
        /// Times the feed's running score corrected the fold's.
        public var corrections: Int
        /// Copies of the game's feed ignored as older than one already seen (a stale CDN edge's).
        public var staleCopies: Int

        public init(
            id: String, events: [String: Int] = [:], pushes: [PushKind: Int] = [:], budgetUsed: Int = 0, beyondBudget: Int = 0,
            corrections: Int = 0, staleCopies: Int = 0
        ) {
            self.id = id
            self.events = events
            self.pushes = pushes
            self.budgetUsed = budgetUsed
            self.beyondBudget = beyondBudget
            self.corrections = corrections
            self.staleCopies = staleCopies
        }
    }

    /// A push's priority and event, and its platform when it is not iOS: the labels of
    /// `scorefeed_pushes_total` (an iOS series has no `platform` label, as before Android).
    public struct PushKind: Hashable, Sendable, Comparable {
        public var priority: Int
        public var event: String
        /// `android`, or nil for iOS.
        public var platform: String?

        public init(priority: Int, event: String, platform: String? = nil) {
            self.priority = priority
            self.event = event
            self.platform = platform
        }

        public static func < (a: PushKind, b: PushKind) -> Bool {
            (a.platform ?? "", a.priority, a.event) < (b.platform ?? "", b.priority, b.event)
        }
    }

    /// A poll request's endpoint and outcome (`200`, `304`, or the error: an HTTP status, or a
    /// kind such as `timeout`, `no-answer`, `malformed-json`).
    public struct PollRequest: Hashable, Sendable, Comparable {
        public var endpoint: String
        public var outcome: String

        public init(endpoint: String, outcome: String) {
            self.endpoint = endpoint
            self.outcome = outcome
        }

        public static func < (a: PollRequest, b: PollRequest) -> Bool { (a.endpoint, a.outcome) < (b.endpoint, b.outcome) }
    }

    /// A histogram with fixed upper bounds: counts per bucket (the last one past every bound),
    /// the sum and the count of what was observed.
    public struct Histogram: Hashable, Sendable {
        public private(set) var bounds: [Double]
        /// Observations per bucket, not cumulative; one more than ``bounds`` (the `+Inf` bucket).
        public private(set) var counts: [Int]
        public private(set) var sum = 0.0

        public init(bounds: [Double]) {
            self.bounds = bounds.sorted()
            counts = Array(repeating: 0, count: bounds.count + 1)
        }

        public var count: Int { counts.reduce(0, +) }

        /// Counts `value` in the first bucket whose bound it does not exceed.
        public mutating func observe(_ value: Double) {
            guard value.isFinite else { return }
            counts[bounds.firstIndex { value <= $0 } ?? bounds.count] += 1
            sum += value
        }
    }

    /// Bounds of `scorefeed_feed_to_push_seconds`: a priority 10 goes in a second or two, a held
    /// priority 5 up to a few minutes later.
    public static let feedToPushBounds: [Double] = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600]
    /// Bounds of `scorefeed_checkpoint_write_seconds`: an append is microseconds, an fsync
    /// milliseconds, a slow disk more.
    public static let checkpointWriteBounds: [Double] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1]
    /// Bounds of `scorefeed_deadline_lateness_seconds`: a deadline is handled when it comes due, a
    /// busy host's timer a few milliseconds after; anything past a second is a push held longer
    /// than its policy chose.
    public static let deadlineLatenessBounds: [Double] = [0.001, 0.01, 0.1, 1, 5, 10, 30, 60]
    /// The game states of `scorefeed_games`, always all written (zero when none).
    public static let gameStates = ["pregame", "live", "ended"]
    /// How long an ended game's series stay after its end was delivered (first seen delivered
    /// by a metrics write): long enough for a scrape or two to see its last figures, short enough
    /// that the file stays small through a night of thousands of games.
    public static let endedGameRetention: TimeInterval = 15 * 60

    /// `scorefeed_build_info{version}`.
    public var version: String
    public var games: [Game] = []
    /// Games by state (``gameStates``), ended games past their retention included.
    public var gamesByState: [String: Int] = [:]
    /// Ended games by how they ended (``endings``): with their final, or called off (postponed,
    /// today's scoreboard's postponed games that were never followed included, or suspended).
    public var gamesEnded: [String: Int] = [:]
    /// How a game can end: `final`, `postponed`, `suspended`.
    public static let endings = ["final", "postponed", "suspended"]
    public var feedToPush = Histogram(bounds: Metrics.feedToPushBounds)
    /// Sink errors by kind: the error's code when the sink threw (a write to stdout or `--out`
    /// failing), `unavailable` for a webhook attempt that failed, `rejected` for a record the
    /// receiver refused for good.
    public var sinkErrors: [String: Int] = [:]
    /// Records rendered and not yet delivered: the games' outboxes and the webhook's queue.
    public var sinkBacklog = 0
    /// The backlog by why it waits: `checkpoint` (the game's checkpoint cannot be written, so its
    /// pushes are withheld until it can), `channel` (broadcast: the game has no channel yet) or
    /// `sink` (the sink failed, or has not taken them yet).
    public var withheld: [String: Int] = [:]
    /// The causes ``withheld`` names, each written even at 0.
    public static let withholdingCauses = ["checkpoint", "channel", "sink"]
    public var checkpointWrite = Histogram(bounds: Metrics.checkpointWriteBounds)
    /// How long after it came due each game's deadline (a held push, a catch-up's decision, a
    /// channel's linger) was acted on, on the game's clock. Deadlines that passed while no
    /// instance ran (before a restart) are not counted: they are the restart's; nor those that
    /// passed while the game's checkpoint could not be written (nothing could go before a write
    /// succeeded: the engine waits for the write's retry). One that came due while the game's
    /// own delivery was under way counts from that delivery's end (what it decides goes after
    /// the pushes ahead of it, whenever it is decided).
    public var deadlineLateness = Histogram(bounds: Metrics.deadlineLatenessBounds)
    public var checkpointErrors = 0
    public var pollRequests: [PollRequest: Int] = [:]
    /// Nil unless polling: the longest time, across the games being polled, since a game's
    /// play-by-play last answered (200 or 304).
    public var pollLag: Double?

    public init(version: String = ScoreFeedBuild.version) {
        self.version = version
    }
}

/// What this build is.
public enum ScoreFeedBuild {
    /// The version `scorefeed_build_info` reports.
    public static let version = "0.23.0"
}

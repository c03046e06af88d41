import Foundation
import ScoreFeedModel

/// Runs many games at once from one stream of lines (or pollers): routes each event to its game's
/// ``MatchEngine``, fires held pushes on time, and lets each engine checkpoint its game so a
/// restart resumes where it stopped.
///
/// What a game has applied lives in its ``GameSession`` alone (inside the engine, and in its
/// checkpoint). What spans the games (their order, the wake-up heap, the open batch and the games
/// it touched, the channel board, the counters) is one value, `ServiceState`, decided without an
/// await; this actor keeps it and the engines, and carries out what it decides. ``LiveService``
/// runs it live (its timer, drain and shutdown).
/// Identity is not order: an event already applied is ignored at any distance, and a feed in
/// its own order is never rejected for it. By concern: `+Lines` (serve's input and its
/// group commit), `+Feed` (events, snapshots, scores, call-offs), `+Timers` (deadlines, the drain,
/// summaries), `+Channels`, `+Restore`.
public actor GameService {
    /// Where the engines' time comes from.
    public enum ClockMode: String, Sendable {
        /// The real clock: held pushes go out on time even when no event arrives.
        case system
        /// Each game's own feed time, as in replay: deterministic, for recorded streams and tests.
        case feed
    }

    public struct Options: Sendable {
        public var clock: ClockMode
        public var coalescer: Coalescer.Configuration
        public var renderer: PushRenderer.Configuration
        /// The platforms each game is pushed to besides ``renderer``'s, each under its own policy
        /// (`--platform ios,android`: the Android lane, ``PlatformLane/Options/android(beside:project:)``).
        public var otherLanes: [PlatformLane.Options] = []
        /// Checkpoints go here; nil runs without them.
        public var stateDirectory: URL?
        /// What the state directory's disk fails every write with now (``CheckpointStore/DiskFault``):
        /// the simulator's; nil live.
        public var diskFault: CheckpointStore.DiskFault?
        /// Told of each change to the state directory a crash would leave
        /// (``CheckpointStore/DiskStep``): the simulator's, to kill inside a commit; nil live.
        public var diskStep: CheckpointStore.DiskStep?
        /// Told of what reached the disk for good (``CheckpointStore/Durable``): the simulator's,
        /// to cut the power; nil live.
        public var durable: CheckpointStore.Durable?
        /// Broadcast mode with a channel per game (``PushRenderer/Mode/broadcastPerGame``): where
        /// each game's channel comes from, the cap, and what to do with channels no game owns.
        public var channels: ChannelManagement
        /// Told what only the live code sees (feed-to-push times, checkpoint writes, sink errors),
        /// for `--metrics`; nil: nothing is measured.
        public var metrics: MetricsRecorder?
        /// The wall clock: what ``ClockMode/system`` engines read, and what the service's timer,
        /// drain and channel settling read and sleep on (a channel's creation time too, in either
        /// mode). ``SystemClock`` live; a ``SimulatedClock`` runs a live day on virtual time.
        public var wallClock: any EngineClock
        /// Seconds a catch-up's decision waits for the rest of its backlog when `serve` reads it
        /// in parts (see ``GameSession/endArrival(now:settling:)``); 0 decides each part at once.
        /// On the system clock only: on feed time each event is its own moment.
        public var catchUpWindow: TimeInterval = Self.defaultCatchUpWindow

        /// Half a second: a backlog's parts come microseconds to milliseconds apart (a pipe's
        /// 64 KB, a relay's writes), a live game's lines seconds apart, and a lock screen waits
        /// seconds for APNs anyway.
        public static let defaultCatchUpWindow: TimeInterval = 0.5

        public init(
            clock: ClockMode = .system, coalescer: Coalescer.Configuration = .standard,
            renderer: PushRenderer.Configuration = .init(), stateDirectory: URL? = nil,
            channels: ChannelManagement = .init(), metrics: MetricsRecorder? = nil, wallClock: any EngineClock = SystemClock()
        ) {
            self.wallClock = wallClock
            self.clock = clock
            self.coalescer = coalescer
            self.renderer = renderer
            self.stateDirectory = stateDirectory
            self.channels = channels
            self.metrics = metrics
        }

        /// Whether each game sends on its own channel (one of its lanes does: iOS broadcast).
        var perGameChannels: Bool { channelRenderer != nil }

        /// The renderer of the lane that sends on the games' channels, if one does.
        var channelRenderer: PushRenderer.Configuration? {
            renderer.hasChannelPerGame ? renderer : otherLanes.first { $0.renderer.hasChannelPerGame }?.renderer
        }

        /// Every lane's options, the first's first.
        public var lanes: [PlatformLane.Options] {
            [PlatformLane.Options(renderer: renderer, policy: coalescer)] + otherLanes
        }
    }

    /// What the service has read.
    public struct Counters: Hashable, Sendable {
        public var lines = 0
        public var headers = 0
        public var events = 0
        public var badLines = 0
        public var unknownGame = 0
        public var resumedGames = 0
    }

    /// What the service needs from an engine after handing it an event or a tick, gathered on
    /// the engine's executor so that it takes one actor hop instead of one per question.
    struct EngineStatus: Sendable {
        /// When the engine wants to be called next (``MatchEngine/wakeUp``).
        var deadline: Date?
        var checkpointFailure: ScoreFeedError?
        /// The game's channel, what APNs' answers did to it since the last status, whether its
        /// pushes wait for want of one, and whether channel work waits on the sink: for the board
        /// (``ChannelBoard/reported(_:_:news:holding:workWaits:now:)``).
        var channel: BroadcastChannel
        var news: [BroadcastChannel.Outcome]
        var holding: Bool
        var workWaits: Bool
        /// The deadline is a catch-up's wait for its next part (``GameSession/settling``).
        var waitsForParts: Bool
        /// The sink failed (the output stays in the outbox for the next call).
        var sinkFailure: (any Error)?

        /// What the service needs from `engine` now.
        static func of(_ engine: isolated MatchEngine) -> EngineStatus {
            EngineStatus(
                deadline: engine.wakeUp, checkpointFailure: engine.checkpointFailure, channel: engine.channel,
                news: engine.takeChannelNews(), holding: engine.isHolding, workWaits: engine.channelWorkWaits,
                waitsForParts: engine.waitsForParts)
        }
    }

    nonisolated let options: Options
    let sink: any PushSink
    nonisolated let store: CheckpointStore?
    /// The state directory's identity (``CheckpointStore/identity()``), or without one a random
    /// one for this run: the owner of the channels this service creates (``BroadcastChannel/owner``).
    public nonisolated let identity: String
    /// The games' journals (with a state directory): bytes written and syncs made, for figures.
    public nonisolated var journal: Journal? { store?.journal }
    /// The wall clock (``Options/wallClock``).
    nonisolated var wallClock: any EngineClock { options.wallClock }
    /// Each game's engine, by id: the only thing the service keeps per game.
    var engines: [String: MatchEngine] = [:]
    /// Everything else that spans the games, decided without an await (see ``ServiceState``).
    var state: ServiceState
    /// Where messages for people go (channel news, held games); serve and poll print them.
    let report: @Sendable (String) -> Void
    /// What the service has read.
    public var counters: Counters { state.counters }
    /// The moment the timer (``runTimer()``) sleeps until, while it sleeps.
    var timerTarget: Date?
    /// Wakes the timer before ``timerTarget``.
    let timerWakeUp = WakeUp()

    /// `report` receives lines for people about the games' channels (created, deleted, refused,
    /// pushes held for want of one).
    public init(
        options: Options, sink: any PushSink, report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ScoreFeedError) {
        var options = options
        // On the system clock a game new to this instance may follow a lost one's timestamps.
        if options.clock == .system, options.renderer.headStart == nil {
            options.renderer.headStart = PushRenderer.Configuration.failoverHeadStart
            for lane in options.otherLanes.indices where options.otherLanes[lane].renderer.headStart == nil {
                options.otherLanes[lane].renderer.headStart = PushRenderer.Configuration.failoverHeadStart
            }
        }
        self.options = options
        self.sink = sink
        self.report = report
        state = ServiceState(board: ChannelBoard(perGame: options.perGameChannels, management: options.channels))
        store = try options.stateDirectory.map { url throws(ScoreFeedError) in try CheckpointStore(directory: url, diskFault: options.diskFault, diskStep: options.diskStep, durable: options.durable) }
        identity = try store?.identity() ?? UUID().uuidString
    }

    /// Starts following a game (a header, or a poller that knows its teams); a game already known
    /// is kept. In broadcast mode with a channel per game, a game with no channel yet gets one:
    /// `channel` (the header's, made by your backend) or, with ``ChannelManagement/manage``, one
    /// created now, within ``ChannelManagement/maxChannels``.
    public func start(_ attributes: GameAttributes, channel: String? = nil) async {
        let id = attributes.gameId
        if engines[id] == nil { add(id, makeEngine(attributes: attributes)) }
        await setUpChannel(id, header: channel)
    }

    /// A game that is about to start (today's scoreboard, before its play-by-play exists): with
    /// ScoreFeed managing channels in broadcast mode it starts now, so its channel is made ahead
    /// of tip-off and the app can subscribe; otherwise it starts with its first events. Returns
    /// whether it started now.
    public func announce(_ attributes: GameAttributes) async -> Bool {
        guard options.perGameChannels, options.channels.manage, engines[attributes.gameId] == nil else { return false }
        await start(attributes)
        return true
    }

    /// Whether the game is known (from a header, a checkpoint or ``start(_:channel:)``).
    public func knows(_ game: String) -> Bool { engines[game] != nil }

    // MARK: - Internals

    func add(_ id: String, _ engine: MatchEngine) {
        if engines[id] == nil { state.add(id) }
        engines[id] = engine
    }

    func makeEngine(attributes: GameAttributes) -> MatchEngine {
        let clock = makeClock(at: Date(timeIntervalSince1970: 0))
        var policy = Coalescer(configuration: options.coalescer)
        // (Spelling a path costs more than a lookup: only when a checkpoint was lost.)
        let lost = state.lostCheckpoints.isEmpty ? nil : store.flatMap {
            state.lostCheckpoints.removeValue(forKey: $0.url(for: attributes.gameId).standardizedFileURL.path)
                ?? state.lostCheckpoints.removeValue(forKey: $0.legacyURL(for: attributes.gameId).standardizedFileURL.path)
        }
        // Apple drops the priority 10s past an activity's hourly budget, which the lost checkpoint
        // counted: the hour's is taken as spent. FCM drops no HIGH message for want of one: an
        // Android lane goes on as before (its final HIGH, with its alert).
        if lost != nil, options.renderer.platform == .ios { policy.assumeBudgetSpent(at: nil) }
        var session = GameSession(attributes: attributes, policy: policy, renderer: options.renderer, now: clock.now)
        for lane in options.otherLanes {
            var policy = Coalescer(configuration: lane.policy)
            if lost != nil, lane.renderer.platform == .ios { policy.assumeBudgetSpent(at: nil) }
            session.addLane(policy: policy, renderer: lane.renderer)
        }
        // A game started afresh on a lost checkpoint counts its creates from zero again: its
        // creates are another owner's, or a sender that deduplicates by `apns-request-id` would
        // answer its first with the channel the lost checkpoint's first create made, deleted
        // since. (Named by where the numbering goes on: the same for a create sent again after
        // a restart of this run, another after a later loss once a push has gone.)
        if options.perGameChannels { session.claimChannel(for: lost.map { "\(identity)/after-\($0.seq)" } ?? identity) }
        if let lost { session.continueNumbering(after: lost.seq, lastTimestamp: lost.lastTimestamp) }
        return MatchEngine(
            session: session, clock: clock, sink: sink, checkpoints: store, wallClock: wallClock, metrics: options.metrics)
    }

    /// A new engine's clock: the wall clock, or on feed time a clock of its own (the engine
    /// moves it) starting at `start`.
    func makeClock(at start: Date) -> any EngineClock {
        options.clock == .feed ? ManualClock(start) : wallClock
    }

    /// Takes in what an engine said after a call: its next deadline, and its channel for the
    /// board, whose decisions (``ChannelBoard/reported(_:_:news:holding:workWaits:now:)``) are carried out at once.
    func absorb(_ id: String, _ status: EngineStatus) async {
        await absorb([(id, status)])
    }

    /// ``absorb(_:_:)`` of statuses gathered together (the games of a batch, side by side): the
    /// board takes all of them before any of its decisions is carried out, so none is taken in
    /// after a newer one a set-up's await let in.
    func absorb(_ statuses: [(game: String, status: EngineStatus)]) async {
        await carry(statuses.flatMap { take($0.game, $0.status) })
    }

    /// Takes in game `id`'s status without an await: its deadline into the wake-up heap, its
    /// channel into the board. Returns the board's decisions, for ``carry(_:)``.
    func take(_ id: String, _ status: EngineStatus) -> [ChannelBoard.Action] {
        state.note(id, waitsForParts: status.waitsForParts)
        schedule(id, status.deadline)
        return state.board.reported(
            id, status.channel, news: status.news, holding: status.holding, workWaits: status.workWaits, now: wallClock.now)
    }

    /// The message for a sink that failed on game `id`'s push. A reader of standard output that
    /// went away keeps its code: the run says that once, not once per line it still had.
    static func sinkFailed(_ id: String, _ error: any Error, at location: ScoreFeedError.Location = .init()) -> ScoreFeedError {
        let code: ScoreFeedError.Code = (error as? ScoreFeedError)?.code == .readerGone ? .readerGone : .io
        return ScoreFeedError(code, "game \(id): the sink failed: \(error)", at: location)
    }

    /// A checkpoint failure of game `id`, reported once per game.
    func checkpointProblem(_ id: String, _ failure: ScoreFeedError?) -> ScoreFeedError? {
        guard let failure, state.firstSaying(checkpointFailureOf: id) else { return nil }
        return Self.checkpointProblem(of: id, failure)
    }

    /// How a checkpoint failure of game `id` is said (``isCheckpointProblem(_:)`` tells it apart).
    static func checkpointProblem(of id: String, _ failure: ScoreFeedError) -> ScoreFeedError {
        var problem = failure
        problem.message = "game \(id): \(checkpointProblemWords) (\(failure.message)); a restart would lose what it applied since"
        return problem
    }

    /// Whether `error` says a game's checkpoint could not be written (``checkpointProblem(of:_:)``):
    /// the simulator tells the host's failures by it.
    static func isCheckpointProblem(_ error: ScoreFeedError) -> Bool {
        error.code == .io && error.message.contains(checkpointProblemWords)
    }

    private static let checkpointProblemWords = "cannot write its checkpoint"

    /// Makes sure the game is woken at `deadline` (system clock; see
    /// ``ServiceState/schedule(_:_:)``), waking the timer when it sleeps past it.
    func schedule(_ id: String, _ deadline: Date?) {
        guard options.clock == .system, let deadline, engines[id] != nil, state.schedule(id, deadline) else { return }
        wakeTimer(before: deadline)
    }
}

import Foundation
import ScoreFeedModel

/// One game's engine: the actor that drives a ``GameSession`` (the pure value that validates,
/// folds, decides and renders) on an injected clock, checkpoints it, and empties its outbox into
/// the sink. One actor per game.
///
/// Every call commits the session (and writes its checkpoint, with a store) before it awaits the
/// sink, so another call running during the await sees the state it left, and a crash loses
/// nothing the checkpoint does not also hold: pushes rendered but not yet sent are in the
/// checkpoint's outbox and go out, byte for byte, after a restart. One call at a time empties
/// the outbox, so records reach the sink in `seq` order.
public actor MatchEngine {
    public nonisolated let attributes: GameAttributes
    private let clock: any EngineClock
    /// The clock when it is feed time (a ``ManualClock``): the engine moves it itself, to each
    /// event's time and each deadline's, so that no caller holds it too.
    private let feedTime: ManualClock?
    private let sink: any PushSink
    private let store: CheckpointStore?
    /// The game. Changed in place at every line and push; the actor keeps any other call out
    /// meanwhile, and no access to it spans an `await`, so its accesses are not checked at run
    /// time for overlap (the compiler still checks what it can see).
    @exclusivity(unchecked) private var session: GameSession
    /// A call is handing the outbox to the sink; others leave their pushes to it.
    private var delivering = false
    /// Deliveries begun so far: a confirmation that waited on the sink tells whether one ran meanwhile.
    private var deliveriesBegun = 0
    /// A call without the batch's hold came while the delivery under way held its pushes: that
    /// delivery sends them too before it returns.
    private var releasedWhileDelivering = false
    /// With a store: whether this run has written the game's snapshot, or its journal's base (the
    /// first commit writes one, so the journal after it holds only inputs made under this run's
    /// options), its size, and the journal's bytes since.
    private var snapshotted = false
    /// The game's journal file (made once: building the path is not free).
    private let journalPath: String
    /// The game's journal, reached without looking its path up at each commit (with a store).
    private let journalFile: Journal.File?
    /// A clean exit's compaction (``compact()``): the checkpoint becomes one snapshot file.
    private var compacting = false
    private var snapshotBytes = 0
    private var journalBytes = 0
    /// The journal is folded into a new snapshot once it is four times as large as the snapshot
    /// and at least this large (a whole NBA game's journal is about 230 KB: most games snapshot
    /// only once they have ended and sent everything, and at exit), at a moment
    /// the outbox is nearly empty (a snapshot holds the outbox's records): snapshots then cost at
    /// most a quarter of what the journal writes, so bytes written per event stay flat however
    /// long the game, and a restart reads at most this much or four snapshots' worth of journal
    /// per game.
    public static let smallestJournal = 262_144
    /// Whether this engine took an arrival that changed its game yet: its first is what the
    /// instance missed.
    private var tookArrival = false
    /// The failure of the last checkpoint write, if it failed.
    public private(set) var checkpointFailure: ScoreFeedError? {
        didSet {
            guard checkpointFailure != nil else {
                // A deadline that came due while no write could succeed is acted on now, at the retry.
                if checkpointFailures > 0, let due = peek({ $0.deadline }), due <= clock.now { excuseLateness() }
                (checkpointFailures, checkpointRetry) = (0, nil)
                return
            }
            // A try before the retry is due (a batch's flush, a tick for the game's deadline) that
            // fails moves nothing of the backoff: the retries' waits double from the first failure
            // whatever input comes meanwhile, so the first retry after the disk has room comes at
            // most as long after as the spell had lasted, and a second (up to half a minute). Each
            // such failure counted, a game busy through a 17 s spell had its retry at 30 s, and
            // its final, the last input, waited 29 s after the disk had room (seed 101, day 13).
            if let retry = checkpointRetry, clock.now < retry { return }
            checkpointFailures += 1
            checkpointRetry = clock.now.addingTimeInterval(Self.checkpointBackoff.delay(afterFailure: checkpointFailures, random: 0))
        }
    }
    /// When a checkpoint that could not be written is tried again (``flush(holdingPushes:)``): a
    /// full disk may have room by then, and what waits for it goes without waiting for the game's
    /// next input or deadline. Nil while none failed.
    public private(set) var checkpointRetry: Date?
    /// Checkpoint writes failed in a row.
    private var checkpointFailures = 0
    /// The retries' wait: a second after the first failure, doubling to half a minute, without
    /// jitter (one process's games share no server to spare). A failed try costs one write and
    /// at most a snapshot's encoding.
    static let checkpointBackoff = Backoff(initial: 1, multiplier: 2, maximum: 30, jitter: 0)
    /// What APNs' answers did to the game's channel since ``takeChannelNews()`` was last called.
    public private(set) var channelNews: [BroadcastChannel.Outcome] = []
    /// Wall-clock time, for when a channel was created (the engine's clock may be feed time).
    private let wallClock: any EngineClock
    /// Told each push's feed-to-push time, each checkpoint write and each sink error (`--metrics`).
    private let metrics: MetricsRecorder?
    /// When this engine began (its clock): a deadline before it passed while no instance ran.
    private let began: Date
    /// The deadline last measured by ``measureLateness(_:)``: each is measured once.
    private var measuredDeadline: Date?
    /// When the game's last delivery began and ended: a deadline that came due while it was under
    /// way is measured from its end (see ``measureLateness(_:)``).
    private var lastDelivery: ClosedRange<Date>?
    /// When the delivery under way began (nil: none is): a deadline acted on while it is under
    /// way (a timer's tick entering the engine while it awaits the sink) is not yet past its end.
    private var deliveryBegan: Date?

    public init(
        attributes: GameAttributes,
        clock: any EngineClock,
        sink: any PushSink,
        policy: any PushPolicy = Coalescer(),
        renderer: PushRenderer.Configuration = .init(),
        initialState: GameState = GameState(),
        checkpoints: CheckpointStore? = nil
    ) {
        self.init(
            session: GameSession(
                attributes: attributes, policy: policy, renderer: renderer, initialState: initialState, now: clock.now),
            clock: clock, sink: sink, checkpoints: checkpoints)
    }

    /// An engine that drives `session` (a new game's, or one restored from its checkpoint).
    public init(
        session: GameSession, clock: any EngineClock, sink: any PushSink, checkpoints: CheckpointStore? = nil,
        wallClock: any EngineClock = SystemClock(), metrics: MetricsRecorder? = nil
    ) {
        self.metrics = metrics
        attributes = session.attributes
        self.clock = clock
        feedTime = clock as? ManualClock
        self.wallClock = wallClock
        began = clock.now
        self.sink = sink
        self.session = session
        self.session.recordsInputs = checkpoints != nil
        store = checkpoints
        journalPath = checkpoints?.journalURL(for: session.attributes.gameId).path ?? ""
        journalFile = checkpoints.map { [journalPath] in $0.journal.file(for: journalPath) }
    }

    /// The game's whole state.
    public var current: GameSession { session }

    /// The state after every event accepted so far.
    public var state: GameState { peek { $0.state } }

    /// Whether the `end` push has been rendered.
    public var hasEnded: Bool { peek { $0.hasEnded } }

    /// When the policy next wants ``tick(holdingPushes:)`` called.
    public var deadline: Date? { peek { $0.deadline } }

    /// When the engine next wants to be called: its ``deadline``; while a checkpoint write fails,
    /// its retry alone (``checkpointRetry``): nothing can be sent before a write succeeds, and a
    /// deadline that passes meanwhile is acted on then. Woken sooner, it would try a write each time.
    public var wakeUp: Date? {
        checkpointRetry ?? deadline
    }

    /// Whether the deadline is a catch-up's wait for its next part (``GameSession/settling``).
    public var waitsForParts: Bool { peek { $0.settling != nil } }

    public var statistics: GameSession.Statistics { session.statistics }

    /// Validates and folds one event (found at `index` in its feed) at the clock's time, then
    /// sends what the policy decided (`holdingPushes`: see ``flush(holdingPushes:)``). Returns the
    /// validator's verdict so the caller can report rejections.
    @discardableResult
    public func receive(_ event: GameEvent, index: Int, holdingPushes: Bool = false) async throws -> EventValidator.Verdict {
        try await take(event, index: index, judged: peek { $0.verdict(event, index: index) }, holdingPushes: holdingPushes)
    }

    /// Receives `event` on feed time (an engine whose clock is a ``ManualClock``): a duplicate or
    /// a rejected event changes nothing, not even the clock; otherwise the deadlines due before
    /// the event's time fire first (after `pace` waited for each), then the clock moves to the
    /// event's time and the event is received. Replay and `serve --clock feed` both come here,
    /// so both send the same pushes for the same feed. On any other clock it is
    /// ``receive(_:index:holdingPushes:)``.
    /// `holdingPushes`: see ``flush(holdingPushes:)``.
    @discardableResult
    public func receiveOnFeedTime(
        _ event: GameEvent, index: Int, holdingPushes: Bool = false, pace: (@Sendable (Date) async -> Void)? = nil
    ) async throws -> EventValidator.Verdict {
        guard let feedTime else { return try await receive(event, index: index, holdingPushes: holdingPushes) }
        let verdict = peek { $0.verdict(event, index: index) }
        switch verdict {
        case .duplicate, .reject:
            return session.receive(event, index: index, judged: verdict, now: session.now)
        case .accept, .edit:
            // Deadlines only move time: the verdict still holds after them. (Most events find
            // none due: no call is made for them.)
            if let due = peek({ $0.deadline }), due <= event.time {
                try await fireDeadlines(through: event.time, holdingPushes: holdingPushes, pace: pace)
            }
            if let pace { await pace(event.time) }
            feedTime.advance(to: event.time)
            return try await take(event, index: index, judged: verdict, holdingPushes: holdingPushes)
        }
    }

    /// Takes in what arrived together as one moment, at the clock's time (the live paths on the
    /// system clock): every event (each found at `index` in its feed) is folded, then the feed's
    /// running `score`, then the `end` event (a poll's snapshot); the policy decides once on the
    /// state after all of it (see ``GameSession/beginArrival()``), and what it decided is sent.
    /// `written`: when the copy of the feed the arrival came in was written
    /// (``GameSession/noteCopy(written:)``). Returns the verdict of each event, the end's last.
    @discardableResult
    public func receive(
        arrival events: [(event: GameEvent, index: Int)], score: FinalScore? = nil, end: (event: GameEvent, index: Int)? = nil,
        written: Date? = nil
    ) async throws -> [EventValidator.Verdict] {
        let verdicts = take(arrival: events, score: score, end: end, written: written)
        if peek({ $0.outboxCount }) > 0 { try await deliver() }
        return verdicts
    }

    /// ``receive(arrival:score:end:written:)`` without sending: the arrival is folded, decided and
    /// committed; its pushes wait in the outbox for ``flush(holdingPushes:)``. With a `settling` window, a
    /// catch-up's decision waits that long for the rest of its backlog (see
    /// ``GameSession/endArrival(now:settling:)``): ``deadline`` says when, and ``tick(holdingPushes:)`` decides.
    /// A catch-up is this engine's first arrival that changes its game (a join, or the first after
    /// a restart: what an instance missed comes first) or one that looks like it
    /// (``GameSession/isCatchUp``).
    public func take(
        arrival events: [(event: GameEvent, index: Int)], score: FinalScore? = nil, end: (event: GameEvent, index: Int)? = nil,
        written: Date? = nil, settling: TimeInterval = 0
    ) -> [EventValidator.Verdict] {
        var verdicts: [EventValidator.Verdict] = []
        verdicts.reserveCapacity(events.count + (end == nil ? 0 : 1))
        let now = clock.now
        measureLateness(now)
        let before = (corrections: session.statistics.corrections, outbox: peek({ $0.outboxCount }))
        var changed = false
        session.beginArrival()
        if let written { session.noteCopy(written: written) }
        func receive(_ event: GameEvent, index: Int) {
            let verdict = session.receive(event, index: index, now: now)
            if case .accept = verdict { changed = true }
            if case .edit = verdict { changed = true }
            verdicts.append(verdict)
        }
        for (event, index) in events { receive(event, index: index) }
        if let score { session.follow(score, now: now) }
        if let (event, index) = end { receive(event, index: index) }
        if settling > 0, !tookArrival || session.isCatchUp {
            session.endArrival(now: now, settling: settling)
        } else {
            session.endArrival(now: now)
        }
        let news = changed || session.statistics.corrections != before.corrections
        // An arrival of repeats only (a restarted instance's input sent again from its start)
        // is not what the instance missed: the first that changes the game is.
        if news { tookArrival = true }
        if news || peek({ $0.outboxCount }) != before.outbox {
            commit()
        }
        return verdicts
    }

    /// Folds `event` as judged at the clock's time, commits, and sends what the policy decided
    /// (`holdingPushes`: see ``flush(holdingPushes:)``).
    private func take(
        _ event: GameEvent, index: Int, judged verdict: EventValidator.Verdict, holdingPushes: Bool = false
    ) async throws -> EventValidator.Verdict {
        measureLateness(clock.now)
        session.receive(event, index: index, judged: verdict, now: clock.now)
        switch verdict {
        case .accept, .edit: commit()
        case .duplicate, .reject: break
        }
        if peek({ $0.outboxCount }) > 0 { try await deliver(holdingPushes: holdingPushes) }
        return verdict
    }

    /// The feed's running score now (see ``GameSession/follow(_:now:)``). On feed time the clock
    /// first moves to `time` (the newest event's), firing the deadlines before it.
    /// `holdingPushes`: see ``flush(holdingPushes:)``.
    public func follow(_ score: FinalScore, at time: Date? = nil, holdingPushes: Bool = false) async throws {
        if let feedTime, let time {
            try await fireDeadlines(through: time, holdingPushes: holdingPushes)
            feedTime.advance(to: time)
        }
        let corrections = session.statistics.corrections
        measureLateness(clock.now)
        session.follow(score, now: clock.now)
        if session.statistics.corrections != corrections { commit() }
        try await deliver(holdingPushes: holdingPushes)
    }

    /// The game ends without a final (see ``GameSession/callOff(_:why:now:)``): postponed, or
    /// suspended with the score it had. Commits, then sends the `end` (`holdingPushes`: see
    /// ``flush(holdingPushes:)``).
    public func callOff(_ phase: GamePhase, why: String, holdingPushes: Bool = false) async throws {
        session.callOff(phase, why: why, now: clock.now)
        commit()
        try await deliver(holdingPushes: holdingPushes)
    }

    /// A copy of the feed older than one already seen was ignored: counted, and committed.
    public func ignoreStaleCopy() {
        session.ignoreStaleCopy()
        commit()
    }

    /// The newest copy of the feed the game took in: when it was written, and the highest feed
    /// action number applied (nil: neither). What a poller that starts again knows it has seen
    /// (see ``NewestCopy/init(floor:)``).
    public var newestCopy: NewestCopy.Stamp? {
        peek { session in
            let action = session.fold.validator.applied.keys.lazy.filter { $0 < LiveSnapshot.endSeq }.max()
            guard session.newestCopy != nil || action != nil else { return nil }
            return NewestCopy.Stamp(written: session.newestCopy, newestAction: action)
        }
    }

    /// Notes that a copy of the feed written at `written` is handed over; see
    /// ``GameSession/noteCopy(written:)``. Committed with what the copy brings.
    public func noteCopy(written: Date) {
        session.noteCopy(written: written)
    }

    /// Lets the policy act on time passing (a held push coming due, a channel's linger over).
    /// `holdingPushes`: see ``flush(holdingPushes:)``.
    public func tick(holdingPushes: Bool = false) async throws {
        if checkpointFailure != nil { commit(retrying: true) }
        let channel = session.channel
        measureLateness(clock.now)
        session.tick(now: clock.now)
        if peek({ $0.outboxCount }) > 0 || session.channel != channel { commit() }
        try await deliver(holdingPushes: holdingPushes)
    }

    /// This game was restored by an instance starting now: see ``GameSession/restart(now:window:)``.
    public func restart(window: TimeInterval) {
        let waiting = session.settling
        session.restart(now: clock.now, window: window)
        if session.settling != waiting { commit() }
    }

    /// A catch-up waiting for its parts waits again from now, at least `window` (as at a
    /// restart: ``GameSession/restart(now:window:)``); a game not waiting holds nothing.
    public func holdCatchUp(for window: TimeInterval) {
        guard session.settling != nil else { return }
        restart(window: window)
    }

    /// The game's end as the feed would list it after everything applied: in the newest period,
    /// at the newest event's feed time (nil: nothing applied). A poller ends a game on its final
    /// boxscore with it when it has no copy of the play-by-play to end it on
    /// (``LivePoller``'s give-up after the final).
    public var endAfterApplied: GameEvent? {
        peek { session in
            session.newestSourceTime.map { time in
                GameEvent(
                    seq: LiveSnapshot.endSeq, time: time, period: max(4, session.state.period), clock: 0, kind: .gameEnd,
                    description: "the feed says the game is over")
            }
        }
    }

    /// The game's broadcast channel.
    public var channel: BroadcastChannel { peek { $0.channel } }

    /// Whether pushes wait because the game has no channel to send on.
    public var isHolding: Bool { peek { $0.isHolding } }

    /// Whether channel work waits on the sink: a create or delete it has not answered, a delete
    /// that waits until it has delivered the game's pushes, or a linger that starts once it has
    /// delivered the game's end (``GameSession/lingerWaitsForTheSink``). The engine looks again on its next
    /// call (``flush(holdingPushes:)``).
    public var channelWorkWaits: Bool {
        let now = clock.now
        return peek { $0.channelRequestDue || $0.lingerIsOver(now: now) || $0.lingerWaitsForTheSink }
    }

    /// How a game gets its channel, as the service decides it.
    public enum ChannelSetup: Hashable, Sendable {
        /// Your backend's channel (the header's `"channel"`).
        case use(String)
        /// ScoreFeed creates one, with the renderer's ``PushRenderer/Configuration/messageStorage``.
        case create
        /// The channel ScoreFeed made for the game before its checkpoint was lost
        /// (``ChannelBoard/salvage(from:)``), with the storage it was made with and when it opened.
        case adopt(String, storage: Int, created: Date?)
        /// None can be had; the pushes wait.
        case refuse(String)
    }

    /// Gives a game with no channel yet its channel (a create is sent at once), commits, and
    /// sends what can go (`holdingPushes`: see ``flush(holdingPushes:)``).
    public func setUpChannel(_ setup: ChannelSetup, holdingPushes: Bool = false) async throws {
        switch setup {
        case .use(let id): session.useChannel(id, storage: session.channelStorage)
        case .create: session.createChannel(storage: session.channelStorage)
        case .adopt(let id, let storage, let created): session.adoptChannel(id, storage: storage, created: created)
        case .refuse(let reason): session.refuseChannel(reason)
        }
        commit()
        try await deliver(holdingPushes: holdingPushes)
    }

    /// Returns and forgets ``channelNews``.
    public func takeChannelNews() -> [BroadcastChannel.Outcome] {
        defer { channelNews = [] }
        return channelNews
    }

    /// Fires the policy's deadlines up to `limit`, oldest first. On feed time the clock moves to
    /// each deadline before it fires, after `pace` (a live view replaying at a chosen speed) has
    /// waited for it. A bound on the count keeps a policy that asks again and again for the same
    /// moment from spinning forever.
    /// `holdingPushes`: see ``flush(holdingPushes:)``.
    public func fireDeadlines(
        through limit: Date, holdingPushes: Bool = false, pace: (@Sendable (Date) async -> Void)? = nil
    ) async throws {
        var fired = 0
        while let deadline = peek({ $0.deadline }), deadline <= limit, fired < 100_000 {
            if let pace { await pace(deadline) }
            feedTime?.advance(to: deadline)
            try await tick(holdingPushes: holdingPushes)
            fired += 1
        }
    }

    /// The feed is over: sends whatever the policy still holds.
    public func finish() async throws {
        session.finish(now: clock.now)
        if peek({ $0.outboxCount }) > 0 { commit() }
        try await deliver()
    }

    /// Sends what is still in the outbox (after a restart, a sink that failed, or a checkpoint
    /// that could not be written: it is tried again first). With `holdingPushes` (a batch the
    /// caller makes durable with one sync before any of its pushes goes) only channel requests
    /// go, and the pushes wait for a call without it: the caller, which knows the batch, says so
    /// on every call; the engine keeps no memory of it.
    public func flush(holdingPushes: Bool = false) async throws {
        if checkpointFailure != nil { commit(retrying: true) }
        try await deliver(holdingPushes: holdingPushes)
    }

    /// Once the sink holds none of the game's records, a kept `start` or `end` waiting for it is
    /// confirmed, and an end the sink held starts its channel's linger (journalled): the next run
    /// does not send them again. A delivery with nothing left to send does this; so does a stop,
    /// after the sink's last deliveries (``GameService/confirmDelivered()``), when no delivery
    /// follows them.
    /// Nothing is confirmed while a delivery is under way, or when one began while the sink was
    /// asked: it may have handed the sink a record the answer did not count.
    public func confirmDelivered() async {
        guard !delivering else { return }
        await confirmIfTheSinkHoldsNone(noDeliverySince: deliveriesBegun)
    }

    /// ``confirmDelivered()``'s step, as a delivery with nothing left to send takes it (itself the
    /// delivery under way); with `begun`, nothing is confirmed once a delivery began after that
    /// count, while the sink was asked.
    private func confirmIfTheSinkHoldsNone(noDeliverySince begun: Int? = nil) async {
        guard peek({ $0.keptRecordsWaitForTheSink || $0.lingerWaitsForTheSink }), await sink.pending(game: attributes.gameId) == 0,
              begun.map({ $0 == deliveriesBegun }) ?? true
        else { return }
        session.confirmKept()
        session.endDrained(now: clock.now)
        commit()
    }

    // MARK: - Internals

    /// The deadline due now is held on purpose (a catch-up waiting for its next part while the
    /// service takes input, ``GameService``), or came due while no checkpoint could be written:
    /// it is not counted late when it is acted on.
    func excuseLateness() {
        measuredDeadline = peek { $0.deadline }
    }

    /// Tells the metrics how long after it came due the game's deadline is acted on at `now` (the
    /// timer's tick, or an arrival that came first): `scorefeed_deadline_lateness_seconds`. A
    /// deadline that came due while the game's own delivery was under way (the engine awaiting
    /// the sink for the pushes ahead: the service hears of a deadline a call made, or a retried
    /// write freed, when the call returns) counts from that delivery's end: what it decides goes
    /// after those pushes, one delivery at a time, whenever it is decided. One still under way
    /// has not ended: a deadline that came due in it and is acted on before its end is not late
    /// (seed 6, day 55 at a 10 s interval: a stale wake-up, a checkpoint write's retry, entered the
    /// engine 12 s into such a delivery).
    private func measureLateness(_ now: Date) {
        guard let metrics, let due = peek({ $0.deadline }), due >= began, due <= now, due != measuredDeadline else { return }
        measuredDeadline = due
        // Due while no write could succeed: the engine waits for the write's retry (``wakeUp``).
        if checkpointFailure != nil { return }
        let underWay = deliveryBegan.map { $0...max($0, now) }
        let from = [lastDelivery, underWay].lazy.compactMap { $0 }.first { $0.contains(due) }?.upperBound ?? due
        metrics.observeDeadline(game: attributes.gameId, due: due, lateBy: now.timeIntervalSince(from))
    }

    /// Hands the outbox to the sink, oldest first, each output removed once the sink has it and
    /// the checkpoint written again (a restart sends again at most the push that was in flight).
    /// The channel's create goes first and its delete last (``GameSession/nextChannelRequest``,
    /// then ``GameSession/nextOutput``); the phase that needs them is committed before they are
    /// awaited, so a restart sends them again.
    /// Nothing goes out while the game's checkpoint cannot be written: a push the checkpoint does
    /// not hold could be rendered again with other bytes after a restart. A failing sink leaves
    /// the rest in the outbox for the next call.
    private func deliver(holdingPushes channelOnly: Bool = false) async throws {
        guard checkpointFailure == nil else {
            // Nothing leaves: only the newest state waits, its input written with the others
            // the write's retry writes (not while a delivery is under way: its push is in flight).
            if !delivering { session.supersedeWaiting() }
            return
        }
        guard !delivering else {
            if !channelOnly { releasedWhileDelivering = true }
            return
        }
        // `channelOnly`: a batch of lines is being applied: the service makes it durable with one
        // sync, then flushes the games it touched. Only channel requests go now (a game's pushes
        // wait for its channel, and the newest state alone waits while it has none).
        delivering = true
        deliveriesBegun += 1
        releasedWhileDelivering = false
        // (Its span matters only to the lateness metric.)
        let start = metrics == nil ? nil : clock.now
        deliveryBegan = start
        defer {
            delivering = false
            deliveryBegan = nil
            if let start { lastDelivery = start...max(start, clock.now) }
        }
        var channelOnly = channelOnly
        // A channel request that failed or was answered unusably is not sent again in this
        // delivery: the other platforms' pushes, which need no channel, still go, and its failure
        // is thrown after them.
        var channelWaits = false
        var channelFailure: (any Error)?
        do {
            while true {
                while try await sendNext(channelOnly: channelOnly, channelWaits: &channelWaits, channelFailure: &channelFailure) {}
                // The batch's sync came (its flush found this delivery under way): the pushes go too.
                guard channelOnly, releasedWhileDelivering, checkpointFailure == nil else { break }
                channelOnly = false
            }
            if let channelFailure { throw channelFailure }
        } catch {
            metrics?.countSinkError(error)
            throw error
        }
    }

    /// One step of the delivery: the next output or channel request to the sink, then its
    /// result committed. What the journal holds is made durable first (a push the journal does
    /// not hold could be rendered again with other bytes after a restart), and the last
    /// delivery reaches the kernel (one it does not know delivered is sent again: at a crash,
    /// only the one in flight). Returns whether there may be more.
    /// `channelWaits`: a channel request that could not be made now is not tried again in this
    /// delivery (with several lanes, the others send on); `channelFailure`: its failure, thrown
    /// at the delivery's end.
    private func sendNext(channelOnly: Bool, channelWaits: inout Bool, channelFailure: inout (any Error)?) async throws -> Bool {
        let request = channelWaits ? nil : peek { $0.nextChannelRequest }
        if channelOnly, request == nil { return false }
        let next = request == nil ? peek { $0.nextLaneOutput } : nil
        let output = next?.output
        if let journal = store?.journal, let journalFile {
            do {
                try MetricsRecorder.measure(metrics) { () throws(ScoreFeedError) in
                    try journal.readyForPush(journalFile)
                }
            } catch {
                writeFailed(error)
                return false
            }
        }
        guard request != nil || output != nil else {
            // Nothing to send: an end the sink has delivered need not go again after a restart.
            // A channel whose end the sink held lingers from when the sink has delivered it.
            await confirmIfTheSinkHoldsNone()
            // A linger that is over ends in the delete, once the sink holds none of the game's
            // pushes (a webhook that is down may still hold its end).
            let now = clock.now
            guard peek({ $0.lingerIsOver(now: now) }) else { return false }
            if await sink.pending(game: attributes.gameId) > 0 { return false }
            session.beginDelete(now: clock.now)
            commit()
            return checkpointFailure == nil
        }
        if let request {
            let sent: ChannelAnswer?
            do {
                sent = try await sink.manage(request)
            } catch where !channelOnly && peek({ $0.lanes.count > 1 }) {
                channelWaits = true
                channelFailure = error
                return true
            }
            guard let answer = sent else {
                throw ScoreFeedError(
                    .channel, "game \(attributes.gameId): no sink answers channel requests (the \(request.action.rawValue) needs --webhook)")
            }
            let outcome = session.channelAnswered(answer, now: wallClock.now)
            commit()
            channelNews.append(outcome)
            // An unusable answer leaves the create to send again, later (the news says so); a lane
            // that needs no channel sends on meanwhile.
            if case .unusable = outcome {
                channelWaits = true
                return !channelOnly && peek { $0.lanes.count > 1 }
            }
        } else if let output {
            // What the sink still holds of the game, asked after an end or a refusal (either may be
            // the last output before the channel's linger).
            var pending: Int?
            var superseded: [PushRecord] = []
            switch output {
            case .push(let record):
                superseded = try await sink.sendReportingSuperseded(record)
                if let metrics, let source = record.sourceTime { metrics.observeFeedToPush(clock.now.timeIntervalSince(source)) }
                if record.event != .update { pending = await sink.pending(game: attributes.gameId) }
            case .refused(let refusal):
                try await sink.refused(refusal)
                pending = await sink.pending(game: attributes.gameId)
            }
            let held = (pending ?? 0) > 0 && !peek { $0.channel.isLingering }
            let took = session.delivered(lane: next?.lane ?? 0, now: clock.now)
            if !superseded.isEmpty { session.giveBack(superseded) }
            // A start or an end the sink delivered at once is not kept (one commit with its delivery).
            if case .push(let record) = output, record.event != .update, pending == 0 { session.confirmKept() }
            // This delivery started the channel's linger while the sink still holds the end: the
            // linger waits until the sink has delivered it.
            if held, peek({ $0.channel.isLingering }) { session.endHeldBySink() }
            commit()
            // The lane's next push shows another state, decided before this delivery: the delivery
            // is synced before it goes, or a power cut would send this state again after it. Live
            // only: on the feed clock a batch's every moment is a state of its own (one sync a push),
            // and a cut repeats them byte for byte, as RunningServe.md says.
            if feedTime == nil, case .push(let record) = output, let lane = next?.lane, let journal = store?.journal, let journalFile,
               peek({ $0.lanes[lane].nextPush.map { !$0.showsSameState(as: record) } ?? false }) {
                journal.syncDeliveriesBeforeTheNextPush(journalFile)
            }
            // A delivery that took nothing from the outbox would be sent again and again: stop.
            if !took { return false }
        }
        // What the checkpoint does not hold must not be built on.
        return checkpointFailure == nil
    }

    /// Reads the session in place: a non-mutating call on a stored property of an actor copies
    /// the whole value first (every array and string in it retained and released), an inout
    /// access does not.
    private func peek<T, E: Error>(_ read: (inout GameSession) throws(E) -> T) throws(E) -> T {
        try read(&session)
    }

    /// Writes the game's snapshot now and empties its journal: at a clean exit, so the state
    /// directory holds each game in one file.
    public func compact() {
        guard store != nil, checkpointFailure == nil else { return }
        // Already one file: nothing journaled since the last snapshot.
        if snapshotted, journalBytes == 0, peek({ $0.unjournaled.isEmpty }) { return }
        snapshotted = false
        compacting = true
        defer { compacting = false }
        commit()
    }

    /// Writes the checkpoint, when the engine has a store; a failure is kept (and stops delivery)
    /// until a later write succeeds.
    /// `retrying`: a call that tries a failed write again now (``flush(holdingPushes:)``,
    /// ``tick(holdingPushes:)``), not waiting for ``checkpointRetry``.
    private func commit(retrying: Bool = false) {
        guard let store, let journalFile else { return }
        // While a write is failing, an input's commit waits for the retry (or a call that asks for
        // one): a try may encode the whole game (when a snapshot failed), its outbox growing
        // meanwhile, and the session keeps every input it has not written until a try succeeds.
        if !retrying, let retry = checkpointRetry, clock.now < retry { return }
        let start = metrics == nil ? nil : ContinuousClock.now
        defer {
            if let metrics, let start { metrics.observeCheckpointWrite(MetricsRecorder.seconds(since: start), failed: checkpointFailure != nil) }
        }
        // Inputs taken from the session that neither the journal's buffer nor a snapshot holds:
        // after a failure, the next commit writes the whole game instead.
        var inputsTaken = false
        do {
            // A game that has ended and sent everything is folded into one snapshot once its
            // journal outweighs it: every later restart of the day reads the snapshot alone, not
            // the whole game's inputs again.
            let outboxCount = peek { $0.outboxCount }
            let settled = peek({ $0.hasEnded }) && outboxCount == 0 && journalBytes > snapshotBytes
            if snapshotted, !settled,
               journalBytes < max(4 * snapshotBytes, Self.smallestJournal) || outboxCount > 1 {
                let first = peek { $0.journaled } + 1
                let inputs = session.takeUnjournaled()
                if !inputs.isEmpty {
                    let numbering = peek { $0.numbering }
                    inputsTaken = true
                    journalBytes += try store.journal.append(
                        inputs, first: first, seq: numbering.seq, lastTimestamp: numbering.lastTimestamp,
                        into: journalFile)
                    inputsTaken = false
                }
                // A write that failed left its lines in the journal's buffer: the retry writes
                // them, so a full disk costs a write per try, not the whole game encoded.
                if checkpointFailure != nil { try store.journal.sync(journalPath) }
            } else if !compacting, store.holdsNothing(for: attributes.gameId) {
                // A game with nothing on disk yet starts its journal with its base: durable with
                // the batch's other lines, at no cost of its own.
                _ = session.takeUnjournaled()
                inputsTaken = true
                let base = try encodedSession()
                let (first, numbering) = peek { ($0.journaled + 1, $0.numbering) }
                journalBytes = store.journal.begin(
                    base, first: first, seq: numbering.seq, lastTimestamp: numbering.lastTimestamp, to: journalPath)
                snapshotted = true
                snapshotBytes = base.count
                inputsTaken = false
            } else {
                // The snapshot holds every input so far; the journal starts again after it.
                _ = session.takeUnjournaled()
                inputsTaken = true
                let size = try store.write(for: attributes.gameId) { () throws(ScoreFeedError) -> Data in try encodedSession() }
                store.journal.reset(journalPath)
                store.journal.noteSnapshot(bytes: size)
                snapshotted = true
                snapshotBytes = size
                journalBytes = 0
                inputsTaken = false
            }
            // (Set only when it changes: its observer runs at every set.)
            if checkpointFailure != nil { checkpointFailure = nil }
        } catch {
            writeFailed(error, inputsTaken: inputsTaken)
        }
    }

    /// The session's saved form (a snapshot's bytes, or a journal's base).
    private func encodedSession() throws(ScoreFeedError) -> Data {
        do {
            return try peek { session in try session.encoded() }
        } catch {
            throw ScoreFeedError(.io, "cannot encode the checkpoint of game \(attributes.gameId): \(error)")
        }
    }

    /// Keeps `error` as the checkpoint's failure; the retry (``commit(retrying:)``, on a backoff)
    /// writes what failed: the journal's lines when its write was cut back whole and kept them,
    /// else (inputs taken that no buffer holds, a journal that cannot be opened, a sync that
    /// failed) the whole game, as a snapshot.
    private func writeFailed(_ error: ScoreFeedError, inputsTaken: Bool = false) {
        checkpointFailure = error
        if inputsTaken || store?.journal.keepsFailedLines(journalPath) != true { snapshotted = false }
    }
}

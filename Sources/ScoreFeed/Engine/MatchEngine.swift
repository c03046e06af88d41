import Foundation
import ScoreFeedModel

/// One game's engine: validates each event, folds it, asks the policy what to do at the
/// injected clock's time, renders and awaits the sink. One actor per game; the pure steps do
/// the thinking, this type only owns their state and does the I/O.
public actor MatchEngine {
    public let attributes: GameAttributes
    private let clock: any EngineClock
    private let sink: any PushSink
    private var validator = EventValidator()
    private var board: Scoreboard
    private var policy: any PushPolicy
    private var renderer: PushRenderer
    /// The state in the last push sent (the device's view if delivered).
    private var lastPushed: GameState
    private var unsentEvents = 0
    private var newestSourceTime: Date?
    private var ended = false
    public private(set) var statistics = Statistics()

    /// Counts of what the engine has seen and done.
    public struct Statistics: Hashable, Sendable, Codable {
        public var accepted = 0
        public var duplicates = 0
        public var rejected = 0
        public var pushes = 0
        public var priority10 = 0
        public var priority5 = 0
        /// Pushes the renderer refused (over the APNs size limit even trimmed); never sent.
        public var refused = 0
    }

    public init(
        attributes: GameAttributes,
        clock: any EngineClock,
        sink: any PushSink,
        policy: any PushPolicy = Coalescer(),
        renderer: PushRenderer.Configuration = .init(),
        initialState: GameState = GameState()
    ) {
        self.attributes = attributes
        self.clock = clock
        self.sink = sink
        self.policy = policy
        self.renderer = PushRenderer(attributes: attributes, configuration: renderer)
        self.board = Scoreboard(state: initialState)
        self.lastPushed = initialState
    }

    /// Everything a restarted engine needs to continue exactly where this one stopped: the
    /// validator (applied sequence numbers), the scoreboard, the policy, `seq` and the last
    /// timestamp. Written by `serve` after each push.
    public struct Snapshot: Codable, Sendable {
        public var attributes: GameAttributes
        var validator: EventValidator
        var board: Scoreboard
        var coalescer: Coalescer?
        var seq: Int
        var lastTimestamp: Int
        var startPending: Bool
        var lastPushed: GameState
        var unsentEvents: Int
        var newestSourceTime: Date?
        var ended: Bool
        public var statistics: Statistics
        /// The engine clock when taken (feed time, for engines on a manual clock).
        public var clock: Date
        /// The highest sequence number the caller had routed to this game.
        public var highestSeq = Int.min
        /// The policy's state was in the checkpoint but unreadable (written by another version
        /// of ScoreFeed): the game resumes with a fresh policy.
        public internal(set) var policyWasReset = false

        enum CodingKeys: String, CodingKey {
            case attributes, validator, board, coalescer, seq, lastTimestamp, startPending, lastPushed, unsentEvents
            case newestSourceTime, ended, statistics, clock, highestSeq
        }
    }

    /// The engine's state, for a checkpoint.
    public func snapshot() -> Snapshot {
        Snapshot(
            attributes: attributes, validator: validator, board: board, coalescer: policy as? Coalescer,
            seq: renderer.seq, lastTimestamp: renderer.lastTimestamp, startPending: renderer.startPending,
            lastPushed: lastPushed, unsentEvents: unsentEvents, newestSourceTime: newestSourceTime, ended: ended,
            statistics: statistics, clock: clock.now)
    }

    /// An engine that continues from `snapshot` (its policy too, when it was a ``Coalescer``;
    /// otherwise a coalescer with `policy`, which, when the snapshot's policy state was lost,
    /// treats the hour's priority-10 budget as spent rather than risk pushes the device drops).
    public init(
        restoring snapshot: Snapshot, clock: any EngineClock, sink: any PushSink,
        renderer: PushRenderer.Configuration = .init(), policy configuration: Coalescer.Configuration = .standard
    ) {
        attributes = snapshot.attributes
        self.clock = clock
        self.sink = sink
        if let coalescer = snapshot.coalescer {
            policy = coalescer
        } else {
            var fresh = Coalescer(configuration: configuration)
            fresh.resume(state: snapshot.board.state, shown: snapshot.lastPushed, at: snapshot.clock)
            if snapshot.policyWasReset { fresh.assumeBudgetSpent(at: snapshot.clock) }
            policy = fresh
        }
        var restored = PushRenderer(attributes: snapshot.attributes, configuration: renderer)
        restored.resume(seq: snapshot.seq, lastTimestamp: snapshot.lastTimestamp, startPending: snapshot.startPending)
        self.renderer = restored
        validator = snapshot.validator
        board = snapshot.board
        lastPushed = snapshot.lastPushed
        unsentEvents = snapshot.unsentEvents
        newestSourceTime = snapshot.newestSourceTime
        ended = snapshot.ended
        statistics = snapshot.statistics
    }

    /// The state after every event accepted so far.
    public var state: GameState { board.state }

    /// Whether the `end` push has been sent.
    public var hasEnded: Bool { ended }

    /// When the policy next wants ``tick()`` called.
    public var deadline: Date? { policy.deadline }

    /// Validates and folds one event (found at `index` in its feed), then acts on the policy's
    /// decision. Returns the validator's verdict so the caller can report rejections.
    @discardableResult
    public func receive(_ event: GameEvent, index: Int) async throws -> EventValidator.Verdict {
        let verdict = validator.check(event, index: index)
        switch verdict {
        case .duplicate:
            statistics.duplicates += 1
            return verdict
        case .reject:
            statistics.rejected += 1
            return verdict
        case .accept:
            break
        }
        statistics.accepted += 1
        let diff = board.apply(event)
        unsentEvents += 1
        if newestSourceTime.map({ event.time > $0 }) ?? true { newestSourceTime = event.time }
        let decision = policy.observe(StateChange(event: event, diff: diff, state: board.state), now: clock.now)
        try await perform(decision)
        return verdict
    }

    /// Lets the policy act on time passing (a held push coming due).
    public func tick() async throws {
        try await perform(policy.tick(now: clock.now))
    }

    /// Fires the policy's deadlines up to `limit`, oldest first. On feed time, `manual` moves to
    /// each deadline before it fires, after `pace` (a live view replaying at a chosen speed) has
    /// waited for it. A bound on the count keeps a policy that asks again and again for the same
    /// moment from spinning forever.
    public func fireDeadlines(
        through limit: Date, moving manual: ManualClock? = nil, pace: (@Sendable (Date) async -> Void)? = nil
    ) async throws {
        var fired = 0
        while let deadline, deadline <= limit, fired < 100_000 {
            if let pace { await pace(deadline) }
            manual?.advance(to: deadline)
            try await tick()
            fired += 1
        }
    }

    /// The feed is over: sends whatever the policy still holds.
    public func finish() async throws {
        try await perform(policy.finish(now: clock.now))
    }

    private func perform(_ decision: PushDecision) async throws {
        guard case .push(var push) = decision, !ended else { return }
        let state = board.state
        let diff = Diff(from: lastPushed, to: state)
        // The record says what changed and why the policy sent it now.
        if !diff.isEmpty && push.event != .end { push.reason = "\(diff.reason) (\(push.reason))" }
        // The renderer may put a push-to-start first, or refuse a push that does not fit even
        // trimmed: the refusal goes to the sink as an error, not a request, and the game goes on.
        let outputs = renderer.outputs(
            for: push, state: state, diff: diff, coalesced: unsentEvents, sentAt: clock.now, sourceTime: newestSourceTime)
        for output in outputs {
            switch output {
            case .push(let record):
                try await sink.send(record)
                statistics.pushes += 1
                if record.priority == 10 { statistics.priority10 += 1 } else { statistics.priority5 += 1 }
                guard record.event != .start else { continue }
                lastPushed = state
                unsentEvents = 0
                if record.event == .end { ended = true }
            case .refused(let refusal):
                statistics.refused += 1
                try await sink.refused(refusal)
            }
        }
    }
}

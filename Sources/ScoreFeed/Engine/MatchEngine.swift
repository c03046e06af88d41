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
    public struct Statistics: Hashable, Sendable {
        public var accepted = 0
        public var duplicates = 0
        public var rejected = 0
        public var pushes = 0
        public var priority10 = 0
        public var priority5 = 0
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
        let record = try renderer.render(
            push, state: state, diff: diff, coalesced: unsentEvents, sentAt: clock.now, sourceTime: newestSourceTime)
        try await sink.send(record)
        lastPushed = state
        unsentEvents = 0
        statistics.pushes += 1
        if push.priority == 10 { statistics.priority10 += 1 } else { statistics.priority5 += 1 }
        if push.event == .end { ended = true }
    }
}

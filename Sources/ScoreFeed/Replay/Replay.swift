import Foundation
import ScoreFeedModel

/// Replays a recorded game through a ``MatchEngine`` on virtual time: the clock jumps from one
/// event's feed time to the next (firing the policy's deadlines in between), so a whole game
/// takes milliseconds and runs the same way every time.
public struct Replay: Sendable {
    public var policy: any PushPolicy
    public var renderer: PushRenderer.Configuration
    /// The platforms the game is pushed to besides ``renderer``'s (`--platform ios,android`),
    /// each deciding on the same fold under its own policy.
    public var otherLanes: [PlatformLane.Options] = []
    /// Stop at the first rejected event instead of reporting it and going on.
    public var strict: Bool
    /// Called before the virtual clock moves to a time: a live view waits here to replay at a
    /// chosen speed against the real clock.
    public var pace: (@Sendable (Date) async -> Void)?
    /// Called after each accepted event with the state it led to (for a live scoreboard).
    public var progress: (@Sendable (GameEvent, GameState) async -> Void)?

    public init(
        policy: any PushPolicy = Coalescer(), renderer: PushRenderer.Configuration = .init(),
        strict: Bool = false
    ) {
        self.policy = policy
        self.renderer = renderer
        self.strict = strict
    }

    /// The records `document` replays into, in send order (rejections are left out): what the
    /// measures and the report read.
    public func records(_ document: FeedDocument) async throws -> [PushRecord] {
        let sink = RecordingSink()
        _ = try await run(document, sink: sink)
        return await sink.records
    }

    /// Runs `document` into `sink`. Rejections are passed to `report` as they happen, in feed
    /// order; in strict mode the first one is thrown instead.
    public func run(
        _ document: FeedDocument, sink: any PushSink, report: @Sendable (ScoreFeedError) -> Void = { _ in }
    ) async throws -> ReplaySummary {
        let started = ContinuousClock.now
        let start = document.events.first?.time ?? document.scheduledStart ?? Date(timeIntervalSince1970: 0)
        let clock = ManualClock(start)
        var session = GameSession(attributes: document.attributes, policy: policy, renderer: renderer, now: clock.now)
        for lane in otherLanes { session.addLane(policy: Coalescer(configuration: lane.policy), renderer: lane.renderer) }
        let engine = MatchEngine(session: session, clock: clock, sink: sink)
        var summary = try await feed(document, to: engine, report: report)
        summary.wallTime = ContinuousClock.now - started
        return summary
    }

    /// The replay loop. It runs on the engine's own executor (`isolated`), so reading the
    /// policy's deadline and handing over each event take no actor hop: only the sink's
    /// `send`, and `pace` and `progress` when set, run elsewhere.
    private func feed(
        _ document: FeedDocument, to engine: isolated MatchEngine, report: @Sendable (ScoreFeedError) -> Void
    ) async throws -> ReplaySummary {
        var summary = ReplaySummary(attributes: document.attributes)
        summary.eventsRead = document.events.count + document.rejected.count
        var pendingRejections = document.rejected.sorted { ($0.location.eventIndex ?? 0) < ($1.location.eventIndex ?? 0) }[...]

        func reject(_ error: ScoreFeedError) throws {
            summary.rejected.append(error)
            if strict { throw error }
            report(error)
        }
        for (event, position) in zip(document.events, document.positions) {
            while let next = pendingRejections.first, (next.location.eventIndex ?? 0) < position {
                pendingRejections.removeFirst()
                try reject(next)
            }
            switch try await engine.receiveOnFeedTime(event, index: position, pace: pace) {
            case .accept, .edit:
                if let progress { await progress(event, engine.state) }
            case .duplicate(var error):
                error.location.file = document.file
                summary.duplicates.append(error)
                report(error)
            case .reject(var error):
                error.location.file = document.file
                try reject(error)
            }
        }
        for error in pendingRejections { try reject(error) }
        try await engine.fireDeadlines(through: .distantFuture, pace: pace)
        try await engine.finish()

        let statistics = engine.statistics
        summary.accepted = statistics.accepted
        summary.pushes = statistics.pushes
        summary.priority10 = statistics.priority10
        summary.priority5 = statistics.priority5
        summary.finalState = engine.state
        summary.ended = engine.hasEnded
        summary.expectedFinal = document.finalScore
        return summary
    }
}

/// What a replay did, for the CLI's summary and for tests.
public struct ReplaySummary: Sendable {
    public var attributes: GameAttributes
    /// Events in the file, decodable or not.
    public var eventsRead = 0
    public var accepted = 0
    public var rejected: [ScoreFeedError] = []
    public var duplicates: [ScoreFeedError] = []
    public var pushes = 0
    public var priority10 = 0
    public var priority5 = 0
    public var finalState = GameState()
    /// Whether the `end` push went out.
    public var ended = false
    /// The final score the file states, if any.
    public var expectedFinal: FinalScore?
    public var wallTime: Duration = .zero

    /// Whether the replayed final equals the file's stated final (true when it states none).
    public var finalMatches: Bool {
        guard let expectedFinal else { return true }
        return expectedFinal.home == finalState.homeScore && expectedFinal.away == finalState.awayScore
    }
}

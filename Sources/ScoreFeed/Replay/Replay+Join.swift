import Foundation
import ScoreFeedModel

extension Replay {
    /// Replays `document` as a game met in progress at `join`, on virtual time: the events before
    /// the first one past `join` (in feed order, what a `poll` started then finds in its first
    /// snapshot) reach the engine as one arrival at `join` (``MatchEngine/receive(arrival:score:end:written:)``,
    /// the live path); each later event comes at its own feed time, as ``run(_:sink:report:)``
    /// replays it. For the join measure (``JoinGrid``): rejected and duplicate events are passed
    /// over, `pace` and `progress` are not called.
    public func run(_ document: FeedDocument, joiningAt join: Date, sink: any PushSink) async throws -> ReplaySummary {
        let started = ContinuousClock.now
        let engine = MatchEngine(
            attributes: document.attributes, clock: ManualClock(join), sink: sink, policy: policy, renderer: renderer)
        let events = Array(zip(document.events, document.positions))
        let split = events.firstIndex { $0.0.time > join } ?? events.count
        try await engine.receive(arrival: events[..<split].map { ($0.0, $0.1) })
        for (event, position) in events[split...] {
            try await engine.receiveOnFeedTime(event, index: position)
        }
        try await engine.fireDeadlines(through: .distantFuture)
        try await engine.finish()
        let statistics = await engine.statistics
        var summary = ReplaySummary(attributes: document.attributes)
        summary.eventsRead = document.events.count + document.rejected.count
        summary.accepted = statistics.accepted
        summary.pushes = statistics.pushes
        summary.priority10 = statistics.priority10
        summary.priority5 = statistics.priority5
        summary.finalState = await engine.state
        summary.ended = await engine.hasEnded
        summary.expectedFinal = document.finalScore
        summary.wallTime = ContinuousClock.now - started
        return summary
    }
}

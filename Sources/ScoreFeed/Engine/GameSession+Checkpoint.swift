import Foundation
import ScoreFeedModel

extension GameSession {
    /// The session as a checkpoint (refusals waiting in the outbox are not kept: they are
    /// reports, not pushes).
    public var checkpoint: GameCheckpoint {
        GameCheckpoint(
            format: GameCheckpoint.currentFormat, attributes: attributes, validator: validator, board: board,
            coalescer: policy as? Coalescer, seq: renderer.seq, lastTimestamp: renderer.lastTimestamp,
            startPending: renderer.startPending, lastPushed: lastPushed, unsentEvents: unsentEvents,
            newestSourceTime: newestSourceTime, ended: hasEnded, followsFeedScore: followsFeedScore,
            statistics: statistics, now: now,
            outbox: outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }, channel: channel,
            endRecords: endRecords)
    }

    /// Continues the game of `checkpoint` under today's options: its coalescer takes
    /// `configuration` (a checkpoint without a readable one gets a fresh coalescer that knows the
    /// score it takes over and counts the hour's budget as spent).
    public init(
        restoring checkpoint: GameCheckpoint, renderer: PushRenderer.Configuration = .init(),
        policy configuration: Coalescer.Configuration = .standard
    ) {
        attributes = checkpoint.attributes
        if var coalescer = checkpoint.coalescer {
            coalescer.reconfigure(configuration)
            policy = coalescer
        } else {
            var fresh = Coalescer(configuration: configuration)
            fresh.resume(state: checkpoint.board.state, shown: checkpoint.lastPushed, at: checkpoint.now)
            fresh.assumeBudgetSpent(at: checkpoint.now)
            policy = fresh
        }
        var restored = PushRenderer(attributes: checkpoint.attributes, configuration: renderer)
        restored.resume(seq: checkpoint.seq, lastTimestamp: checkpoint.lastTimestamp, startPending: checkpoint.startPending)
        self.renderer = restored
        validator = checkpoint.validator
        board = checkpoint.board
        lastPushed = checkpoint.lastPushed
        unsentEvents = checkpoint.unsentEvents
        newestSourceTime = checkpoint.newestSourceTime
        hasEnded = checkpoint.ended
        followsFeedScore = checkpoint.followsFeedScore
        statistics = checkpoint.statistics
        now = checkpoint.now
        outbox = checkpoint.outbox.map { .push($0) }
        channel = checkpoint.channel
        endRecords = checkpoint.endRecords
        // A crash while the channel lingered may have lost the end in the sink: it goes out again,
        // the same bytes, before the channel is deleted (no delete was sent while lingering).
        if case .lingering = channel.phase, !endRecords.isEmpty {
            outbox = endRecords.map { .push($0) } + outbox
            channel.reopen()
        }
    }
}

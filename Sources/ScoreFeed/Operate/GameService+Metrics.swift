import Foundation

extension GameService {
    /// The figures for `--metrics` at `now` (wall clock): each game's from its session (its
    /// statistics and its policy's budget: their one owner), with what `recorder` observed. The
    /// series of a game whose end was delivered more than ``Metrics/endedGameRetention`` ago
    /// are left out; it still counts in `scorefeed_games`.
    public func metrics(now: Date, recorder: MetricsRecorder) async -> Metrics {
        var metrics = recorder.observed(now: now)
        for id in state.order {
            guard let engine = engines[id] else { continue }
            let session = await engine.current
            let ended = session.hasEnded
            metrics.gamesByState[session.operatingState, default: 0] += 1
            if ended { metrics.gamesEnded[session.state.phase.isCalledOff ? session.state.phase.rawValue : "final", default: 0] += 1 }
            let unsent = session.outbox.count { if case .push = $0 { true } else { false } }
            metrics.sinkBacklog += unsent
            if unsent > 0 {
                let cause = await engine.checkpointFailure != nil ? "checkpoint" : session.isHolding ? "channel" : "sink"
                metrics.withheld[cause, default: 0] += unsent
            }
            if ended, unsent == 0, now.timeIntervalSince(recorder.endSeen(id, now: now)) > Metrics.endedGameRetention { continue }
            metrics.games.append(Self.figures(of: session, at: options.clock == .feed ? session.now : max(now, session.now)))
        }
        return metrics
    }

    /// One game's series from its session; the budget's rolling hour ends at `time` (the game's
    /// own clock on feed time).
    static func figures(of session: GameSession, at time: Date) -> Metrics.Game {
        let s = session.statistics
        var pushes: [Metrics.PushKind: Int] = [:]
        for (kind, count) in s.handed {
            let lane = session.lanes.indices.contains(kind.lane) ? session.lanes[kind.lane].platform : .ios
            let platform = lane == .ios ? nil : lane.rawValue
            pushes[Metrics.PushKind(priority: kind.priority, event: kind.event.rawValue, platform: platform), default: 0] += count
        }
        var game = Metrics.Game(
            id: session.attributes.gameId,
            events: ["applied": s.accepted, "duplicate": s.duplicates, "edit": s.edits, "rejected": s.rejected],
            pushes: pushes, budgetUsed: session.priority10Used(at: time), beyondBudget: s.beyondBudget, corrections: s.corrections,
            staleCopies: s.staleCopies)
        for lane in session.lanes.indices.dropFirst() {
            game.otherLanesBudgetUsed[session.lanes[lane].platform.rawValue] = session.lanes[lane].priority10Used(at: time)
        }
        return game
    }
}

extension GameSession {
    /// Priority-10 pushes in the rolling hour up to `time`, within the assumed budget and beyond
    /// it (a policy with no budget: none).
    public func priority10Used(at time: Date) -> Int {
        lanes[0].priority10Used(at: time)
    }
}

extension PlatformLane {
    /// Priority-10 pushes of this lane in the rolling hour up to `time`, within the assumed
    /// budget and beyond it (a policy with no budget: none).
    public func priority10Used(at time: Date) -> Int {
        guard let coalescer = policy as? Coalescer else { return 0 }
        return coalescer.budget.used(at: time) + coalescer.beyond.used(at: time)
    }
}

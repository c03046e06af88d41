import Foundation
import ScoreFeedModel

/// Time passing: held pushes coming due, the drain at the end of the input, compaction, the summaries.
extension GameService {
    /// Lets `engine` send what is due at `now` (a failing sink is ignored, as the push stays
    /// in the outbox), or try again what waits on the sink, and returns its next deadline, in one
    /// hop. `holdingPushes`: a batch is open (see ``MatchEngine/flush(holdingPushes:)``).
    static func tick(_ engine: isolated MatchEngine, now: Date, holdingPushes: Bool = false) async -> EngineStatus {
        if let deadline = engine.deadline, deadline <= now {
            try? await engine.tick(holdingPushes: holdingPushes)
        } else {
            try? await engine.flush(holdingPushes: holdingPushes)
        }
        return EngineStatus.of(engine)
    }

    /// Fires every held push that is due now (system clock) across games, each game in a child
    /// task of its own, and returns once all of them are done.
    public func fireDue(now: Date) async {
        await withDiscardingTaskGroup { group in startDue(now: now, in: &group) }
        await grantFreedChannels()
    }

    /// Starts, in `group`, the work of every game whose deadline is due at `now`: one child per
    /// game, so that a slow sink delays only the game it is sending for, never another game's
    /// held push.
    private func startDue(now: Date, in group: inout DiscardingTaskGroup) {
        while let id = state.popDue(now) {
            guard let engine = engines[id] else { continue }
            // A catch-up whose next part may wait behind the input being taken is decided later
            // (the input's end wakes it).
            if let later = state.holdsCatchUp(id, now: now) {
                if later < .distantFuture { schedule(id, later) }
                group.addTask { await engine.excuseLateness() }
                continue
            }
            // A game the open batch touched goes on holding its pushes for the batch's sync; any
            // other sends what is due now.
            let holding = state.inBatch(id)
            group.addTask { await self.fire(id, engine, now: now, holdingPushes: holding) }
        }
    }

    /// Lets game `id` act on its deadline at `now`, then takes in its next one.
    private func fire(_ id: String, _ engine: MatchEngine, now: Date, holdingPushes: Bool) async {
        var status = await Self.tick(engine, now: now, holdingPushes: holdingPushes)
        // A deadline the tick did not move is looked at again a second later, not at once: the
        // timer must not spin. (None should stay: while its checkpoint cannot be written, an
        // engine wants its write's retry, which each failed try moves on.)
        if let deadline = status.deadline, deadline <= now { status.deadline = now.addingTimeInterval(1) }
        await absorb(id, status)
        await grantFreedChannels()
    }

    /// The earliest moment a held push is due, across games.
    public var nextDeadline: Date? { state.nextDeadline }

    /// Sends held pushes as they come due on the wall clock (``Options/wallClock``) until the task
    /// is cancelled: sleeps until the next deadline, woken sooner when a sooner one is scheduled
    /// (``schedule(_:_:)``) or a game waits for a channel; at most ``timerRest`` at a time. Each
    /// due game's work runs on its own in the timer's task group, so the timer never waits for a
    /// sink and the next deadline is met on time whatever the last one is still sending.
    func runTimer() async {
        await withDiscardingTaskGroup { group in
            await DeadlineLoop(clock: wallClock).run(
                wakeUp: timerWakeUp,
                next: {
                    let target = min(nextDeadline ?? .distantFuture, wallClock.now.addingTimeInterval(Self.timerRest))
                    timerTarget = target
                    return target
                },
                work: { now in
                    timerTarget = nil
                    startDue(now: now, in: &group)
                    // A channel granted now is created through the sink: in a child, like a game's
                    // work, so a slow sink never holds the timer past another game's deadline. (Granted
                    // here, before the timer sleeps again: a child that found nothing to grant would
                    // wake it, and it would look again at once, and again.)
                    if !state.board.waiting.isEmpty {
                        let granted = state.board.grantFreed()
                        if !granted.isEmpty { group.addTask { await self.carry(granted) } }
                    }
                })
        }
    }

    /// The longest the timer sleeps without looking: every deadline wakes it on its own (each
    /// call to an engine reports its deadline, and ``schedule(_:_:)`` wakes the timer for a sooner
    /// one), so this only bounds what a deadline set some other way would wait. A minute: an idle
    /// service, or a simulated day, does not wake every second for nothing.
    static let timerRest: TimeInterval = 60

    /// Wakes the timer when it sleeps past `deadline`.
    func wakeTimer(before deadline: Date) {
        if let timerTarget, deadline < timerTarget { timerWakeUp.signal() }
    }

    /// On the feed clock, fires every game's held pushes at once, each at its own moment of feed
    /// time; on the system clock, each game waits for its own deadlines and its checkpoint's
    /// retries (``MatchEngine/wakeUp``), and for its channel work's retries
    /// (``ChannelBoard/retry(of:)``), until `giveUp`, side by side (a sink slow for one game
    /// holds no other's deadline). Then sends whatever a failed sink left.
    public func drainHeld(until giveUp: Date) async {
        _ = await endBatch()
        if options.clock == .feed {
            await eachGame { _, engine in try? await engine.fireDeadlines(through: .distantFuture) }
        } else {
            let clock = wallClock
            await eachGame { id, engine in
                // The engine's own deadline, not the wake-up heap, whose entries may be stale; and
                // its checkpoint's retries: a final kept from a full disk goes once it has room;
                // and its channel work's (a create the sink failed holds the final), but for a
                // checkpoint that cannot be written: its retry alone, as ``MatchEngine/wakeUp`` says.
                var previous: Date?
                await DeadlineLoop(clock: clock).run(
                    next: {
                        let (wakeUp, writeRetry) = await (engine.wakeUp, engine.checkpointRetry)
                        let due = writeRetry == nil ? [wakeUp, await self.state.board.retry(of: id)].compactMap { $0 }.min() : wakeUp
                        guard let next = due, next <= giveUp else { return nil }
                        defer { previous = next }
                        // The last tick did not move it: looked at again half a second later (see ``fire``).
                        if next <= clock.now, next == previous { return clock.now.addingTimeInterval(0.5) }
                        return next
                    },
                    work: { now in await self.absorb(id, await Self.tick(engine, now: now)) })
            }
        }
        // A last try for each game: a checkpoint whose retry fell past `giveUp` may be written
        // now, and a held push that came due meanwhile goes with it.
        let clock = wallClock
        await eachGame { id, engine in await self.absorb(id, await Self.tick(engine, now: clock.now)) }
    }

    /// For every game, the kept `start`s and `end`s the sink has delivered since its last delivery
    /// are confirmed (``MatchEngine/confirmDelivered()``): at a stop, once the sink's last
    /// deliveries are through. Without it, a token-mode end the sink held until its finish stayed
    /// kept, and the next run sent it again (`scorefeed simulate --seed 4339 --day 37 --mode token
    /// --games ../shared/nba-pbp --interval 20`, session 94).
    public func confirmDelivered() async {
        await eachGame { _, engine in await engine.confirmDelivered() }
    }

    /// Runs `work` for every game (or those of `ids`) and returns what it gave for each. On the
    /// system clock the games run side by side, so a slow sink delays only the game it is sending
    /// for (a drain, a restore, a channel's settling); on feed time one after the other, in the
    /// order they came, as `replay` sends.
    /// `sideBySide`: on feed time too (a batch's flush: its games' records need no order between
    /// them, as its events went to the games side by side).
    @discardableResult
    func eachGame<Result: Sendable>(
        of ids: [String]? = nil, sideBySide: Bool = false, _ work: @escaping @Sendable (String, MatchEngine) async -> Result
    ) async -> [String: Result] {
        let games = (ids ?? state.order).compactMap { id in engines[id].map { (id, $0) } }
        var results: [String: Result] = [:]
        guard options.clock == .system || (sideBySide && games.count > 1) else {
            for (id, engine) in games { results[id] = await work(id, engine) }
            return results
        }
        return await withTaskGroup(of: (String, Result).self) { group in
            for (id, engine) in games { group.addTask { (id, await work(id, engine)) } }
            for await (id, result) in group { results[id] = result }
            return results
        }
    }

    /// Writes every game's snapshot and empties its journal (with a state directory): the state
    /// directory then holds each game in one file, as a clean exit leaves it.
    public func compact() async {
        guard store != nil else { return }
        for id in state.order {
            await engines[id]?.compact()
        }
        try? store?.journal.sync()
    }

    /// One game's figures, for the summary `serve` prints when it stops.
    public struct GameSummary: Sendable {
        public var attributes: GameAttributes
        public var statistics: GameSession.Statistics
        public var state: GameState
        public var ended: Bool
        /// Pushes still waiting for the sink (it failed), or for a channel to send on.
        public var unsent: Int
        /// The game's broadcast channel (none in token mode).
        public var channel: BroadcastChannel
        /// Pushes wait because the game has no channel.
        public var holding: Bool
        /// The game's last checkpoint write failed (with its errno text): its pushes are withheld.
        public var checkpointFailure: ScoreFeedError?
    }

    /// Every game's figures, in the order the games came.
    public func summaries() async -> [GameSummary] {
        var result: [GameSummary] = []
        for id in state.order {
            guard let engine = engines[id] else { continue }
            let session = await engine.current
            result.append(GameSummary(
                attributes: session.attributes, statistics: session.statistics, state: session.state,
                ended: session.hasEnded, unsent: session.outbox.count, channel: session.channel,
                holding: session.isHolding, checkpointFailure: await engine.checkpointFailure))
        }
        return result
    }
}

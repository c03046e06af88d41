import Foundation
import ScoreFeedModel

/// The games' broadcast channels: the board's decisions carried out, settling, reconciliation with APNs.
extension GameService {
    /// Gives game `id` its channel if it has none: the header's, or a created one within the cap
    /// (past it, the game waits for a channel to be deleted).
    func setUpChannel(_ id: String, header channel: String?) async {
        await carry(state.board.start(id, header: channel))
    }

    /// Games that waited for a free channel get one, as far as the cap now allows.
    func grantFreedChannels() async {
        if !state.board.waiting.isEmpty { await carry(state.board.grantFreed()) }
    }

    /// Carries out what the board said, at once and in order: a set-up goes to its game's engine
    /// (which sends its create, takes its header's channel, or is refused one), and what the
    /// engine then reports goes back to the board, whose answer is carried out in turn.
    func carry(_ actions: [ChannelBoard.Action]) async {
        var work = actions[...]
        var write = false
        while let action = work.popFirst() {
            switch action {
            case .setUp(let id, let setup):
                guard let engine = engines[id] else { continue }
                do {
                    try await engine.setUpChannel(setup, holdingPushes: state.holds(id))
                } catch {
                    report("game \(id): \(error)")
                }
                work += take(id, await EngineStatus.of(engine))
            case .report(let text): report(text)
            case .writeDirectory: write = true
            case .wake(let game, let at): schedule(game, at)
            }
        }
        if write { writeChannelDirectory() }
        // A game waiting for a channel is given one by the timer's next look (``fireDue(now:)``).
        if !state.board.waiting.isEmpty, timerTarget != nil { timerWakeUp.signal() }
    }

    /// Until `giveUp`, carries every game's channel through what is left of its life: creates and
    /// deletes the sink did not answer are sent again (backing off), lingers run out (at once on
    /// the feed clock), deletes go once the sink has delivered the game's pushes. Then compares
    /// APNs' channels with the games' (``reconcileChannels()``). Only with ScoreFeed managing the
    /// channels; ``LiveService`` calls it again after the sink's last deliveries (a delete waits
    /// for its game's `end` to be delivered). Returns whether it had any to settle: it then
    /// talked to the sink (at least APNs' list), which is to be finished again.
    @discardableResult
    public func settleChannels(until giveUp: Date) async -> Bool {
        guard options.perGameChannels && options.channels.manage else { return false }
        // Kept channels no device listens to go first: their places under the cap are free for
        // the games that wait.
        await deleteSalvagedChannels()
        var pause: TimeInterval = 0.5
        var firstPass = true
        var busy: [String] = []
        await DeadlineLoop(clock: wallClock).run(
            next: {
                while true {
                    busy = []
                    var nextLinger: Date?
                    for id in state.order {
                        guard let engine = engines[id] else { continue }
                        let status = await EngineStatus.of(engine)
                        await absorb(id, status)
                        if status.workWaits {
                            // Nothing moves while the game's checkpoint cannot be written: not waited for.
                            if status.checkpointFailure == nil { busy.append(id) }
                        } else if case .lingering(_, let until) = status.channel.phase, options.clock == .feed || until <= giveUp {
                            // A linger that outlasts the drain stays in the checkpoint for the next run.
                            busy.append(id)
                            nextLinger = min(nextLinger ?? until, until)
                        }
                    }
                    let waiting = state.board.waiting.count
                    await grantFreedChannels()
                    // A game just given its channel has work of its own: look again.
                    if state.board.waiting.count < waiting { continue }
                    guard !busy.isEmpty || !state.board.salvagedToDelete(now: wallClock.now).isEmpty else { return nil }
                    // On the feed clock a linger ends at once (on the first pass; later passes wait for
                    // the sink); on the system clock it is waited for.
                    var wait = pause
                    if options.clock == .system, let nextLinger { wait = min(wait, max(0.05, nextLinger.timeIntervalSince(wallClock.now))) }
                    if options.clock == .feed, firstPass { wait = 0 }
                    firstPass = false
                    let due = wallClock.now.addingTimeInterval(wait)
                    guard due <= giveUp else { return nil }
                    pause = min(pause * 2, 30)
                    return due
                }
            },
            work: { now in
                await deleteSalvagedChannels()
                // Side by side on the system clock: a delete the sink is slow to answer must not hold
                // another game's linger past its end.
                let feed = options.clock == .feed
                await eachGame(of: busy) { id, engine in
                    if feed { try? await engine.fireDeadlines(through: .distantFuture) }
                    await self.absorb(id, await Self.tick(engine, now: now))
                }
            })
        await reconcileChannels()
        return true
    }

    /// Deletes the channels kept for games whose checkpoints were lost (``ChannelBoard/salvaged``)
    /// that no device listens to any more (``ChannelBoard/salvagedToDelete(now:)``): ScoreFeed
    /// made them, and no game took them back. Each one deleted leaves `channels.json` at once (a
    /// kill after it must not give the game back a channel that is gone); one not deleted is
    /// tried again at the drain's next pass, and by the next run.
    func deleteSalvagedChannels() async {
        let bundleId = (options.channelRenderer ?? options.renderer).bundleId
        for game in state.board.salvagedToDelete(now: wallClock.now) {
            guard let entry = state.board.salvaged[game], let channel = entry.channel else { continue }
            // No game takes it back while its delete is awaited.
            state.board.dropSalvaged([game])
            let request = ChannelRequest.delete(game: game, bundleId: bundleId, channel: channel)
            let answer: ChannelAnswer?
            do { answer = try await sink.manage(request) } catch { answer = nil }
            guard let answer, answer.isSuccess || answer.meansChannelGone else {
                state.board.keep(game, entry)
                report("game \(game): could not delete broadcast channel \(channel), kept since its checkpoint was lost (HTTP \(answer.map { String($0.status) } ?? "none")); tried again later")
                continue
            }
            writeChannelDirectory()
            report("game \(game): broadcast channel \(channel), kept since its checkpoint was lost, deleted (its game is over, or no device listens any more)")
        }
    }

    /// What ``reconcileChannels()`` found at APNs.
    public struct Reconciliation: Hashable, Sendable {
        /// Channels APNs lists that no game owns.
        public var unknown: [String] = []
        /// Of those, the ones deleted (with ``ChannelManagement/deleteUnknown``).
        public var deleted: [String] = []
        /// The list could not be had.
        public var failure: String?
    }

    /// Lists the app's channels at APNs and compares them with the games' own: a channel no game
    /// owns (a create whose answer was lost, in a crash or a time-out) is deleted when every
    /// channel of the app is ScoreFeed's (``ChannelManagement/deleteUnknown``), else reported.
    @discardableResult
    public func reconcileChannels() async -> Reconciliation {
        var result = Reconciliation()
        let bundleId = (options.channelRenderer ?? options.renderer).bundleId
        let listing = ChannelRequest.list(bundleId: bundleId, requestID: UUID().uuidString.lowercased())
        let answer: ChannelAnswer?
        do { answer = try await sink.manage(listing) } catch { answer = nil; result.failure = "\(error)" }
        guard let answer, answer.isSuccess, let listed = answer.channels else {
            result.failure = result.failure ?? "the list of channels was not answered (HTTP \(answer.map { String($0.status) } ?? "none"))"
            report("channels: cannot compare APNs' channels with the games' (\(result.failure!)); channels a lost create made are not found")
            return result
        }
        let gone = state.board.dropSalvaged(notIn: Set(listed))
        if !gone.isEmpty {
            report("channels: APNs no longer has the channel\(gone.count == 1 ? "" : "s") kept for \(gone.joined(separator: ", ")) (deleted before a kill); not kept")
            writeChannelDirectory()
        }
        let found = state.board.unknown(in: listed)
        result.unknown = found.unknown
        guard !result.unknown.isEmpty else { return result }
        // A create not yet answered may be the one that made an unknown channel (its answer can
        // still hand it back), and a channel your backend made for a game not yet seen is not
        // ScoreFeed's to delete: then they are only reported.
        guard found.deletable else {
            report("channels: APNs lists \(result.unknown.count) channel\(result.unknown.count == 1 ? "" : "s") that no game in the state directory owns: \(result.unknown.prefix(20).joined(separator: ", "))\(result.unknown.count > 20 ? ", …" : ""); \(found.why ?? "")")
            return result
        }
        for id in result.unknown {
            let request = ChannelRequest.delete(game: nil, bundleId: bundleId, channel: id)
            do {
                if let answer = try await sink.manage(request), answer.isSuccess || answer.meansChannelGone {
                    result.deleted.append(id)
                } else {
                    report("channels: could not delete channel \(id), which no game owns")
                }
            } catch {
                report("channels: could not delete channel \(id), which no game owns: \(error)")
            }
        }
        report("channels: deleted \(result.deleted.count) channel\(result.deleted.count == 1 ? "" : "s") that no game owned (made by a create whose answer was lost)")
        return result
    }

    /// Rewrites `channels.json` from the games' channels (with a state directory).
    func writeChannelDirectory() {
        guard let store, options.perGameChannels else { return }
        do {
            try store.write(state.board.directory.encoded(), named: ChannelDirectory.fileName)
        } catch {
            report("channels: cannot write \(ChannelDirectory.fileName): \(error)")
        }
    }
}

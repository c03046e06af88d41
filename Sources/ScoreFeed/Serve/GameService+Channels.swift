import Foundation
import ScoreFeedModel

/// The games' broadcast channels: the board's decisions carried out, settling, reconciliation with APNs.
extension GameService {
    /// Gives game `id` its channel if it has none: the header's, or a created one within the cap
    /// (past it, the game waits for a channel to be deleted).
    func setUpChannel(_ id: String, header channel: String?) async {
        carry(board.start(id, header: channel))
        await carryOutSetUps()
    }

    /// Games that waited for a free channel get one, as far as the cap now allows.
    func grantFreedChannels() async {
        if !board.waiting.isEmpty { carry(board.grantFreed()) }
        await carryOutSetUps()
    }

    /// Carries out the channel set-ups the board decided: each game's engine sends its create (or
    /// takes its header's channel, or is refused one), and reports back.
    func carryOutSetUps() async {
        while !setUps.isEmpty {
            let (id, setup) = setUps.removeFirst()
            guard let engine = games[id]?.engine else { continue }
            do {
                try await engine.setUpChannel(setup, holdingPushes: holds(id))
            } catch {
                report("game \(id): \(error)")
            }
            absorb(id, await Step.of(engine))
        }
    }

    /// Carries out what the board said, but the set-ups, which wait for ``carryOutSetUps()``.
    func carry(_ actions: [ChannelBoard.Action]) {
        var write = false
        for action in actions {
            switch action {
            case .setUp(let game, let setup): setUps.append((game, setup))
            case .report(let text): report(text)
            case .writeDirectory: write = true
            case .wake(let game, let at): schedule(game, at)
            }
        }
        if write { writeChannelDirectory() }
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
        var pause: TimeInterval = 0.5
        var firstPass = true
        var busy: [String] = []
        await DeadlineLoop(clock: wallClock).run(
            next: {
                while true {
                    busy = []
                    var nextLinger: Date?
                    for id in order {
                        guard let engine = games[id]?.engine else { continue }
                        let step = await Step.of(engine)
                        absorb(id, step)
                        if step.channel.workWaits {
                            // Nothing moves while the game's checkpoint cannot be written: not waited for.
                            if step.checkpointFailure == nil { busy.append(id) }
                        } else if case .lingering(_, let until) = step.channel.channel.phase, options.clock == .feed || until <= giveUp {
                            // A linger that outlasts the drain stays in the checkpoint for the next run.
                            busy.append(id)
                            nextLinger = min(nextLinger ?? until, until)
                        }
                    }
                    let waiting = board.waiting.count
                    await grantFreedChannels()
                    // A game just given its channel has work of its own: look again.
                    if board.waiting.count < waiting { continue }
                    guard !busy.isEmpty else { return nil }
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
                for id in busy {
                    guard let game = games[id] else { continue }
                    if options.clock == .feed {
                        try? await game.engine.fireDeadlines(through: .distantFuture)
                    }
                    absorb(id, await Self.tick(game.engine, now: now))
                }
            })
        await reconcileChannels()
        return true
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
        let bundleId = options.renderer.bundleId
        let listing = ChannelRequest.list(bundleId: bundleId, requestID: UUID().uuidString.lowercased())
        let answer: ChannelAnswer?
        do { answer = try await sink.manage(listing) } catch { answer = nil; result.failure = "\(error)" }
        guard let answer, answer.isSuccess, let listed = answer.channels else {
            result.failure = result.failure ?? "the list of channels was not answered (HTTP \(answer.map { String($0.status) } ?? "none"))"
            report("channels: cannot compare APNs' channels with the games' (\(result.failure!)); channels a lost create made are not found")
            return result
        }
        let found = board.unknown(in: listed)
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
            try store.write(board.directory.encoded(), named: ChannelDirectory.fileName)
        } catch {
            report("channels: cannot write \(ChannelDirectory.fileName): \(error)")
        }
    }
}

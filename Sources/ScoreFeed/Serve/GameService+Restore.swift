import Foundation
import ScoreFeedModel

/// Restoring games from the state directory: each game's checkpoint and journal, a lost one's numbering.
extension GameService {
    /// What ``restore()`` found in the state directory.
    public struct Restoration: Sendable {
        /// Games that continue where they stopped.
        public var resumedGames = 0
        /// Checkpoints that could not be read (those games start afresh when their events come),
        /// and games whose policy state was from another version (resumed with a fresh policy
        /// that treats the hour's priority-10 budget as spent).
        public var problems: [ScoreFeedError] = []
        /// The inputs each resumed game's checkpoint gave back (its journaled count before the
        /// restore sends anything), for the simulator's check that a restart loses nothing.
        var inputs: [String: Int] = [:]
    }

    /// Loads every checkpoint in the state directory and sends what their outboxes still hold.
    @discardableResult
    public func restore() async throws -> Restoration {
        var restoration = Restoration()
        guard let store else { return restoration }
        // A checkpoint put aside on an earlier start whose game has not written a new one since.
        for aside in try store.putAside() where !FileManager.default.fileExists(atPath: aside.checkpoint.path) {
            state.lostCheckpoints[aside.checkpoint.standardizedFileURL.path] = LostNumbering(aside.data, journal: aside.journal)
        }
        // Each journal as it was read here, by path: the journal need not read it again.
        var journals: [String: Journal.Reading] = [:]
        for entry in try store.readAll() {
            let place = ScoreFeedError.Location(file: entry.file.path)
            var session: GameSession
            do {
                guard entry.isReadable else { throw ScoreFeedError(.io, "cannot read the file", at: .init(file: entry.holder.path)) }
                let reading = Journal.reading(of: entry.journal)
                if let reading { journals[CheckpointStore.journalURL(of: entry.file).path] = reading }
                session = try GameSession.read(entry.data, reading: reading, file: entry.file.path)
                try GameID.check(session.attributes.gameId, "its game id", at: place)
            } catch {
                var problem = error as? ScoreFeedError ?? ScoreFeedError(.invalidValue, "\(error)", at: place)
                // (A game with no snapshot yet puts its journal aside: read again at every start, it
                // would be a problem each time.)
                let aside = entry.holder.appendingPathExtension("unreadable")
                try? FileManager.default.removeItem(at: aside)
                let kept = (try? FileManager.default.moveItem(at: entry.holder, to: aside)) != nil
                let numbering = LostNumbering(entry.data, journal: entry.journal)
                problem.message = "cannot use the checkpoint (\(problem.message)); its game starts afresh when its events come, "
                    + "with its priority-10 budget counted as spent for an hour and \(numbering.explained)"
                    + (kept ? "; the file is kept as \(aside.lastPathComponent)" : "")
                restoration.problems.append(problem)
                state.lostCheckpoints[entry.file.standardizedFileURL.path] = numbering
                continue
            }
            let id = session.attributes.gameId
            // A game's activity lives on one lock screen: an iOS game taken on by an Android run
            // would go on with no start (and the other way round, with a start mid-game).
            let written = session.platforms.map(\.rawValue).joined(separator: ",")
            let running = options.lanes.map(\.renderer.platform.rawValue).joined(separator: ",")
            guard written == running else {
                throw ScoreFeedError(
                    .usage,
                    "game \(id)'s checkpoint was written for \(written), and this run is for \(running): "
                        + "a state directory holds the games of one set of platforms (give each its own --state-dir)",
                    at: place)
            }
            session.resume(lanes: options.lanes)
            if case .superseded(let aside) = store.adopt(entry.file, for: id) {
                restoration.problems.append(ScoreFeedError(
                    .invalidValue, "game \(id) has a checkpoint under its own name too, which is used; this older one is put aside as \(aside.lastPathComponent)",
                    at: place))
                continue
            }
            if session.policyWasReset {
                restoration.problems.append(ScoreFeedError(
                    .invalidValue,
                    "the push policy's state in the checkpoint is from another version; game \(id) resumes with a fresh policy and its priority-10 budget counted as spent for the next hour",
                    at: place))
            }
            if options.perGameChannels { session.claimChannel(for: identity) }
            let engine = MatchEngine(
                session: session, clock: makeClock(at: session.now), sink: sink, checkpoints: store, wallClock: wallClock,
                metrics: options.metrics)
            restoration.inputs[id] = session.journaled
            add(id, engine)
            state.board.restored(id, channel: session.channel)
            state.counters.resumedGames += 1
            restoration.resumedGames += 1
        }
        // What a killed process left may not be on the disk yet: synced before anything goes.
        store.journal.syncBeforeTheNextPush(engines.keys.sorted().map { store.journalURL(for: $0).path }, read: journals)
        salvageChannels()
        writeChannelDirectory()
        // What the outboxes still hold goes out (side by side on the system clock: a slow sink
        // delays the start by its slowest game, not by the sum of them).
        let failures = await eachGame { id, engine -> ScoreFeedError? in
            do { try await engine.flush() } catch { return Self.sinkFailed(id, error) }
            return nil
        }.compactMapValues { $0 }
        for id in state.order {
            guard let engine = engines[id] else { continue }
            if let failure = failures[id] { restoration.problems.append(failure) }
            // A push held before the stop waits briefly for what the stop kept from the game: the
            // input, which starts once the restore is over, so the window starts now.
            if options.clock == .system { await engine.restart(window: options.catchUpWindow) }
            let status = await EngineStatus.of(engine)
            await absorb(id, status)
            // A game whose pushes wait for a channel it never got (past the cap, or taken over
            // from a damaged checkpoint) waits for one again: the board's queue died with the
            // instance before, and a game that has ended is not started again by its input (seed
            // 4, day 12, real games: a final held for good).
            if status.holding, case .none = status.channel.phase { await setUpChannel(id, header: nil) }
        }
        // After the creates a crash left unanswered were sent again: a sender that deduplicates by
        // apns-request-id hands back the channel it made, which is then owned; one APNs made twice
        // is not.
        if options.perGameChannels && options.channels.manage { await reconcileChannels() }
        return restoration
    }

    /// Keeps the channels `channels.json` shows ScoreFeed made for games no checkpoint restored
    /// (``ChannelBoard/salvage(from:)``), before the file is written anew from the games: a game
    /// whose checkpoint was damaged goes on on the channel its devices subscribed to, instead of
    /// the reconciliation deleting it as no game's.
    func salvageChannels() {
        guard let store, options.perGameChannels, options.channels.manage,
              let data = store.read(named: ChannelDirectory.fileName, largest: Self.largestChannelDirectory)
        else { return }
        let file = store.directory.appendingPathComponent(ChannelDirectory.fileName).path
        let directory: ChannelDirectory
        do {
            directory = try ChannelDirectory.decode(data, file: file)
        } catch {
            report("channels: cannot read the last run's \(ChannelDirectory.fileName) (\(error)); the channels of games whose checkpoints were lost are not kept")
            return
        }
        for game in state.board.salvage(from: directory) {
            let channel = state.board.salvaged[game]?.channel ?? ""
            report("game \(game): no checkpoint restored it; its broadcast channel \(channel) is kept for it (its devices subscribed to it) until it starts again")
        }
    }

    /// The largest `channels.json` read at a restart (a game's row is about 150 bytes).
    static let largestChannelDirectory = 16 << 20

    /// Where a game whose checkpoint was lost goes on numbering its pushes: after the `seq` and
    /// timestamp the file still shows, or, when it shows none, a million on (a game makes a few
    /// hundred pushes), so receivers see `seq` keep rising. (The ids cover the body, so they
    /// never repeat whatever the numbering; a timestamp the file does not show is 0, and the
    /// renderer's head start then covers the lost run's.)
    struct LostNumbering {
        var seq: Int
        var lastTimestamp: Int
        var salvaged: Bool

        static let jump = 1_000_000

        init(_ data: Data?, journal: Data? = nil) {
            // Every push's seq is in a whole journal line (synced before the push went), wherever
            // the line stands: one after a damaged line, or after a damaged base, counts too.
            let highest = journal.flatMap(Journal.highestNumbering)
            let snapshot = GameSession.salvageNumbering(data)
            if let highest, highest.seq >= snapshot?.seq ?? 0 {
                // The journal numbers on from the checkpoint.
                seq = highest.seq
                lastTimestamp = highest.lastTimestamp
                salvaged = true
            } else if journal?.isEmpty == false, highest == nil {
                // A journal that cannot be read may have numbered pushes past the checkpoint.
                seq = (snapshot?.seq ?? 0) + Self.jump
                lastTimestamp = 0
                salvaged = false
            } else if let snapshot {
                seq = snapshot.seq
                lastTimestamp = snapshot.lastTimestamp
                salvaged = true
            } else {
                seq = Self.jump
                lastTimestamp = 0
                salvaged = false
            }
        }

        var explained: String {
            salvaged ? "its pushes numbered on from seq \(seq + 1), as the file still shows"
                : "its pushes numbered from seq \(seq + 1), past any the lost file could have used"
        }
    }
}

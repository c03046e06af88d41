import Foundation
import ScoreFeedModel

/// Runs many games at once from one stream of lines: routes each event to its game's
/// ``MatchEngine``, fires held pushes on time, and lets each engine checkpoint its game so a
/// restart resumes where it stopped.
///
/// What a game has applied lives in its ``GameSession`` alone (inside the engine, and in its
/// checkpoint): this type keeps only the routing table, the wake-up heap and line counts.
/// Identity is not order: an event already applied is ignored at any distance, and a feed in
/// its own order is never rejected for it.
public actor GameService {
    /// Where the engines' time comes from.
    public enum ClockMode: String, Sendable {
        /// The real clock: held pushes go out on time even when no event arrives.
        case system
        /// Each game's own feed time, as in replay: deterministic, for recorded streams and tests.
        case feed
    }

    public struct Options: Sendable {
        public var clock: ClockMode
        public var coalescer: Coalescer.Configuration
        public var renderer: PushRenderer.Configuration
        /// Checkpoints go here; nil runs without them.
        public var stateDirectory: URL?
        /// Broadcast mode with a channel per game (``PushRenderer/Mode/broadcastPerGame``): where
        /// each game's channel comes from and how long it lives.
        public var channels: ChannelManagement
        /// Told what only the live code sees (feed-to-push times, checkpoint writes, sink errors),
        /// for `--metrics`; nil: nothing is measured.
        public var metrics: MetricsRecorder?

        public init(
            clock: ClockMode = .system, coalescer: Coalescer.Configuration = .standard,
            renderer: PushRenderer.Configuration = .init(), stateDirectory: URL? = nil,
            channels: ChannelManagement = .init(), metrics: MetricsRecorder? = nil
        ) {
            self.clock = clock
            self.coalescer = coalescer
            self.renderer = renderer
            self.stateDirectory = stateDirectory
            self.channels = channels
            self.metrics = metrics
        }

        /// Whether each game sends on its own channel.
        var perGameChannels: Bool { renderer.mode == .broadcastPerGame }
    }

    /// What the service has read.
    public struct Counters: Hashable, Sendable {
        public var lines = 0
        public var headers = 0
        public var events = 0
        public var badLines = 0
        public var unknownGame = 0
        public var resumedGames = 0
    }

    struct Game {
        var engine: MatchEngine
        var manual: ManualClock?
        /// The earliest deadline of this game waiting in the heap (system clock): a later one
        /// need not be added, as that entry's wake-up re-reads the engine and schedules again.
        var scheduled: Date?
    }

    /// What the service needs from an engine after handing it an event or a tick, gathered on
    /// the engine's executor so that it takes one actor hop instead of one per question.
    struct Step: Sendable {
        var deadline: Date?
        var checkpointFailure: ScoreFeedError?
        var channel = BroadcastChannel()
        var channelNews: [BroadcastChannel.Outcome] = []
        var holding = false
        /// Channel work waits on the sink (a request it did not answer, a delete behind pushes it
        /// still holds): the engine is to be woken again, backing off.
        var channelWorkWaits = false
        /// The sink failed (the output stays in the outbox for the next call).
        var sinkFailure: (any Error)?

        /// What the service needs from `engine` now.
        static func of(_ engine: isolated MatchEngine) -> Step {
            Step(
                deadline: engine.deadline, checkpointFailure: engine.checkpointFailure,
                channel: engine.channel, channelNews: engine.takeChannelNews(), holding: engine.isHolding,
                channelWorkWaits: engine.channelWorkWaits)
        }
    }

    let options: Options
    private let sink: any PushSink
    private nonisolated let store: CheckpointStore?
    /// The state directory's identity (``CheckpointStore/identity()``), or without one a random
    /// one for this run: the owner of the channels this service creates (``BroadcastChannel/owner``).
    public nonisolated let identity: String
    /// The games' journals (with a state directory): bytes written and syncs made, for figures.
    public nonisolated var journal: Journal? { store?.journal }
    private let systemClock = SystemClock()
    private(set) var games: [String: Game] = [:]
    /// Game ids in the order their headers (or checkpoints) came, for summaries.
    private(set) var order: [String] = []
    private var deadlines = DeadlineHeap()
    /// Games whose checkpoint could not be used, by the checkpoint's path: their budgets are
    /// unknown, and the numbering they had reached when it could be read.
    private var lostCheckpoints: [String: LostNumbering] = [:]
    /// Checkpoint write failures already reported, by game.
    private var reportedFailures: Set<String> = []
    /// Games whose held pushes (no channel to send on) were reported.
    private var reportedHolds: Set<String> = []
    /// Each game's channel as its engine last said (or as reserved before its create is sent):
    /// what `channels.json` shows and the cap counts. The engines' sessions own the truth.
    private var channels: [String: BroadcastChannel] = [:]
    /// Where messages for people go (channel news, held games); serve and poll print them.
    private let report: @Sendable (String) -> Void
    /// Games that wait for a free channel (past ``ChannelManagement/maxChannels``), in order.
    private var waitingForChannel: [String] = []
    /// Games a batch of lines touched, in order: flushed once the batch is durable.
    private var touched: [String] = []
    private var touchedSet: Set<String> = []
    /// Seconds before a game whose channel work waits on the sink is woken again (system clock).
    private var channelRetry: [String: TimeInterval] = [:]
    public private(set) var counters = Counters()

    /// `report` receives lines for people about the games' channels (created, deleted, refused,
    /// pushes held for want of one).
    public init(
        options: Options, sink: any PushSink, report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ScoreFeedError) {
        var options = options
        // On the system clock a game new to this instance may follow a lost one's timestamps.
        if options.clock == .system, options.renderer.headStart == nil {
            options.renderer.headStart = PushRenderer.Configuration.failoverHeadStart
        }
        self.options = options
        self.sink = sink
        self.report = report
        store = try options.stateDirectory.map { url throws(ScoreFeedError) in try CheckpointStore(directory: url) }
        identity = try store?.identity() ?? UUID().uuidString
    }

    /// What ``restore()`` found in the state directory.
    public struct Restoration: Sendable {
        /// Games that continue where they stopped.
        public var resumedGames = 0
        /// Checkpoints that could not be read (those games start afresh when their events come),
        /// and games whose policy state was from another version (resumed with a fresh policy
        /// that treats the hour's priority-10 budget as spent).
        public var problems: [ScoreFeedError] = []
    }

    /// Loads every checkpoint in the state directory and sends what their outboxes still hold.
    @discardableResult
    public func restore() async throws -> Restoration {
        var restoration = Restoration()
        guard let store else { return restoration }
        // A checkpoint put aside on an earlier start whose game has not written a new one since.
        for aside in try store.putAside() where !FileManager.default.fileExists(atPath: aside.checkpoint.path) {
            lostCheckpoints[aside.checkpoint.standardizedFileURL.path] = LostNumbering(aside.data, journal: aside.journal)
        }
        for entry in try store.readAll() {
            let place = ScoreFeedError.Location(file: entry.file.path)
            var session: GameSession
            do {
                guard let data = entry.data else { throw ScoreFeedError(.io, "cannot read the file", at: place) }
                session = try GameSession.restore(
                    data, journal: entry.journal, file: entry.file.path, renderer: options.renderer, policy: options.coalescer)
                try GameID.check(session.attributes.gameId, "its game id", at: place)
            } catch {
                var problem = error as? ScoreFeedError ?? ScoreFeedError(.invalidValue, "\(error)", at: place)
                let aside = entry.file.appendingPathExtension("unreadable")
                try? FileManager.default.removeItem(at: aside)
                let kept = (try? FileManager.default.moveItem(at: entry.file, to: aside)) != nil
                let numbering = LostNumbering(entry.data, journal: entry.journal)
                problem.message = "cannot use the checkpoint (\(problem.message)); its game starts afresh when its events come, "
                    + "with its priority-10 budget counted as spent for an hour and \(numbering.explained)"
                    + (kept ? "; the file is kept as \(aside.lastPathComponent)" : "")
                restoration.problems.append(problem)
                lostCheckpoints[entry.file.standardizedFileURL.path] = numbering
                continue
            }
            let id = session.attributes.gameId
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
            session.channelLinger = options.channels.linger
            if options.perGameChannels { session.claimChannel(for: identity) }
            let manual = options.clock == .feed ? ManualClock(session.now) : nil
            let engine = MatchEngine(session: session, clock: manual ?? systemClock, sink: sink, checkpoints: store, metrics: options.metrics)
            add(id, Game(engine: engine, manual: manual))
            channels[id] = session.channel
            counters.resumedGames += 1
            restoration.resumedGames += 1
        }
        writeChannelDirectory()
        for id in order {
            guard let engine = games[id]?.engine else { continue }
            do {
                try await engine.flush()
            } catch {
                restoration.problems.append(Self.sinkFailed(id, error))
            }
            absorb(id, await Step.of(engine))
        }
        // After the creates a crash left unanswered were sent again: a sender that deduplicates by
        // apns-request-id hands back the channel it made, which is then owned; one APNs made twice
        // is not.
        if options.perGameChannels && options.channels.manage { await reconcileChannels() }
        return restoration
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
        let owned = Set(channels.values.compactMap(\.id))
        result.unknown = listed.filter { !owned.contains($0) }.sorted()
        guard !result.unknown.isEmpty else { return result }
        // A create not yet answered may be the one that made an unknown channel (its answer can
        // still hand it back), and a channel your backend made for a game not yet seen is not
        // ScoreFeed's to delete: then they are only reported.
        let creating = channels.filter { if case .creating = $0.value.phase { true } else { false } }.keys.sorted()
        let backend = channels.values.contains { $0.origin == .header }
        guard options.channels.deleteUnknown, creating.isEmpty, !backend else {
            let why = !options.channels.deleteUnknown
                ? "if every channel of this app is this state directory's, --delete-unknown-channels deletes them"
                : !creating.isEmpty
                    ? "not deleted while the create of \(creating.prefix(5).joined(separator: ", ")) is unanswered (a later reconciliation deletes them)"
                    : "not deleted: games here use channels your backend made, so not every channel of this app is ScoreFeed's"
            report("channels: APNs lists \(result.unknown.count) channel\(result.unknown.count == 1 ? "" : "s") that no game in the state directory owns: \(result.unknown.prefix(20).joined(separator: ", "))\(result.unknown.count > 20 ? ", …" : ""); \(why)")
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

    /// Handles one item of the input; returns a message for people when the line was bad.
    public func handle(_ item: LineReader.Item, source: String? = nil) async -> ScoreFeedError? {
        await handle(ParsedLine(item, source: source), source: source)
    }

    /// Handles one line parsed beforehand (on the reader's thread); returns a message for people
    /// when the line was bad.
    public func handle(_ line: ParsedLine, source: String? = nil) async -> ScoreFeedError? {
        counters.lines += 1
        switch line.content {
        case .success(nil):
            return nil
        case .success(.header(let attributes, let channel)?):
            counters.headers += 1
            await start(attributes, channel: channel)
            return nil
        case .success(.event(let id, let event)?):
            return await apply(event, to: id, line: line.number, source: source)
        case .failure(let error):
            counters.badLines += 1
            return error
        }
    }

    /// Handles a batch of lines as one: applied in order, made durable with one sync (with a
    /// journal), then their pushes sent. Returns the messages for people, in order.
    ///
    /// On the system clock the batch arrived together: each game's events in it are one moment
    /// (one arrival, one decision), wherever headers and other lines fall between them. On feed
    /// time each event is its own moment, as in replay.
    public func handle(batch: [ParsedLine], source: String? = nil) async -> [ScoreFeedError] {
        if options.clock == .system { return await handle(arrival: batch, source: source) }
        beginBatch()
        var messages: [ScoreFeedError] = []
        var start = 0
        while start < batch.count {
            // A run of events for games already known goes to the games side by side; any other
            // line (a header, a bad line, an unknown game's event) on its own, in order.
            // Each game's events in order, the games as they first came (one lookup per line).
            var run: [(game: String, events: [Pending])] = []
            var place: [String: Int] = [:]
            var end = start
            while end < batch.count, case .success(.event(let id, let event)?) = batch[end].content {
                let pending = Pending(index: end, line: batch[end].number, event: event)
                if let known = place[id] {
                    run[known].events.append(pending)
                } else if games[id] != nil {
                    place[id] = run.count
                    run.append((id, [pending]))
                } else {
                    break
                }
                end += 1
            }
            if end == start {
                if let message = await handle(batch[start], source: source) { messages.append(message) }
                start += 1
            } else {
                messages += await apply(run, of: batch, source: source).map(\.message)
                counters.lines += end - start
                counters.events += end - start
                start = end
            }
        }
        if let message = await endBatch() { messages.append(message) }
        return messages
    }

    /// ``handle(batch:source:)`` on the system clock: headers, bad lines and events of unknown
    /// games are taken in order; every known game's events wait, then go to the games as one
    /// run, so each game decides once on the batch.
    private func handle(arrival batch: [ParsedLine], source: String?) async -> [ScoreFeedError] {
        beginBatch()
        var messages: [(index: Int, message: ScoreFeedError)] = []
        var run: [(game: String, events: [Pending])] = []
        var place: [String: Int] = [:]
        var events = 0
        for index in batch.indices {
            if case .success(.event(let id, let event)?) = batch[index].content, games[id] != nil {
                let pending = Pending(index: index, line: batch[index].number, event: event)
                if let known = place[id] {
                    run[known].events.append(pending)
                } else {
                    place[id] = run.count
                    run.append((id, [pending]))
                }
                events += 1
            } else if let message = await handle(batch[index], source: source) {
                messages.append((index, message))
            }
        }
        if !run.isEmpty {
            counters.lines += events
            counters.events += events
            messages += await apply(run, of: batch, source: source)
        }
        var said = messages.sorted { $0.index < $1.index }.map(\.message)
        if let message = await endBatch() { said.append(message) }
        return said
    }

    /// Starts a batch of ``handle(_:source:)`` calls (with a journal): the games hold their pushes
    /// until ``endBatch()`` has made the whole batch durable with one sync (group commit).
    public func beginBatch() {
        store?.journal.holdsDeliveries = true
    }

    /// Ends a batch of ``handle(_:source:)`` calls: one sync makes everything they applied
    /// durable (group commit), then every game they touched sends its pushes. Returns a message
    /// for people when the journal could not be written or a sink failed.
    public func endBatch() async -> ScoreFeedError? {
        guard let journal = store?.journal, journal.holdsDeliveries else { return nil }
        journal.holdsDeliveries = false
        var failure: ScoreFeedError?
        do {
            try MetricsRecorder.measure(options.metrics) { () throws(ScoreFeedError) in try journal.sync() }
        } catch {
            // Each game tries again before it sends, and holds its pushes while it fails.
            failure = error
        }
        // Each game sends its pushes, each recorded as delivered before the next goes (any
        // game's): a crash sends again at most the one in flight.
        let batch = touched
        touched = []
        touchedSet = []
        for id in batch {
            guard let engine = games[id]?.engine else { continue }
            let step = await Self.flush(engine)
            failure = failure ?? checkpointProblem(id, step.checkpointFailure) ?? step.sinkFailure.map { Self.sinkFailed(id, $0) }
            absorb(id, step)
        }
        return failure
    }

    private static func flush(_ engine: isolated MatchEngine) async -> Step {
        do {
            try await engine.flush()
            return Step.of(engine)
        } catch {
            var step = Step.of(engine)
            step.sinkFailure = error
            return step
        }
    }

    /// Starts following a game (a header, or a poller that knows its teams); a game already known
    /// is kept. In broadcast mode with a channel per game, a game with no channel yet gets one:
    /// `channel` (the header's, made by your backend) or, with ``ChannelManagement/manage``, one
    /// created now, within ``ChannelManagement/maxChannels``.
    public func start(_ attributes: GameAttributes, channel: String? = nil) async {
        let id = attributes.gameId
        if games[id] == nil { add(id, makeGame(attributes: attributes)) }
        await setUpChannel(id, header: channel)
    }

    /// A game that is about to start (today's scoreboard, before its play-by-play exists): with
    /// ScoreFeed managing channels in broadcast mode it starts now, so its channel is made ahead
    /// of tip-off and the app can subscribe; otherwise it starts with its first events. Returns
    /// whether it started now.
    public func announce(_ attributes: GameAttributes) async -> Bool {
        guard options.perGameChannels, options.channels.manage, games[attributes.gameId] == nil else { return false }
        await start(attributes)
        return true
    }

    /// Gives game `id` its channel if it has none: the header's, or a created one within the cap
    /// (past it, the game waits for a channel to be deleted).
    private func setUpChannel(_ id: String, header channel: String?) async {
        guard options.perGameChannels, let game = games[id], case .none = channels[id]?.phase ?? .none else { return }
        let setup: MatchEngine.ChannelSetup
        if let channel {
            if let problem = BroadcastChannel.problem(with: channel) {
                setup = .refuse("its header's \"channel\" \(problem)")
            } else if let other = channels.first(where: { $0.key != id && $0.value.id == channel })?.key {
                setup = .refuse("its header's \"channel\" \(channel) is game \(other)'s; two games never share one")
            } else {
                setup = .use(channel, storage: options.channels.storage)
            }
        } else if options.channels.manage {
            let live = channels.values.filter(\.isLive).count
            if live >= options.channels.maxChannels {
                if !waitingForChannel.contains(id) {
                    waitingForChannel.append(id)
                    report("game \(id): ScoreFeed already keeps \(live) channels, the most --max-channels allows (\(options.channels.maxChannels)); no create was sent, and the game holds its pushes until a channel is deleted")
                }
                return
            }
            waitingForChannel.removeAll { $0 == id }
            setup = .create(storage: options.channels.storage)
            // Counted against the cap before the create is awaited.
            var reserved = BroadcastChannel()
            reserved.create(storage: options.channels.storage)
            channels[id] = reserved
        } else {
            return
        }
        do {
            try await game.engine.setUpChannel(setup)
        } catch {
            report("game \(id): \(error)")
        }
        absorb(id, await Step.of(game.engine))
    }

    /// Games that waited for a free channel get one, as far as the cap now allows.
    private func grantFreedChannels() async {
        while let id = waitingForChannel.first, channels.values.filter(\.isLive).count < options.channels.maxChannels {
            waitingForChannel.removeFirst()
            await setUpChannel(id, header: nil)
        }
    }

    /// Whether the game is known (from a header, a checkpoint or ``start(_:)``).
    public func knows(_ game: String) -> Bool { games[game] != nil }

    /// Whether the game's `end` has been rendered.
    public func hasEnded(_ game: String) async -> Bool {
        await games[game]?.engine.hasEnded ?? false
    }

    /// Hands one event of `game` to its engine, as a line would (`line` numbers it in messages).
    public func receive(_ event: GameEvent, game: String, line: Int, source: String? = nil) async -> ScoreFeedError? {
        counters.lines += 1
        return await apply(event, to: game, line: line, source: source)
    }

    /// `game` ends without a final (``MatchEngine/callOff(_:why:)``): postponed, or suspended
    /// with the score it had. A game not known here is not started for it: nothing was shown.
    public func callOff(_ phase: GamePhase, why: String, game id: String) async -> ScoreFeedError? {
        guard let game = games[id] else { return nil }
        var failure: ScoreFeedError?
        do {
            try await game.engine.callOff(phase, why: why)
        } catch {
            failure = Self.sinkFailed(id, error)
        }
        absorb(id, await Step.of(game.engine))
        return failure
    }

    /// How many of `game`'s events its engine has applied (accepted or edits): what moves when
    /// its feed brings news.
    public func progress(of id: String) async -> Int {
        guard let engine = games[id]?.engine else { return 0 }
        let statistics = await engine.statistics
        return statistics.accepted + statistics.edits
    }

    /// How `game` ended: its phase once its `end` is out (final, postponed or suspended); nil
    /// while it has not ended (or is not known).
    public func ending(of id: String) async -> GamePhase? {
        guard let engine = games[id]?.engine, await engine.hasEnded else { return nil }
        return await engine.state.phase
    }

    /// The feed says `game`'s running score is `score` as of feed time `time` (its newest event's).
    public func follow(_ score: FinalScore, game id: String, at time: Date) async -> ScoreFeedError? {
        guard let game = games[id] else { return nil }
        var failure: ScoreFeedError?
        do {
            try await game.engine.follow(score, at: time, moving: game.manual)
        } catch {
            failure = Self.sinkFailed(id, error)
        }
        absorb(id, await Step.of(game.engine))
        return failure
    }

    /// Hands one snapshot of `game`'s feed to its engine (a poll's answer): its new events, then
    /// the feed's running score, then the game's end. On the system clock the snapshot arrived
    /// together and is one moment: the past costs at most one push. On feed time each event is
    /// its own moment, as in replay. Returns the messages for people (rejections, the sink's
    /// failure), in order; `ignoring` codes are not worth one.
    public func receive(
        snapshot events: [(event: GameEvent, line: Int)], score: (FinalScore, at: Date)?, end: (event: GameEvent, line: Int)?,
        game id: String, source: String? = nil, ignoring: Set<ScoreFeedError.Code> = []
    ) async -> [ScoreFeedError] {
        var messages: [ScoreFeedError] = []
        func say(_ message: ScoreFeedError?) {
            if let message, !ignoring.contains(message.code) { messages.append(message) }
        }
        guard let game = games[id], game.manual == nil else {
            for (event, line) in events { say(await receive(event, game: id, line: line, source: source)) }
            if let (score, time) = score { say(await follow(score, game: id, at: time)) }
            if let end { say(await receive(end.event, game: id, line: end.line, source: source)) }
            await setUpReopenedChannel(id)
            return messages
        }
        var items: [MatchEngine.ArrivalItem] = events.map { .event($0.event, index: $0.line - 1) }
        if let (score, _) = score { items.append(.score(score)) }
        if let end { items.append(.event(end.event, index: end.line - 1)) }
        let lines = events.map(\.line) + (end.map { [$0.line] } ?? [])
        let seqs = events.map(\.event.seq) + (end.map { [$0.event.seq] } ?? [])
        counters.lines += lines.count
        counters.events += lines.count
        let (verdicts, failure, step) = await Self.arrive(items, on: game.engine)
        for (i, verdict) in verdicts.enumerated() {
            let location = ScoreFeedError.Location(file: source, line: lines[i], sequence: seqs[i])
            say(takeIn(Taken(outcome: .success(verdict), checkpointFailure: step.checkpointFailure, seq: seqs[i]), of: id, at: location))
        }
        if let failure { say(Self.sinkFailed(id, failure)) }
        absorb(id, step)
        if !waitingForChannel.isEmpty { await grantFreedChannels() }
        await setUpReopenedChannel(id)
        return messages
    }

    /// A game called off whose feed came back (``GameSession/callOff(_:why:now:)``) lost the
    /// channel ScoreFeed made for it: it gets a new one, as a game starting would.
    private func setUpReopenedChannel(_ id: String) async {
        guard options.perGameChannels, options.channels.manage, let channel = channels[id], case .none = channel.phase,
              channel.creates > 0, !waitingForChannel.contains(id)
        else { return }
        await setUpChannel(id, header: nil)
    }

    /// Takes an arrival into `engine` and sends what it decided, in one hop.
    private static func arrive(
        _ items: [MatchEngine.ArrivalItem], on engine: isolated MatchEngine
    ) async -> (verdicts: [EventValidator.Verdict], failure: (any Error)?, step: Step) {
        let verdicts = engine.take(arrival: items)
        do {
            try await engine.flush()
            return (verdicts, nil, Step.of(engine))
        } catch {
            return (verdicts, error, Step.of(engine))
        }
    }

    /// An event of a run, with its place in the batch and its line number.
    struct Pending: Sendable {
        var index: Int
        var line: Int
        var event: GameEvent
    }

    /// Applies a run of event lines for known games (`run`, each game's events in order, the
    /// games as they first came): each game takes its own on its own executor, one hop per
    /// game, the games side by side (a batch of many games uses every core). Then what the lines
    /// have to say is taken in, in the order of the lines, and each game's state once, as it
    /// stands after its last event. Returns the messages for people, by their line's place in the batch.
    private func apply(
        _ run: [(game: String, events: [Pending])], of batch: [ParsedLine], source: String?
    ) async -> [(index: Int, message: ScoreFeedError)] {
        var said: [(index: Int, game: String, Taken)] = []
        var steps = [Step?](repeating: nil, count: run.count)
        await withTaskGroup(of: (place: Int, run: Run).self) { group in
            for (place, (id, events)) in run.enumerated() {
                guard let game = games[id] else { continue }
                group.addTask { (place, await Self.receive(events, on: game.engine, manual: game.manual)) }
            }
            for await (place, done) in group {
                for (index, taken) in done.said { said.append((index, run[place].game, taken)) }
                steps[place] = done.step
            }
        }
        var messages: [(index: Int, message: ScoreFeedError)] = []
        for (index, id, taken) in said.sorted(by: { $0.index < $1.index }) {
            let location = ScoreFeedError.Location(file: source, line: batch[index].number, sequence: taken.seq)
            if let message = takeIn(taken, of: id, at: location) { messages.append((index, message)) }
        }
        for (place, step) in steps.enumerated() { if let step { absorb(run[place].game, step) } }
        if !waitingForChannel.isEmpty { await grantFreedChannels() }
        return messages
    }

    /// What one event did to its game, as far as the messages for people go.
    struct Taken: Sendable {
        /// The validator's verdict, or the sink's failure.
        var outcome: Result<EventValidator.Verdict, any Error>
        var checkpointFailure: ScoreFeedError?
        /// The event's `seq`, for the message's location.
        var seq: Int

        /// Whether there is anything to tell people.
        var says: Bool {
            if checkpointFailure != nil { return true }
            switch outcome {
            case .success(.reject): return true
            case .success: return false
            case .failure: return true
            }
        }
    }

    /// What a game did with a run of its events: the events with something to say (a rejection,
    /// a failure), by their place in the batch, then the game's state after the last.
    struct Run: Sendable {
        var said: [(index: Int, Taken)]
        var step: Step
    }

    /// Hands a run of events to `engine`, in order, on the engine's own executor. On the system
    /// clock the run arrived together: it is one moment (one arrival, one decision); on feed time
    /// each event is its own moment, as in replay.
    private static func receive(_ events: [Pending], on engine: isolated MatchEngine, manual: ManualClock?) async -> Run {
        var said: [(index: Int, Taken)] = []
        if manual == nil {
            let (verdicts, failure, step) = await arrive(events.map { .event($0.event, index: $0.line - 1) }, on: engine)
            for (i, verdict) in verdicts.enumerated() {
                let taken = Taken(outcome: .success(verdict), checkpointFailure: step.checkpointFailure, seq: events[i].event.seq)
                if taken.says { said.append((events[i].index, taken)) }
            }
            if let failure, let last = events.last {
                said.append((last.index, Taken(outcome: .failure(failure), checkpointFailure: nil, seq: last.event.seq)))
            }
            return Run(said: said, step: step)
        }
        // By index: a copy of each event (every string in it retained and released) is not needed.
        for i in events.indices {
            let outcome: Result<EventValidator.Verdict, any Error>
            do {
                if let manual {
                    outcome = .success(try await engine.receive(events[i].event, index: events[i].line - 1, moving: manual))
                } else {
                    outcome = .success(try await engine.receive(events[i].event, index: events[i].line - 1))
                }
            } catch {
                outcome = .failure(error)
            }
            let taken = Taken(outcome: outcome, checkpointFailure: engine.checkpointFailure, seq: events[i].event.seq)
            if taken.says { said.append((events[i].index, taken)) }
        }
        return Run(said: said, step: Step.of(engine))
    }

    /// The message for people about one event of game `id`: its rejection, the sink's failure,
    /// or the game's checkpoint failure (said once).
    private func takeIn(_ taken: Taken, of id: String, at location: ScoreFeedError.Location) -> ScoreFeedError? {
        switch taken.outcome {
        case .success(let verdict):
            if case .reject(var error) = verdict {
                error.location = location
                error.message = "game \(id): " + error.message
                return error
            }
            return checkpointProblem(id, taken.checkpointFailure)
        case .failure(let error):
            return Self.sinkFailed(id, error, at: location)
        }
    }

    private func apply(_ event: GameEvent, to id: String, line: Int, source: String?) async -> ScoreFeedError? {
        let location = ScoreFeedError.Location(file: source, line: line, sequence: event.seq)
        guard let game = games[id] else {
            counters.unknownGame += 1
            return ScoreFeedError(.invalidValue, "event for game \"\(id)\", which has no header yet; skipped", at: location)
        }
        counters.events += 1
        let run = await Self.receive([Pending(index: 0, line: line, event: event)], on: game.engine, manual: game.manual)
        absorb(id, run.step)
        let failure = run.said.first.flatMap { takeIn($0.1, of: id, at: location) }
        if !waitingForChannel.isEmpty { await grantFreedChannels() }
        return failure
    }

    /// Lets `engine` send what is due at `now` (a failing sink is ignored, as the push stays
    /// in the outbox), or try again what waits on the sink, and returns its next deadline, in one
    /// hop.
    private static func tick(_ engine: isolated MatchEngine, now: Date) async -> Step {
        if let deadline = engine.deadline, deadline <= now {
            try? await engine.tick()
        } else {
            try? await engine.flush()
        }
        return Step.of(engine)
    }

    /// Fires every held push that is due now (system clock) across games.
    public func fireDue(now: Date) async {
        while let (due, id) = deadlines.popDue(now) {
            guard let game = games[id] else { continue }
            if game.scheduled == due { games[id]?.scheduled = nil }
            var step = await Self.tick(game.engine, now: now)
            // A deadline the tick could not move (its checkpoint cannot be written) is looked at
            // again a second later, not at once: this loop must end.
            if let deadline = step.deadline, deadline <= now { step.deadline = now.addingTimeInterval(1) }
            absorb(id, step)
        }
        if !waitingForChannel.isEmpty { await grantFreedChannels() }
    }

    /// The earliest moment a held push is due, across games.
    public var nextDeadline: Date? { deadlines.next }

    /// At the end of the input: on the feed clock, fires every game's held pushes at once, each at
    /// its own moment of feed time; on the system clock, waits for each to come due (at most
    /// `limit` seconds in all). Then sends whatever a failed sink left and writes every checkpoint.
    /// A game that has not ended keeps its checkpoint and resumes on the next run.
    public func drain(waitingAtMost limit: TimeInterval = 600) async {
        let giveUp = Date().addingTimeInterval(limit)
        _ = await endBatch()
        if options.clock == .feed {
            for id in order {
                guard let game = games[id] else { continue }
                try? await game.engine.fireDeadlines(through: .distantFuture, moving: game.manual)
            }
        } else {
            // The engines' own deadlines, not the wake-up heap, whose entries may be stale.
            var previous: Date?
            await DeadlineLoop(clock: systemClock).run(
                next: {
                    var next: Date?
                    for id in order {
                        if let deadline = await games[id]?.engine.deadline { next = min(next ?? deadline, deadline) }
                    }
                    guard let next, next <= giveUp else { return nil }
                    defer { previous = next }
                    // The last tick could not move it (a checkpoint that cannot be written).
                    if next <= systemClock.now, next == previous { return systemClock.now.addingTimeInterval(0.5) }
                    return next
                },
                work: { now in
                    for id in order {
                        guard let engine = games[id]?.engine else { continue }
                        absorb(id, await Self.tick(engine, now: now))
                    }
                })
        }
        for id in order {
            guard let game = games[id] else { continue }
            try? await game.engine.flush()
            absorb(id, await Step.of(game.engine))
        }
        await settleChannels(until: giveUp)
        await compact()
    }

    /// Writes every game's snapshot and empties its journal (with a state directory): the state
    /// directory then holds each game in one file, as a clean exit leaves it.
    public func compact() async {
        guard store != nil else { return }
        for id in order {
            await games[id]?.engine.compact()
        }
        try? store?.journal.sync()
    }

    /// Until `giveUp`, carries every game's channel through what is left of its life: creates and
    /// deletes the sink did not answer are sent again (backing off), lingers run out (at once on
    /// the feed clock), deletes go once the sink has delivered the game's pushes. Then compares
    /// APNs' channels with the games' (``reconcileChannels()``). Only with ScoreFeed managing the
    /// channels; `serve` and `poll` call it again after the webhook delivered what it still held.
    public func settleChannels(until giveUp: Date) async {
        guard options.perGameChannels && options.channels.manage else { return }
        var pause: TimeInterval = 0.5
        var firstPass = true
        var busy: [String] = []
        await DeadlineLoop(clock: systemClock).run(
            next: {
                while true {
                    busy = []
                    var nextLinger: Date?
                    for id in order {
                        guard let engine = games[id]?.engine else { continue }
                        let step = await Step.of(engine)
                        absorb(id, step)
                        if step.channelWorkWaits {
                            // Nothing moves while the game's checkpoint cannot be written: not waited for.
                            if step.checkpointFailure == nil { busy.append(id) }
                        } else if case .lingering(_, let until) = step.channel.phase, options.clock == .feed || until <= giveUp {
                            // A linger that outlasts the drain stays in the checkpoint for the next run.
                            busy.append(id)
                            nextLinger = min(nextLinger ?? until, until)
                        }
                    }
                    if !waitingForChannel.isEmpty {
                        let granted = waitingForChannel.count
                        await grantFreedChannels()
                        // A game just given its channel has work of its own: look again.
                        if waitingForChannel.count < granted { continue }
                    }
                    guard !busy.isEmpty else { return nil }
                    // On the feed clock a linger ends at once (on the first pass; later passes wait for
                    // the sink); on the system clock it is waited for.
                    var wait = pause
                    if options.clock == .system, let nextLinger { wait = min(wait, max(0.05, nextLinger.timeIntervalSinceNow)) }
                    if options.clock == .feed, firstPass { wait = 0 }
                    firstPass = false
                    let due = systemClock.now.addingTimeInterval(wait)
                    guard due <= giveUp else { return nil }
                    pause = min(pause * 2, 30)
                    return due
                }
            },
            work: { now in
                for id in busy {
                    guard let game = games[id] else { continue }
                    if options.clock == .feed {
                        try? await game.engine.fireDeadlines(through: .distantFuture, moving: game.manual)
                    }
                    absorb(id, await Self.tick(game.engine, now: now))
                }
            })
        await reconcileChannels()
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
        for id in order {
            guard let engine = games[id]?.engine else { continue }
            let session = await engine.current
            result.append(GameSummary(
                attributes: session.attributes, statistics: session.statistics, state: session.state,
                ended: session.hasEnded, unsent: session.outbox.count, channel: session.channel,
                holding: session.isHolding, checkpointFailure: await engine.checkpointFailure))
        }
        return result
    }

    // MARK: - Internals

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
            let journaled = journal.map(Journal.read)
            if let journaled, let seq = journaled.seq, let lastTimestamp = journaled.lastTimestamp,
               seq >= GameSession.salvageNumbering(data)?.seq ?? 0 {
                // The journal numbers on from the checkpoint.
                self.seq = seq
                self.lastTimestamp = lastTimestamp
                salvaged = true
            } else if journal?.isEmpty == false, journaled?.seq == nil {
                // A journal that cannot be read may have numbered pushes past the checkpoint.
                seq = (GameSession.salvageNumbering(data)?.seq ?? 0) + Self.jump
                lastTimestamp = 0
                salvaged = false
            } else if let read = GameSession.salvageNumbering(data) {
                seq = read.seq
                lastTimestamp = read.lastTimestamp
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

    private func add(_ id: String, _ game: Game) {
        if games[id] == nil { order.append(id) }
        games[id] = game
    }

    private func makeGame(attributes: GameAttributes) -> Game {
        let manual = options.clock == .feed ? ManualClock(Date(timeIntervalSince1970: 0)) : nil
        let clock: any EngineClock = manual ?? systemClock
        var policy = Coalescer(configuration: options.coalescer)
        let lost = store.flatMap {
            lostCheckpoints.removeValue(forKey: $0.url(for: attributes.gameId).standardizedFileURL.path)
                ?? lostCheckpoints.removeValue(forKey: $0.legacyURL(for: attributes.gameId).standardizedFileURL.path)
        }
        if lost != nil { policy.assumeBudgetSpent(at: nil) }
        var session = GameSession(attributes: attributes, policy: policy, renderer: options.renderer, now: clock.now)
        session.channelLinger = options.channels.linger
        if options.perGameChannels { session.claimChannel(for: identity) }
        if let lost { session.continueNumbering(after: lost.seq, lastTimestamp: lost.lastTimestamp) }
        let engine = MatchEngine(session: session, clock: clock, sink: sink, checkpoints: store, metrics: options.metrics)
        return Game(engine: engine, manual: manual)
    }

    /// Takes in what an engine said after a call: its next deadline, its channel (rewriting
    /// `channels.json` when it changed), what APNs' answers did to it, and pushes held for want of
    /// a channel (said once per game).
    private func absorb(_ id: String, _ step: Step) {
        if let journal = store?.journal, journal.holdsDeliveries, touchedSet.insert(id).inserted { touched.append(id) }
        schedule(id, step.deadline)
        if step.channelWorkWaits {
            // Woken again on the system clock, backing off from 1 s to a minute.
            let delay = channelRetry[id] ?? 1
            channelRetry[id] = min(delay * 2, 60)
            schedule(id, Date().addingTimeInterval(delay))
        } else {
            channelRetry[id] = nil
        }
        if options.perGameChannels, channels[id] != step.channel {
            channels[id] = step.channel
            writeChannelDirectory()
        }
        for news in step.channelNews {
            switch news {
            case .opened(let channel): report("game \(id): broadcast channel \(channel) created")
            case .deleted(let channel, let gone):
                report("game \(id): broadcast channel \(channel) deleted" + (gone ? " (APNs no longer knew it: deleted before)" : ""))
            case .refused(let why): report("game \(id): \(why); its pushes wait")
            case .unusable(let why): report("game \(id): \(why); the create is sent again later")
            case .ignored: break
            }
        }
        if step.holding, reportedHolds.insert(id).inserted {
            let why: String
            switch step.channel.phase {
            case .refused(let reason, _): why = reason
            case .creating: why = "its channel is being created"
            default:
                why = options.channels.manage
                    ? "its channel is not open" : "its header has no \"channel\" and --channels manage is off"
            }
            report("game \(id): no broadcast channel to send on (\(why)); its pushes wait, the newest state only, and never go to another game's channel")
        }
    }

    /// Rewrites `channels.json` from the games' channels (with a state directory).
    private func writeChannelDirectory() {
        guard let store, options.perGameChannels else { return }
        var directory = ChannelDirectory()
        for (id, channel) in channels { directory.games[id] = .init(channel) }
        do {
            try store.write(directory.encoded(), named: ChannelDirectory.fileName)
        } catch {
            report("channels: cannot write \(ChannelDirectory.fileName): \(error)")
        }
    }

    /// The message for a sink that failed on game `id`'s push. A reader of standard output that
    /// went away keeps its code: the run says that once, not once per line it still had.
    static func sinkFailed(_ id: String, _ error: any Error, at location: ScoreFeedError.Location = .init()) -> ScoreFeedError {
        let code: ScoreFeedError.Code = (error as? ScoreFeedError)?.code == .readerGone ? .readerGone : .io
        return ScoreFeedError(code, "game \(id): the sink failed: \(error)", at: location)
    }

    /// A checkpoint failure of game `id`, reported once per game.
    private func checkpointProblem(_ id: String, _ failure: ScoreFeedError?) -> ScoreFeedError? {
        guard var failure, reportedFailures.insert(id).inserted else { return nil }
        failure.message = "game \(id): cannot write its checkpoint (\(failure.message)); a restart would lose what it applied since"
        return failure
    }

    /// Makes sure the game is woken at `deadline` (system clock): adds a heap entry unless one at
    /// or before it is already waiting. Entries are never removed early; a wake-up that finds
    /// nothing due just reschedules.
    private func schedule(_ id: String, _ deadline: Date?) {
        guard options.clock == .system, let deadline, let game = games[id] else { return }
        if let scheduled = game.scheduled, scheduled <= deadline { return }
        deadlines.push(deadline, id)
        games[id]?.scheduled = deadline
    }
}

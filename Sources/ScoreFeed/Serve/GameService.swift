import Foundation
import ScoreFeedModel

/// Runs many games at once from one stream of lines: routes each event to its game's
/// ``MatchEngine``, fires held pushes on time, and checkpoints each game after each push so a
/// restart resumes where it stopped without sending anything twice.
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
        /// How far behind the newest sequence number of its game an event may arrive and still
        /// be applied; older ones are rejected.
        public var reorderWindow: Int
        /// Checkpoints go here; nil runs without them.
        public var stateDirectory: URL?

        public init(
            clock: ClockMode = .system, coalescer: Coalescer.Configuration = .standard,
            renderer: PushRenderer.Configuration = .init(), reorderWindow: Int = 32, stateDirectory: URL? = nil
        ) {
            self.clock = clock
            self.coalescer = coalescer
            self.renderer = renderer
            self.reorderWindow = reorderWindow
            self.stateDirectory = stateDirectory
        }
    }

    /// What the service has seen and done.
    public struct Counters: Hashable, Sendable {
        public var lines = 0
        public var headers = 0
        public var events = 0
        public var badLines = 0
        public var unknownGame = 0
        public var outOfOrder = 0
        public var rejected = 0
        public var duplicates = 0
        /// Events skipped after a restart because the checkpoint had applied them already.
        public var alreadyApplied = 0
        public var checkpoints = 0
        public var resumedGames = 0
    }

    struct Game {
        var engine: MatchEngine
        var clock: any EngineClock
        var manual: ManualClock?
        var highestSeq = Int.min
        var pushes = 0
        /// Sequence numbers up to here were applied before a restart.
        var resumedThrough = Int.min
        /// The earliest deadline of this game waiting in the heap (system clock): a later one
        /// need not be added, as that entry's wake-up re-reads the engine and schedules again.
        var scheduled: Date?
    }

    /// What the service needs from an engine after handing it an event or a tick, gathered on
    /// the engine's executor so that it takes one actor hop instead of one per question.
    struct Step: Sendable {
        var verdict: EventValidator.Verdict = .accept
        var deadline: Date?
        var pushes = 0
    }

    private let options: Options
    private let sink: any PushSink
    private let store: CheckpointStore?
    private let systemClock = SystemClock()
    private var games: [String: Game] = [:]
    private var deadlines = DeadlineHeap()
    private let checkpointEncoder = JSONEncoder()
    /// Checkpoint files that could not be used: their games' budgets are unknown.
    private var lostCheckpoints: Set<String> = []
    public private(set) var counters = Counters()

    public init(options: Options, sink: any PushSink) throws(ScoreFeedError) {
        self.options = options
        self.sink = sink
        store = try options.stateDirectory.map { url throws(ScoreFeedError) in try CheckpointStore(directory: url) }
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

    /// Loads every checkpoint in the state directory.
    @discardableResult
    public func restore() async throws -> Restoration {
        var restoration = Restoration()
        guard let store else { return restoration }
        let decoder = JSONDecoder()
        for entry in try store.readAll() {
            let place = ScoreFeedError.Location(file: entry.file.path)
            let snapshot: MatchEngine.Snapshot
            do {
                guard let data = entry.data else { throw ScoreFeedError(.io, "cannot read the file", at: place) }
                do {
                    snapshot = try decoder.decode(MatchEngine.Snapshot.self, from: data)
                } catch let error as DecodingError {
                    throw DecodingErrorText.error(error, data: data, file: entry.file.path)
                }
            } catch {
                var problem = error as? ScoreFeedError ?? ScoreFeedError(.invalidValue, "\(error)", at: place)
                let aside = entry.file.appendingPathExtension("unreadable")
                try? FileManager.default.removeItem(at: aside)
                let kept = (try? FileManager.default.moveItem(at: entry.file, to: aside)) != nil
                problem.message = "cannot use the checkpoint (\(problem.message)); its game starts afresh when its events come, "
                    + "with seq from 1 and its priority-10 budget counted as spent for an hour"
                    + (kept ? "; the file is kept as \(aside.lastPathComponent)" : "")
                restoration.problems.append(problem)
                lostCheckpoints.insert(entry.file.standardizedFileURL.path)
                continue
            }
            if snapshot.policyWasReset {
                restoration.problems.append(ScoreFeedError(
                    .invalidValue,
                    "the push policy's state in the checkpoint is from another version; game \(snapshot.attributes.gameId) resumes with a fresh policy and its priority-10 budget counted as spent for the next hour",
                    at: place))
            }
            let id = snapshot.attributes.gameId
            var game = makeGame(attributes: snapshot.attributes, snapshot: snapshot)
            game.highestSeq = snapshot.highestSeq
            game.resumedThrough = snapshot.highestSeq
            game.pushes = snapshot.statistics.pushes
            games[id] = game
            counters.resumedGames += 1
            restoration.resumedGames += 1
            schedule(id, await game.engine.deadline)
        }
        return restoration
    }

    /// Handles one item of the input; returns a message for people when the line was bad.
    public func handle(_ item: LineReader.Item, source: String? = nil) async -> ScoreFeedError? {
        counters.lines += 1
        switch item {
        case .oversized(let number, let length):
            counters.badLines += 1
            return ScoreFeedError(.invalidValue, "line of \(length)+ bytes exceeds the limit; skipped", at: .init(file: source, line: number))
        case .line(let data, let number):
            if data.isEmpty { return nil }
            do {
                switch try StreamLine.parse(data, number: number, source: source) {
                case .header(let attributes):
                    counters.headers += 1
                    if games[attributes.gameId] == nil {
                        games[attributes.gameId] = makeGame(attributes: attributes, snapshot: nil)
                    }
                    return nil
                case .event(let id, let event):
                    return await apply(event, to: id, line: number, source: source)
                }
            } catch {
                counters.badLines += 1
                return error
            }
        }
    }

    private func apply(_ event: GameEvent, to id: String, line: Int, source: String?) async -> ScoreFeedError? {
        let location = ScoreFeedError.Location(file: source, line: line, sequence: event.seq)
        guard let game = games[id] else {
            counters.unknownGame += 1
            return ScoreFeedError(.invalidValue, "event for game \"\(id)\", which has no header yet; skipped", at: location)
        }
        if event.seq <= game.resumedThrough {
            counters.alreadyApplied += 1
            return nil
        }
        if event.seq < game.highestSeq, game.highestSeq - event.seq > options.reorderWindow {
            counters.outOfOrder += 1
            return ScoreFeedError(
                .invalidValue,
                "seq \(event.seq) arrived after seq \(game.highestSeq), beyond the reorder window of \(options.reorderWindow); rejected",
                at: location)
        }
        // Written before the engine is awaited: other calls may run meanwhile and must see it.
        games[id]?.highestSeq = max(game.highestSeq, event.seq)
        counters.events += 1
        var failure: ScoreFeedError?
        do {
            let step = try await Self.receive(event, index: line - 1, on: game.engine, manual: game.manual)
            switch step.verdict {
            case .accept: break
            case .duplicate(var error):
                counters.duplicates += 1
                error.location = location
                failure = error
            case .reject(var error):
                counters.rejected += 1
                error.location = location
                failure = error
            }
            await checkpointIfPushed(id, pushes: step.pushes)
            schedule(id, step.deadline)
        } catch {
            failure = ScoreFeedError(.io, "game \(id): the sink failed: \(error)", at: location)
            await checkpointIfPushed(id, pushes: await game.engine.statistics.pushes)
            schedule(id, await game.engine.deadline)
        }
        return failure
    }

    /// Hands `event` to `engine` on the engine's own executor: on a manual (feed) clock, first
    /// fires the deadlines due before the event's time; then returns what the service needs.
    private static func receive(
        _ event: GameEvent, index: Int, on engine: isolated MatchEngine, manual: ManualClock?
    ) async throws -> Step {
        if let manual {
            try await engine.fireDeadlines(through: event.time, moving: manual)
            manual.advance(to: event.time)
        }
        let verdict = try await engine.receive(event, index: index)
        return Step(verdict: verdict, deadline: engine.deadline, pushes: engine.statistics.pushes)
    }

    /// Lets `engine` send what is due at `now` (a failing sink is ignored, as the push stays
    /// held) and returns its next deadline and push count, in one hop.
    private static func tick(_ engine: isolated MatchEngine, now: Date) async -> Step {
        if let deadline = engine.deadline, deadline <= now { try? await engine.tick() }
        return Step(deadline: engine.deadline, pushes: engine.statistics.pushes)
    }

    /// Fires every held push that is due now (system clock) across games.
    public func fireDue(now: Date) async {
        while let (due, id) = deadlines.popDue(now) {
            guard let game = games[id] else { continue }
            if game.scheduled == due { games[id]?.scheduled = nil }
            let step = await Self.tick(game.engine, now: now)
            await checkpointIfPushed(id, pushes: step.pushes)
            schedule(id, step.deadline)
        }
    }

    /// The earliest moment a held push is due, across games.
    public var nextDeadline: Date? { deadlines.next }

    /// At the end of the input or on shutdown: sends what is due and writes every checkpoint.
    /// Pushes held for later stay held in the checkpoint and go out after a restart.
    public func drain() async {
        for id in games.keys.sorted() {
            guard let game = games[id] else { continue }
            try? await game.engine.fireDeadlines(through: game.clock.now)
            await checkpointIfPushed(id, pushes: await game.engine.statistics.pushes, force: true)
        }
    }

    // MARK: - Internals

    private func makeGame(attributes: GameAttributes, snapshot: MatchEngine.Snapshot?) -> Game {
        let manual = options.clock == .feed ? ManualClock(snapshot?.clock ?? Date(timeIntervalSince1970: 0)) : nil
        let clock: any EngineClock = manual ?? systemClock
        let engine: MatchEngine
        if let snapshot {
            engine = MatchEngine(restoring: snapshot, clock: clock, sink: sink, renderer: options.renderer, policy: options.coalescer)
        } else {
            var policy = Coalescer(configuration: options.coalescer)
            if let store, lostCheckpoints.remove(store.url(for: attributes.gameId).standardizedFileURL.path) != nil {
                policy.assumeBudgetSpent(at: nil)
            }
            engine = MatchEngine(attributes: attributes, clock: clock, sink: sink, policy: policy, renderer: options.renderer)
        }
        return Game(engine: engine, clock: clock, manual: manual)
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

    /// Writes the game's checkpoint when the engine has sent a push since the last one (`pushes`
    /// is its count now), or always with `force`.
    private func checkpointIfPushed(_ id: String, pushes: Int, force: Bool = false) async {
        guard let store, let game = games[id], force || pushes != game.pushes else { return }
        games[id]?.pushes = pushes
        var snapshot = await game.engine.snapshot()
        snapshot.highestSeq = games[id]?.highestSeq ?? game.highestSeq
        if let data = try? checkpointEncoder.encode(snapshot), (try? store.write(data, for: id)) != nil {
            counters.checkpoints += 1
        }
    }
}

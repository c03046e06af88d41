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
    }

    private let options: Options
    private let sink: any PushSink
    private let store: CheckpointStore?
    private let systemClock = SystemClock()
    private var games: [String: Game] = [:]
    private var deadlines = DeadlineHeap()
    public private(set) var counters = Counters()

    public init(options: Options, sink: any PushSink) throws(ScoreFeedError) {
        self.options = options
        self.sink = sink
        store = try options.stateDirectory.map { url throws(ScoreFeedError) in try CheckpointStore(directory: url) }
    }

    /// Number of games known.
    public var gameCount: Int { games.count }

    /// Loads every checkpoint in the state directory; returns how many games resumed.
    @discardableResult
    public func restore() async throws -> Int {
        guard let store else { return 0 }
        let decoder = JSONDecoder()
        for data in try store.readAll() {
            guard let snapshot = try? decoder.decode(MatchEngine.Snapshot.self, from: data) else { continue }
            let id = snapshot.attributes.gameId
            var game = makeGame(attributes: snapshot.attributes, snapshot: snapshot)
            game.highestSeq = snapshot.highestSeq
            game.resumedThrough = snapshot.highestSeq
            game.pushes = snapshot.statistics.pushes
            games[id] = game
            counters.resumedGames += 1
            await schedule(id)
        }
        return counters.resumedGames
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
        guard var game = games[id] else {
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
        game.highestSeq = max(game.highestSeq, event.seq)
        counters.events += 1
        var failure: ScoreFeedError?
        do {
            if let manual = game.manual {
                try await fireDeadlines(game, before: event.time)
                manual.advance(to: event.time)
            }
            switch try await game.engine.receive(event, index: line - 1) {
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
        } catch {
            failure = ScoreFeedError(.io, "game \(id): the sink failed: \(error)", at: location)
        }
        games[id] = game
        await checkpointIfPushed(id)
        await schedule(id)
        return failure
    }

    /// Fires every held push that is due now (system clock) across games.
    public func fireDue(now: Date) async {
        while let id = deadlines.popDue(now) {
            guard let game = games[id], let deadline = await game.engine.deadline else { continue }
            if deadline <= now {
                try? await game.engine.tick()
                await checkpointIfPushed(id)
            }
            await schedule(id)
        }
    }

    /// The earliest moment a held push is due, across games.
    public var nextDeadline: Date? { deadlines.next }

    /// At the end of the input or on shutdown: sends what is due and writes every checkpoint.
    /// Pushes held for later stay held in the checkpoint and go out after a restart.
    public func drain() async {
        for id in games.keys.sorted() {
            guard let game = games[id] else { continue }
            let now = game.clock.now
            var guardCount = 0
            while let deadline = await game.engine.deadline, deadline <= now, guardCount < 10_000 {
                try? await game.engine.tick()
                guardCount += 1
            }
            await checkpointIfPushed(id, force: true)
        }
    }

    // MARK: - Internals

    private func makeGame(attributes: GameAttributes, snapshot: MatchEngine.Snapshot?) -> Game {
        let manual = options.clock == .feed ? ManualClock(snapshot?.clock ?? Date(timeIntervalSince1970: 0)) : nil
        let clock: any EngineClock = manual ?? systemClock
        let engine: MatchEngine
        if let snapshot {
            engine = MatchEngine(restoring: snapshot, clock: clock, sink: sink, renderer: options.renderer)
        } else {
            engine = MatchEngine(
                attributes: attributes, clock: clock, sink: sink, policy: Coalescer(configuration: options.coalescer),
                renderer: options.renderer)
        }
        return Game(engine: engine, clock: clock, manual: manual)
    }

    private func fireDeadlines(_ game: Game, before limit: Date) async throws {
        guard let manual = game.manual else { return }
        var guardCount = 0
        while let deadline = await game.engine.deadline, deadline <= limit, guardCount < 10_000 {
            manual.advance(to: deadline)
            try await game.engine.tick()
            guardCount += 1
        }
    }

    private func schedule(_ id: String) async {
        guard options.clock == .system, let game = games[id], let deadline = await game.engine.deadline else { return }
        deadlines.push(deadline, id)
    }

    private func checkpointIfPushed(_ id: String, force: Bool = false) async {
        guard var game = games[id] else { return }
        let pushes = await game.engine.statistics.pushes
        guard let store, force || pushes != game.pushes else { return }
        game.pushes = pushes
        games[id] = game
        var snapshot = await game.engine.snapshot()
        snapshot.highestSeq = game.highestSeq
        if let data = try? JSONEncoder().encode(snapshot), (try? store.write(data, for: id)) != nil {
            counters.checkpoints += 1
        }
    }
}

import Foundation
import ScoreFeedModel

/// Lines from `serve`'s input: one at a time, or a batch made durable with one sync (group commit).
extension GameService {
    /// Handles one line parsed beforehand (on the reader's thread); returns a message for people
    /// when the line was bad.
    public func handle(_ line: StreamLine, source: String? = nil) async -> ScoreFeedError? {
        state.counters.lines += 1
        switch line {
        case .blank:
            return nil
        case .header(let attributes, let channel):
            state.counters.headers += 1
            await start(attributes, channel: channel)
            return nil
        case .event(let id, let event, let number):
            return await apply(event, to: id, line: number, source: source)
        case .bad(let error):
            state.counters.badLines += 1
            return error
        }
    }

    /// Handles a batch of lines as one: applied in order, made durable with one sync (with a
    /// journal), then their pushes sent. Returns the messages for people, in order.
    ///
    /// On the system clock the batch arrived together: each game's events in it are one moment
    /// (one arrival, one decision), wherever headers and other lines fall between them. On feed
    /// time each event is its own moment, as in replay.
    public func handle(batch: [StreamLine], source: String? = nil) async -> [ScoreFeedError] {
        if options.clock == .system {
            // A catch-up whose wait runs out meanwhile waits for this input to be taken
            // (``ServiceState/holdsCatchUp(_:now:)``).
            state.beginInput()
            defer {
                for (id, at) in state.endInput(now: wallClock.now, window: options.catchUpWindow) { schedule(id, at) }
            }
            return await handle(arrival: batch, source: source)
        }
        beginBatch()
        var messages: [ScoreFeedError] = []
        var start = 0
        while start < batch.count {
            // A run of events for games already known goes to the games side by side; any other
            // line (a header, a bad line, an unknown game's event) on its own, in order.
            // Each game's events in order, the games as they first came (one lookup per line).
            var run: [(game: String, places: [Int])] = []
            var place: [String: Int] = [:]
            // The game of the line before and its place in the run: a game's events come in
            // runs, and an id compared costs less than one hashed.
            var last: (game: String, place: Int)?
            var end = start
            while end < batch.count, let id = batch[end].eventGame {
                if let last, last.game == id {
                    run[last.place].places.append(end)
                } else if let known = place[id] {
                    run[known].places.append(end)
                    last = (id, known)
                } else if engines[id] != nil {
                    place[id] = run.count
                    last = (id, run.count)
                    run.append((id, [end]))
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
                state.counters.lines += end - start
                state.counters.events += end - start
                start = end
            }
        }
        if let message = await endBatch() { messages.append(message) }
        return messages
    }

    /// ``handle(batch:source:)`` on the system clock: headers, bad lines and events of unknown
    /// games are taken in order; every known game's events wait, then go to the games as one
    /// run, so each game decides once on the batch.
    func handle(arrival batch: [StreamLine], source: String?) async -> [ScoreFeedError] {
        beginBatch()
        var messages: [(index: Int, message: ScoreFeedError)] = []
        var run: [(game: String, places: [Int])] = []
        var place: [String: Int] = [:]
        var events = 0
        for index in batch.indices {
            if let id = batch[index].eventGame, engines[id] != nil {
                if let known = place[id] {
                    run[known].places.append(index)
                } else {
                    place[id] = run.count
                    run.append((id, [index]))
                }
                events += 1
            } else if let message = await handle(batch[index], source: source) {
                messages.append((index, message))
            }
        }
        if !run.isEmpty {
            state.counters.lines += events
            state.counters.events += events
            messages += await apply(run, of: batch, source: source)
        }
        var said = messages.sorted { $0.index < $1.index }.map(\.message)
        if let message = await endBatch() { said.append(message) }
        return said
    }

    /// Starts a batch of ``handle(_:source:)`` calls (with a journal): the games hold their pushes
    /// until ``endBatch()`` has made the whole batch durable with one sync (group commit).
    public func beginBatch() {
        state.beginBatch(holding: store != nil)
    }

    /// Ends a batch of ``handle(_:source:)`` calls: one sync makes everything they applied
    /// durable (group commit), then every game they touched sends its pushes, the games side by
    /// side. Returns a message
    /// for people when the journal could not be written or a sink failed.
    public func endBatch() async -> ScoreFeedError? {
        guard let journal = store?.journal, let batch = state.endBatch() else { return nil }
        var failure: ScoreFeedError?
        do {
            try MetricsRecorder.measure(options.metrics) { () throws(ScoreFeedError) in try journal.sync() }
        } catch {
            // Each game tries again before it sends, and holds its pushes while it fails.
            failure = error
        }
        // Each game sends its pushes, each recorded as delivered before its next goes: a crash
        // sends again at most the one in flight of each game. The games go side by side, on
        // either clock: a sender slow for one holds no other's, and a settled game's snapshot
        // (its file synced twice) holds no other game's pushes. Each game's records stay in
        // order; the games' interleave as their events went to them, side by side.
        let statuses = await eachGame(of: batch, sideBySide: true) { id, engine in
            let status = await Self.flush(engine)
            await self.absorb(id, status)
            return status
        }
        for id in batch {
            guard let status = statuses[id] else { continue }
            failure = failure ?? checkpointProblem(id, status.checkpointFailure)
                ?? status.sinkFailure.flatMap { sinkFailureToSay(id, Self.sinkFailed(id, $0)) }
        }
        return failure
    }

    static func flush(_ engine: isolated MatchEngine) async -> EngineStatus {
        do {
            try await engine.flush()
            return EngineStatus.of(engine)
        } catch {
            var status = EngineStatus.of(engine)
            status.sinkFailure = error
            return status
        }
    }
}

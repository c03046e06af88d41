import Foundation
import ScoreFeedModel

/// A game's feed handed to its engine: events, a poll's snapshot, the feed's score, a call-off.
extension GameService {
    /// Hands one event of `game` to its engine, as a line would (`line` numbers it in messages).
    public func receive(_ event: GameEvent, game: String, line: Int, source: String? = nil) async -> ScoreFeedError? {
        state.counters.lines += 1
        return await apply(event, to: game, line: line, source: source)
    }

    /// `game` ends without a final (``MatchEngine/callOff(_:why:holdingPushes:)``): postponed, or suspended
    /// with the score it had. A game not known here is not started for it: nothing was shown.
    public func callOff(_ phase: GamePhase, why: String, game id: String) async -> ScoreFeedError? {
        await call(id) { try await $0.callOff(phase, why: why, holdingPushes: $1) }
    }

    /// How many of `game`'s events its engine has applied (accepted or edits): what moves when
    /// its feed brings news.
    public func progress(of id: String) async -> Int {
        guard let engine = engines[id] else { return 0 }
        let statistics = await engine.statistics
        return statistics.accepted + statistics.edits
    }

    /// Where a game stands, read in one hop: whether it is known, how it ended, its progress.
    public struct Standing: Hashable, Sendable {
        public var known = false
        /// See ``GameService/ending(of:)``.
        public var ending: GamePhase?
        /// See ``GameService/progress(of:)``.
        public var progress = 0
        /// A catch-up of the game waits for its next part (a poll's wait for a fresh copy, also one
        /// restored open from the checkpoint).
        public var waitsForParts = false
    }

    /// Where `game` stands (a poller asks before and after each snapshot it hands over).
    public func standing(of id: String) async -> Standing {
        guard let engine = engines[id] else { return Standing() }
        return await Self.standing(engine)
    }

    static func standing(_ engine: isolated MatchEngine) -> Standing {
        Standing(
            known: true, ending: engine.hasEnded ? engine.state.phase : nil,
            progress: engine.statistics.accepted + engine.statistics.edits, waitsForParts: engine.waitsForParts)
    }

    /// `game`'s end after what its engine applied (``MatchEngine/endAfterApplied``); nil for a
    /// game not known or with nothing applied.
    public func endAfterApplied(of id: String) async -> GameEvent? {
        await engines[id]?.endAfterApplied
    }

    /// A copy of `game`'s feed older than one already seen was ignored: its engine counts it
    /// (nothing for a game not known).
    public func ignoreStaleCopy(game id: String) async {
        _ = await call(id) { engine, _ in await engine.ignoreStaleCopy() }
    }

    /// `game`'s catch-up, waiting for a fresh copy, waits again from now, at least `window` and as
    /// long as it was to wait (nothing else is held): a wait restored open, the instance before
    /// having stopped in it, while this instance's answers bring no copy to hand again (an edge's
    /// older ones, failures). See ``MatchEngine/holdCatchUp(for:)``.
    public func holdCatchUp(of id: String, for window: TimeInterval) async {
        _ = await call(id) { engine, _ in await engine.holdCatchUp(for: window) }
    }

    /// The newest copy of `game`'s feed its engine took in (nil: none, or not known): see
    /// ``MatchEngine/newestCopy``.
    public func newestCopy(of id: String) async -> NewestCopy.Stamp? {
        await engines[id]?.newestCopy
    }

    /// How `game` ended: its phase once its `end` is out (final, postponed or suspended); nil
    /// while it has not ended (or is not known).
    public func ending(of id: String) async -> GamePhase? {
        guard let engine = engines[id], await engine.hasEnded else { return nil }
        return await engine.state.phase
    }

    /// The feed says `game`'s running score is `score` as of feed time `time` (its newest event's).
    public func follow(_ score: FinalScore, game id: String, at time: Date) async -> ScoreFeedError? {
        await call(id) { try await $0.follow(score, at: time, holdingPushes: $1) }
    }

    /// Hands game `id`'s engine to `body` (nothing for a game not known), with whether the call is
    /// to hold its pushes for an open batch, then takes in what the engine says; returns the
    /// sink's failure as a message for people.
    func call(_ id: String, _ body: (MatchEngine, Bool) async throws -> Void) async -> ScoreFeedError? {
        guard let engine = engines[id] else { return nil }
        var failure: ScoreFeedError?
        do {
            try await body(engine, state.holds(id))
        } catch {
            failure = Self.sinkFailed(id, error)
        }
        await absorb(id, await EngineStatus.of(engine))
        return failure
    }

    /// Hands one snapshot of `game`'s feed to its engine (a poll's answer): its new events, then
    /// the feed's running score, then the game's end. On the system clock the snapshot arrived
    /// together and is one moment: the past costs at most one push. On feed time each event is
    /// its own moment, as in replay, and after the end what the game's policy still holds goes
    /// at its own moment (nothing later moves the game's clock). Returns the messages for people
    /// (rejections, the sink's failure), in order, and where the game stands after (as
    /// ``standing(of:)`` says, read on the same trip to its engine); `ignoring` codes are not
    /// worth a message. `written`: when the copy was written (its `meta.time`), kept with the
    /// game (``GameSession/newestCopy``).
    /// `waitingForNext`: the snapshot's decision waits up to that long for the next snapshot
    /// (a catch-up in parts: the next one that changes the game decides on both, as one moment).
    public func receive(
        snapshot events: [(event: GameEvent, line: Int)], score: (FinalScore, at: Date)?, end: (event: GameEvent, line: Int)?,
        game id: String, written: Date? = nil, source: String? = nil, ignoring: Set<ScoreFeedError.Code> = [],
        waitingForNext window: TimeInterval = 0
    ) async -> (problems: [ScoreFeedError], standing: Standing) {
        var messages: [ScoreFeedError] = []
        func say(_ message: ScoreFeedError?) {
            if let message, !ignoring.contains(message.code) { messages.append(message) }
        }
        guard let engine = engines[id], options.clock == .system else {
            if let written, let engine = engines[id] { await engine.noteCopy(written: written) }
            for (event, line) in events { say(await receive(event, game: id, line: line, source: source)) }
            if let (score, time) = score { say(await follow(score, game: id, at: time)) }
            if let end {
                say(await receive(end.event, game: id, line: end.line, source: source))
                // Nothing after the game's end moves its clock: what its policy holds past the end
                // (the end itself, within `--min-interval` of a push at its moment) goes now, each
                // at its own moment, as a drain at the input's end sends it. A poll waits for the
                // game's end before it drains: held, the end kept its poll going for ever.
                say(await call(id) { try await $0.fireDeadlines(through: .distantFuture, holdingPushes: $1) })
            }
            await grantFreedChannels()
            return (messages, await standing(of: id))
        }
        let lines = events.map(\.line) + (end.map { [$0.line] } ?? [])
        let seqs = events.map(\.event.seq) + (end.map { [$0.event.seq] } ?? [])
        state.counters.lines += lines.count
        state.counters.events += lines.count
        let (verdicts, failure, status, standing) = await Self.arrive(
            events.map { ($0.event, $0.line - 1) }, score: score?.0, end: end.map { ($0.event, $0.line - 1) }, written: written, on: engine,
            holdingPushes: state.holds(id), settling: window, standing: true)
        var failing = status.checkpointFailure
        for (i, verdict) in verdicts.enumerated() {
            if let rejection = Self.rejection(verdict, of: id, at: .init(file: source, line: lines[i], sequence: seqs[i])) {
                say(rejection)
            } else if failing != nil {
                say(checkpointProblem(id, failing))
                failing = nil
            }
        }
        say(failure.flatMap { sinkFailureToSay(id, Self.sinkFailed(id, $0)) })
        await absorb(id, status)
        await grantFreedChannels()
        // A channel set up for the game meanwhile moves none of its standing (its phase, its
        // end, its events taken): the status's stands.
        return (messages, standing ?? Standing())
    }

    /// Takes an arrival into `engine` and sends what it decided, in one hop; with `standing`, also
    /// reads where the game stands after (for its poller).
    static func arrive(
        _ events: [(event: GameEvent, index: Int)], score: FinalScore? = nil, end: (event: GameEvent, index: Int)? = nil,
        written: Date? = nil, on engine: isolated MatchEngine, holdingPushes: Bool = false, settling: TimeInterval = 0,
        standing: Bool = false
    ) async -> (verdicts: [EventValidator.Verdict], failure: (any Error)?, status: EngineStatus, standing: Standing?) {
        let verdicts = engine.take(arrival: events, score: score, end: end, written: written, settling: settling)
        var failure: (any Error)?
        do {
            try await engine.flush(holdingPushes: holdingPushes)
        } catch {
            failure = error
        }
        return (verdicts, failure, EngineStatus.of(engine), standing ? Self.standing(engine) : nil)
    }

    /// Applies a run of event lines for known games (`run`: each game's lines, by their places
    /// in `batch`, in order, the games as they first came): each game takes its own on its own
    /// executor, one hop per game, the games side by side (a batch of many games uses every core;
    /// a batch of one game, a live line's, goes straight to its engine).
    /// Then what the lines have to say is taken in, in the order of the lines, and each game's
    /// state once, as it stands after its last event. Returns the messages for people, by their
    /// line's place in the batch.
    func apply(
        _ run: [(game: String, places: [Int])], of batch: [StreamLine], source: String?
    ) async -> [(index: Int, message: ScoreFeedError)] {
        var messages: [(index: Int, message: ScoreFeedError)] = []
        var statuses: [(game: String, status: EngineStatus)] = []
        statuses.reserveCapacity(run.count)
        let (feedTime, settling) = (options.clock == .feed, options.catchUpWindow)
        func took(_ game: String, _ said: Said) {
            // The checkpoint's failure first: on the line of a sink's failure too, it is said before it.
            if let (index, failure) = said.checkpointFailure, let message = checkpointProblem(game, failure) {
                messages.append((index, message))
            }
            messages += said.messages
            if let (index, failure) = said.sinkFailure, let message = sinkFailureToSay(game, failure) { messages.append((index, message)) }
            statuses.append((game, said.status))
        }
        if run.count == 1, let engine = engines[run[0].game] {
            // One game (a live line, as it comes): straight to its engine, no child task.
            took(run[0].game, await Self.receive(
                run[0].places, of: batch, on: engine, source: source, feedTime: feedTime, holdingPushes: state.holds(run[0].game),
                settling: settling))
        } else {
            let taken = await withTaskGroup(of: (place: Int, said: Said).self) { group in
                for (place, (id, places)) in run.enumerated() {
                    guard let engine = engines[id] else { continue }
                    let holding = state.holds(id)
                    // The engine's answer is the task's result as it is: no hop back to build another.
                    group.addTask {
                        (place, await Self.receive(
                            places, of: batch, on: engine, source: source, feedTime: feedTime, holdingPushes: holding, settling: settling))
                    }
                }
                var taken: [(place: Int, said: Said)] = []
                for await one in group { taken.append(one) }
                return taken
            }
            // The games' statuses in the run's order, as they first came.
            for (place, said) in taken.sorted(by: { $0.place < $1.place }) { took(run[place].game, said) }
        }
        messages.sort { $0.index < $1.index }
        await absorb(statuses)
        await grantFreedChannels()
        return messages
    }

    /// What one game's engine says about the events it was handed: the messages for people (its
    /// rejections, by their line's place in the batch), its checkpoint's failure with the place of
    /// the first event it touched (said once per game, by the service), the sink's first failure
    /// with its line's place (said at most once a minute per game, by the service), and the game's
    /// status after the last.
    typealias Said = (
        messages: [(index: Int, message: ScoreFeedError)], checkpointFailure: (index: Int, error: ScoreFeedError)?,
        sinkFailure: (index: Int, message: ScoreFeedError)?, status: EngineStatus
    )

    /// A game's sink failure is said at most once in this many seconds of the wall clock: a sink
    /// down for a while fails every line's send (a channel service down through a day replayed
    /// on the feed clock failed each of a game's 534 events), and the run's end says what waits.
    static let sinkFailureSilence: TimeInterval = 60

    /// The sink's failure of game `id` as it is to be said now, if it is: at most once a minute
    /// per game.
    func sinkFailureToSay(_ id: String, _ failure: ScoreFeedError) -> ScoreFeedError? {
        guard state.saying(sinkFailureOf: id, now: wallClock.now, silence: Self.sinkFailureSilence) else { return nil }
        var message = failure
        message.message += "; said at most once a minute per game while it lasts"
        return message
    }

    /// Hands the event lines at `places` of `batch` (one game's, in order) to `engine`, on the
    /// engine's own executor. On the system clock they arrived together: one moment (one arrival,
    /// one decision); on feed time each event is its own moment, as in replay.
    static func receive(
        _ places: [Int], of batch: [StreamLine], on engine: isolated MatchEngine, source: String?, feedTime: Bool,
        holdingPushes: Bool, settling: TimeInterval
    ) async -> Said {
        let id = engine.attributes.gameId
        var messages: [(index: Int, message: ScoreFeedError)] = []
        var checkpointFailure: (index: Int, error: ScoreFeedError)?
        var sinkFailure: (index: Int, message: ScoreFeedError)?
        func location(_ line: Int, _ event: GameEvent) -> ScoreFeedError.Location {
            .init(file: source, line: line, sequence: event.seq)
        }
        /// What the event on line `line` (at `place` in the batch) says by its verdict, with the
        /// checkpoint's failure as it stood after it.
        func judged(_ verdict: EventValidator.Verdict, _ place: Int, _ line: Int, _ event: GameEvent, _ failure: ScoreFeedError?) {
            if let rejection = rejection(verdict, of: id, at: location(line, event)) {
                messages.append((place, rejection))
            } else if checkpointFailure == nil, let failure {
                checkpointFailure = (place, failure)
            }
        }
        if !feedTime {
            // Each event is copied once, into the arrival; its place and line are kept beside it.
            var events: [(event: GameEvent, index: Int)] = []
            var placed: [(place: Int, line: Int)] = []
            events.reserveCapacity(places.count)
            placed.reserveCapacity(places.count)
            for place in places {
                guard case .event(_, let event, let line) = batch[place] else { continue }
                events.append((event, line - 1))
                placed.append((place, line))
            }
            let (verdicts, failure, status, _) = await arrive(events, on: engine, holdingPushes: holdingPushes, settling: settling)
            for (i, verdict) in verdicts.enumerated() {
                judged(verdict, placed[i].place, placed[i].line, events[i].event, status.checkpointFailure)
            }
            if let failure, let last = placed.last, let event = events.last?.event {
                sinkFailure = (last.place, sinkFailed(id, failure, at: location(last.line, event)))
            }
            return (messages, checkpointFailure, sinkFailure, status)
        }
        // Each event taken from the batch as it is handed: no array of them is built first.
        for place in places {
            guard case .event(_, let event, let line) = batch[place] else { continue }
            do {
                let verdict = try await engine.receiveOnFeedTime(event, index: line - 1, holdingPushes: holdingPushes)
                judged(verdict, place, line, event, engine.checkpointFailure)
            } catch {
                // The first failure of what was handed; the service says it at most once a minute.
                if sinkFailure == nil { sinkFailure = (place, sinkFailed(id, error, at: location(line, event))) }
            }
        }
        return (messages, checkpointFailure, sinkFailure, EngineStatus.of(engine))
    }

    /// The message for people about an event of game `id` its validator rejected (nil: it was not).
    static func rejection(_ verdict: EventValidator.Verdict, of id: String, at location: ScoreFeedError.Location) -> ScoreFeedError? {
        guard case .reject(var error) = verdict else { return nil }
        error.location = location
        error.message = "game \(id): " + error.message
        return error
    }

    func apply(_ event: GameEvent, to id: String, line: Int, source: String?) async -> ScoreFeedError? {
        let location = ScoreFeedError.Location(file: source, line: line, sequence: event.seq)
        guard let engine = engines[id] else {
            state.counters.unknownGame += 1
            return ScoreFeedError(.invalidValue, "event for game \"\(id)\", which has no header yet; skipped", at: location)
        }
        state.counters.events += 1
        let said = await Self.receive(
            [0], of: [.event(game: id, event, line: line)], on: engine, source: source,
            feedTime: options.clock == .feed, holdingPushes: state.holds(id), settling: options.catchUpWindow)
        await absorb(id, said.status)
        // The checkpoint's failure first, as a batch says it (``apply(_:of:source:)``).
        let failure = said.checkpointFailure.flatMap { checkpointProblem(id, $0.error) } ?? said.messages.first?.message
            ?? said.sinkFailure.flatMap { sinkFailureToSay(id, $0.message) }
        await grantFreedChannels()
        return failure
    }
}

import Foundation

/// Runs a ``GameService`` live, as `serve` and `poll` do and as a service embedding ScoreFeed
/// would: the input beside the timer that sends held pushes on the system clock (and the sink's
/// own work, ``PushSink/run()``, until the shutdown is over), until the
/// input ends, a stop is asked for or the output goes away; then the shutdown, in this order:
/// the drain (held pushes come due) and the channels settling (lingers run out, deletes
/// answered), the sink's last deliveries (lines written in the background, a webhook's queue),
/// with managed channels the settling again (a delete waits for its game's `end` to be
/// delivered) and the sink finished again after it, and every game compacted to one snapshot.
///
/// Signals are the caller's business: hand in a function that returns when one comes. A stop
/// asked for while the service runs cuts the drain and the settling to ``stopGrace`` (the sink's
/// last deliveries keep their own bound: a webhook's give-up). When the run stopped for another
/// reason, a stop asked for during the shutdown cuts what is left of it to ``stopGrace`` more.
/// What is not sent by then stays in the checkpoints (with a state directory); the compaction
/// still runs.
public struct LiveService: Sendable {
    /// Why ``run(input:alongside:stopRequests:outputGone:)`` stopped reading its input.
    public enum Stop: Sendable, Hashable {
        /// The input returned: a clean end, drained in full (within ``drainTimeout``).
        case inputEnded
        /// A stop was asked for (SIGINT, SIGTERM): the drain is cut to ``stopGrace``.
        case requested
        /// The output's reader went away (a closed pipe): nothing more is drained into it.
        case outputGone
    }

    /// How a run ended.
    public struct Outcome: Sendable {
        public var stop: Stop
        /// The sink's last deliveries failed, or a stop cut them short (a `CancellationError`):
        /// pushes handed to it may not be delivered.
        public var finishFailure: (any Error)?
    }

    public let games: GameService
    /// At the end of the input, the most seconds to wait for held pushes to come due on the
    /// system clock, and again for the channels to settle after the sink's last deliveries.
    public var drainTimeout: TimeInterval
    /// Seconds what is due still goes out after a stop is asked for.
    public var stopGrace: TimeInterval = 5
    private let finishing: @Sendable () async throws -> Void
    private let report: @Sendable (String) -> Void

    /// `finishing` sees the sink's last deliveries through (nil: the sink's own
    /// ``PushSink/finish()``); it is called again when the channels settled after it. `report`
    /// receives lines for people (a stop during the shutdown).
    public init(
        _ games: GameService, drainTimeout: TimeInterval = 600,
        finishing: (@Sendable () async throws -> Void)? = nil, report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.games = games
        self.drainTimeout = drainTimeout
        let sink = games.sink
        self.finishing = finishing ?? { try await sink.finish() }
        self.report = report
    }

    /// Runs `input` (it hands the games their events) with the timer beside it on the system
    /// clock and each of `alongside` (a metrics writer), until the input returns,
    /// `stopRequests` returns (it is called again to watch for a second request during the
    /// shutdown) or `outputGone` returns; then shuts down in order (see ``LiveService``).
    public func run(
        input: @escaping @Sendable () async -> Void,
        alongside: [@Sendable () async -> Void] = [],
        stopRequests: (@Sendable () async -> Void)? = nil,
        outputGone: (@Sendable () async -> Void)? = nil
    ) async -> Outcome {
        // The sink's own work (a ResilientSink's retries as they come due) runs through the
        // shutdown, whose last deliveries and channel deletes wait for it, and stops after it.
        await games.sink.whileRunning {
            await runGames(input: input, alongside: alongside, stopRequests: stopRequests, outputGone: outputGone)
        }
    }

    /// ``run(input:alongside:stopRequests:outputGone:)`` but the sink's own work.
    private func runGames(
        input: @escaping @Sendable () async -> Void,
        alongside: [@Sendable () async -> Void],
        stopRequests: (@Sendable () async -> Void)?,
        outputGone: (@Sendable () async -> Void)?
    ) async -> Outcome {
        let games = self.games
        let stop = await withTaskGroup(of: Stop?.self) { group in
            group.addTask {
                await input()
                return .inputEnded
            }
            if games.options.clock == .system {
                group.addTask {
                    await games.runTimer()
                    return nil
                }
            }
            if let stopRequests {
                group.addTask {
                    await stopRequests()
                    return Task.isCancelled ? nil : .requested
                }
            }
            if let outputGone {
                group.addTask {
                    await outputGone()
                    return Task.isCancelled ? nil : .outputGone
                }
            }
            for work in alongside {
                group.addTask {
                    await work()
                    return nil
                }
            }
            // The first of the input, a stop request or the output gone stops the others.
            var stop: Stop?
            while stop == nil, let next = await group.next() { stop = next }
            group.cancelAll()
            return stop ?? .inputEnded
        }
        let limit = stop == .requested ? min(stopGrace, drainTimeout) : drainTimeout
        let failure = await shutDown(
            drain: stop != .outputGone, waitingAtMost: limit, stopRequests: stop == .requested ? nil : stopRequests)
        return Outcome(stop: stop, finishFailure: failure)
    }

    /// Drains and lets the channels settle (unless `drain` is false: the output is gone), sees
    /// the sink's last deliveries through, settles the channels again and finishes the sink
    /// again after them (with managed channels), and compacts, within `limit` each. A stop
    /// request meanwhile cuts it to ``stopGrace`` more; the compaction still runs.
    private func shutDown(
        drain: Bool, waitingAtMost limit: TimeInterval, stopRequests: (@Sendable () async -> Void)?
    ) async -> (any Error)? {
        let (games, finishing, grace, report) = (self.games, self.finishing, stopGrace, self.report)
        let rest = !drain ? "unsent" : games.store != nil ? "in the checkpoints" : "unsent (without a state directory nothing keeps it)"
        return await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                if drain {
                    let giveUp = games.wallClock.now.addingTimeInterval(limit)
                    await games.drainHeld(until: giveUp)
                    await games.settleChannels(until: giveUp)
                }
                var result = Result<Void, any Error>.success(())
                do { try await finishing() } catch { result = .failure(error) }
                // Ends the sink delivered only now let their channels be deleted; what that
                // sends (the deletes, APNs' list) is finished too.
                if await games.settleChannels(until: games.wallClock.now.addingTimeInterval(limit)) {
                    do { try await finishing() } catch { if case .success = result { result = .failure(error) } }
                }
                // What the sink delivered only at its finish is not sent again by the next run
                // (not when a stop cut the shutdown short: asking the sink may try a send again).
                if !Task.isCancelled { await games.confirmDelivered() }
                await games.compact()
                return result
            }
            if let stopRequests {
                group.addTask {
                    await stopRequests()
                    guard !Task.isCancelled else { return nil }
                    report("stopping: what is due goes out for \(Int(grace)) s more, the rest stays \(rest)")
                    try? await games.wallClock.sleep(until: games.wallClock.now.addingTimeInterval(grace))
                    return nil
                }
            }
            // The shutdown ends, or the grace after a stop request does and cuts it short (the
            // compaction still runs: only the waiting stops).
            var outcome: Result<Void, any Error>?
            while let next = await group.next() {
                group.cancelAll()
                if let next { outcome = next }
            }
            if case .failure(let error) = outcome { return error }
            return nil
        }
    }
}

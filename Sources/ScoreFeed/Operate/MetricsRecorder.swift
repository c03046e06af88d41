import Foundation
import Synchronization

/// Where the live code tells the figures only it sees as they happen: a push handed to the sink
/// (its feed-to-push time), a checkpoint write and its time, a sink or checkpoint error, a poll
/// request and its outcome. The games' own figures are not here: they are read from the games'
/// sessions when the metrics are written (``GameService/metrics(now:recorder:)``). Safe to call
/// from any thread or actor.
public final class MetricsRecorder: Sendable {
    struct State {
        var metrics = Metrics()
        /// When a metrics write first saw each ended game's end delivered.
        var endSeen: [String: Date] = [:]
        /// Games being polled, and when each one's play-by-play last answered.
        var polled: [String: Date] = [:]
        var polling = false
        /// The deadline acted on latest after it came due: see ``MetricsRecorder/worstDeadline``.
        var worst: (game: String, due: Date, seconds: Double)?
    }

    private let state = Mutex(State())

    public init() {}

    /// A push was handed to the sink `seconds` after the feed time of its newest event.
    public func observeFeedToPush(_ seconds: Double) {
        state.withLock { $0.metrics.feedToPush.observe(max(0, seconds)) }
    }

    /// A checkpoint write (snapshot, journal append or sync) took `seconds`, and failed or not.
    public func observeCheckpointWrite(_ seconds: Double, failed: Bool = false) {
        state.withLock {
            $0.metrics.checkpointWrite.observe(max(0, seconds))
            if failed { $0.metrics.checkpointErrors += 1 }
        }
    }

    /// Game `game`'s deadline `due` was acted on `seconds` after it came due.
    public func observeDeadline(game: String, due: Date, lateBy seconds: Double) {
        state.withLock {
            $0.metrics.deadlineLateness.observe(max(0, seconds))
            if seconds > $0.worst?.seconds ?? 0 { $0.worst = (game, due, seconds) }
        }
    }

    /// The deadline acted on latest after it came due so far: its game, when it came due, and by
    /// how much (nil: none was late). What a simulated day names when a push was held past its
    /// time.
    public var worstDeadline: (game: String, due: Date, seconds: Double)? {
        state.withLock { $0.worst }
    }

    /// Runs `write` (a checkpoint write) and observes its time and whether it threw.
    public func measureCheckpointWrite<T, Failure: Error>(_ write: () throws(Failure) -> T) throws(Failure) -> T {
        let start = ContinuousClock.now
        do {
            let result = try write()
            observeCheckpointWrite(Self.seconds(since: start))
            return result
        } catch {
            observeCheckpointWrite(Self.seconds(since: start), failed: true)
            throw error
        }
    }

    /// Runs `write` (a checkpoint write), observed by `recorder` when there is one.
    public static func measure<T, Failure: Error>(
        _ recorder: MetricsRecorder?, _ write: () throws(Failure) -> T
    ) throws(Failure) -> T {
        guard let recorder else { return try write() }
        return try recorder.measureCheckpointWrite(write)
    }

    /// The sink failed with `error` (its code is the kind).
    public func countSinkError(_ error: any Error) {
        let kind = (error as? ScoreFeedError)?.code.rawValue ?? "other"
        state.withLock { $0.metrics.sinkErrors[kind, default: 0] += 1 }
    }

    /// One poll request to `endpoint` (`playbyplay`, `boxscore`, `scoreboard`) and its outcome.
    public func countPollRequest(endpoint: String, outcome: String) {
        state.withLock {
            $0.metrics.pollRequests[Metrics.PollRequest(endpoint: endpoint, outcome: outcome), default: 0] += 1
        }
    }

    /// A game of today's scoreboard that is postponed or cancelled and was never followed: it
    /// counts among the games ended postponed.
    public func countPostponedUnfollowed() {
        state.withLock { $0.metrics.gamesEnded["postponed", default: 0] += 1 }
    }

    /// `game`'s play-by-play answered (200 or 304) at `now`, or its polling starts at `now`.
    public func pollAnswered(game: String, at now: Date) {
        state.withLock {
            $0.polling = true
            $0.polled[game] = now
        }
    }

    /// `game` is no longer polled (its end is out, or the poller stopped).
    public func pollStopped(game: String) {
        state.withLock { _ = $0.polled.removeValue(forKey: game) }
    }

    /// The outcome label of a failed poll request: the HTTP status it names (`503`), `timeout`,
    /// `no-answer`, or the error's code (`malformed-json`).
    public static func pollOutcome(of error: ScoreFeedError) -> String {
        if let status = error.httpStatus { return String(status) }
        if error.message.contains("timed out") || error.message.hasPrefix("no whole answer within") { return "timeout" }
        if error.message.hasPrefix("cancelled") { return "cancelled" }
        if error.message.hasPrefix("no answer") { return "no-answer" }
        return error.code.rawValue
    }

    /// When a metrics write first saw `game`'s end delivered (now, the first time it is asked).
    func endSeen(_ game: String, now: Date) -> Date {
        state.withLock { state in
            if let seen = state.endSeen[game] { return seen }
            state.endSeen[game] = now
            return now
        }
    }

    /// The figures observed so far, with the poll lag at `now` (when polling).
    public func observed(now: Date) -> Metrics {
        state.withLock { state in
            var metrics = state.metrics
            if state.polling { metrics.pollLag = state.polled.values.map { max(0, now.timeIntervalSince($0)) }.max() ?? 0 }
            return metrics
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

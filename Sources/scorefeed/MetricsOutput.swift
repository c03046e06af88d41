import Foundation
import ScoreFeed
import Synchronization

/// `--metrics <file>` of `serve` and `poll`: the recorder the live code tells, the file, and how
/// often it is rewritten; a failed write is said once (until a write succeeds again).
final class MetricsOutput: Sendable {
    let recorder = MetricsRecorder()
    let file: MetricsFile
    let interval: TimeInterval
    private let failing = Mutex(false)

    /// The help lines of the options.
    static let help = """
          --metrics <file>        Write Prometheus metrics (text format 0.0.4) to this file,
                                  rewritten atomically every --metrics-interval seconds and
                                  at exit: for node_exporter's textfile collector (*.prom).
                                  An ended game's series go 15 minutes after its end was sent.
          --metrics-interval <s>  Seconds between two writes of --metrics (10; wall clock,
                                  also with --clock feed).
        """

    /// Reads `--metrics` and `--metrics-interval`; nil without `--metrics`.
    static func parse(_ arguments: inout Arguments) throws(ScoreFeedError) -> (path: String, interval: TimeInterval)? {
        let path = try arguments.option("--metrics")
        let interval: Double? = try arguments.number("--metrics-interval", in: 0.1...86_400)
        guard let path else {
            if interval != nil { throw ScoreFeedError(.usage, "--metrics-interval is for --metrics <file>") }
            return nil
        }
        return (path, interval ?? 10)
    }

    init(path: String, interval: TimeInterval) {
        file = MetricsFile(path: path)
        self.interval = interval
    }

    /// Writes the service's figures now, with the webhook's (its failed attempts, refusals and
    /// queue) when there is one.
    func write(_ service: GameService, webhook: ResilientSink?) async {
        var metrics = await service.metrics(now: Date(), recorder: recorder)
        if let webhook {
            let s = await webhook.statistics
            if s.failures > 0 { metrics.sinkErrors["unavailable", default: 0] += s.failures }
            if s.rejected > 0 { metrics.sinkErrors["rejected", default: 0] += s.rejected }
            metrics.sinkBacklog += s.waiting
            metrics.withheld["sink", default: 0] += s.waiting
        }
        do {
            try file.write(metrics.exposition())
            failing.withLock { $0 = false }
        } catch {
            if failing.withLock({ was in defer { was = true }; return !was }) { Console.error("metrics: \(error)") }
        }
    }

    /// Writes every ``interval`` seconds of wall-clock time until the task is cancelled.
    func run(_ service: GameService, webhook: ResilientSink?) async {
        var due = Date()
        await DeadlineLoop().run(next: { due }) { now in
            await write(service, webhook: webhook)
            due = now.addingTimeInterval(interval)
        }
    }
}

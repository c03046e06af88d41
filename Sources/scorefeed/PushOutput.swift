import Foundation
import ScoreFeed

/// The open sinks of one run of `replay`, `serve` or `poll`, made by
/// ``PushOptions/open(screen:quiet:writing:)``: what to hand the engine, and the webhook to see through
/// at the end.
struct PushOutput {
    /// The webhook behind its retrying wrapper, and where it posts (for messages).
    struct Webhook {
        var sink: ResilientSink
        var endpoint: String
    }

    /// The screen or `--out` file, then the webhook.
    let sinks: [any PushSink]
    let webhook: Webhook?
    /// The webhook's figures are not said on stderr.
    let quiet: Bool

    /// One sink for the engine: these and `extra` (a recording, a refusal callback), in order.
    func sink(adding extra: [any PushSink] = []) -> any PushSink {
        let all = sinks + extra
        return all.count == 1 ? all[0] : FanOutSink(all)
    }

    /// Waits until the JSON lines sinks have written every line handed to them (a sink that
    /// writes in the background); throws a write that failed.
    func finishWriting() async throws {
        for sink in sinks {
            if let sink = sink as? JSONLSink { try await sink.flush() }
            if let sink = sink as? ReaderGoneSink { try await sink.flush() }
        }
    }

    /// Delivers what the webhook still holds (bounded by --webhook-give-up), saying so when it
    /// holds any; throws when it gave up on records. Nothing to do without a webhook.
    func finish() async throws {
        guard let webhook else { return }
        if !quiet, await webhook.sink.statistics.waiting > 0 {
            Console.error("webhook \(webhook.endpoint): delivering what is still waiting…")
        }
        try await webhook.sink.flush()
    }

    /// Says how the webhook fared (once, at the end of the run).
    func sayWebhookFigures() async {
        guard let webhook, !quiet else { return }
        let s = await webhook.sink.statistics
        Console.error(
            "webhook \(webhook.endpoint): delivered \(s.delivered), skipped \(s.skipped) (a newer state went instead), refused by the receiver \(s.rejected), failed attempts \(s.failures)")
    }
}

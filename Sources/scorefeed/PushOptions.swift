import Foundation
import ScoreFeed

/// How `replay` addresses its push requests (token or broadcast, push-to-start) and where it
/// delivers them besides stdout and `--out` (a webhook).
struct PushOptions {
    static let help = """
          --mode <mode>           token (default): one request per device, POST /3/device/{token}
                                  with apns-topic; broadcast: one request per game to a channel
                                  (iOS 18+), POST /4/broadcasts/apps/<bundle-id> with
                                  apns-channel-id and apns-expiration 0.
          --channel-id <id>       replay: the broadcast channel id (base64); required with
                                  broadcast. serve and poll give each game its own channel
                                  (see BROADCAST CHANNELS).
          --start                 Token mode: send a push-to-start (event start, with attributes
                                  and an alert) before the first update.
          --webhook <url>         Also POST each push record as JSON to <url>. Failed requests
                                  are retried with backoff; while it stays down only the newest
                                  state per game waits, and is sent once it is back.
          --webhook-token-env <name>
                                  Send "Authorization: Bearer <token>" with the token read from
                                  the environment variable <name> (it is never printed).
          --webhook-timeout <s>   Seconds one webhook request may take (default 10).
          --webhook-give-up <s>   Seconds to keep retrying undelivered records (the end among
                                  them) after the replay, then fail (default 600).
          --stale-after <s>       stale-date = send time + this (default 300).
          --dismiss-after <s>     dismissal-date on end = send time + this, at most 4 h (900).
        """

    var mode: PushRenderer.Mode = .token
    var start = false
    var webhook: URL?
    var webhookToken: String?
    var webhookTimeout: TimeInterval = 10
    var webhookGiveUp: TimeInterval = 600
    var staleAfter: TimeInterval?
    var dismissAfter: TimeInterval?

    /// Whether pushes go to a broadcast channel (about one update a second at most).
    var isBroadcast: Bool {
        if case .broadcast = mode { return true }
        return false
    }

    /// Takes the options out of `arguments`; the token is read from `environment`. `live`: serve
    /// and poll, where each game has its own channel and `--channel-id` is refused.
    static func parse(
        _ arguments: inout Arguments, live: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ScoreFeedError) -> PushOptions {
        var options = PushOptions()
        let modeName = try arguments.option("--mode") ?? "token"
        let channel = try arguments.option("--channel-id")
        options.start = arguments.flag("--start")
        switch modeName {
        case "token":
            if channel != nil { throw ScoreFeedError(.usage, "--channel-id is for --mode broadcast") }
            options.mode = .token
        case "broadcast":
            if live, channel != nil {
                throw ScoreFeedError(
                    .usage,
                    "--channel-id is for replaying one game: serve and poll send each game on its own channel. Put \"channel\": \"<id>\" in each game header (serve), or let ScoreFeed create and delete them with --channels manage --webhook <url>")
            }
            if !live, (channel ?? "").isEmpty {
                throw ScoreFeedError(.usage, "--mode broadcast needs --channel-id <id>")
            }
            if options.start {
                throw ScoreFeedError(
                    .usage, "--start cannot be used with --mode broadcast: broadcast pushes cannot start a Live Activity (push-to-start needs token mode)")
            }
            // serve and poll: each game on its own channel (nil here, stamped per game).
            options.mode = .broadcast(channelId: live ? nil : channel)
        default:
            throw ScoreFeedError(.usage, "--mode must be token or broadcast, not \"\(modeName)\"")
        }

        options.staleAfter = try arguments.number("--stale-after", in: 0...28_800)
        options.dismissAfter = try arguments.number("--dismiss-after", in: 0...14_400)
        let url = try arguments.option("--webhook")
        let tokenVariable = try arguments.option("--webhook-token-env")
        let timeout: Double? = try arguments.number("--webhook-timeout", in: 0.1...600)
        let giveUp: Double? = try arguments.number("--webhook-give-up", in: 0...86_400)
        guard let url else {
            if tokenVariable != nil || timeout != nil || giveUp != nil {
                throw ScoreFeedError(.usage, "--webhook-token-env, --webhook-timeout and --webhook-give-up need --webhook <url>")
            }
            return options
        }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
              parsed.host?.isEmpty == false
        else {
            throw ScoreFeedError(.usage, "--webhook needs an http or https URL")
        }
        options.webhook = parsed
        if let tokenVariable {
            guard let token = environment[tokenVariable], !token.isEmpty else {
                throw ScoreFeedError(.usage, "the environment variable \(tokenVariable) named by --webhook-token-env is not set or empty")
            }
            options.webhookToken = token
        }
        if let timeout { options.webhookTimeout = timeout }
        if let giveUp { options.webhookGiveUp = giveUp }
        return options
    }

    func apply(to configuration: inout PushRenderer.Configuration) {
        configuration.mode = mode
        configuration.start = start
        if let staleAfter { configuration.staleAfter = staleAfter }
        if let dismissAfter { configuration.dismissAfter = dismissAfter }
    }

    /// The webhook, retrying on its own and wrapped so the replay goes on while it is down.
    func webhookSink(quiet: Bool) -> (sink: ResilientSink, endpoint: String)? {
        guard let webhook else { return nil }
        let inner = WebhookSink(url: webhook, bearerToken: webhookToken, options: .init(timeout: webhookTimeout))
        let endpoint = inner.endpoint
        let sink = ResilientSink(inner, options: .init(giveUpAfter: webhookGiveUp), onEvent: { event in
            guard !quiet else { return }
            switch event {
            case .failing(let error):
                Console.error("webhook \(endpoint) is failing (\(error.message)); keeping the newest state per game until it is back")
            case .recovered(let skipped):
                Console.error("webhook \(endpoint) is back; \(skipped) superseded update\(skipped == 1 ? "" : "s") skipped so far")
            case .rejected(let activity, let seq, let error):
                Console.error("webhook refused \(activity) seq \(seq): \(error.message)")
            }
        })
        return (sink, endpoint)
    }

    /// Delivers what still waits (bounded by --webhook-give-up) and says how the webhook fared.
    static func finish(_ webhook: (sink: ResilientSink, endpoint: String), quiet: Bool) async throws {
        if !quiet, await webhook.sink.statistics.waiting > 0 {
            Console.error("webhook \(webhook.endpoint): delivering what is still waiting…")
        }
        var failure: (any Error)?
        do { try await webhook.sink.flush() } catch { failure = error }
        let s = await webhook.sink.statistics
        if !quiet {
            Console.error(
                "webhook \(webhook.endpoint): delivered \(s.delivered), skipped \(s.skipped) (a newer state went instead), refused by the receiver \(s.rejected), failed attempts \(s.failures)")
        }
        if let failure { throw failure }
    }
}

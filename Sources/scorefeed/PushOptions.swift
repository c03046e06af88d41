import Foundation
import ScoreFeed

/// Where `replay`, `serve` and `poll` send their push records and how they address them: the
/// bundle id, token or broadcast mode, push-to-start, the renderer's dates, `--out` and the
/// webhook. Read before anything is opened; the renderer's configuration and the sinks are made
/// from it here (``renderer()``, ``open(screen:quiet:writing:)``) and nowhere else.
struct PushOptions {
    /// Who reads the options, which sets what `--channel-id` and `--out` mean.
    enum Use {
        /// One game: `--channel-id` names its channel; `--out` appends the records as well as
        /// showing them on stdout.
        case replay
        /// `serve` and `poll`: each game has its own channel, so `--channel-id` is refused;
        /// `--out` appends the records instead of writing them on stdout.
        case live
    }

    /// The values `--mode` takes.
    enum ModeName: String, CaseIterable {
        case token, broadcast
    }

    /// The help lines of these options for `use`.
    static func help(_ use: Use) -> String {
        let out = switch use {
        case .replay: """
              -o, --out <path>        Append the push records to <path> as JSON lines, as well as
                                      showing them on stdout.
            """
        case .live: """
              -o, --out <path>        Append the push records to <path> as JSON lines, instead of
                                      writing them on stdout.
            """
        }
        let channel = switch use {
        case .replay: """
              --mode <mode>           token (default): one request per device, POST /3/device/{token}
                                      with apns-topic; broadcast: one request per game to a channel
                                      (iOS 18+), POST /4/broadcasts/apps/<bundle-id> with
                                      apns-channel-id and apns-expiration 0.
              --channel-id <id>       The broadcast channel id (base64); required with broadcast.
            """
        case .live: """
              --mode <mode>           token (default): one request per device, POST /3/device/{token}
                                      with apns-topic; broadcast: one request per game to the game's
                                      own channel (iOS 18+), POST /4/broadcasts/apps/<bundle-id>
                                      with apns-channel-id (see BROADCAST CHANNELS).
            """
        }
        return out + "\n" + """
              --platform <platform>   ios (default): Live Activity requests for APNs; android:
                                      Android Live Updates as FCM HTTP v1 data messages, POST
                                      /v1/projects/{project}/messages:send, each record's line
                                      starting {"platform":"android" (broadcast mode: to the
                                      game's topic game-<id>); ios,android: both, from one fold,
                                      each platform under its own policy and budget, in one
                                      stream (the iOS records are those of --platform ios).
                                      Push-to-start, broadcast channels and the coalescer
                                      options are the iOS lane's.
              --fcm-project <id>      Android: the Firebase project in the request path (default:
                                      the literal {project}, for the sender to fill in).
              --bundle-id <id>        The app's bundle id, for apns-topic or the broadcast path
                                      (default com.example.app).
            """ + "\n" + channel + "\n" + """
              --start                 Token mode: send a push-to-start (event start, with attributes
                                      and an alert) before the first update.
              --webhook <url>         Also POST each push record as JSON to <url>. Failed requests
                                      are retried with backoff; while it stays down only the newest
                                      state per game waits, and is sent once it is back.
              --webhook-token-env <name>
                                      Send "Authorization: Bearer <token>" with the token read from
                                      the environment variable <name> (it is never printed).
              --webhook-timeout <s>   Seconds one whole webhook request may take (default 10).
                                      Its answer is read up to 64 KiB (a status and a short
                                      JSON body are expected); a longer one is a failed attempt.
              --webhook-give-up <s>   Seconds to keep retrying undelivered records (the end among
                                      them) once the input is done, then fail (default 600).
              --stale-after <s>       stale-date = send time + this (default 300).
              --dismiss-after <s>     dismissal-date on end = send time + this, at most 4 h (900).
            """
    }

    static let defaultBundleId = "com.example.app"

    var use: Use
    var bundleId = defaultBundleId
    /// `--out` (`-o`): the file the records are appended to (see ``Use`` for what it does to stdout).
    var out: String?
    var mode: PushRenderer.Mode = .token
    /// The platforms pushed to, in lane order (iOS first): `--platform ios,android` gives both.
    var platforms: [PushRenderer.Platform] = [.ios]
    var fcmProject: String?
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

    /// Whether the policy keeps a second between pushes: Apple's advice for broadcasts. FCM's
    /// topics have limits of their own, far above.
    var pacesBroadcasts: Bool { isBroadcast && platform == .ios }

    /// The first lane's platform: the one whose options `--start`, `--channel-id` and the
    /// coalescer's flags set.
    var platform: PushRenderer.Platform { platforms[0] }

    /// Whether iOS is among the platforms (the iOS-only options are allowed).
    var hasIOS: Bool { platforms.contains(.ios) }

    /// The lanes after the first: Android's beside iOS's with `--platform ios,android`.
    func otherLanes(beside renderer: PushRenderer.Configuration) -> [PlatformLane.Options] {
        platforms.dropFirst().map { _ in PlatformLane.Options.android(beside: renderer, project: fcmProject) }
    }

    /// `--platform`: `ios`, `android`, or both as `ios,android` (either order: iOS's lane first).
    static func platforms(_ arguments: inout Arguments) throws(ScoreFeedError) -> [PushRenderer.Platform] {
        guard let text = try arguments.option("--platform") else { return [.ios] }
        let named = text.split(separator: ",", omittingEmptySubsequences: false).map { PushRenderer.Platform(rawValue: String($0)) }
        guard !named.isEmpty, named.allSatisfy({ $0 != nil }), Set(named).count == named.count else {
            throw ScoreFeedError(.usage, "--platform takes ios, android or ios,android, not \"\(text)\"")
        }
        return PushRenderer.Platform.allCases.filter { named.contains($0) }
    }

    /// Takes the options out of `arguments`; the token is read from `environment`.
    static func parse(
        _ arguments: inout Arguments, use: Use,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ScoreFeedError) -> PushOptions {
        var options = PushOptions(use: use)
        options.out = try arguments.option("-o", "--out")
        options.bundleId = try arguments.option("--bundle-id") ?? defaultBundleId
        options.platforms = try platforms(&arguments)
        options.fcmProject = try arguments.option("--fcm-project")
        if let project = options.fcmProject {
            guard options.platforms.contains(.android) else { throw ScoreFeedError(.usage, "--fcm-project is for --platform android") }
            // Firebase project ids: lower-case letters, digits and hyphens (upper case let through).
            guard !project.isEmpty, project.count <= 64, project.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }) else {
                throw ScoreFeedError(.usage, "--fcm-project needs a Firebase project id (letters, digits, -), not \"\(project)\"")
            }
        }
        let modeName = try arguments.choice("--mode", of: ModeName.self) ?? .token
        var channel: String?
        switch use {
        case .replay where !options.hasIOS:
            try arguments.refuse(
                "--channel-id", "--channel-id is for iOS broadcasts: Android's broadcast goes to each game's FCM topic, game-<id>")
        case .replay:
            channel = try arguments.option("--channel-id")
        case .live:
            try arguments.refuse(
                "--channel-id",
                "--channel-id is for replaying one game: serve and poll send each game on its own channel. Put \"channel\": \"<id>\" in each game header (serve), or let ScoreFeed create and delete them with --channels manage --webhook <url>")
        }
        options.start = arguments.flag("--start")
        if options.start, !options.hasIOS {
            throw ScoreFeedError(.usage, "--start is iOS's push-to-start: every Android activity begins with its start")
        }
        options.staleAfter = try arguments.number("--stale-after", in: 0...28_800)
        options.dismissAfter = try arguments.number("--dismiss-after", in: 0...14_400)
        let url = try arguments.option("--webhook")
        let tokenVariable = try arguments.option("--webhook-token-env")
        let timeout: Double? = try arguments.number("--webhook-timeout", in: 0.1...600)
        let giveUp: Double? = try arguments.number("--webhook-give-up", in: 0...86_400)

        switch modeName {
        case .token:
            if channel != nil { throw ScoreFeedError(.usage, "--channel-id is for --mode broadcast") }
            options.mode = .token
        case .broadcast where !options.hasIOS:
            // Each game's FCM topic: no channel to name or make.
            options.mode = .broadcastPerGame
        case .broadcast:
            if use == .replay, (channel ?? "").isEmpty {
                throw ScoreFeedError(.usage, "--mode broadcast needs --channel-id <id>")
            }
            if options.start {
                throw ScoreFeedError(
                    .usage, "--start cannot be used with --mode broadcast: broadcast pushes cannot start a Live Activity (push-to-start needs token mode)")
            }
            // serve and poll: each game on its own channel, stamped per game.
            options.mode = channel.map { .broadcast(channelId: $0) } ?? .broadcastPerGame
        }

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

    /// Refuses an `--out` that names one of `inputs`, the files the command reads.
    func refuseOverwriting(_ inputs: [String]) throws(ScoreFeedError) {
        try OutputGuard.refuse(out, inputs: inputs, writing: "push records")
    }

    /// How the renderer addresses and dates the pushes (serve and poll add the channels'
    /// storage and linger: ``LiveRun/Options/renderer``).
    func renderer() -> PushRenderer.Configuration {
        var configuration = PushRenderer.Configuration(bundleId: bundleId)
        configuration.mode = mode
        configuration.platform = platform
        configuration.fcmProject = platform == .android ? fcmProject : nil
        configuration.start = start
        if let staleAfter { configuration.staleAfter = staleAfter }
        if let dismissAfter { configuration.dismissAfter = dismissAfter }
        return configuration
    }

    /// Opens the sinks: `screen` (what stdout shows), the `--out` file beside it (replay) or
    /// instead of it (serve, poll), then the webhook, retrying on its own and wrapped so the run
    /// goes on while it is down. `quiet`: the webhook's troubles are not said on stderr.
    /// `writing`: when the `--out` file's lines are written (see ``JSONLSink/Writing``).
    func open(
        screen: @autoclosure () -> any PushSink, quiet: Bool, writing: JSONLSink.Writing = .immediate
    ) throws(ScoreFeedError) -> PushOutput {
        var sinks: [any PushSink] = []
        let file = try out.map { path throws(ScoreFeedError) in try JSONLSink(path: path, writing: writing) }
        switch use {
        case .replay:
            sinks.append(screen())
            if let file { sinks.append(file) }
        case .live:
            sinks.append(file ?? screen())
        }
        let webhook = webhookSink(quiet: quiet)
        if let webhook { sinks.append(webhook.sink) }
        return PushOutput(sinks: sinks, webhook: webhook, quiet: quiet)
    }

    /// The webhook, retrying on its own and wrapped so the run goes on while it is down.
    private func webhookSink(quiet: Bool) -> PushOutput.Webhook? {
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
        return PushOutput.Webhook(sink: sink, endpoint: endpoint)
    }
}

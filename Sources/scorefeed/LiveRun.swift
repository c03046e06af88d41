import Foundation
import ScoreFeed
import ScoreFeedModel
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `serve` and `poll` share: the game service built from the push, coalescer, webhook and
/// checkpoint options; restoring it; running an input in a ``LiveService`` with SIGINT and
/// SIGTERM as its stop requests; and one summary line per game.
struct LiveRun {
    let command: String
    let service: GameService
    let stateDir: String?
    let drainTimeout: TimeInterval
    private let output: PushOutput
    /// The state directory's lock, held until the process exits.
    private let lock: StateDirectoryLock?
    /// Standard output, watched for its reader going away.
    private let screen: ReaderGoneSink
    /// `--metrics`: nil without it.
    let metrics: MetricsOutput?

    /// The help lines of the options this type reads (the broadcast channels' are in
    /// ``channelsHelp``, a section of its own).
    static let help = """
          --state-dir <dir>       Keep per-game checkpoints here and resume from them.
          --clock <mode>          system (default): held pushes go out on the real clock;
                                  feed: each game's own feed time, as replay does.
          --drain-timeout <s>     When the input ends, wait at most this long for held pushes
                                  to come due on the system clock (600).
        \(MetricsOutput.help)
        \(PushOptions.help(.live))
        \(CoalescerOptions.help)
        """

    /// The help section of the broadcast-channel options, after the OPTIONS section.
    static let channelsHelp = """
        BROADCAST CHANNELS (--mode broadcast: each game on its own channel, never another's):
          A game header's "channel": "<base64 id>" is a channel your backend made: its pushes
          go there, and ScoreFeed never creates or deletes it. A game with no channel holds its
          pushes (the newest state only) and says so once.
          --channels <how>        header (default): channels come from the headers only;
                                  manage: ScoreFeed creates a channel for each game with none
                                  when the game is first known, and deletes it after the game.
                                  Needs --webhook: the sender passes APNs' answer back, and the
                                  2xx answer to a create carries the apns-channel-id header.
          --message-storage <0|1> The channels' message-storage policy (0, Apple's advice for
                                  sports: nothing stored, broadcasts carry apns-expiration 0;
                                  1: the latest message is kept for devices that were offline).
          --channel-linger <s>    Seconds a created channel stays after the game's end was
                                  delivered, then it is deleted (120; 0: at once).
          --max-channels <n>      The most channels ScoreFeed keeps at once (10000, APNs' cap
                                  per app and environment); a game past it gets none and holds.
          --delete-unknown-channels
                                  Every channel of this app (and environment) is this state
                                  dir's: at start and exit, delete the channels APNs lists that
                                  no game here owns (a create whose answer a crash lost); not
                                  while a create is unanswered or games use header channels.
                                  Otherwise they are only reported.
          The state dir keeps channels.json (game → channel id, state, created) for your
          backend to serve to the app; `scorefeed channels --state-dir <dir>` prints it.
        """

    /// The shared options, read before anything is opened or created, so that a usage error
    /// leaves no file behind.
    struct Options {
        /// Where the broadcast channels come from (`--channels`).
        enum ChannelSource: String, CaseIterable {
            case header, manage
        }

        var stateDir: String?
        var clock: GameService.ClockMode
        var drainTimeout: TimeInterval
        var push: PushOptions
        var coalescer: Coalescer.Configuration
        var channels = ChannelManagement()
        /// `--message-storage` and `--channel-linger`: the renderer's (what each channel is made with).
        var messageStorage: Int?
        var channelLinger: TimeInterval?
        var metrics: (path: String, interval: TimeInterval)?

        /// The renderer's configuration: the push options, and the channels' storage and linger.
        var renderer: PushRenderer.Configuration {
            var configuration = push.renderer()
            if let messageStorage { configuration.messageStorage = messageStorage }
            if let channelLinger { configuration.channelLinger = channelLinger }
            return configuration
        }

        /// Reads them from `arguments`; `inputs` are files `--out` must not overwrite.
        init(_ arguments: inout Arguments, inputs: [String] = []) throws(ScoreFeedError) {
            stateDir = try arguments.option("--state-dir")
            clock = try arguments.choice("--clock", among: [GameService.ClockMode.system, .feed]) ?? .system
            drainTimeout = TimeInterval(try arguments.number("--drain-timeout", in: 0...86_400) ?? 600)
            metrics = try MetricsOutput.parse(&arguments)
            push = try PushOptions.parse(&arguments, use: .live)
            coalescer = try CoalescerOptions.parse(&arguments, broadcast: push.pacesBroadcasts, android: push.platform == .android)
            try push.refuseOverwriting(inputs)
            try OutputGuard.refuse(metrics?.path, inputs: inputs + [push.out].compactMap { $0 }, writing: "the metrics")
            try parseChannels(&arguments)
        }

        /// The broadcast-channel options, checked against the mode and the sinks.
        private mutating func parseChannels(_ arguments: inout Arguments) throws(ScoreFeedError) {
            let how = try arguments.choice("--channels", of: ChannelSource.self)
            let storage: Int? = try arguments.number("--message-storage", in: 0...1)
            let linger: Double? = try arguments.number("--channel-linger", in: 0...28_800)
            let cap: Int? = try arguments.number("--max-channels", in: 1...1_000_000)
            let deleteUnknown = arguments.flag("--delete-unknown-channels")
            let given = [how.map { _ in "--channels" }, storage.map { _ in "--message-storage" }, linger.map { _ in "--channel-linger" },
                         cap.map { _ in "--max-channels" }, deleteUnknown ? "--delete-unknown-channels" : nil].compactMap { $0 }
            guard push.isBroadcast else {
                if !given.isEmpty { throw ScoreFeedError(.usage, "\(given.joined(separator: ", ")) \(given.count == 1 ? "is" : "are") for --mode broadcast") }
                return
            }
            guard push.platform == .ios else {
                if !given.isEmpty {
                    throw ScoreFeedError(
                        .usage, "\(given.joined(separator: ", ")) \(given.count == 1 ? "is" : "are") for iOS broadcast channels: Android's broadcast goes to each game's FCM topic, which needs no channel")
                }
                return
            }
            channels.manage = (how ?? .header) == .manage
            if !channels.manage, let managing = given.first(where: { $0 != "--channels" && $0 != "--message-storage" }) {
                throw ScoreFeedError(.usage, "\(managing) is for --channels manage")
            }
            if channels.manage && push.webhook == nil {
                throw ScoreFeedError(
                    .usage,
                    "--channels manage needs a sink that answers: --webhook <url>, whose 2xx answer to a create carries the apns-channel-id header (stdout and --out record requests but cannot hand a channel id back)")
            }
            messageStorage = storage
            channelLinger = linger
            if let cap { channels.maxChannels = cap }
            channels.deleteUnknown = deleteUnknown
        }
    }

    /// Opens the sinks and the state directory and makes the service.
    init(_ command: String, options: Options) throws {
        self.command = command
        stateDir = options.stateDir
        drainTimeout = options.drainTimeout
        // Taken before any sink is opened: a second process on the directory sends nothing.
        lock = try options.stateDir.map { try StateDirectoryLock(directory: URL(fileURLWithPath: $0), command: command) }
        // A reader of standard output that goes away is told apart and said (not a silent death).
        signal(SIGPIPE, SIG_IGN)
        // With no state dir nothing is resumed, so the lines may go out on a thread of their
        // own; a checkpointed push must be in the output before it counts as delivered.
        let writing: JSONLSink.Writing = options.stateDir == nil ? .background : .immediate
        let metrics = options.metrics.map { MetricsOutput(path: $0.path, interval: $0.interval) }
        self.metrics = metrics
        screen = ReaderGoneSink(JSONLSink.standardOutput(writing: writing))
        output = try options.push.open(screen: screen, quiet: false, writing: writing)
        var serviceOptions = GameService.Options(
            clock: options.clock, coalescer: options.coalescer,
            renderer: options.renderer,
            stateDirectory: options.stateDir.map { URL(fileURLWithPath: $0) }, channels: options.channels,
            metrics: metrics?.recorder)
        serviceOptions.otherLanes = options.push.otherLanes(beside: options.renderer)
        service = try GameService(
            options: serviceOptions,
            sink: output.sink(),
            report: { Console.error("\(command): \($0)") })
    }

    /// Loads the checkpoints and says what it found.
    func restore() async throws {
        let restoration = try await service.restore()
        for problem in restoration.problems { Console.error("\(problem)") }
        if restoration.resumedGames > 0 { Console.error("\(command): resumed \(restoration.resumedGames) games from \(stateDir ?? "")") }
    }

    /// Runs `input` in a ``LiveService`` (the timer beside it on the system clock, the drain and
    /// the shutdown after it) with SIGINT and SIGTERM as its stop requests, the reader of
    /// standard output going away as its output gone and `--metrics` alongside; then prints the
    /// summaries. Returns the exit status: 0, or ``ExitCode/withheld`` when pushes are left
    /// undelivered or a checkpoint could not be written.
    func run(_ input: @escaping @Sendable () async -> Void) async throws -> Int32 {
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM])
        let (screen, output, command) = (self.screen, self.output, self.command)
        let (metrics, webhook) = (self.metrics, output.webhook?.sink)
        // A webhook that gave up once is not waited for again (its give-up bound each time).
        let webhookGaveUp = Mutex(false)
        let live = LiveService(
            service, drainTimeout: drainTimeout,
            finishing: {
                var failed = false
                do {
                    try await output.finishWriting()
                } catch let error as ScoreFeedError where error.code == .readerGone {
                    // Noted by the screen, said with the summaries.
                } catch {
                    Console.error("\(command): \(error)")
                    failed = true
                }
                guard !webhookGaveUp.withLock({ $0 }) else { throw ScoreFeedError(.sinkUnavailable, "the webhook gave up") }
                do {
                    try await output.finish()
                } catch is CancellationError {
                    // Cut short by a signal: what it holds is in the checkpoints.
                    throw CancellationError()
                } catch {
                    webhookGaveUp.withLock { $0 = true }
                    Console.error("\(command): \(error)")
                    throw error
                }
                if failed { throw ScoreFeedError(.io, "the output could not be written") }
            },
            report: { Console.error("\(command): \($0)") })
        let outcome = await live.run(
            input: input,
            alongside: metrics.map { metrics in [{ await metrics.run(service, webhook: webhook) }] } ?? [],
            stopRequests: { await signals.next() },
            outputGone: { await screen.wentAway() })
        await output.sayWebhookFigures()
        let readerGone = outcome.stop == .outputGone || screen.noticed
        var withheld = outcome.finishFailure != nil || readerGone
        for game in await service.summaries() {
            // Counted, not tried again: the shutdown had its chance (a stop's grace, the give-up).
            let waiting = await output.webhook?.sink.waiting(game: game.attributes.gameId) ?? 0
            let sinkCause = readerGone ? "the reader of standard output went away" : "the sink failed"
            Console.error(Self.summary(game, resumable: stateDir != nil, webhookWaiting: waiting, sinkCause: sinkCause))
            withheld = withheld || Self.withholds(game) || waiting > 0
        }
        if readerGone { Console.error(screen.message(command: command, resumable: stateDir != nil)) }
        await metrics?.write(service, webhook: webhook)
        if withheld {
            Console.error(
                "\(command): exiting with status \(ExitCode.withheld): pushes were withheld or not delivered"
                    + (stateDir != nil ? "; a run on the same state dir sends what the checkpoints hold once the cause is gone" : ""))
        }
        return withheld ? ExitCode.withheld : 0
    }

    /// Whether `game` ends the run with pushes withheld (its checkpoint cannot be written, the
    /// sink failed, or its channel's create went unanswered: APNs' channel service down or busy
    /// past the drain) or with a checkpoint it could not write. Pushes held for want of a
    /// broadcast channel otherwise (a header without one, a channel refused, the cap) are the
    /// configuration's doing, said in the summary, not a failure.
    static func withholds(_ game: GameService.GameSummary) -> Bool {
        let createUnanswered = if case .creating = game.channel.phase { true } else { false }
        return game.checkpointFailure != nil || (game.unsent > 0 && (!game.holding || createUnanswered))
    }

    /// How an ended game ended, in its summary line.
    static func ending(_ phase: GamePhase, _ score: String) -> String {
        switch phase {
        case .postponed: return "ended postponed (not played)"
        case .suspended: return "ended suspended at \(score) (not final)"
        default: return "ended, final \(score)"
        }
    }

    /// One line per game: events, pushes, the final (or the score so far), corrections.
    /// `webhookWaiting`: the game's records the webhook gave up on; `sinkCause`: what failed when
    /// pushes are left in the outbox with a checkpoint that was written.
    static func summary(
        _ game: GameService.GameSummary, resumable: Bool, webhookWaiting: Int = 0, sinkCause: String = "the sink failed"
    ) -> String {
        let a = game.attributes, s = game.statistics, state = game.state
        let score = "\(a.away.tricode) \(state.awayScore) – \(state.homeScore) \(a.home.tricode)"
        var line = "game \(a.gameId): \(s.accepted) events applied (\(s.duplicates) duplicates ignored, \(s.edits) edits, "
            + "\(s.rejected) rejected), \(s.pushes) pushes (priority 10: \(s.priority10)), "
            + (game.ended ? Self.ending(state.phase, score) : "not ended, \(score) so far" + (resumable ? " (resumes from its checkpoint)" : ""))
            + ", \(s.corrections) corrections to the feed's score"
            + (s.staleCopies > 0 ? ", \(s.staleCopies) older copies of the feed ignored" : "")
        switch game.channel.phase {
        case .none: break
        case .refused(let reason, _): line += "; no channel (\(reason))"
        default: line += "; channel \(game.channel.id ?? "not yet known") \(game.channel.state)"
        }
        // A checkpoint that cannot be written comes first: it also keeps a channel from being made.
        if let failure = game.checkpointFailure {
            line += "; " + (game.unsent > 0 ? "\(game.unsent) pushes withheld: " : "")
                + "its checkpoint cannot be written (\(failure.message))"
                + (game.unsent > 0 ? "; they go out, after a restart, once it can" : "; a restart would lose what it applied since")
        } else if game.unsent > 0, game.holding {
            line += "; \(game.unsent) pushes held for want of a channel"
        } else if game.unsent > 0 {
            line += "; \(game.unsent) pushes not delivered (\(sinkCause))"
        }
        if webhookWaiting > 0 { line += "; \(webhookWaiting) pushes not delivered (the webhook gave up on them)" }
        return line
    }
}

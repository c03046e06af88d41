import Foundation
import ScoreFeed
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `serve` and `poll` share: the game service built from the push, coalescer, webhook and
/// checkpoint options; restoring it; running an input beside the timer that sends held pushes on
/// the real clock and a watch for SIGINT/SIGTERM; and, when the input is done, draining, the
/// webhook's last deliveries and one summary line per game.
struct LiveRun {
    let command: String
    let service: GameService
    let clock: GameService.ClockMode
    let stateDir: String?
    let drainTimeout: TimeInterval
    private let webhook: (sink: ResilientSink, endpoint: String)?

    /// The help lines of the options this type reads.
    static let help = """
          --state-dir <dir>       Keep per-game checkpoints here and resume from them.
          --clock <mode>          system (default): held pushes go out on the real clock;
                                  feed: each game's own feed time, as replay does.
          --drain-timeout <s>     When the input ends, wait at most this long for held pushes
                                  to come due on the system clock (600).
          --out <path>            Append push records to this file instead of stdout.
          --bundle-id <id>        The app's bundle id for apns-topic (default com.example.app).
        """

    /// The shared options, read before anything is opened or created, so that a usage error
    /// leaves no file behind.
    struct Options {
        var stateDir: String?
        var clock: GameService.ClockMode
        var drainTimeout: TimeInterval
        var out: String?
        var bundleId: String
        var push: PushOptions
        var coalescer: Coalescer.Configuration

        /// Reads them from `arguments`; `inputs` are files `--out` must not overwrite.
        init(_ arguments: inout Arguments, inputs: [String] = []) throws {
            stateDir = try arguments.option("--state-dir")
            let clockName = try arguments.option("--clock") ?? "system"
            guard let clock = GameService.ClockMode(rawValue: clockName) else {
                throw ScoreFeedError(.usage, "--clock takes system or feed, not \"\(clockName)\"")
            }
            self.clock = clock
            drainTimeout = TimeInterval(try arguments.number("--drain-timeout", in: 0...86_400) ?? 600)
            out = try arguments.option("--out")
            bundleId = try arguments.option("--bundle-id") ?? "com.example.app"
            push = try PushOptions.parse(&arguments)
            coalescer = try CoalescerOptions.parse(&arguments, broadcast: push.isBroadcast)
            try OutputGuard.refuse(out, inputs: inputs, writing: "push records")
        }
    }

    /// Opens the sinks and the state directory and makes the service.
    init(_ command: String, options: Options) throws {
        self.command = command
        stateDir = options.stateDir
        clock = options.clock
        drainTimeout = options.drainTimeout
        var sinks: [any PushSink] = [
            try options.out.map { path throws(ScoreFeedError) in try JSONLSink(path: path) } ?? JSONLSink.standardOutput()
        ]
        let webhook = options.push.webhookSink(quiet: false)
        if let webhook { sinks.append(webhook.sink) }
        self.webhook = webhook
        var rendering = PushRenderer.Configuration(bundleId: options.bundleId)
        options.push.apply(to: &rendering)
        service = try GameService(
            options: .init(
                clock: options.clock, coalescer: options.coalescer, renderer: rendering,
                stateDirectory: options.stateDir.map { URL(fileURLWithPath: $0) }),
            sink: sinks.count == 1 ? sinks[0] : FanOutSink(sinks))
    }

    /// Loads the checkpoints and says what it found.
    func restore() async throws {
        let restoration = try await service.restore()
        for problem in restoration.problems { Console.error("\(problem)") }
        if restoration.resumedGames > 0 { Console.error("\(command): resumed \(restoration.resumedGames) games from \(stateDir ?? "")") }
    }

    /// Runs `input` until it returns (or a signal comes), with the timer beside it on the system
    /// clock; then drains and prints the summaries.
    func run(_ input: @escaping @Sendable () async -> Void) async throws {
        let service = self.service
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM])
        let clock = self.clock
        let stoppedBySignal = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await input()
                return false
            }
            if clock == .system {
                group.addTask {
                    while !Task.isCancelled {
                        let now = Date()
                        let next = await service.nextDeadline ?? now.addingTimeInterval(0.1)
                        let wait = min(0.1, max(0, next.timeIntervalSince(now)))
                        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
                        await service.fireDue(now: Date())
                    }
                    return false
                }
            }
            group.addTask {
                await signals.next()
                return true
            }
            // The first child to finish (input done or a signal came) stops the others.
            let bySignal = await group.next() ?? false
            group.cancelAll()
            return bySignal
        }
        // A signal asks to stop soon: what is not sent by then stays in the checkpoints.
        await service.drain(waitingAtMost: stoppedBySignal ? min(5, drainTimeout) : drainTimeout)
        if let webhook { try await PushOptions.finish(webhook, quiet: false) }
        for game in await service.summaries() { Console.error(Self.summary(game, resumable: stateDir != nil)) }
    }

    /// One line per game: events, pushes, the final (or the score so far), corrections.
    static func summary(_ game: GameService.GameSummary, resumable: Bool) -> String {
        let a = game.attributes, s = game.statistics, state = game.state
        let score = "\(a.away.tricode) \(state.awayScore) – \(state.homeScore) \(a.home.tricode)"
        var line = "game \(a.gameId): \(s.accepted) events applied (\(s.duplicates) duplicates ignored, \(s.edits) edits, "
            + "\(s.rejected) rejected), \(s.pushes) pushes (priority 10: \(s.priority10)), "
            + (game.ended ? "ended, final \(score)" : "not ended, \(score) so far" + (resumable ? " (resumes from its checkpoint)" : ""))
            + ", \(s.corrections) corrections to the feed's score"
        if game.unsent > 0 { line += "; \(game.unsent) pushes not delivered (the sink failed)" }
        return line
    }
}

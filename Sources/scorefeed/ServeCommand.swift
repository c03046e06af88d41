import Foundation
import ScoreFeed
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `scorefeed serve`: many live games from one stream of JSON lines into the push sender.
enum ServeCommand {
    static let help = """
        OVERVIEW: Run games live: read JSON lines (game headers and events) from standard input
        or a file being appended to, run one engine per game, and write pushes to the sink.
        With --state-dir each game is checkpointed after every event it applies, so a restart
        resumes without losing or changing a push.

        USAGE: scorefeed serve [--state-dir <dir>] [--follow <file>] [--clock <mode>] [options]

        OPTIONS:
          --state-dir <dir>       Keep per-game checkpoints here and resume from them.
          --follow <file>         Read this file and keep reading as it grows (default: stdin,
                                  until it ends).
          --clock <mode>          system (default): held pushes go out on the real clock;
                                  feed: each game's own feed time, as replay does.
          --max-line-bytes <n>    Longer lines are skipped with a message (65536).
          --drain-timeout <s>     When the input ends, wait at most this long for held pushes
                                  to come due on the system clock (600).
          --out <path>            Append push records to this file instead of stdout.
          --bundle-id <id>        The app's bundle id for apns-topic (default com.example.app).
        \(PushOptions.help)
        \(CoalescerOptions.help)
          -h, --help              Show help information.

        INPUT (one JSON object per line; `scorefeed stream <files>` writes it):
          {"gameId":"G1","league":"NBA","home":{…team…},"away":{…team…}}        a game header
          {"game":"G1","seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}

        An event's seq is its identity in its game, not its order: the order is the stream's.
        An event seen before is ignored at any distance; the same seq with other content is
        the feed editing it. An event's "score" ({"home":H,"away":A}), when given, is the
        feed's running score after it, and the lock screen follows it.

        When the input ends, or on SIGINT/SIGTERM, serve sends every held push as it comes due
        (feed clock: at once), sends the end of every game that ended, writes the checkpoints,
        prints one summary line per game on stderr and exits 0.

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let stateDir = try arguments.option("--state-dir")
        let follow = try arguments.option("--follow")
        let clockName = try arguments.option("--clock") ?? "system"
        guard let clock = GameService.ClockMode(rawValue: clockName) else {
            throw ScoreFeedError(.usage, "--clock takes system or feed, not \"\(clockName)\"")
        }
        let window: Int? = try arguments.number("--reorder-window", in: 0...1_000_000)
        let drainTimeout: Int = try arguments.number("--drain-timeout", in: 0...86_400) ?? 600
        let maxLine: Int = try arguments.number("--max-line-bytes", in: 64...1 << 30) ?? 65_536
        let out = try arguments.option("--out")
        let bundleId = try arguments.option("--bundle-id") ?? "com.example.app"
        let push = try PushOptions.parse(&arguments)
        let configuration = try CoalescerOptions.parse(&arguments)
        _ = try arguments.positionals(max: 0)
        try OutputGuard.refuse(out, inputs: [follow].compactMap { $0 }, writing: "push records")

        var sinks: [any PushSink] = [try out.map { path throws(ScoreFeedError) in try JSONLSink(path: path) } ?? JSONLSink.standardOutput()]
        let webhook = push.webhookSink(quiet: false)
        if let webhook { sinks.append(webhook.sink) }
        var rendering = PushRenderer.Configuration(bundleId: bundleId)
        push.apply(to: &rendering)
        let service = try GameService(
            options: .init(
                clock: clock, coalescer: configuration, renderer: rendering,
                stateDirectory: stateDir.map { URL(fileURLWithPath: $0) }),
            sink: sinks.count == 1 ? sinks[0] : FanOutSink(sinks))
        if window != nil {
            Console.error("serve: --reorder-window is ignored: an event's seq is its identity, not its order, and a feed in its own order is never rejected")
        }
        let restoration = try await service.restore()
        for problem in restoration.problems { Console.error("\(problem)") }
        if restoration.resumedGames > 0 { Console.error("resumed \(restoration.resumedGames) games from \(stateDir ?? "")") }

        let reader = LineReader(source: follow.map { .follow($0) } ?? .standardInput, maxLineBytes: maxLine)
        let source = follow ?? "stdin"
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM])
        let stoppedBySignal = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await item in reader.lines() {
                    if let message = await service.handle(item, source: source) { Console.error("\(message)") }
                }
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
            // The first child to finish (input ended or a signal came) stops the others.
            let bySignal = await group.next() ?? false
            group.cancelAll()
            return bySignal
        }
        // A signal asks to stop soon: what is not sent by then stays in the checkpoints.
        await service.drain(waitingAtMost: TimeInterval(stoppedBySignal ? min(5, drainTimeout) : drainTimeout))
        if let webhook { try await PushOptions.finish(webhook, quiet: false) }
        for game in await service.summaries() { Console.error(summary(game, resumable: stateDir != nil)) }
        let c = await service.counters
        Console.error(
            "serve: \(c.lines) lines, \(c.headers) headers, \(c.events) events, \(c.badLines) bad lines, "
                + "\(c.unknownGame) for unknown games, \(c.resumedGames) games resumed")
        return 0
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

/// Turns SIGINT/SIGTERM into an awaitable event instead of killing the process. (Unchecked
/// Sendable: the dispatch sources are only kept alive here, never touched after `init`.)
final class SignalWatcher: @unchecked Sendable {
    private let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32]) {
        var continuation: AsyncStream<Int32>.Continuation!
        stream = AsyncStream { continuation = $0 }
        let c = continuation!
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { c.yield(number) }
            source.resume()
            return source
        }
    }

    /// Returns when a signal arrives (or the task is cancelled).
    func next() async {
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()
    }
}

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
        or a file being appended to, run one engine per game on the real clock, and write pushes
        to the sink. Checkpoints each game after each push so a restart resumes without sending
        anything twice.

        USAGE: scorefeed serve [--state-dir <dir>] [--follow <file>] [options]

        OPTIONS:
          --state-dir <dir>       Keep per-game checkpoints here and resume from them.
          --follow <file>         Read this file and keep reading as it grows (default: stdin,
                                  until it ends).
          --clock <mode>          system (default): held pushes go out on the real clock;
                                  feed: each game's own feed time, as replay does.
          --reorder-window <n>    How far behind its game's newest seq an event may arrive and
                                  still be applied (32).
          --max-line-bytes <n>    Longer lines are skipped with a message (65536).
          --out <path>            Append push records to this file instead of stdout.
          --bundle-id <id>        The app's bundle id for apns-topic (default com.example.app).
        \(PushOptions.help)
        \(CoalescerOptions.help)
          -h, --help              Show help information.

        INPUT (one JSON object per line):
          {"gameId":"G1","league":"NBA","home":{…team…},"away":{…team…}}        a game header
          {"game":"G1","seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}

        SIGINT and SIGTERM send what is due, write the checkpoints and exit 0.

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let stateDir = try arguments.option("--state-dir")
        let follow = try arguments.option("--follow")
        let clockName = try arguments.option("--clock") ?? "system"
        guard let clock = GameService.ClockMode(rawValue: clockName) else {
            throw ScoreFeedError(.usage, "--clock takes system or feed, not \"\(clockName)\"")
        }
        let window: Int = try arguments.number("--reorder-window", in: 0...1_000_000) ?? 32
        let maxLine: Int = try arguments.number("--max-line-bytes", in: 64...1 << 30) ?? 65_536
        let out = try arguments.option("--out")
        let bundleId = try arguments.option("--bundle-id") ?? "com.example.app"
        let push = try PushOptions.parse(&arguments)
        let configuration = try CoalescerOptions.parse(&arguments)
        _ = try arguments.positionals(max: 0)

        var sinks: [any PushSink] = [try out.map { path throws(ScoreFeedError) in try JSONLSink(path: path) } ?? JSONLSink.standardOutput()]
        let webhook = push.webhookSink(quiet: false)
        if let webhook { sinks.append(webhook.sink) }
        var rendering = PushRenderer.Configuration(bundleId: bundleId)
        push.apply(to: &rendering)
        let service = try GameService(
            options: .init(
                clock: clock, coalescer: configuration, renderer: rendering, reorderWindow: window,
                stateDirectory: stateDir.map { URL(fileURLWithPath: $0) }),
            sink: sinks.count == 1 ? sinks[0] : FanOutSink(sinks))
        let restoration = try await service.restore()
        for problem in restoration.problems { Console.error("\(problem)") }
        if restoration.resumedGames > 0 { Console.error("resumed \(restoration.resumedGames) games from \(stateDir ?? "")") }

        let reader = LineReader(source: follow.map { .follow($0) } ?? .standardInput, maxLineBytes: maxLine)
        let source = follow ?? "stdin"
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await item in reader.lines() {
                    if let message = await service.handle(item, source: source) { Console.error("\(message)") }
                }
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
                }
            }
            group.addTask { await signals.next() }
            // The first child to finish (input ended or a signal came) stops the others.
            await group.next()
            group.cancelAll()
        }
        await service.drain()
        if let webhook { try await PushOptions.finish(webhook, quiet: false) }
        let c = await service.counters
        Console.error(
            "serve: \(c.lines) lines, \(c.headers) headers, \(c.events) events, \(c.badLines) bad lines, "
                + "\(c.unknownGame) for unknown games, \(c.outOfOrder) out of order, \(c.rejected) rejected, "
                + "\(c.duplicates) duplicates, \(c.alreadyApplied) already applied, \(c.checkpoints) checkpoints")
        return 0
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

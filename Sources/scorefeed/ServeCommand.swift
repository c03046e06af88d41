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
          --follow <file>         Read this file and keep reading as it grows (default: stdin,
                                  until it ends).
          --max-line-bytes <n>    Longer lines are skipped with a message (65536).
        \(LiveRun.help)
          -h, --help              Show help information.

        \(LiveRun.channelsHelp)

        INPUT (one JSON object per line; `scorefeed stream <files>` writes it):
          {"gameId":"G1","league":"NBA","home":{…team…},"away":{…team…}}        a game header
          {"game":"G1","seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}

        An event's seq is its identity in its game, not its order: the order is the stream's.
        An event seen before is ignored at any distance; the same seq with other content is
        the feed editing it. An event's "score" ({"home":H,"away":A}), when given, is the
        feed's running score after it, and the lock screen follows it.

        A game id ("gameId", "game") is 1 to 64 bytes of UTF-8 with no control character
        (Unicode Cc, Zl, Zp) and no whitespace at either end; a header with any other id is an
        error line and its game is not started. A game's checkpoint is game-<stem>.json, the
        stem its id's bytes outside A-Z 0-9 - _ written as %XX: one file per game, inside the
        state dir, on case-insensitive file systems too.

        One serve or poll runs per state dir: it holds <dir>/lock (flock, with its PID), and a
        second one stops at once, naming the holder, and exits 1 without sending anything.

        When the input ends, or on SIGINT/SIGTERM, serve sends every held push as it comes due
        (feed clock: at once), sends the end of every game that ended, writes the checkpoints,
        prints one summary line per game on stderr and exits 0. It exits 75 (EX_TEMPFAIL) when
        pushes are left withheld: a checkpoint that cannot be written (the summary names it and
        the system's error, e.g. No space left on device), a webhook down past
        --webhook-give-up, or a reader of stdout that went away (serve | head: said on stderr
        with the games and seqs it was writing; --out or --webhook give delivery that can
        resume). A run on the same state dir sends what the checkpoints hold.

        """

    /// Everything the command line says, read and checked before any file is opened.
    struct Options {
        var follow: String?
        var maxLineBytes: Int
        var live: LiveRun.Options

        init(_ arguments: inout Arguments) throws(ScoreFeedError) {
            try arguments.refuse(
                "--reorder-window",
                "--reorder-window is gone: an event's seq is its identity, not its order; serve keeps the stream's order")
            follow = try arguments.option("--follow")
            maxLineBytes = try arguments.number("--max-line-bytes", in: 64...1 << 30) ?? 65_536
            live = try LiveRun.Options(&arguments, inputs: [follow].compactMap { $0 })
            _ = try arguments.positionals(max: 0)
        }
    }

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let options = try Options(&arguments)
        let (follow, maxLine) = (options.follow, options.maxLineBytes)
        let live = try LiveRun("serve", options: options.live)
        try await live.restore()

        let service = live.service
        // On the system clock what is read at once is one moment for each game: a backlog is read
        // whole (up to 64 MB, its writer waited for 0.1 s between full reads) before the games
        // decide, and what was read while they were busy is taken as one. On feed time without a
        // state directory a batch is neither a moment nor a sync: the first batches are small, so
        // the engines start on a backlog while the rest is parsed.
        let system = options.live.clock == .system
        let ramps = !system && options.live.stateDir == nil
        let reader = LineReader(
            source: follow.map { .follow($0) } ?? .standardInput, maxLineBytes: maxLine,
            batchBytes: system ? LineReader.arrivalBytes : LineReader.batchBytes, grace: system ? 100 : 0,
            joinsWaiting: system, firstBatchBytes: ramps ? LineReader.rampFrom : nil)
        let source = follow ?? "stdin"
        let status = try await live.run {
            // Lines are parsed on the reader's thread; each batch is made durable with one sync,
            // then its pushes go out.
            for await batch in reader.parsedBatches(source: source) {
                // A reader of stdout gone is said once, with the summaries, not per line.
                for message in await service.handle(batch: batch, source: source) where message.code != .readerGone {
                    Console.error("\(message)")
                }
            }
        }
        let c = await service.counters
        Console.error(
            "serve: \(c.lines) lines, \(c.headers) headers, \(c.events) events, \(c.badLines) bad lines, "
                + "\(c.unknownGame) for unknown games, \(c.resumedGames) games resumed")
        if let journal = service.journal, c.events > 0 {
            let bytes = journal.bytesWritten + journal.snapshotBytes
            Console.error(
                "serve: state dir: \(bytes) bytes written (\(bytes / c.events) per event: journal \(journal.bytesWritten), "
                    + "\(journal.snapshots) snapshots \(journal.snapshotBytes)), \(journal.syncs) journal syncs")
        }
        return status
    }
}

/// Turns SIGINT/SIGTERM into an awaitable event instead of killing the process. Each signal is
/// taken by one ``next()``, which can be awaited again after a cancelled wait (a run watches
/// while reading its input, then again while it finishes).
final class SignalWatcher: @unchecked Sendable {
    private let lock = NSLock()
    /// Signals arrived and not yet taken by a ``next()``.
    private var waiting = 0
    private var waiter: (id: Int, continuation: CheckedContinuation<Void, Never>)?
    private var nextID = 0
    /// Kept alive here, never touched after `init`.
    private var sources: [any DispatchSourceSignal] = []

    init(signals: [Int32]) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.arrived() }
            source.resume()
            return source
        }
    }

    private func arrived() {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.continuation.resume()
        } else {
            waiting += 1
            lock.unlock()
        }
    }

    /// Returns when a signal arrives, or one has arrived that no earlier call took (or the task
    /// is cancelled).
    func next() async {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if waiting > 0 || Task.isCancelled {
                    if !Task.isCancelled { waiting -= 1 }
                    lock.unlock()
                    continuation.resume()
                    return
                }
                let earlier = waiter
                waiter = (id, continuation)
                lock.unlock()
                earlier?.continuation.resume()
            }
        } onCancel: {
            lock.lock()
            let cancelled = waiter?.id == id ? waiter : nil
            if cancelled != nil { waiter = nil }
            lock.unlock()
            cancelled?.continuation.resume()
        }
    }
}

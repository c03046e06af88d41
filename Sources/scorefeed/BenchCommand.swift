import Foundation
import ScoreFeed
import ScoreFeedModel

/// `scorefeed bench`: throughput of a whole season end to end, and latency and memory with
/// many games live at once. Figures to read, not assertions.
enum BenchCommand {
    static let help = """
        OVERVIEW: Benchmark the engine: (a) a generated season replayed end to end (decode → fold
        → coalesce → render → a sink that discards) beside the floor of merely decoding the same
        bytes with JSONDecoder; (b) many games live at once in one process on the real clock:
        line-to-sink latency and memory per game.

        USAGE: scorefeed bench [--season <games>] [--live <games>] [--events <n>] [--warmup <n>] [--state-dir <dir>]
                               [--spacing <seconds>] [--same-process]

        OPTIONS:
          --season <games>        Games in the season part (default 1230; 0 skips it).
          --live <games>          Games in the live part (default 10000; 0 skips it).
          --events <n>            Events per live game whose latency is measured (default 10).
          --warmup <n>            Events per live game fed before measuring, the idle state
                                  whose memory is reported (default 5).
          --spacing <seconds>     Real time between two measured events of a live game
                                  (default 4: longer than the coalescer holds a basket, so
                                  held pushes go out on the timer as in a real game; 0 feeds
                                  lines as fast as possible, and the coalescer, on the real
                                  clock, then holds most pushes for its minimum interval).
          --state-dir <dir>       Run the live part durably, as serve --state-dir does (an
                                  empty or new directory): adds bytes written per line and
                                  syncs per second.
          --same-process          Run the live part in this process after the season part
                                  (by default it runs in a fresh child process, so its memory
                                  figures do not include the season's leftovers).
          -h, --help              Show help information.

        Build with -c release: swift run -c release scorefeed bench
        The season part interleaves its two passes game by game, so load from other processes
        slows both alike; the load average is printed beside the figures.

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let season: Int = try arguments.number("--season", in: 0...100_000) ?? 1230
        let live: Int = try arguments.number("--live", in: 0...1_000_000) ?? 10_000
        if live == 0 {
            for name in ["--events", "--warmup", "--spacing", "--state-dir", "--same-process"] {
                try arguments.refuse(name, "\(name) is for the live part, which --live 0 skips")
            }
        } else if season == 0 {
            try arguments.refuse("--same-process", "--same-process does nothing with --season 0: the live part runs here")
        }
        let perGame: Int = try arguments.number("--events", in: 1...1000) ?? 10
        let warmup: Int = try arguments.number("--warmup", in: 0...1000) ?? 5
        let spacing: Double = try arguments.number("--spacing", in: 0...3600) ?? 4
        let sameProcess = arguments.flag("--same-process")
        let stateDir: String? = try arguments.option("--state-dir")
        _ = try arguments.positionals(max: 0)
        if season > 0 { try await seasonBenchmark(games: season) }
        if live > 0 {
            if season > 0 && !sameProcess,
                let status = try runLiveInChild(games: live, events: perGame, warmup: warmup, spacing: spacing, stateDir: stateDir)
            {
                return status
            }
            try await liveBenchmark(
                games: live, warmup: warmup, eventsPerGame: perGame, spacing: spacing,
                stateDirectory: stateDir.map { URL(fileURLWithPath: $0) })
        }
        return 0
    }

    /// A sink that counts and drops.
    final class DiscardSink: PushSink, @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func send(_ record: PushRecord) async throws {
            lock.withLock { count += 1 }
        }
        var received: Int { lock.withLock { count } }
    }

    static func seasonBenchmark(games: Int) async throws {
        print("(a) season: generating \(games) games…")
        var files: [Data] = []
        var events = 0
        for seed in 1...games {
            let game = GameGenerator(seed: UInt64(seed)).generate()
            events += game.events.count
            files.append(game.fixtureData())
        }
        let bytes = files.reduce(0) { $0 + $1.count }
        print("    \(events) events, \(bytes / 1_000_000) MB of fixture JSON")
        let loadBefore = loadAverage()

        // The floor and the end-to-end pass run game by game, alternating which goes first, so
        // that other processes on the machine slow both alike and neither always finds the
        // bytes warm in the cache.
        let sink = DiscardSink()
        var floor = Duration.zero, decoding = Duration.zero, replaying = Duration.zero
        var decoded = 0
        for (index, file) in files.enumerated() {
            let floorFirst = index % 2 == 0
            if floorFirst {
                let start = ContinuousClock.now
                decoded += try FixtureFormat.decodeOnlyFloor(file)
                floor += ContinuousClock.now - start
            }
            let start = ContinuousClock.now
            var decodedAt = start
            do {
                let document = try FixtureFormat.decode(file, file: "game \(index + 1)")
                decodedAt = ContinuousClock.now
                _ = try await Replay().run(document, sink: sink)
            }  // the document is freed here, inside the measured time
            let end = ContinuousClock.now
            decoding += decodedAt - start
            replaying += end - decodedAt
            if !floorFirst {
                let start = ContinuousClock.now
                decoded += try FixtureFormat.decodeOnlyFloor(file)
                floor += ContinuousClock.now - start
            }
        }
        let floorSeconds = seconds(floor), decodingSeconds = seconds(decoding), rest = seconds(replaying)
        let total = decodingSeconds + rest
        print(String(format: "    decode only (JSONDecoder, the floor): %.2f s (%.0f events/s)", floorSeconds, Double(events) / floorSeconds))
        print(String(format: "    end to end: %.2f s = decoding %.2f s (%.2f× floor) + fold + coalesce + render %.2f s (%.2f× floor, %.2f µs/event)",
                     total, decodingSeconds, decodingSeconds / floorSeconds, rest, rest / floorSeconds, rest / Double(events) * 1e6))
        print(String(format: "    %.0f events/s, %.0f pushes/s (%d pushes, %.2f per event)", Double(events) / total, Double(sink.received) / total, sink.received, Double(sink.received) / Double(events)))
        print(String(format: "    end to end / floor: %.2f×  (target ≤ 1.5×; decoded %d events in the floor pass)", total / floorSeconds, decoded))
        print("    peak RSS: \(peakRSS() / 1024) MB; load average \(loadBefore) → \(loadAverage()) on \(ProcessInfo.processInfo.activeProcessorCount) cores")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

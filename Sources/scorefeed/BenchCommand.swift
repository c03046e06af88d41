import Foundation
import ScoreFeed
import ScoreFeedModel

/// `scorefeed bench`: throughput of a whole season end to end, and latency and memory with
/// many games live at once. Figures to read, not assertions.
enum BenchCommand {
    static let help = """
        OVERVIEW: Benchmark the engine: (a) a generated season replayed end to end (decode → fold
        → coalesce → render → a sink that discards) beside the floor of merely decoding the same
        bytes with JSONDecoder; (b) many games live at once in one process on the real clock.

        USAGE: scorefeed bench [--season <games>] [--live <games>] [--events <n>]

        OPTIONS:
          --season <games>        Games in the season part (default 1230; 0 skips it).
          --live <games>          Games in the live part (default 10000; 0 skips it).
          --events <n>            Events per live game fed in the live part (default 20).
          -h, --help              Show help information.

        Build with -c release: swift run -c release scorefeed bench

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        if arguments.flag("-h", "--help") {
            print(help, terminator: "")
            return 0
        }
        let season: Int = try arguments.number("--season", in: 0...100_000) ?? 1230
        let live: Int = try arguments.number("--live", in: 0...1_000_000) ?? 10_000
        let perGame: Int = try arguments.number("--events", in: 1...1000) ?? 20
        _ = try arguments.positionals(max: 0)
        if season > 0 { try await seasonBenchmark(games: season) }
        if live > 0 { try await liveBenchmark(games: live, eventsPerGame: perGame) }
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
            files.append(FixtureFormat.encode(
                attributes: game.attributes, events: game.events, finalScore: game.finalScore, scheduledStart: game.scheduledStart))
        }
        let bytes = files.reduce(0) { $0 + $1.count }
        print("    \(events) events, \(bytes / 1_000_000) MB of fixture JSON")

        let floorStart = ContinuousClock.now
        var decoded = 0
        for file in files { decoded += try FixtureFormat.decodeOnlyFloor(file) }
        let floor = seconds(ContinuousClock.now - floorStart)

        let sink = DiscardSink()
        let start = ContinuousClock.now
        var decoding = Duration.zero
        for (index, file) in files.enumerated() {
            let decodeStart = ContinuousClock.now
            let document = try FixtureFormat.decode(file, file: "game \(index + 1)")
            decoding += ContinuousClock.now - decodeStart
            _ = try await Replay().run(document, sink: sink)
        }
        let total = seconds(ContinuousClock.now - start)
        print(String(format: "    of which decoding %.2f s, fold + coalesce + render %.2f s", seconds(decoding), total - seconds(decoding)))
        print(String(format: "    decode only (JSONDecoder, the floor): %.2f s (%.0f events/s)", floor, Double(events) / floor))
        print(String(format: "    end to end: %.2f s, %.0f events/s, %.0f pushes/s (%d pushes)", total, Double(events) / total, Double(sink.received) / total, sink.received))
        print(String(format: "    end to end / floor: %.2f×  (decoded %d events in the floor pass)", total / floor, decoded))
        print("    peak RSS: \(peakRSS() / 1024) MB")
    }

    static func liveBenchmark(games: Int, eventsPerGame: Int) async throws {
        print("(b) live: \(games) games in one process on the real clock, \(eventsPerGame) events each")
        let rssBefore = currentRSS()
        let sink = LatencySink()
        let service = try GameService(options: .init(clock: .system), sink: sink)
        let encoder = JSONEncoder()
        // Headers for every game, then their events interleaved round-robin: a busy night.
        var number = 0
        let templates = (1...8).map { GameGenerator(seed: UInt64($0)).generate() }
        for g in 0..<games {
            var attributes = templates[g % templates.count].attributes
            attributes.gameId = "L\(g)"
            number += 1
            _ = await service.handle(.line(try encoder.encode(attributes), number: number))
        }
        let rssIdle = currentRSS()
        print(String(format: "    memory per idle game (headers only): %.1f KB", Double(rssIdle - rssBefore) / Double(games)))
        let start = ContinuousClock.now
        var lines = 0
        for i in 0..<eventsPerGame {
            for g in 0..<games {
                let template = templates[g % templates.count]
                guard i < template.events.count else { continue }
                var object = try JSONSerialization.jsonObject(with: FixtureFormat.eventJSON(template.events[i])) as! [String: Any]
                object["game"] = "L\(g)"
                let line = try JSONSerialization.data(withJSONObject: object)
                number += 1
                lines += 1
                sink.lineStarted()
                _ = await service.handle(.line(line, number: number))
            }
            await service.fireDue(now: Date())
        }
        let elapsed = seconds(ContinuousClock.now - start)
        let rssAfter = currentRSS()
        let latencies = sink.latencies.sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] * 1000
        }
        print(String(format: "    %d lines in %.2f s (%.0f lines/s), %d pushes", lines, elapsed, Double(lines) / elapsed, latencies.count))
        print(String(format: "    line-to-sink latency of due pushes: p50 %.3f ms, p99 %.3f ms, max %.3f ms", percentile(0.5), percentile(0.99), (latencies.last ?? 0) * 1000))
        print(String(format: "    memory per game after %d events each: %.1f KB; peak RSS %d MB", eventsPerGame, Double(rssAfter - rssBefore) / Double(games), peakRSS() / 1024))
    }

    /// Records, for each push, the time since the line that caused it was read.
    final class LatencySink: PushSink, @unchecked Sendable {
        private let lock = NSLock()
        private var started = ContinuousClock.now
        private var values: [Double] = []
        func lineStarted() {
            lock.withLock { started = .now }
        }
        func send(_ record: PushRecord) async throws {
            let now = ContinuousClock.now
            lock.withLock { values.append(BenchCommand.seconds(now - started)) }
        }
        var latencies: [Double] { lock.withLock { values } }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Resident memory now and at its peak, in KB, from /proc/self/status (Linux).
    static func currentRSS() -> Int { status("VmRSS:") }
    static func peakRSS() -> Int { status("VmHWM:") }
    static func status(_ key: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}

import Foundation
import ScoreFeed
import ScoreFeedModel

extension BenchCommand {
    /// Part (b): `games` games live in one ``GameService`` on the system clock.
    ///
    /// Setup is not measured: every line is built first. Memory is the growth of anonymous
    /// resident memory (after `malloc_trim`) from before the service exists to after every game
    /// has its header, and to after `warmup` events each and the pushes they held (the idle state
    /// of a game between plays). Latency is then measured over `eventsPerGame` more events of
    /// every game, round robin: for each push the sink receives while a line is handled, the
    /// time from handing over the line to the sink's `send`; held pushes fired by the timer are
    /// reported apart, as their lateness after the earliest deadline due when the timer woke
    /// (an upper bound).
    ///
    /// The measured lines are paced so that each game gets an event every `spacing` seconds of
    /// real time, as the coalescer runs on the real clock: fed much faster than real games, a
    /// game's pushes wait for its minimum interval, or go out with the next event instead of on
    /// the timer. 0 feeds them as fast as possible.
    static func liveBenchmark(
        games: Int, warmup: Int, eventsPerGame: Int, spacing: Double, stateDirectory: URL? = nil
    ) async throws {
        let pace = spacing > 0 ? String(format: "each game an event every %.1f s of real time, %.0f lines/s", spacing, Double(games) / spacing) : "as fast as possible"
        print("(b) live: \(games) games in one process on the real clock; \(warmup) events each to warm up, \(eventsPerGame) measured; \(pace)"
              + (stateDirectory.map { "; durable in \($0.path) (journal, a sync per batch of lines)" } ?? "; not durable (no --state-dir)"))
        if let stateDirectory, FileManager.default.fileExists(atPath: stateDirectory.path),
           let contents = try? FileManager.default.contentsOfDirectory(atPath: stateDirectory.path), !contents.isEmpty {
            throw ScoreFeedError(.invalidValue, "bench --state-dir wants an empty or new directory", at: .init(file: stateDirectory.path))
        }
        let templates = (1...8).map { GameGenerator(seed: UInt64($0)).generate() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let headers = try (0..<games).map { g -> Data in
            var attributes = templates[g % templates.count].attributes
            attributes.gameId = "L\(g)"
            return try encoder.encode(attributes)
        }
        let bodies = try templates.map { template in
            try template.events.map { try FixtureFormat.eventJSON($0) }
        }
        /// Event `i` of game `g` as a line, with `"game"` spliced in (nil past the game's end).
        func line(_ g: Int, _ i: Int) -> Data? {
            let events = bodies[g % bodies.count]
            guard i < events.count else { return nil }
            var line = Data("{\"game\":\"L\(g)\",".utf8)
            line.append(events[i].dropFirst())
            return line
        }
        /// Round `i` of every game: event `i` of each.
        func round(_ i: Int) -> [Data] {
            (0..<games).compactMap { line($0, i) }
        }
        let warmupLines = (0..<warmup).map(round)
        let measuredLines = (warmup..<(warmup + eventsPerGame)).map(round)
        let loadBefore = loadAverage()

        let sink = LatencySink(expected: measuredLines.reduce(0) { $0 + $1.count })
        var number = 0
        trimMalloc()
        let rssEmpty = anonymousRSS()
        let service = try GameService(options: .init(clock: .system, stateDirectory: stateDirectory), sink: sink)
        let journal = service.journal
        for header in headers {
            number += 1
            _ = await service.handle(StreamLine(header, number: number, source: nil))
        }
        trimMalloc()
        let rssHeaders = anonymousRSS()
        // The warm-up is setup: as fast as possible.
        for lines in warmupLines {
            for line in lines {
                number += 1
                _ = await service.handle(StreamLine(line, number: number, source: nil))
                let now = Date()
                if let due = await service.nextDeadline, due <= now { await service.fireDue(now: now) }
            }
        }
        // Then the held pushes of the warm-up go out on the timer, unmeasured, so that the
        // measured part starts from games between plays rather than from a burst of deadlines.
        /// Until `instant`, wakes at each held push's deadline and sends what is due.
        func runTimer(until instant: ContinuousClock.Instant) async throws {
            while let deadline = await service.nextDeadline {
                let wake = ContinuousClock.now.advanced(by: .seconds(deadline.timeIntervalSinceNow))
                guard wake < instant else { break }
                if wake > .now { try await Task.sleep(until: wake, tolerance: .microseconds(50), clock: .continuous) }
                sink.timerStarted(due: deadline)
                await service.fireDue(now: Date())
            }
        }
        try await runTimer(until: .now + .seconds(5))
        trimMalloc()
        let rssIdle = anonymousRSS()
        func perGame(_ kb: Int) -> Double { Double(kb - rssEmpty) / Double(games) }
        print(String(format: "    memory per game: %.1f KB with its header only, %.1f KB idle after a header and %d events (growth of anonymous resident memory after malloc_trim; this process ran only the live part)",
                     perGame(rssHeaders), perGame(rssIdle), warmup))

        var handling: [Double] = []
        handling.reserveCapacity(measuredLines.reduce(0) { $0 + $1.count })
        let written = (journal?.bytesWritten ?? 0) + (journal?.snapshotBytes ?? 0)
        let synced = (journal?.syncs ?? 0) + 2 * (journal?.snapshots ?? 0)
        sink.begin()
        // One line every `interval` seconds from `start` on, the timer served in between.
        let interval = spacing / Double(games)
        let start = ContinuousClock.now
        var paced = 0
        var behind = 0.0
        /// Waits for the next line's turn; meanwhile wakes at each held push's deadline, as the
        /// timer task of `serve` does.
        func waitForTurn() async throws {
            guard interval > 0 else { return }
            let turn = start.advanced(by: .seconds(Double(paced) * interval))
            paced += 1
            try await runTimer(until: turn)
            let now = ContinuousClock.now
            if turn > now {
                try await Task.sleep(until: turn, tolerance: .microseconds(50), clock: .continuous)
            } else {
                behind = max(behind, seconds(now - turn))
            }
        }
        for lines in measuredLines {
            for line in lines {
                try await waitForTurn()
                number += 1
                let lineStart = ContinuousClock.now
                sink.lineStarted(lineStart)
                _ = await service.handle(StreamLine(line, number: number, source: nil))
                handling.append(seconds(ContinuousClock.now - lineStart))
                // The timer, as `serve` runs it: held pushes go out once due, between lines.
                let now = Date()
                if let due = await service.nextDeadline, due <= now {
                    sink.timerStarted(due: due)
                    await service.fireDue(now: now)
                }
            }
        }
        sink.stop()
        let elapsed = seconds(ContinuousClock.now - start)
        trimMalloc()
        let rssAfter = anonymousRSS()

        let lines = handling.count
        let latencies = sink.lineLatencies.sorted(), lateness = sink.timerLateness.sorted()
        handling.sort()
        let busy = handling.reduce(0, +)
        print(String(format: "    %d lines in %.2f s (%.0f lines/s%@), %d pushes; busy %.2f s handling lines: capacity about %.0f lines/s (a night of 10,000 games brings about 600)",
                     lines, elapsed, Double(lines) / elapsed,
                     interval > 0 ? String(format: ", at most %.1f ms behind the pace", behind * 1000) : "",
                     latencies.count + lateness.count, busy, Double(lines) / busy))
        print("    line-to-sink latency of pushes due at once (\(latencies.count)): \(describe(latencies))")
        print("    handling time of every line (\(lines)): \(describe(handling))")
        print("    held pushes sent by the timer (\(lateness.count)), lateness after the earliest deadline due at the wake-up: \(describe(lateness))")
        if let journal {
            let bytes = journal.bytesWritten + journal.snapshotBytes - written
            let syncs = journal.syncs + 2 * journal.snapshots - synced
            print(String(format: "    durability while measured: %.0f bytes written per line (journal and snapshots), %d syncs: %.0f per second, %.2f per line",
                         Double(bytes) / Double(max(1, lines)), syncs, Double(syncs) / elapsed, Double(syncs) / Double(max(1, lines))))
        }
        print(String(format: "    memory per game after %d events each: %.1f KB; peak RSS %d MB; load average %@ → %@ on %d cores",
                     warmup + eventsPerGame, perGame(rssAfter), peakRSS() / 1024, loadBefore, loadAverage(),
                     ProcessInfo.processInfo.activeProcessorCount))

        // Whole games: the rest of every event of the first games (at most 1,000), as fast as
        // possible in batches of 1,000 lines handed over as `serve` hands a backlog it read
        // (``GameService/handle(batch:source:)``: one arrival per game, one sync per batch), then
        // memory per game.
        let whole = min(games, 1000)
        let longest = bodies.map(\.count).max() ?? 0
        let before = (journal?.bytesWritten ?? 0) + (journal?.snapshotBytes ?? 0), fillStart = ContinuousClock.now
        var filled = 0
        var batch: [Data] = []
        func flushBatch() async {
            let parsed = batch.map { line in
                number += 1
                return StreamLine(line, number: number, source: nil)
            }
            _ = await service.handle(batch: parsed)
            filled += batch.count
            batch.removeAll(keepingCapacity: true)
        }
        for i in (warmup + eventsPerGame)..<longest {
            for g in 0..<whole {
                guard let line = line(g, i) else { continue }
                batch.append(line)
                if batch.count == 1000 { await flushBatch() }
            }
        }
        await flushBatch()
        await service.fireDue(now: Date().addingTimeInterval(3600))
        let fillSeconds = seconds(ContinuousClock.now - fillStart)
        trimMalloc()
        let rssWhole = anonymousRSS()
        let events = bodies.prefix(whole).map(\.count)
        let averageEvents = Double(events.reduce(0, +)) / Double(max(1, events.count))
        print(String(format: "    whole games: %d more lines to finish %d games in %.2f s (%.0f lines/s in batches of 1,000)%@; memory per game after a whole game (%.0f events): %.1f KB",
                     filled, whole, fillSeconds, Double(filled) / max(fillSeconds, 1e-9),
                     journal.map { String(format: ", %.0f bytes written per line", Double($0.bytesWritten + $0.snapshotBytes - before) / Double(max(1, filled))) } ?? "",
                     averageEvents, perGame(rssAfter) + Double(rssWhole - rssAfter) / Double(whole)))
        // The prepared lines stay allocated to the end, so that freeing them does not show as
        // memory the games gave back.
        withExtendedLifetime((templates, headers, bodies, warmupLines, measuredLines)) {}
    }

    /// p50, p99, p99.9 and max of sorted seconds, in milliseconds.
    static func describe(_ sorted: [Double]) -> String {
        guard !sorted.isEmpty else { return "none" }
        func percentile(_ p: Double) -> Double {
            sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
        }
        return String(format: "p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms",
                      percentile(0.5), percentile(0.99), percentile(0.999), sorted[sorted.count - 1] * 1000)
    }

    /// Records, for each push, the time since the line that caused it was handed over, or for
    /// a push fired by the timer, how late after its deadline it arrived.
    final class LatencySink: PushSink, @unchecked Sendable {
        private enum Cause {
            case line(ContinuousClock.Instant)
            case timer(due: Date)
            case none
        }

        private let lock = NSLock()
        private var cause = Cause.none
        private var recording = false
        private var lines: [Double] = []
        private var timer: [Double] = []

        init(expected: Int) {
            lines.reserveCapacity(expected)
            timer.reserveCapacity(expected / 4)
        }

        func lineStarted(_ instant: ContinuousClock.Instant) {
            lock.withLock { cause = .line(instant) }
        }

        func timerStarted(due: Date) {
            lock.withLock { cause = .timer(due: due) }
        }

        /// Starts recording (pushes before are not measured).
        func begin() {
            lock.withLock { recording = true }
        }

        func stop() {
            lock.withLock {
                cause = .none
                recording = false
            }
        }

        func send(_ record: PushRecord) async throws {
            let instant = ContinuousClock.now, date = Date()
            lock.withLock {
                guard recording else { return }
                switch cause {
                case .line(let start): lines.append(BenchCommand.seconds(instant - start))
                case .timer(let due): timer.append(max(0, date.timeIntervalSince(due)))
                case .none: break
                }
            }
        }

        var lineLatencies: [Double] { lock.withLock { lines } }
        var timerLateness: [Double] { lock.withLock { timer } }
    }

    /// Runs the live part in a fresh copy of this executable, so that its memory figures are
    /// not those of a process that just replayed a season. Returns its exit status, or nil when
    /// it could not be started (the caller then runs it here).
    static func runLiveInChild(games: Int, events: Int, warmup: Int, spacing: Double, stateDir: String?) throws -> Int32? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        fflush(nil)  // everything printed so far comes before the child's output
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["bench", "--season", "0", "--live", "\(games)", "--events", "\(events)", "--warmup", "\(warmup)", "--spacing", "\(spacing)"]
            + (stateDir.map { ["--state-dir", $0] } ?? [])
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

import Foundation
import Synchronization
import Testing
import ScoreFeed
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 30's smoke test through the built executable on the system clock (`--clock system`, as
/// in production), in token and broadcast mode: `serve` handed each real game's lines up to 55 %
/// at once sends at most one push per game for the present state (with its priority-5 copy: at
/// most 2 records and 1 priority 10), never a burst of the past, and its records carry today's
/// dates, not the recordings' (issue 31). The other joins and catch-ups (a poller started late,
/// an outage, a failover to a fresh state dir) run in process on virtual time:
/// `LiveDayScenarioTests`. `Tests/Figures/join.sh` prints the figures at more points, and
/// `Tests/Figures/join-before.txt` holds them before the fix (d3c7698).
@Suite(
    "joining games in progress: one push for the present (issue 30)", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct JoinTests {
    /// Every liveData game beside the package (the ones the live test server serves).
    static let games: [String] = NBAFiles.games.filter { $0.hasPrefix("playbyplay_") }.compactMap(NBAFiles.gameId(in:))

    /// Token mode, or broadcast mode (poll: channels managed behind the APNs test server; serve:
    /// each game's channel in its header, as a backend makes them).
    typealias Mode = PollLiveTests.Mode

    // MARK: - The scenarios

    @Test(arguments: Mode.ofProcesses)
    func serveHandedABacklogSendsThePresentOnce(_ mode: Mode) async throws {
        let stream = try #require(Self.stream, "scorefeed stream wrote the games")
        let backlog = stream.cut(0.55)
        let feed = Stream.lastStated(backlog)
        let run = try await Self.run(Self.serve(mode), input: stream.headers(mode) + backlog.map(\.line), stop: .closeInput) { pushes in
            Self.shown(feed, in: pushes)
        }
        #expect(run.met, "every game showed the feed's score before the bound: \(run.stderr.suffix(400))")
        Self.checkCatchUp(run.pushes, feed: feed, what: "serve \(mode), each game's lines up to 0.55 at once")
    }

    // MARK: - Checks

    /// Issue 30's bound for what one moment sends, per game: at least one record and at most 2 (the
    /// present state and its priority-5 copy), at most 1 of priority 10, the last showing the feed's
    /// score.
    static func checkCatchUp(_ pushes: [Push], feed: [String: FinalScore], what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var figures: [String] = []
        for game in games {
            let mine = pushes.filter { $0.game == game }
            let urgent = mine.filter { $0.priority == 10 }.count
            #expect(!mine.isEmpty && mine.count <= 2, "\(what): \(game): \(mine.count) pushes for one moment (at most 2: the present and its priority-5 copy)", sourceLocation: sourceLocation)
            #expect(urgent <= 1, "\(what): \(game): \(urgent) priority 10s for one moment (at most 1)", sourceLocation: sourceLocation)
            let shown = mine.last?.score.map { "\($0)" } ?? "nothing", stated = feed[game].map { "\($0)" } ?? "?"
            #expect(mine.last?.score == feed[game], "\(what): \(game): the last push shows \(shown), the feed \(stated)", sourceLocation: sourceLocation)
            figures.append("\(game) \(mine.count) (p10 \(urgent))")
        }
        print("join figures: \(what): pushes per game: \(figures.joined(separator: ", "))")
    }

    /// Whether every game of `feed` has a record showing its score.
    static func shown(_ feed: [String: FinalScore], in pushes: [Push]) -> Bool {
        feed.allSatisfy { game, score in pushes.contains { $0.game == game && $0.score == score } }
    }

    /// The feed's score in one game's part of the live server's stats.
    static func score(_ stats: [String: Any]) -> FinalScore? {
        guard let home = stats["scoreHome"] as? Int, let away = stats["scoreAway"] as? Int else { return nil }
        return FinalScore(home: home, away: away)
    }

    // MARK: - Commands

    /// `serve` on the system clock, draining at most 5 s once its input ends.
    static func serve(_ mode: Mode) -> [String] {
        ["serve", "--clock", "system", "--drain-timeout", "5", "--bundle-id", "com.acme"] + mode.arguments
    }

    /// One push record a run wrote.
    struct Push: Sendable {
        var line: String
        var game: String
        var seq: Int
        var event: String
        var priority: Int
        var sentAt: Double
        var apnsID: String
        var score: FinalScore?

        /// A push record line (either platform's); nil for a channel request or anything without
        /// a request.
        init?(_ line: String) throws {
            guard !line.hasPrefix("{\"kind\":\"channel\""), let record = RecordLine(line) else { return nil }
            self.line = line
            self.game = record.game
            self.seq = record.seq
            self.event = record.event
            self.priority = record.priority
            self.sentAt = (record.object["sentAt"] as? NSNumber)?.doubleValue ?? 0
            self.apnsID = record.id
            self.score = record.score.map { FinalScore(home: $0.home, away: $0.away) }
        }

        /// The record without its `sentAt`: what one `apns-id` must always name.
        var body: String {
            guard let start = line.range(of: "\"sentAt\":"), let comma = line[start.upperBound...].firstIndex(of: ",") else { return line }
            return String(line[..<start.lowerBound] + line[line.index(after: comma)...])
        }
    }

    /// How a run is stopped once its condition holds.
    enum Stop {
        /// SIGTERM (poll, serve: they send what is due, at most 5 s more, and exit).
        case terminate
        /// Close standard input (serve: the input ended; it drains, at most `--drain-timeout`).
        case closeInput
        /// SIGKILL: the machine is lost.
        case kill
    }

    /// What a run wrote and how it ended.
    struct Run {
        var pushes: [Push]
        var status: Int32
        /// The condition held (before the watchdog's bound).
        var met: Bool
        var stderr: String
    }

    /// Kills a process (SIGKILL) after a bound unless cancelled first: a run that goes wrong ends
    /// instead of hanging the suite.
    final class Watchdog: Sendable {
        private let cancelled = Mutex(false)

        init(_ pid: Int32, after seconds: Double) {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                cancelled.withLock { if !$0 { _ = kill(pid, SIGKILL) } }
            }
        }

        func cancel() {
            cancelled.withLock { $0 = true }
        }
    }

    /// Runs `scorefeed arguments…` and reads its push records as they come. `input`'s lines are
    /// written on its standard input, which stays open until the stop (nil: no input). Once
    /// `until` holds for the records so far (asked before the first record too), the process is
    /// stopped as `stop` says and its output read to its end. A run whose condition has not held
    /// within `bound` seconds, or that does not end within `bound` more, is killed (`met` false).
    static func run(
        _ arguments: [String], input: [Data]? = nil, stop: Stop, bound: Double = 40, until: ([Push]) throws -> Bool
    ) async throws -> Run {
        let started = Date()
        // The condition is asked on the run's own thread only, while this task waits for it.
        let run = try await withoutActuallyEscaping(until) { until in
            let condition = UncheckedCondition(ask: until)
            return try await OffPool.run {
                try runBlocking(arguments, input: input, stop: stop, bound: bound, until: condition.ask)
            }
        }
        // Recorded games on the system clock: every date a device reads is today's (issue 31).
        DeviceDates.expectToday(
            run.pushes.map { Data($0.line.utf8) }, since: started, until: Date(),
            what: "scorefeed \(arguments.prefix(1).joined()) on the system clock")
        return run
    }

    /// A condition handed to the thread that runs the process (see ``run(_:input:stop:bound:until:)``).
    struct UncheckedCondition: @unchecked Sendable {
        var ask: ([Push]) throws -> Bool
    }

    /// ``run(_:input:stop:bound:until:)`` on the calling thread.
    static func runBlocking(
        _ arguments: [String], input: [Data]?, stop: Stop, bound: Double, until: ([Push]) throws -> Bool
    ) throws -> Run {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = Make.packageRoot
        let output = Pipe(), feeding = Pipe()
        process.standardOutput = output
        process.standardInput = input == nil ? FileHandle.nullDevice : feeding
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("join-stderr-\(UUID().uuidString)")
        try Data().write(to: errorFile)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardError = errorHandle
        try process.run()
        try errorHandle.close()
        let pid = process.processIdentifier
        // Standard input: the lines at once, then held open until the stop.
        let release = DispatchSemaphore(value: 0)
        if let input {
            let writer = feeding.fileHandleForWriting
            let data = Data(input.map { $0 + Data([0x0A]) }.joined())
            DispatchQueue.global().async {
                try? writer.write(contentsOf: data)  // a run that died early is reported by its checks
                release.wait()
                try? writer.close()
            }
        }
        var watchdog = Watchdog(pid, after: bound)
        var pushes: [Push] = []
        var met = false
        func check() throws {
            guard !met, try until(pushes) else { return }
            met = true
            watchdog.cancel()
            watchdog = Watchdog(pid, after: bound)
            switch stop {
            case .terminate: kill(pid, SIGTERM)
            case .kill: kill(pid, SIGKILL)
            case .closeInput: release.signal()
            }
        }
        try check()
        var buffer = Data()
        let reading = output.fileHandleForReading
        while true {
            let chunk = reading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if let push = try Push(line) { pushes.append(push) }
            }
            try check()
        }
        if !met || stop != .closeInput { release.signal() }  // the writer closes its end and is done
        process.waitUntilExit()
        watchdog.cancel()
        let stderr = String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        return Run(pushes: pushes, status: process.terminationStatus, met: met, stderr: stderr)
    }

    // MARK: - The games as serve's lines

    /// Every game as `scorefeed stream` writes it: its header line, and the events in the stream's
    /// order with the score each states.
    struct Stream: Sendable {
        var headerLines: [String: Data]
        var events: [(game: String, line: Data, score: FinalScore?)]

        /// The header lines, in broadcast mode each with the game's own channel (a backend's).
        func headers(_ mode: Mode) -> [Data] {
            JoinTests.games.compactMap { game in
                guard let line = headerLines[game] else { return nil }
                guard mode.hasChannels else { return line }
                return line.dropLast() + Data(",\"channel\":\"\(BroadcastServeTests.channel(of: game))\"}".utf8)
            }
        }

        /// Each game's events up to `fraction` of them, in the stream's order.
        func cut(_ fraction: Double) -> [(game: String, line: Data, score: FinalScore?)] {
            var totals: [String: Int] = [:]
            for event in events { totals[event.game, default: 0] += 1 }
            var taken: [String: Int] = [:]
            return events.filter { event in
                taken[event.game, default: 0] += 1
                return Double(taken[event.game]!) <= (fraction * Double(totals[event.game]!)).rounded()
            }
        }

        /// The last score each game's events state.
        static func lastStated(_ events: [(game: String, line: Data, score: FinalScore?)]) -> [String: FinalScore] {
            var scores: [String: FinalScore] = [:]
            for event in events { if let score = event.score { scores[event.game] = score } }
            return scores
        }
    }

    static let stream: Stream? = {
        guard NBAFiles.available, ScoreFeedProcess.executable != nil,
              let run = try? ScoreFeedProcess.runOnThisThread(["stream"] + games.map { NBAFiles.path("playbyplay_\($0).json") }),
              run.status == 0
        else { return nil }
        var stream = Stream(headerLines: [:], events: [])
        for line in run.lines {
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { return nil }
            if let game = object["game"] as? String {
                let stated = object["score"] as? [String: Any]
                let score = (stated?["home"] as? Int).flatMap { home in (stated?["away"] as? Int).map { FinalScore(home: home, away: $0) } }
                stream.events.append((game, line, score))
            } else if let game = object["gameId"] as? String {
                stream.headerLines[game] = line
            }
        }
        return stream
    }()
}

import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// kill -9 of the built `serve` while it reads three real games through a pipe, restarted on
/// the same state directory and output file, with the two producers the manual's contract
/// (RunningServe.md) allows: one sends the whole stream again from the start, one resumes a few
/// lines before the first event the checkpoints (snapshot and journal) had not applied.
///
/// Every run: the union of what was written equals a clean run's records (the same bytes per
/// apns-id), one body per apns-id, and every game's last record is its `end` with the feed's
/// final. In broadcast mode, with ScoreFeed managing the channels behind the APNs test server,
/// also: no broadcast to an unknown or deleted channel, every game's `end` on its own channel,
/// and no channel left open (channels made twice, by a create whose answer a kill lost, are
/// counted and deleted by the run's reconciliation). Records are compared with the channel id
/// left out, as each run's channels have new ids. The suite runs one seed per producer and mode,
/// a smoke test of the real process: kill -9 at any input, with journals cut at any byte, runs
/// in process on virtual time in the simulator (`SimulationTests`, `LiveDayScenarioTests`);
/// `Tests/CrashSeries/run.sh` runs the long series (`SCOREFEED_KILL_RUNS`, `SCOREFEED_KILLS`).
@Suite(
    "kill -9 of serve on real games", .serialized,
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct CrashSafetyTests {
    enum Producer: String, CaseIterable, Sendable {
        /// Re-sends the whole stream from its first line.
        case fromTheStart
        /// Sends the headers, then resumes a few lines before the first event not yet applied.
        case fewLinesBack
    }

    /// Token mode, or broadcast mode with `--channels manage` behind the APNs test server.
    enum Mode: String, CaseIterable, Sendable {
        case token, broadcast
    }

    static let games = ["playbyplay_0022400723.json", "playbyplay_0022400762.json", "playbyplay_0022000180.json"]

    static let runs = ProcessInfo.processInfo.environment["SCOREFEED_KILL_RUNS"].flatMap(Int.init) ?? 1
    static let kills = ProcessInfo.processInfo.environment["SCOREFEED_KILLS"].flatMap(Int.init) ?? 5

    /// The stream `scorefeed stream` writes for the three games, and what each game must end on.
    static let stream: (lines: [Data], headers: Int, finals: [String: FinalScore], events: [(game: String, seq: Int)])? = {
        guard NBAFiles.available else { return nil }
        guard let documents = try? games.map(RealFeedServeTests.imported) else { return nil }
        var events: [(String, Int)] = []
        var merge = FeedMerge(documents.map(\.events))
        while let (game, event) = merge.next() { events.append((documents[game].attributes.gameId, event.seq)) }
        var finals: [String: FinalScore] = [:]
        for document in documents { finals[document.attributes.gameId] = document.finalScore }
        return (RealFeedServeTests.stream(documents), documents.count, finals, events)
    }()

    /// One `serve` process fed `lines`; killed with SIGKILL after `killAfter` lines, else its
    /// input is closed after the last line and it must exit 0.
    /// Broadcast mode while the webhook fails one broadcast or channel request in twenty: records wait in the webhook's memory when a kill comes, so the union of what
    /// was written is not a clean run's, but every game still ends on its own channel with its
    /// final (a game's end waits in its checkpoint until its channel is deleted), no broadcast
    /// goes to an unknown or deleted channel, and no channel is left open.
    @Test(arguments: [2000] as [UInt64])
    func killedWhileTheWebhookFailsEveryGameStillEndsOnItsOwnChannel(_ seed: UInt64) async throws {
        let stream = try #require(Self.stream)
        // Each 503 costs the webhook's half-second backoff on the real clock: one in twenty.
        let apns = try APNsTestServer(cycle: Array(repeating: "200", count: 19) + ["503"], faultOn: [.broadcast, .create, .delete])
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state"), out = dir.appendingPathComponent("out.jsonl")
        var random = SeededRandom(seed: seed)
        for _ in 0..<3 {
            try await Self.serve(stream.lines[...], state: state, out: out, killAfter: Int.random(in: 1..<stream.lines.count, using: &random), apns: apns)
        }
        try await Self.serve(stream.lines[...], state: state, out: out, killAfter: nil, apns: apns)
        let audit = try await BroadcastAudit(apns)
        try audit.check(finals: stream.finals, oneChannel: false)
        print("kill series with a failing webhook: seed \(seed): 3 kills, \(audit.requests.filter { $0.status == 503 }.count) answers 503, \(audit.madeTwice.count) channels made twice")
    }

    /// Broadcast mode: `serve` stopped halfway through the stream (its input closed, the game
    /// then playing live on its channel), sent the whole stream again and killed before that
    /// game's end (the kill may come before it read past what it had: a stop, then, as far as the
    /// checkpoint goes); the game's checkpoint then left unreadable (its first half only, as a crash
    /// mid-write on a disk that reorders writes might), and the whole stream sent again. The game
    /// starts afresh, alone, on the channel `channels.json` names for it: every broadcast of each
    /// game on one channel (its devices subscribed to it), every game's end with its final, every
    /// channel deleted. (A product that lets the restart delete the channel as no game's, and makes
    /// the game a new one, fails this.) The simulator runs this at any input on virtual time; this
    /// is the real process on real games.
    @Test func aDamagedCheckpointsGameStaysOnItsChannelThroughAKill() async throws {
        let stream = try #require(Self.stream)
        let apns = try APNsTestServer()
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state"), out = dir.appendingPathComponent("out.jsonl")
        // The game live at the stop (the stream runs the games one after another, mostly): its
        // checkpoint is damaged after a kill halfway between the stop and its end.
        let half = stream.lines.count / 2
        let game = stream.events[half - stream.headers].game
        let end = try #require(stream.events.lastIndex { $0.game == game }) + stream.headers
        try await Self.serve(stream.lines[..<half], state: state, out: out, killAfter: nil, apns: apns)
        #expect(try Self.records(out).contains { RecordLine($0)?.game == game }, "game \(game) broadcast before the stop")
        try await Self.serve(stream.lines[...], state: state, out: out, killAfter: (half + end) / 2, apns: apns)
        let store = try CheckpointStore(directory: state)
        let snapshot = try Data(contentsOf: store.url(for: game))
        try snapshot.prefix(snapshot.count / 2).write(to: store.url(for: game))
        try await Self.serve(stream.lines[...], state: state, out: out, killAfter: nil, apns: apns)
        let unreadable = store.url(for: game).appendingPathExtension("unreadable")
        #expect(FileManager.default.fileExists(atPath: unreadable.path), "the restart put the damaged checkpoint aside")
        let audit = try await BroadcastAudit(apns)
        try audit.check(finals: stream.finals, oneChannel: false)
        for name in stream.finals.keys.sorted() {
            let channels = Set(audit.requests.filter { $0.kind == .broadcast && $0.game == name && $0.status == 200 }.compactMap(\.channel))
            #expect(channels.count == 1, "game \(name)\(name == game ? " (its checkpoint damaged)" : ""): its broadcasts went to \(channels.sorted())")
        }
    }

    static func serve(
        _ lines: ArraySlice<Data>, state: URL, out: URL, killAfter: Int?, apns: APNsTestServer? = nil, extra: [String] = []
    ) async throws {
        let ended = try await OffPool.run { try serving(lines, state: state, out: out, killAfter: killAfter, apns: apns, extra: extra) }
        if killAfter == nil {
            #expect(ended.reason == .exit && ended.status == 0, "serve exits 0 when its input ends")
        }
    }

    /// ``serve(_:state:out:killAfter:apns:)`` on the calling thread: how the process ended.
    private static func serving(
        _ lines: ArraySlice<Data>, state: URL, out: URL, killAfter: Int?, apns: APNsTestServer?, extra: [String] = []
    ) throws -> (reason: Process.TerminationReason, status: Int32) {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = ["serve", "--clock", "feed", "--state-dir", state.path, "--out", out.path]
            + (apns.map {
                ["--mode", "broadcast", "--bundle-id", "com.acme", "--channels", "manage", "--channel-linger", "0",
                 "--webhook", $0.url.absoluteString, "--delete-unknown-channels"]
            } ?? []) + extra
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = input.fileHandleForWriting
        var written = 0
        do {
            for line in lines {
                if let killAfter, written == killAfter { break }
                try writer.write(contentsOf: line + Data([0x0A]))
                written += 1
            }
        } catch {
            // The server died (it must not): the checks below will say what is missing.
        }
        if killAfter != nil { kill(process.processIdentifier, SIGKILL) }
        try? writer.close()
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    /// The index of the first stream line whose event the checkpoints in `state` have not applied.
    static func firstUnapplied(_ events: [(game: String, seq: Int)], headers: Int, state: URL) throws -> Int {
        var applied: [String: Set<Int>] = [:]
        for entry in try CheckpointStore(directory: state).readAll() {
            guard entry.isReadable else { continue }
            let session = try GameSession.restore(entry.data, journal: entry.journal, file: entry.file.path)
            applied[session.attributes.gameId] = Set(session.fold.validator.applied.keys)
        }
        let index = events.firstIndex { applied[$0.game]?.contains($0.seq) != true } ?? events.count
        return headers + index
    }

    /// The push records in `file` (channel requests left out), each with its channel id blanked.
    static func records(_ file: URL) throws -> [String] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return BroadcastAudit.pushLines(text.split(separator: "\n"))
    }

    /// A clean run's records, in each mode (broadcast: behind an APNs test server that makes the
    /// channels).
    static let clean: [Mode: [String]] = {
        var result: [Mode: [String]] = [:]
        for mode in Mode.allCases {
            let apns = mode == .broadcast ? try? APNsTestServer() : nil
            if mode == .broadcast && apns == nil { continue }
            result[mode] = cleanRun(apns: apns)
        }
        return result
    }()

    /// Android's options for the series (records to each game's topic: no channels).
    static let android = RealFeedServeTests.Mode.androidBroadcast.arguments

    /// Both platforms' options for the series (token mode).
    static let both = RealFeedServeTests.Mode.both.arguments

    /// A clean run's records on Android.
    static let cleanAndroid: [String]? = cleanRun(extra: android)

    /// A clean run's records on both platforms.
    static let cleanBoth: [String]? = cleanRun(extra: both)

    /// A clean run's records with the options `extra`, and `apns` answering channel requests
    /// (nil: none, no channels); nil without the stream or the executable.
    static func cleanRun(apns: APNsTestServer? = nil, extra: [String] = []) -> [String]? {
        guard let stream, ScoreFeedProcess.executable != nil else { return nil }
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("clean.jsonl")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        _ = try? serving(stream.lines[...], state: dir.appendingPathComponent("state"), out: out, killAfter: nil, apns: apns, extra: extra)
        return try? records(out)
    }

    static let cases: [(Producer, UInt64, Mode)] = Mode.allCases.flatMap { mode in
        Producer.allCases.flatMap { producer in (0..<UInt64(runs)).map { (producer, 1000 + $0, mode) } }
    }

    @Test(arguments: cases)
    func killedAndRestartedItSendsWhatACleanRunSends(_ producer: Producer, _ seed: UInt64, _ mode: Mode) async throws {
        let clean = try #require(Self.clean[mode], "python3 runs the APNs test server")
        let apns = mode == .broadcast ? try APNsTestServer() : nil
        try await Self.killSeries(producer, seed, clean: clean, apns: apns, label: mode.rawValue)
    }

    /// Kills `serve` (SIGKILL) at random lines ``kills`` times, the producer sending again as
    /// `producer` does, then lets it finish: the union of what was written is `clean`, one body
    /// per request id, every game ends with its final. `extra`: the run's other options.
    static func killSeries(
        _ producer: Producer, _ seed: UInt64, clean: [String], apns: APNsTestServer?, extra: [String] = [], label: String
    ) async throws {
        let stream = try #require(Self.stream)
        #expect(clean.count > 300)
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state"), out = dir.appendingPathComponent("out.jsonl")

        var random = SeededRandom(seed: seed)
        var from = 0
        for _ in 0..<Self.kills {
            let lines: ArraySlice<Data> = from == 0 ? stream.lines[...] : ArraySlice(stream.lines[..<stream.headers] + stream.lines[from...])
            try await Self.serve(lines, state: state, out: out, killAfter: Int.random(in: 1..<lines.count, using: &random), apns: apns, extra: extra)
            switch producer {
            case .fromTheStart:
                from = 0
            case .fewLinesBack:
                let first = try Self.firstUnapplied(stream.events, headers: stream.headers, state: state)
                from = max(stream.headers, first - Int.random(in: 1...8, using: &random))
            }
        }
        let lines: ArraySlice<Data> = from == 0 ? stream.lines[...] : ArraySlice(stream.lines[..<stream.headers] + stream.lines[from...])
        try await Self.serve(lines, state: state, out: out, killAfter: nil, apns: apns, extra: extra)

        let written = try Self.records(out)
        #expect(Set(written) == Set(clean), "the union of what was written is the clean run's records")
        var madeTwice = 0
        if let apns {
            let audit = try await BroadcastAudit(apns)
            try audit.check(finals: stream.finals, oneChannel: false)
            madeTwice = audit.madeTwice.values.reduce(0) { $0 + $1 - 1 }
        }
        // A figure for the long series, not an assertion: how many records were written twice.
        print("kill series: \(label) \(producer) seed \(seed): \(Self.kills) kills, \(written.count) records written for \(clean.count) clean, \(madeTwice) channels made twice, \(written.count - Set(written).count) repeated")
        var bodies: [String: String] = [:]
        var last: [String: RecordLine] = [:]
        for line in written {
            let record = try #require(RecordLine(line), "a push record: \(line.prefix(200))")
            if let body = bodies[record.id] { #expect(body == line, "one body per apns-id") }
            bodies[record.id] = line
            if (last[record.game]?.seq ?? 0) < record.seq { last[record.game] = record }
        }
        for (game, final) in stream.finals {
            let record = try #require(last[game], "\(game) sent nothing")
            #expect(record.event == "end", "\(game) ends with its end")
            #expect(record.score?.home == final.home && record.score?.away == final.away, "\(game)'s final")
        }
    }
}

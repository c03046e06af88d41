import Foundation
import Testing
@testable import ScoreFeed
@testable import scorefeed
import ScoreFeedModel

/// `serve` and `poll` tell the truth when they stop: exit 75 (EX_TEMPFAIL) when pushes are left
/// withheld (a checkpoint that cannot be written, a sink down past its give-up time, a reader
/// of standard output that went away), and each game's summary names the cause. After the
/// cause is gone, a run on the same state dir sends the rest: the union is a clean run.
@Suite("Exit status and summaries", .serialized)
struct ExitStatusTests {
    typealias Mode = RealFeedServeTests.Mode

    static func serveArguments(_ mode: Mode, state: URL) -> [String] {
        StateDirectoryLockTests.serveArguments(mode, state: state)
    }

    /// The push lines of a clean run of `stream` on a fresh state dir.
    static func clean(_ mode: Mode, stream: URL, folder: URL) throws -> [Data] {
        let run = try ScoreFeedProcess.run(serveArguments(mode, state: folder.appendingPathComponent("clean")), input: stream)
        #expect(run.status == 0, "\(run.standardError)")
        return run.lines
    }

    /// One game's checkpoint cannot be written (a directory stands where its temporary file
    /// goes, as a full disk would refuse it): serve exits 75, that game's summary names the
    /// checkpoint and its errno text and no other game's does; once it can be written, the
    /// stream sent again completes the night exactly.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: Mode.allCases)
    func aCheckpointThatCannotBeWrittenExits75AndTheSummaryNamesIt(_ mode: Mode) throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try StateDirectoryLockTests.stream(mode, into: folder)
        let clean = try Self.clean(mode, stream: stream, folder: folder)
        let state = folder.appendingPathComponent("state")
        let game = "0022400762"
        let blocker = try CheckpointStore(directory: state).url(for: game).appendingPathExtension("tmp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)

        let failing = try ScoreFeedProcess.run(Self.serveArguments(mode, state: state), input: stream)
        #expect(failing.status == ExitCode.withheld)
        let summaries = failing.standardError.split(separator: "\n").filter { $0.hasPrefix("game ") && $0.contains(" events applied") }
        #expect(summaries.count == 8)
        for line in summaries {
            let named = line.contains("pushes withheld: its checkpoint cannot be written (") && line.contains("Is a directory (errno 21)")
            #expect(named == line.hasPrefix("game \(game):"), "\(line)")
            #expect(!line.contains("the sink failed"))
        }
        #expect(failing.standardError.contains("exiting with status 75"))

        try FileManager.default.removeItem(at: blocker)
        let again = try ScoreFeedProcess.run(Self.serveArguments(mode, state: state), input: stream)
        #expect(again.status == 0, "\(again.standardError)")
        let union = Set(failing.lines + again.lines) == Set(clean)
        #expect(union, "the union of what was written is a clean run")
        #expect(failing.lines.count + again.lines.count == clean.count, "nothing written twice")
    }

    /// `serve | head`: the reader goes away. serve says so on stderr with the games and seqs it
    /// was writing and what gives delivery that can resume, exits 75 (not SIGPIPE's 141), and
    /// its checkpoints hold the rest: a run on the same state dir writes the night.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: Mode.allCases)
    func aReaderThatGoesAwayIsSaidAndTheCheckpointsHoldTheRest(_ mode: Mode) throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try StateDirectoryLockTests.stream(mode, into: folder)
        let clean = try Self.clean(mode, stream: stream, folder: folder)
        let state = folder.appendingPathComponent("state")
        let gone = try ScoreFeedProcess.run(Self.serveArguments(mode, state: state), closeOutput: true, input: stream)
        #expect(gone.status == ExitCode.withheld, "\(gone.standardError)")
        #expect(gone.standardError.contains("the reader of standard output went away (EPIPE) while serve was writing game "))
        #expect(gone.standardError.contains(" seq 1"))
        #expect(gone.standardError.contains("--out <file> or --webhook <url> gives delivery that can"))
        let again = try ScoreFeedProcess.run(Self.serveArguments(mode, state: state), input: stream)
        #expect(again.status == 0, "\(again.standardError)")
        // The games' pushes interleave in another order after a restart; each game's are the same.
        let same = Set(again.lines) == Set(clean)
        #expect(same && again.lines.count == clean.count, "every push the reader missed comes out, once")
    }

    /// Without a state dir the reader going away is said once, not once per line serve still
    /// had: no per-line sink error floods stderr.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: Mode.allCases)
    func aReaderThatGoesAwayIsSaidOnceWithoutAStateDir(_ mode: Mode) throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try StateDirectoryLockTests.stream(mode, into: folder)
        let gone = try ScoreFeedProcess.run(
            ["serve", "--clock", "feed"] + StateDirectoryLockTests.modeArguments(mode), closeOutput: true, input: stream)
        #expect(gone.status == ExitCode.withheld, "\(gone.standardError.suffix(400))")
        let lines = gone.standardError.split(separator: "\n")
        #expect(lines.filter { $0.contains("the reader of standard output went away (EPIPE)") }.count == 1)
        #expect(!lines.contains { $0.contains("reader-gone") }, "\(lines.prefix(3))")
        #expect(lines.filter { $0.hasPrefix("game ") }.count == 8, "one summary per game")
    }

    /// A webhook down past --webhook-give-up: exit 75 and the summaries name the webhook.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: Mode.allCases)
    func aSinkDownPastItsGiveUpExits75(_ mode: Mode) throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try StateDirectoryLockTests.stream(mode, into: folder)
        let run = try ScoreFeedProcess.run(
            ["serve", "--clock", "feed", "--webhook", "http://127.0.0.1:9/push", "--webhook-give-up", "0", "--webhook-timeout", "1",
             "--out", folder.appendingPathComponent("out.jsonl").path] + StateDirectoryLockTests.modeArguments(mode),
            input: stream)
        #expect(run.status == ExitCode.withheld, "\(run.standardError)")
        #expect(run.standardError.contains("pushes not delivered (the webhook gave up on them)"))
    }

    /// The summary's words, one cause each.
    @Test func theSummaryNamesTheCause() {
        var game = GameService.GameSummary(
            attributes: Make.attributes, statistics: .init(), state: GameState(), ended: false, unsent: 3, channel: .init(), holding: false)
        #expect(LiveRun.summary(game, resumable: true).hasSuffix("; 3 pushes not delivered (the sink failed)"))
        #expect(LiveRun.withholds(game))
        game.checkpointFailure = ScoreFeedError(.io, "cannot write /s/game-TEST1.json: \(ScoreFeedError.errnoText(ENOSPC))")
        let line = LiveRun.summary(game, resumable: true)
        #expect(line.contains("3 pushes withheld: its checkpoint cannot be written (cannot write /s/game-TEST1.json: No space left on device (errno 28))"))
        #expect(!line.contains("sink"))
        game.unsent = 0
        #expect(LiveRun.withholds(game), "a checkpoint that cannot be written is a failure even with nothing to send")
        game.checkpointFailure = nil
        #expect(!LiveRun.withholds(game))
        game.unsent = 2
        game.holding = true
        #expect(!LiveRun.withholds(game) && LiveRun.summary(game, resumable: true).hasSuffix("2 pushes held for want of a channel"))
    }
}

/// `serve` under pressure: engines that fall behind the reader of its input, and a signal while it
/// finishes. Apart from ``ExitStatusTests`` so that the two serialized chains of waits run side by
/// side; serialized, as each is timed against the machine's load.
@Suite("Exit status: serve falling behind, a signal while finishing", .serialized)
struct ServeUnderPressureTests {
    typealias Mode = RealFeedServeTests.Mode

    /// No line is lost when the engines fall behind the reader. serve's stdout is not read until
    /// serve has read the whole of a 6-night stream (48 games, about 6 MB, so six batches of a
    /// megabyte): the first batch's pushes fill the pipe and stop the engines, four batches wait
    /// in the reader's buffer, and the last is turned away until there is room. Every line is
    /// still applied and every game ends. The stream must end in the batch the reader holds
    /// (more than one taken and four waiting, no more than one more): the test says so, rather
    /// than wait for ever, when the reader's sizes change.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fdinfo/0"), "reads the input's position from /proc"),
        .timeLimit(.minutes(1)), arguments: Mode.allCases)
    func noLineIsLostWhenTheEnginesFallBehind(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try StateDirectoryLockTests.stream(mode, into: folder, copies: 6)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: stream.path)[.size] as? Int)
        let held = (1 + LineReader.batchesAhead) * LineReader.batchBytes
        try #require(
            size > held && size <= held + LineReader.batchBytes,
            "the stream (\(size) bytes) must end in the batch the reader holds: past \(held) bytes, within one batch more")
        let lines = try String(contentsOf: stream, encoding: .utf8).split(separator: "\n").count
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = StateDirectoryLockTests.serveArguments(mode, state: folder.appendingPathComponent("state"))
        process.standardInput = try FileHandle(forReadingFrom: stream)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Waits until serve's reader is at the end of its input, its output unread, looking at its
        // position every 20 ms (the pause is not a timing assertion: only the position counts);
        // a reader stopped short (for good: its buffer full) fails the test after 240 s instead
        // of hanging it.
        let position = "/proc/\(process.processIdentifier)/fdinfo/0"
        let deadline = ContinuousClock.now + .seconds(240)
        var read = ""
        while true {
            read = (try? String(contentsOfFile: position, encoding: .utf8)) ?? ""
            guard process.isRunning, !read.contains("pos:\t\(size)\n"), ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning && !read.contains("pos:\t\(size)\n") {
            process.terminate()
            Issue.record("serve's reader stopped short of the end of its \(size)-byte input: \(read.prefix(40))")
        }
        let records = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said.suffix(400))")
        #expect(said.contains("serve: \(lines) lines, 48 headers"), "\(said.suffix(400))")
        #expect(said.split(separator: "\n").filter { $0.hasPrefix("game ") && $0.contains(", ended, final ") }.count == 48)
        #expect(records.split(separator: "\n").count == 6 * 1491)
    }

    /// SIGTERM while serve finishes (its input ended; a webhook that is down would keep it
    /// retrying for --webhook-give-up): it stops after 5 s more, says so, keeps what is not
    /// delivered in its checkpoints and exits 75; a run once the webhook is back would send it.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason), .timeLimit(.minutes(1)),
        arguments: Mode.allCases)
    func aSignalWhileFinishingStopsIt(_ mode: Mode) throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try StateDirectoryLockTests.stream(mode, into: folder)
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = [
            "serve", "--clock", "feed", "--state-dir", folder.appendingPathComponent("state").path,
            "--webhook", "http://127.0.0.1:9/push", "--webhook-give-up", "600", "--webhook-timeout", "1",
        ] + StateDirectoryLockTests.modeArguments(mode)
        process.standardInput = try FileHandle(forReadingFrom: stream)
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Waits until it says it is delivering what is still waiting (its input is done).
        var said = ScoreFeedProcess.read(errors.fileHandleForReading, until: "delivering what is still waiting")
        #expect(said.contains("delivering what is still waiting"))
        process.terminate()
        said += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == ExitCode.withheld, "\(said.suffix(400))")
        #expect(said.contains("serve: stopping: what is due goes out for 5 s more, the rest stays in the checkpoints"))
        #expect(!said.contains("CancellationError"))
        #expect(said.split(separator: "\n").filter { $0.hasPrefix("game ") && $0.contains("pushes not delivered") }.count == 8)
    }
}

/// `poll` exits 75 when a checkpoint cannot be written (apart from ``ExitStatusTests``: its polls
/// wait on the test server's game clock).
@Suite("Exit status: poll", .serialized)
struct PollExitStatusTests {
    /// poll too: one game's checkpoint cannot be written against the NBA test server; poll exits
    /// 75 naming it; once it can be written, a poll on the same state dir completes every game.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: Python3.available, Python3.absentReason), .timeLimit(.minutes(1)),
        arguments: PollLiveTests.Mode.allCases)
    func pollExits75WhenACheckpointCannotBeWritten(_ mode: PollLiveTests.Mode) async throws {
        let server = try LiveNBATestServer(games: PollLiveTests.games, speed: PollLiveTests.speed)
        let apns = try mode.server()
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let game = PollLiveTests.games[0]
        let blocker = try CheckpointStore(directory: state).url(for: game).appendingPathExtension("tmp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        let failing = try await PollLiveTests.poll(server, state: state, apns: apns)
        #expect(failing.status == ExitCode.withheld, "\(failing.stderr.suffix(400))")
        let named = failing.stderr.split(separator: "\n").filter { $0.contains("its checkpoint cannot be written (") }
        #expect(!named.isEmpty && named.allSatisfy { $0.contains(game) }, "\(named)")
        try FileManager.default.removeItem(at: blocker)
        let again = try await PollLiveTests.poll(server, state: state, apns: apns)
        #expect(again.status == 0, "\(again.stderr.suffix(400))")
        try await PollLiveTests.check(failing.lines + again.lines, allowRepeats: true, label: "\(mode) checkpoint blocked, then freed:")
    }
}

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

    /// The push lines of a clean run of `stream` on a fresh state dir (one run per mode).
    static func clean(_ mode: Mode, stream: URL, folder: URL) async throws -> [Data] {
        try await cleanRuns.value(mode) {
            let run = try await ScoreFeedProcess.run(serveArguments(mode, state: folder.appendingPathComponent("clean")), input: stream)
            #expect(run.status == 0, "\(run.standardError)")
            return run.lines
        }
    }

    private static let cleanRuns = RunMemo<Mode, [Data]>()

    /// One game's checkpoint cannot be written (directories stand where its journal and its
    /// snapshot's temporary file go, as a full disk would refuse them): serve exits 75, that game's summary names the
    /// checkpoint and its errno text and no other game's does; once it can be written, the
    /// stream sent again completes the night exactly.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: [Mode.token, .broadcast])
    func aCheckpointThatCannotBeWrittenExits75AndTheSummaryNamesIt(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try await StateDirectoryLockTests.stream(mode, into: folder)
        let clean = try await Self.clean(mode, stream: stream, folder: folder)
        let state = folder.appendingPathComponent("state")
        let game = "0022400762"
        // Directories where its journal and its snapshot's temporary file go.
        let store = try CheckpointStore(directory: state)
        let blockers = [store.url(for: game).appendingPathExtension("tmp"), store.journalURL(for: game)]
        for blocker in blockers { try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true) }

        let failing = try await ScoreFeedProcess.run(Self.serveArguments(mode, state: state), input: stream)
        #expect(failing.status == ExitCode.withheld)
        let summaries = failing.standardError.split(separator: "\n").filter { $0.hasPrefix("game ") && $0.contains(" events applied") }
        #expect(summaries.count == 8)
        for line in summaries {
            let named = line.contains("pushes withheld: its checkpoint cannot be written (") && line.contains("Is a directory (errno 21)")
            #expect(named == line.hasPrefix("game \(game):"), "\(line)")
            #expect(!line.contains("the sink failed"))
        }
        #expect(failing.standardError.contains("exiting with status 75"))

        for blocker in blockers { try FileManager.default.removeItem(at: blocker) }
        let again = try await ScoreFeedProcess.run(Self.serveArguments(mode, state: state), input: stream)
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
        arguments: [Mode.token, .broadcast])
    func aReaderThatGoesAwayIsSaidAndTheCheckpointsHoldTheRest(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try await StateDirectoryLockTests.stream(mode, into: folder)
        let clean = try await Self.clean(mode, stream: stream, folder: folder)
        let state = folder.appendingPathComponent("state")
        let gone = try await ScoreFeedProcess.run(Self.serveArguments(mode, state: state), closeOutput: true, input: stream)
        #expect(gone.status == ExitCode.withheld, "\(gone.standardError)")
        #expect(gone.standardError.contains("the reader of standard output went away (EPIPE) while serve was writing game "))
        #expect(gone.standardError.contains(" seq 1"))
        #expect(gone.standardError.contains("--out <file> or --webhook <url> gives delivery that can"))
        let again = try await ScoreFeedProcess.run(Self.serveArguments(mode, state: state), input: stream)
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
        arguments: [Mode.token, .broadcast])
    func aReaderThatGoesAwayIsSaidOnceWithoutAStateDir(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try await StateDirectoryLockTests.stream(mode, into: folder)
        let gone = try await ScoreFeedProcess.run(
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
        arguments: [Mode.token, .broadcast])
    func aSinkDownPastItsGiveUpExits75(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try await StateDirectoryLockTests.stream(mode, into: folder)
        let run = try await ScoreFeedProcess.run(
            ["serve", "--clock", "feed", "--webhook", "http://127.0.0.1:9/push", "--webhook-give-up", "0", "--webhook-timeout", "1",
             "--out", folder.appendingPathComponent("out.jsonl").path] + StateDirectoryLockTests.modeArguments(mode),
            input: stream)
        #expect(run.status == ExitCode.withheld, "\(run.standardError)")
        #expect(run.standardError.contains("pushes not delivered (the webhook gave up on them)"))
    }

    /// Broadcast mode with ScoreFeed making the channels, APNs' channel service down (every create
    /// answered 503) past the drain: the games' creates go unanswered, so serve exits 75, not 0 as
    /// for a channel the configuration withholds; a run on the same state dir once the service is
    /// back sends every game's pushes and ends each on its own channel with its final. The failure
    /// is said at most once a minute per game, not on every event's line.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func channelCreatesUnansweredPastTheDrainExit75() async throws {
        let stream = try #require(CrashSafetyTests.stream)
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // One game (its header and events): each event's send fails alike.
        let game = try #require(stream.events.first?.game)
        let lines = stream.lines.filter { String(decoding: $0, as: UTF8.self).contains("\"\(game)\"") }
        let finals = [game: try #require(stream.finals[game])]
        let input = folder.appendingPathComponent("stream.jsonl")
        try Data(lines.map { $0 + Data([0x0A]) }.joined()).write(to: input)
        let state = folder.appendingPathComponent("state")
        func arguments(_ apns: APNsTestServer) -> [String] {
            ["serve", "--clock", "feed", "--state-dir", state.path, "--out", folder.appendingPathComponent("out.jsonl").path,
             "--mode", "broadcast", "--bundle-id", "com.acme", "--channels", "manage", "--channel-linger", "0",
             "--webhook", apns.url.absoluteString, "--delete-unknown-channels", "--drain-timeout", "2"]
        }
        let down = try APNsTestServer(cycle: ["503"], faultOn: [.create])
        let failing = try await ScoreFeedProcess.run(arguments(down), input: input)
        #expect(failing.status == ExitCode.withheld, "\(failing.standardError)")
        #expect(failing.standardError.contains("exiting with status 75"))
        // Said at most once a minute per game, not once per event (534 lines before).
        let said = failing.standardError.split(separator: "\n").filter { $0.contains("the sink failed") }
        #expect(said.count == 1, "\(said.count) lines say the sink failed: \(said.prefix(4))")
        let tried = try await BroadcastAudit(down)
        #expect(tried.requests.contains { $0.kind == .create && $0.status == 503 } && !tried.requests.contains { $0.kind == .broadcast })

        let back = try APNsTestServer()
        let again = try await ScoreFeedProcess.run(arguments(back), input: input)
        #expect(again.status == 0, "\(again.standardError)")
        let audit = try await BroadcastAudit(back)
        try audit.check(finals: finals, oneChannel: true)
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
        game.channel.create(storage: 0)
        #expect(LiveRun.withholds(game), "a create APNs never answered: a run once its channel service is back sends them")
    }
}

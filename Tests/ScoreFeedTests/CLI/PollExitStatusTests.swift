import Foundation
import Testing
@testable import ScoreFeed
@testable import scorefeed
import ScoreFeedModel

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
        arguments: [PollLiveTests.Mode.token, .broadcast])
    func pollExits75WhenACheckpointCannotBeWritten(_ mode: PollLiveTests.Mode) async throws {
        let server = try LiveNBATestServer(games: PollLiveTests.games, speed: PollLiveTests.speed)
        let apns = try mode.server()
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let game = PollLiveTests.games[0]
        // Directories where its journal and its snapshot's temporary file go.
        let store = try CheckpointStore(directory: state)
        let blockers = [store.url(for: game).appendingPathExtension("tmp"), store.journalURL(for: game)]
        for blocker in blockers { try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true) }
        let failing = try await PollLiveTests.poll(server, state: state, apns: apns, extra: mode.pollArguments)
        #expect(failing.status == ExitCode.withheld, "\(failing.stderr.suffix(400))")
        let named = failing.stderr.split(separator: "\n").filter { $0.contains("its checkpoint cannot be written (") }
        #expect(!named.isEmpty && named.allSatisfy { $0.contains(game) }, "\(named)")
        for blocker in blockers { try FileManager.default.removeItem(at: blocker) }
        let again = try await PollLiveTests.poll(server, state: state, apns: apns, extra: mode.pollArguments)
        #expect(again.status == 0, "\(again.stderr.suffix(400))")
        try await PollLiveTests.check(failing.lines + again.lines, mode: mode, allowRepeats: true, label: "\(mode) checkpoint blocked, then freed:")
    }
}

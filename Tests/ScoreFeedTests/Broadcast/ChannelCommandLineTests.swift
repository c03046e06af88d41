import Foundation
import Testing
import ScoreFeed

/// The broadcast-channel options of `serve` and `poll`, and `scorefeed channels`.
@Suite("command line: broadcast channels", .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct ChannelCommandLineTests {
    @Test(arguments: [
        (["serve", "--mode", "broadcast", "--channel-id", "dGVzdA=="], "--channel-id is for replaying one game"),
        (["poll", "--games", "0022400762", "--mode", "broadcast", "--channel-id", "dGVzdA=="], "--channels manage --webhook"),
        (["serve", "--mode", "broadcast", "--channels", "manage"], "--channels manage needs a sink that answers: --webhook"),
        (["serve", "--mode", "broadcast", "--channels", "manage", "--out", "x.jsonl"], "stdout and --out record requests but cannot hand a channel id back"),
        (["serve", "--channels", "manage", "--webhook", "http://127.0.0.1:9/x"], "--channels is for --mode broadcast"),
        (["serve", "--mode", "broadcast", "--channels", "some"], "--channels takes header or manage"),
        (["serve", "--mode", "broadcast", "--channel-linger", "5"], "--channel-linger is for --channels manage"),
        (["serve", "--mode", "broadcast", "--message-storage", "2"], "--message-storage"),
        (["serve", "--mode", "broadcast", "--start"], "--start cannot be used with --mode broadcast"),
        (["channels"], "channels needs --state-dir"),
        (["poll", "--games", "0022400762", "--mode", "broadcast"], "poll --mode broadcast needs --channels manage"),
    ])
    func channelOptionsAreCheckedBeforeAnythingRuns(_ arguments: [String], _ message: String) async throws {
        let run = try await ScoreFeedProcess.run(arguments)
        #expect(run.status == 64, "\(run.standardError.prefix(300))")
        #expect(run.standardError.contains(message), "\(run.standardError.prefix(300))")
        #expect(run.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: Make.packageRoot.appendingPathComponent("x.jsonl").path))
    }

    @Test func serveAndPollHelpListTheChannelOptions() async throws {
        for command in ["serve", "poll"] {
            let run = try await ScoreFeedProcess.run(["help", command])
            for option in ["--channels", "--message-storage", "--channel-linger", "--max-channels", "--delete-unknown-channels", "--mode"] {
                #expect(run.output.contains(option), "\(command) help names \(option)")
            }
            #expect(!run.output.contains("\\("), "\(command) help has no literal interpolation")
        }
    }

    @Test func channelsPrintsTheStateDirectorysTable() async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var open = BroadcastChannel()
        open.use("Y2gx", storage: 0)
        var refused = BroadcastChannel()
        refused.refuse("the cap is reached")
        var directory = ChannelDirectory()
        directory.games = ["G1": .init(open), "G2": .init(refused)]
        try directory.encoded().write(to: folder.appendingPathComponent(ChannelDirectory.fileName))
        let run = try await ScoreFeedProcess.run(["channels", "--state-dir", folder.path])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("GAME") == true)
        #expect(lines.contains { $0.hasPrefix("G1") && $0.contains("open") && $0.contains("Y2gx") && $0.contains("header") })
        #expect(lines.contains { $0.hasPrefix("G2") && $0.contains("refused") && $0.contains("the cap is reached") })
        #expect(lines.last == "2 games, 1 channels at APNs (creating, open, lingering or deleting)")
        let json = try await ScoreFeedProcess.run(["channels", "--state-dir", folder.path, "--json"])
        #expect(try ChannelDirectory.decode(json.standardOutput, file: "stdout") == directory)
    }

    @Test func channelsOnAStateDirWithoutBroadcastIsAClearError() async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await ScoreFeedProcess.run(["channels", "--state-dir", folder.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("no channels.json in \(folder.path)"))
    }
}

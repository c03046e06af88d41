import Foundation
import Testing
import ScoreFeed
@testable import scorefeed

/// `-o` is `--out` on every command that writes, and an option that would do nothing in the
/// combination given is a usage error naming why, rather than accepted and ignored.
@Suite("command line: -o, and options that would do nothing")
struct OptionCombinationTests {
    @Test func dashOIsOutForReplayServeAndPoll() throws {
        var replay = Arguments(["Fixtures/one-point.json", "-o", "pushes.jsonl"])
        #expect(try ReplayCommand.Options(&replay).push.out == "pushes.jsonl")
        var serve = Arguments(["-o", "pushes.jsonl"])
        #expect(try ServeCommand.Options(&serve).live.push.out == "pushes.jsonl")
        var poll = Arguments(["--games", "0022400762", "-o=pushes.jsonl"])
        #expect(try PollCommand.Options(&poll).live.push.out == "pushes.jsonl")
    }

    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
    func dashOIsOutForStream() async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("lines.jsonl")
        let run = try await ScoreFeedProcess.run(["stream", "Fixtures/one-point.json", "-o", out.path])
        #expect(run.status == 0 && run.standardOutput.isEmpty, "\(run.standardError)")
        let written = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
        #expect(written.count > 100 && written[0].contains("\"gameId\":\"SF00000007\""), "\(written.prefix(1))")
    }

    @Test(arguments: [
        (["Fixtures/one-point.json", "--no-color"], "--no-color is for --speed"),
        (["Fixtures/one-point.json", "--speed", "60", "--jsonl", "--no-color"], "--no-color does nothing with --jsonl"),
        (["Fixtures/one-point.json", "--policy", "every-change", "--reserve", "2"], "--reserve does nothing with --policy every-change"),
        (["Fixtures/one-point.json", "--policy", "every-change", "--no-copies"], "--no-copies does nothing with --policy every-change"),
        (["Fixtures/one-point.json", "--policy", "every-change", "--alerts=none"], "--alerts does nothing with --policy every-change"),
        (["Fixtures/one-point.json", "--policy", "every-change", "--min-interval", "5"], "--min-interval does nothing with --policy every-change"),
    ])
    func replayRefusesAnOptionThatWouldDoNothing(argv: [String], message: String) {
        var arguments = Arguments(argv)
        let error = #expect(throws: ScoreFeedError.self) { _ = try ReplayCommand.Options(&arguments) }
        #expect(error?.code == .usage && error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    /// Android's options, and what iOS's options would do on Android: refused, naming why.
    @Test(arguments: [
        (["Fixtures/one-point.json", "--fcm-project", "demo"], "--fcm-project is for --platform android"),
        (["Fixtures/one-point.json", "--platform", "android", "--start"], "--start is iOS's push-to-start"),
        (["Fixtures/one-point.json", "--platform", "android", "--mode", "broadcast", "--channel-id", "dGVzdA=="], "--channel-id is for iOS broadcasts"),
        (["Fixtures/one-point.json", "--platform", "android", "--frequent"], "--frequent is iOS's profile"),
        (["Fixtures/one-point.json", "--platform", "android", "--fcm-project", "a/b"], "--fcm-project needs a Firebase project id"),
        (["Fixtures/one-point.json", "--platform", "android", "--fcm-project", "a?b"], "--fcm-project needs a Firebase project id"),
        (["Fixtures/one-point.json", "--platform", "watchos"], "--platform takes ios, android or ios,android"),
        (["Fixtures/one-point.json", "--platform", "ios,ios"], "--platform takes ios, android or ios,android"),
        (["Fixtures/one-point.json", "--platform", "ios,"], "--platform takes ios, android or ios,android"),
        (["Fixtures/one-point.json", "--platform", "ios,android", "--policy", "every-change"], "--policy every-change is a baseline for one platform"),
    ])
    func androidRefusesWhatItCannotDo(argv: [String], message: String) {
        var arguments = Arguments(argv)
        let error = #expect(throws: ScoreFeedError.self) { _ = try ReplayCommand.Options(&arguments) }
        #expect(error?.code == .usage && error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    /// Both platforms, in either order: iOS's lane first, whose options the iOS-only flags set;
    /// Android's lane under its own policy.
    @Test(arguments: ["ios,android", "android,ios"])
    func bothPlatformsTakeTheIOSOptionsForTheIOSLane(_ platforms: String) throws {
        var arguments = Arguments([
            "Fixtures/one-point.json", "--platform", platforms, "--start", "--frequent", "--fcm-project", "demo-1"])
        let options = try ReplayCommand.Options(&arguments)
        #expect(options.push.platforms == [.ios, .android])
        #expect(options.push.renderer().start && options.coalescer == .frequentUpdates)
        let lanes = options.push.otherLanes(beside: options.push.renderer())
        #expect(lanes.count == 1 && lanes[0].renderer.platform == .android && lanes[0].renderer.fcmProject == "demo-1")
        #expect(lanes[0].policy == .android && !lanes[0].renderer.start)
    }

    @Test func androidTakesItsOwnOptionsAndItsPolicy() throws {
        var replay = Arguments(["Fixtures/one-point.json", "--platform", "android", "--mode", "broadcast", "--fcm-project", "demo-1"])
        let options = try ReplayCommand.Options(&replay)
        #expect(options.push.renderer().platform == .android && options.push.renderer().fcmProject == "demo-1")
        #expect(options.push.renderer().mode == .broadcastPerGame)
        #expect(options.coalescer.budget == Coalescer.Configuration.android.budget && !options.coalescer.copies)
        var serve = Arguments(["--platform", "android", "--mode", "broadcast", "--channels", "manage"])
        let error = #expect(throws: ScoreFeedError.self) { _ = try ServeCommand.Options(&serve) }
        #expect(error?.message.contains("FCM topic") == true, "\(String(describing: error))")
        var poll = Arguments(["--games", "0022400762", "--platform", "android", "--mode", "broadcast"])
        #expect(try PollCommand.Options(&poll).live.push.platform == .android, "poll's Android broadcast needs no channels")
    }

    /// What every-change reads of the coalescer's options (the freshness report's device), and
    /// `--no-color` where a table is shown, are still taken.
    @Test(arguments: [
        ["Fixtures/one-point.json", "--policy", "every-change", "--budget", "30", "--p5-delay", "90", "--frequent"],
        ["Fixtures/one-point.json", "--speed", "60", "--no-color"],
        ["Fixtures/one-point.json", "--reserve", "2", "--no-copies"],
    ])
    func replayTakesOptionsThatDoSomething(argv: [String]) throws {
        var arguments = Arguments(argv)
        _ = try ReplayCommand.Options(&arguments)
    }

    @Test func pollRefusesAScoreboardWithoutToday() {
        var arguments = Arguments(["--games", "0022400762", "--scoreboard-url", "http://127.0.0.1:9/s.json"])
        let error = #expect(throws: ScoreFeedError.self) { _ = try PollCommand.Options(&arguments) }
        #expect(error?.code == .usage && error?.message == "--scoreboard-url is for --today")
        var today = Arguments(["--today", "--scoreboard-url", "http://127.0.0.1:9/s.json"])
        #expect(throws: Never.self) { _ = try PollCommand.Options(&today) }
    }

    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason), arguments: [
        (["freshness", "--generated", "1", "--budget", "20"], "Error: --budget does nothing here: --budgets <list> names the budgets measured"),
        (["freshness", "--generated", "1", "--frequent"], "Error: --frequent does nothing here"),
        (["freshness", "--grid", "--told", "--p5-delay", "30", "Fixtures/one-point.json"], "Error: --p5-delay does nothing with --told"),
        (["freshness", "--grid", "--told", "--budget", "30", "Fixtures/one-point.json"], "Error: --budget does nothing with --told"),
        (["bench", "--live", "0", "--events", "3"], "Error: --events is for the live part, which --live 0 skips"),
        (["bench", "--season", "0", "--live", "10", "--same-process"], "Error: --same-process does nothing with --season 0"),
    ])
    func otherCommandsRefuseAnOptionThatWouldDoNothing(argv: [String], message: String) async throws {
        let run = try await ScoreFeedProcess.run(argv)
        #expect(run.status == 64)
        #expect(run.standardError.hasPrefix(message), "\(run.standardError.prefix(300))")
        #expect(run.standardOutput.isEmpty)
    }
}

import Foundation
import Testing
import ScoreFeed

/// The process-level tests (exit statuses, a signal while finishing, a reader that falls behind,
/// poll's exit status) for Android, with records to each game's topic. They run the iOS suites'
/// own test functions, in a suite of their own so that they run beside those serialized suites
/// rather than after them: the platform changes only what is rendered, which the in-process suites
/// check in every mode.
@Suite(
    "Exit statuses and pressure, Android",
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct AndroidProcessTests {
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fdinfo/0"), "reads the input's position from /proc"),
        .timeLimit(.minutes(1)))
    func noLineIsLostWhenTheEnginesFallBehind() async throws {
        try await ServeUnderPressureTests().noLineIsLostWhenTheEnginesFallBehind(.androidBroadcast)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSignalWhileFinishingStopsIt() async throws {
        try await FinishingSignalTests().aSignalWhileFinishingStopsIt(.androidBroadcast)
    }

    @Test func aCheckpointThatCannotBeWrittenExits75AndTheSummaryNamesIt() async throws {
        try await ExitStatusTests().aCheckpointThatCannotBeWrittenExits75AndTheSummaryNamesIt(.androidBroadcast)
    }

    @Test func aReaderThatGoesAwayIsSaidAndTheCheckpointsHoldTheRest() async throws {
        try await ExitStatusTests().aReaderThatGoesAwayIsSaidAndTheCheckpointsHoldTheRest(.androidBroadcast)
    }

    @Test func aReaderThatGoesAwayIsSaidOnceWithoutAStateDir() async throws {
        try await ExitStatusTests().aReaderThatGoesAwayIsSaidOnceWithoutAStateDir(.androidBroadcast)
    }

    @Test func aSinkDownPastItsGiveUpExits75() async throws {
        try await ExitStatusTests().aSinkDownPastItsGiveUpExits75(.androidBroadcast)
    }

    @Test(.enabled(if: Python3.available, Python3.absentReason), .timeLimit(.minutes(1)))
    func pollExits75WhenACheckpointCannotBeWritten() async throws {
        try await PollExitStatusTests().pollExits75WhenACheckpointCannotBeWritten(.androidBroadcast)
    }

    /// kill -9 of serve on three real games, five times at random lines, the producer resuming a
    /// few lines before the first event not applied: what was written is a clean run's.
    @Test func killedAndRestartedItSendsWhatACleanRunSends() async throws {
        let clean = try #require(CrashSafetyTests.cleanAndroid, "a clean Android run")
        #expect(clean.allSatisfy { $0.hasPrefix("{\"platform\":\"android\"") })
        try await CrashSafetyTests.killSeries(.fewLinesBack, 1000, clean: clean, apns: nil, extra: CrashSafetyTests.android, label: "android topics")
    }

    /// `replay --platform ios,android` on each real game, as a user runs it: the iOS lines are
    /// `--platform ios`'s and the Android lines `--platform android`'s, byte for byte; the report
    /// has a table per platform, and `--report-json` one member each.
    @Test(arguments: NBAFiles.games.prefix(4))
    func replayOfBothPlatformsIsEachAlone(_ file: String) async throws {
        let path = NBAFiles.path(file)
        let dir = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("report.json").path
        let both = try await ScoreFeedProcess.run(["replay", path, "--jsonl", "--platform", "ios,android", "--report-json", json])
        let ios = try await ScoreFeedProcess.run(["replay", path, "--jsonl", "-q"])
        let android = try await ScoreFeedProcess.run(["replay", path, "--jsonl", "-q", "--platform", "android"])
        #expect(both.status == 0 && ios.status == 0 && android.status == 0, "\(both.standardError.suffix(300))")
        let isAndroid = { (line: Data) in line.starts(with: Data(#"{"platform":"android""#.utf8)) }
        #expect(both.lines.filter { !isAndroid($0) } == ios.lines, "the iOS lines of --platform ios")
        #expect(both.lines.filter(isAndroid) == android.lines, "the Android lines of --platform android")
        #expect(ios.lines.count > 100 && android.lines.count > 100)
        #expect(both.standardError.contains("HIGH") && both.standardError.contains("clairvoyant"), "both freshness tables")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(Set(report.keys) == ["ios", "android"])
    }

    /// `scorefeed report` on real games as a user runs it, for each platform: a page with the
    /// game's final, its preview (the Live Activity, or Android's Live Update), and the line on
    /// stderr naming what was written.
    @Test(arguments: NBAFiles.games.prefix(3), ["ios", "android"])
    func reportOfARealGameOnEachPlatform(_ file: String, _ platform: String) async throws {
        let dir = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("report.html")
        let run = try await ScoreFeedProcess.run(["report", NBAFiles.path(file), "-o", page.path, "--platform", platform])
        #expect(run.status == 0, "\(run.standardError.suffix(300))")
        #expect(run.standardError.hasPrefix("wrote \(page.path)"))
        let html = try String(contentsOf: page, encoding: .utf8)
        let document = try FeedReader.read(path: NBAFiles.path(file))
        let final = try #require(document.finalScore)
        #expect(html.contains("\(final.away) – \(final.home)"), "the final in the title")
        #expect(html.contains(platform == "android" ? "Live Update" : "Dynamic Island, compact"))
        #expect(html.contains(#""platform":"\#(platform)""#))
    }

    /// `--platform ios,android`: both lanes of each game in one checkpoint (format 5) and one
    /// journal; killed at random lines, what was written is a clean run's.
    @Test func bothPlatformsKilledAndRestartedSendWhatACleanRunSends() async throws {
        let clean = try #require(CrashSafetyTests.cleanBoth, "a clean run of both platforms")
        #expect(clean.contains { $0.hasPrefix(#"{"platform":"android""#) } && clean.contains { !$0.hasPrefix(#"{"platform":"android""#) })
        try await CrashSafetyTests.killSeries(.fewLinesBack, 1001, clean: clean, apns: nil, extra: CrashSafetyTests.both, label: "ios,android")
    }
}


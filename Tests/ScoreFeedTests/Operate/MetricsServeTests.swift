import Foundation
import Testing
@testable import ScoreFeed

/// `scorefeed stream <the real games> | scorefeed serve --clock feed --state-dir S --metrics m.prom`
/// through the built executable, in token and broadcast mode: the metrics file keeps the format
/// (and promtool accepts it), `scorefeed_pushes_total` sums to the records written, and every
/// game's figures agree with its summary on stderr; then `scorefeed status` on the state
/// directory shows the same figures.
@Suite(
    "metrics and status: serve on the real games", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct MetricsServeTests {
    /// What `scorefeed stream` writes for every real game.
    static let streamed: [Data]? = {
        guard NBAFiles.available, ScoreFeedProcess.available,
              let run = try? ScoreFeedProcess.runOnThisThread(["stream"] + NBAFiles.games.map(NBAFiles.path)), run.status == 0 else { return nil }
        return run.lines
    }()

    /// `lines` with a channel of its own in each game's header (broadcast mode), or as they are.
    static func input(_ mode: RealFeedServeTests.Mode) throws -> [Data] {
        let lines = try #require(streamed, "scorefeed stream failed")
        guard mode.hasChannels else { return lines }
        return try lines.map { line in
            var object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            guard let game = object["gameId"] as? String else { return line }
            object["channel"] = BroadcastServeTests.channel(of: game)
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }
    }

    /// One game's summary line on stderr, read back.
    struct Summary: Equatable {
        var applied = 0, duplicates = 0, edits = 0, rejected = 0, pushes = 0, priority10 = 0, corrections = 0
        var awayScore = 0, homeScore = 0

        static func all(in stderr: String) throws -> [String: Summary] {
            let pattern = #/game (\S+): (\d+) events applied \((\d+) duplicates ignored, (\d+) edits, (\d+) rejected\), (\d+) pushes \(priority 10: (\d+)\), ended, final \S+ (\d+) – (\d+) \S+, (\d+) corrections/#
            var summaries: [String: Summary] = [:]
            for line in stderr.split(separator: "\n") {
                guard let m = try pattern.firstMatch(in: String(line)) else { continue }
                summaries[String(m.1)] = Summary(
                    applied: Int(m.2)!, duplicates: Int(m.3)!, edits: Int(m.4)!, rejected: Int(m.5)!, pushes: Int(m.6)!,
                    priority10: Int(m.7)!, corrections: Int(m.10)!, awayScore: Int(m.8)!, homeScore: Int(m.9)!)
            }
            return summaries
        }
    }

    /// Runs serve on `lines` with a new state directory and `--metrics`; returns its records,
    /// stderr and status, the metrics file's text and the folder of both (the caller removes it).
    static func serve(
        _ lines: [Data], mode: RealFeedServeTests.Mode
    ) async throws -> (run: (lines: [String], stderr: String, status: Int32), metrics: String, folder: URL) {
        let folder = try ScoreFeedProcess.temporaryFolder()
        let metrics = folder.appendingPathComponent("m.prom"), state = folder.appendingPathComponent("state")
        let run = try await BroadcastServeTests.serve(
            lines, ["--state-dir", state.path, "--metrics", metrics.path] + mode.arguments)
        return (run, String(decoding: (try? Data(contentsOf: metrics)) ?? Data(), as: UTF8.self), folder)
    }

    @Test(arguments: RealFeedServeTests.Mode.withAndroidToken)
    func theMetricsAgreeWithTheRecordsAndTheSummaries(_ mode: RealFeedServeTests.Mode) async throws {
        let (run, text, folder) = try await Self.serve(try Self.input(mode), mode: mode)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        let summaries = try Summary.all(in: run.stderr)
        #expect(summaries.count == NBAFiles.games.count, "a summary per game")
        #expect(ExpositionCheck.problems(text) == [])
        if ExpositionCheck.promtool != nil {
            let check = try ExpositionCheck.promtoolCheck(text)
            #expect(check.status == 0, "promtool: \(check.output)")
        }
        let records = run.lines.filter { !$0.hasPrefix("{\"kind\":\"channel\"") }.count
        #expect(records > 1000)
        #expect(ExpositionCheck.sum(text, "scorefeed_pushes_total") == Double(records), "the pushes sum to the records written")
        #expect(ExpositionCheck.sum(text, "scorefeed_feed_to_push_seconds_count") == Double(records))
        #expect(ExpositionCheck.sum(text, "scorefeed_games", ["state": "ended"]) == Double(summaries.count))
        #expect(ExpositionCheck.sum(text, "scorefeed_checkpoint_write_seconds_count") > 0)
        #expect(ExpositionCheck.sum(text, "scorefeed_checkpoint_errors_total") == 0)
        #expect(ExpositionCheck.sum(text, "scorefeed_sink_backlog") == 0)
        for (game, summary) in summaries {
            func figure(_ name: String, _ labels: [String: String] = [:]) -> Int {
                Int(ExpositionCheck.sum(text, name, labels.merging(["game": game]) { a, _ in a }))
            }
            let read = Summary(
                applied: figure("scorefeed_events_total", ["verdict": "applied"]),
                duplicates: figure("scorefeed_events_total", ["verdict": "duplicate"]),
                edits: figure("scorefeed_events_total", ["verdict": "edit"]),
                rejected: figure("scorefeed_events_total", ["verdict": "rejected"]),
                pushes: figure("scorefeed_pushes_total"), priority10: figure("scorefeed_pushes_total", ["priority": "10"]),
                corrections: figure("scorefeed_score_corrections_total"), awayScore: summary.awayScore, homeScore: summary.homeScore)
            #expect(read == summary, "\(game): the metrics as its summary says")
            let written = run.lines.filter { $0.contains("\"game\":\"\(game)\"") }.count
            #expect(read.pushes == written, "\(game): its pushes are its records")
        }
        print("metrics figures: \(mode): \(records) records, pushes_total \(Int(ExpositionCheck.sum(text, "scorefeed_pushes_total"))), file \(text.utf8.count) bytes, promtool \(ExpositionCheck.promtool == nil ? "absent" : "passed")")
    }

    @Test(arguments: RealFeedServeTests.Mode.withAndroidTopic)
    func statusShowsEachGameAsItsSummaryDoes(_ mode: RealFeedServeTests.Mode) async throws {
        let (run, _, folder) = try await Self.serve(try Self.input(mode), mode: mode)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let summaries = try Summary.all(in: run.stderr)
        let before = try FileManager.default.contentsOfDirectory(atPath: state.path).sorted()

        let json = try await ScoreFeedProcess.run(["status", "--state-dir", state.path, "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let directory = try JSONDecoder().decode(GameStatus.Directory.self, from: json.standardOutput)
        #expect(directory.problems.isEmpty)
        #expect(Set(directory.games.map(\.game)) == Set(summaries.keys))
        for game in directory.games {
            let summary = try #require(summaries[game.game])
            #expect(game.state == "ended")
            #expect(game.priority10 == summary.priority10 && game.priority10 + game.priority5 == summary.pushes, "\(game.game)'s pushes")
            #expect(game.corrections == summary.corrections)
            #expect(game.awayScore == summary.awayScore && game.homeScore == summary.homeScore, "\(game.game)'s final")
            #expect(game.unsent == 0 && game.lastEvent != nil)
            if mode.hasChannels {
                #expect(game.channel == BroadcastServeTests.channel(of: game.game), "\(game.game)'s own channel")
            } else {
                #expect(game.channel == nil && game.channelState == nil)
            }
        }

        let lines = try await ScoreFeedProcess.run(["status", "--state-dir", state.path])
        #expect(lines.status == 0)
        let rows = lines.output.split(separator: "\n")
        #expect(rows.count == summaries.count, "one line per game")
        for row in rows {
            let game = try #require(directory.games.first { row.hasPrefix($0.game + "  ") })
            #expect(row.contains("  ended  \(game.away) \(game.awayScore) – \(game.homeScore) \(game.home)  "))
            #expect(row.contains("pushes p10 \(game.priority10) p5 \(game.priority5)"))
            #expect(!mode.hasChannels || row.contains("channel \(game.channel ?? "?")"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).sorted() == before, "status writes nothing")
    }

    @Test func statusOnAFolderThatIsNotThereSaysSo() async throws {
        let run = try await ScoreFeedProcess.run(["status", "--state-dir", "/nonexistent/scorefeed-state"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("/nonexistent/scorefeed-state") && run.standardError.contains("no state directory"))
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/scorefeed-state"))
    }
}

/// `--metrics` on the command line: its interval alone is a usage error; a file that cannot be
/// written is said once, and the run goes on.
@Suite("metrics: the command line", .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct MetricsCommandLineTests {
    @Test(arguments: ["serve", "poll"])
    func anIntervalWithoutAFileIsAUsageError(_ command: String) async throws {
        let run = try await ScoreFeedProcess.run([command, "--games", "0022400762", "--metrics-interval", "5"].filter { command == "poll" || !$0.hasPrefix("--games") && $0 != "0022400762" })
        #expect(run.status == 64)
        #expect(run.standardError.contains("--metrics-interval is for --metrics <file>"))
    }

    @Test func aFileThatCannotBeWrittenIsSaidOnceAndTheRunGoesOn() async throws {
        let run = try await ScoreFeedProcess.run(["serve", "--clock", "feed", "--metrics", "/nonexistent/scorefeed/m.prom", "--metrics-interval", "0.1"])
        #expect(run.status == 0, "\(run.standardError)")
        let said = run.standardError.split(separator: "\n").filter { $0.hasPrefix("metrics: ") }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("/nonexistent/scorefeed") == true)
    }
}

/// `scorefeed status` on checkpoints it cannot use: each is a line on stderr naming the file, the
/// others are shown, and the exit status is 1; a file past the size cap is not read at all.
@Suite("status: checkpoints it cannot use", .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct StatusProblemTests {
    @Test func aGarbledAndAnOversizedCheckpointAreNamedAndTheOthersShown() async throws {
        let state = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let fixture = Make.packageRoot.appendingPathComponent("Fixtures/overtime.json").path
        // A game serve checkpointed: the fixture through serve into this state directory.
        let document = try FeedReader.read(path: fixture)
        let lines = RealFeedServeTests.stream([document])
        let served = try await BroadcastServeTests.serve(lines, ["--state-dir", state.path])
        #expect(served.status == 0)
        try Data("{not json".utf8).write(to: state.appendingPathComponent("game-garbled.json"))
        let big = state.appendingPathComponent("game-big.json")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(GameStatus.largestFile + 1))
        try handle.close()

        let run = try await ScoreFeedProcess.run(["status", "--state-dir", state.path])
        #expect(run.status == 1)
        #expect(run.output.hasPrefix(document.attributes.gameId + "  ended  "), "\(run.output)")
        #expect(run.standardError.contains("game-garbled.json"))
        #expect(run.standardError.contains("game-big.json: larger than 64 MB; not read"))
    }
}

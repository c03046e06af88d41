import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The `--metrics` figures as a pure value and their Prometheus text: the format's rules on the
/// output (``ExpositionCheck``), label values escaped, histograms, and an ended game's series
/// leaving after their retention.
@Suite("metrics: the Prometheus text format")
struct MetricsTests {
    /// Figures with every family filled, and game ids that need escaping.
    static var sample: Metrics {
        var metrics = Metrics()
        for id in ["0022400762", "quote\"back\\slash\nnewline", "é😀"] {
            metrics.games.append(Metrics.Game(
                id: id, events: ["applied": 500, "duplicate": 3, "edit": 1, "rejected": 2],
                pushes: [.init(priority: 10, event: "update"): 40, .init(priority: 5, event: "update"): 150, .init(priority: 10, event: "end"): 1],
                budgetUsed: 12, beyondBudget: 4, corrections: 1))
        }
        // A game pushed to both platforms: Android's pushes and budget under their own label.
        metrics.games[0].pushes[.init(priority: 10, event: "update", platform: "android")] = 9
        metrics.games[0].otherLanesBudgetUsed = ["android": 9]
        metrics.gamesByState = ["live": 2, "ended": 1]
        for seconds in [0.2, 0.7, 3, 45, 700] { metrics.feedToPush.observe(seconds) }
        for seconds in [0.00005, 0.002, 0.02] { metrics.checkpointWrite.observe(seconds) }
        metrics.sinkErrors = ["io": 2, "unavailable": 5]
        metrics.sinkBacklog = 7
        metrics.checkpointErrors = 1
        metrics.pollRequests = [.init(endpoint: "playbyplay", outcome: "200"): 30, .init(endpoint: "playbyplay", outcome: "503"): 4,
                                .init(endpoint: "boxscore", outcome: "304"): 12]
        metrics.pollLag = 2.5
        return metrics
    }

    @Test func theTextKeepsTheFormatsRules() {
        let text = Self.sample.exposition()
        #expect(ExpositionCheck.problems(text) == [])
        for name in ["scorefeed_events_total", "scorefeed_pushes_total", "scorefeed_priority10_budget_used", "scorefeed_beyond_budget_total",
                     "scorefeed_score_corrections_total", "scorefeed_feed_to_push_seconds", "scorefeed_sink_errors_total", "scorefeed_sink_backlog",
                     "scorefeed_checkpoint_write_seconds", "scorefeed_checkpoint_errors_total", "scorefeed_poll_requests_total",
                     "scorefeed_poll_lag_seconds", "scorefeed_games", "scorefeed_build_info"] {
            #expect(text.contains("# HELP \(name) ") && text.contains("# TYPE \(name) "), "\(name) has HELP and TYPE")
        }
        #expect(ExpositionCheck.sum(text, "scorefeed_pushes_total") == 3 * 191 + 9)
        #expect(text.contains("scorefeed_pushes_total{game=\"0022400762\",platform=\"android\",priority=\"10\",event=\"update\"} 9\n"))
        #expect(text.contains("scorefeed_priority10_budget_used{game=\"0022400762\",platform=\"android\"} 9\n"))
        #expect(ExpositionCheck.sum(text, "scorefeed_feed_to_push_seconds_count") == 5)
        #expect(text.contains("scorefeed_feed_to_push_seconds_bucket{le=\"1\"} 2\n"))
        #expect(text.contains("scorefeed_feed_to_push_seconds_bucket{le=\"+Inf\"} 5\n"))
        #expect(text.contains("scorefeed_build_info{version=\"\(ScoreFeedBuild.version)\"} 1\n"))
        #expect(text.contains("scorefeed_games{state=\"pregame\"} 0\n"), "every state is written, zero too")
    }

    @Test func labelValuesAreEscapedAndReadBack() {
        #expect(Metrics.escapeLabelValue("a\"b\\c\nd") == "a\\\"b\\\\c\\nd")
        let text = Self.sample.exposition()
        #expect(text.contains("scorefeed_beyond_budget_total{game=\"quote\\\"back\\\\slash\\nnewline\"} 4\n"))
        let games = Set(ExpositionCheck.samples(text).filter { $0.name == "scorefeed_beyond_budget_total" }.compactMap { $0.labels.first?.1 })
        #expect(games == ["0022400762", "quote\"back\\slash\nnewline", "é😀"], "each id read back as it was")
    }

    /// The check itself finds what it looks for: a sample with no TYPE, buckets that fall, a +Inf
    /// that is not the count, a series twice, a bad escape.
    @Test(arguments: [
        ("x_total 1\n", "without HELP and TYPE"),
        ("# HELP h h\n# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 2\n", "not cumulative"),
        ("# HELP h h\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 3\n", "is not _count"),
        ("# HELP h h\n# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 2\n", "no _sum"),
        ("# HELP g g\n# TYPE g gauge\ng{a=\"1\"} 1\ng{a=\"1\"} 2\n", "twice"),
        ("# HELP g g\n# TYPE g gauge\ng{a=\"x\\t\"} 1\n", "cannot read"),
    ])
    func theCheckFindsBrokenText(_ text: String, _ expected: String) {
        let problems = ExpositionCheck.problems(text)
        #expect(problems.contains { $0.contains(expected) }, "\(problems)")
    }

    @Test func aHistogramCountsEachValueInItsBucket() {
        var histogram = Metrics.Histogram(bounds: [1, 5])
        for value in [0.5, 1, 1.5, 5, 9, .nan] { histogram.observe(value) }
        #expect(histogram.counts == [2, 2, 1])
        #expect(histogram.count == 5 && histogram.sum == 17)
    }

    @Test func aPollErrorIsLabelledByWhatWentWrong() {
        #expect(MetricsRecorder.pollOutcome(of: ScoreFeedError(.io, "HTTP 503 (the server failed); retry after 2 s")) == "503")
        #expect(MetricsRecorder.pollOutcome(of: ScoreFeedError(.io, "no answer: The request timed out.")) == "timeout")
        #expect(MetricsRecorder.pollOutcome(of: ScoreFeedError(.io, "no answer: Could not connect to the server.")) == "no-answer")
        #expect(MetricsRecorder.pollOutcome(of: ScoreFeedError(.malformedJSON, "the answer is empty")) == "malformed-json")
        // The errors the bounded reader gives, as poll meets them.
        #expect(MetricsRecorder.pollOutcome(of: LiveFetcher.error(.timedOut(seconds: 10), at: .init())) == "timeout")
        #expect(MetricsRecorder.pollOutcome(of: LiveFetcher.error(.cancelled, at: .init())) == "cancelled")
        #expect(MetricsRecorder.pollOutcome(of: LiveFetcher.error(.transport(.cannotConnectToHost), at: .init())) == "no-answer")
        #expect(MetricsRecorder.pollOutcome(of: LiveFetcher.error(.tooLarge(limit: 4), at: .init())) == "body-too-large")
    }

    @Test(.enabled(if: ExpositionCheck.promtool != nil, ExpositionCheck.promtoolAbsent))
    func promtoolAcceptsTheText() throws {
        let check = try ExpositionCheck.promtoolCheck(Self.sample.exposition())
        #expect(check.status == 0, "\(check.output)")
    }

    /// A game's series stay while it plays and for ``Metrics/endedGameRetention`` after its end
    /// was seen delivered, then go; the game still counts as ended.
    @Test func anEndedGamesSeriesGoAfterTheirRetention() async throws {
        let document = try FeedReader.read(path: Make.packageRoot.appendingPathComponent("Fixtures/overtime.json").path)
        let sink = RecordingSink()
        let recorder = MetricsRecorder()
        let service = try GameService(options: .init(clock: .feed, metrics: recorder), sink: sink)
        let lines = RealFeedServeTests.stream([document])
        // All but the feed's last event (its end): the game is live.
        await RealFeedServeTests.feed(lines.dropLast(), to: service)
        let start = Date()
        let live = await service.metrics(now: start, recorder: recorder)
        #expect(live.games.map(\.id) == [document.attributes.gameId])
        #expect(live.gamesByState["live"] == 1)
        await RealFeedServeTests.feed(lines.suffix(1), to: service, first: lines.count)
        await service.shutDown()
        let records = await sink.records.count
        let ended = await service.metrics(now: start, recorder: recorder)
        #expect(ended.gamesByState["ended"] == 1)
        let game = try #require(ended.games.first)
        #expect(game.pushes.values.reduce(0, +) == records, "the pushes handed to the sink")
        #expect(ended.feedToPush.count == records)
        let kept = await service.metrics(now: start.addingTimeInterval(Metrics.endedGameRetention), recorder: recorder)
        #expect(kept.games.count == 1)
        let gone = await service.metrics(now: start.addingTimeInterval(Metrics.endedGameRetention + 1), recorder: recorder)
        #expect(gone.games.isEmpty && gone.gamesByState["ended"] == 1)
        #expect(ExpositionCheck.problems(gone.exposition()) == [])
    }

    /// A sink that fails is counted by its error's kind, and what it did not take is the backlog;
    /// a checkpoint that cannot be written (a directory where its journal and its snapshot's temporary
    /// file go) is a
    /// checkpoint error; the pushes withheld are counted by their cause.
    @Test func sinkAndCheckpointFailuresAreCounted() async throws {
        struct Full: PushSink {
            func send(_ record: PushRecord) async throws { throw ScoreFeedError(.io, "No space left on device") }
        }
        let document = try FeedReader.read(path: Make.packageRoot.appendingPathComponent("Fixtures/overtime.json").path)
        let lines = RealFeedServeTests.stream([document])

        let recorder = MetricsRecorder()
        let failing = try GameService(options: .init(clock: .feed, metrics: recorder), sink: Full())
        await RealFeedServeTests.feed(lines, to: failing)
        let sinkDown = await failing.metrics(now: Date(), recorder: recorder)
        #expect((sinkDown.sinkErrors["io"] ?? 0) > 0)
        #expect(sinkDown.sinkBacklog > 0, "the pushes the sink did not take wait")
        #expect(sinkDown.withheld == ["sink": sinkDown.sinkBacklog], "the sink is their cause")
        #expect(sinkDown.games.first?.pushes.isEmpty == true, "nothing was handed to the sink")

        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let store = try CheckpointStore(directory: state)
        for blocker in [store.url(for: document.attributes.gameId).appendingPathExtension("tmp"), store.journalURL(for: document.attributes.gameId)] {
            try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        }
        let measured = MetricsRecorder()
        let blocked = try GameService(options: .init(clock: .feed, stateDirectory: state, metrics: measured), sink: RecordingSink())
        await RealFeedServeTests.feed(lines, to: blocked)
        let diskDown = await blocked.metrics(now: Date(), recorder: measured)
        #expect(diskDown.checkpointErrors > 0)
        #expect(diskDown.checkpointWrite.count >= diskDown.checkpointErrors)
        #expect(diskDown.sinkBacklog > 0, "pushes are withheld while the checkpoint cannot be written")
        #expect(diskDown.withheld == ["checkpoint": diskDown.sinkBacklog], "the checkpoint is their cause")
        #expect(diskDown.exposition().contains("scorefeed_withheld_pushes{cause=\"checkpoint\"} \(diskDown.sinkBacklog)\n"))
        #expect(diskDown.exposition().contains("scorefeed_withheld_pushes{cause=\"sink\"} 0\n"))
    }
}

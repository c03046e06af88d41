import Foundation
import ScoreFeed
import ScoreFeedModel

/// `scorefeed replay`: a recorded game through the engine on virtual time.
enum ReplayCommand {
    static let defaultGame = "Fixtures/one-point.json"

    static let help = """
        OVERVIEW: Replay a recorded game instantly (virtual time) and show each push that would
        be sent: game time, score, priority, event and why; then a summary.

        USAGE: scorefeed replay [<file>] [--jsonl] [--out <path>] [--strict] [--budget <n>]
                                [--frequent] [--p5-delay <s>] [--report-json <path>]
                                [--policy <policy>] [--bundle-id <id>] [--quiet]

        ARGUMENTS:
          <file>                  A game file (fixture format). Default: \(defaultGame).

        OPTIONS:
          --jsonl                 Print only push records on stdout, one JSON object per line;
                                  the summary and messages go to stderr.
          --out <path>            Also append the push records as JSON lines to <path>.
          --strict                Stop at the first rejected event with exit status 1.
          --budget <n>            Priority-10 pushes allowed per rolling hour (default 15,
                                  the reported default; 60 with --frequent).
          --frequent              The profile for apps with
                                  NSSupportsLiveActivitiesFrequentUpdates (budget 60).
          --p5-delay <s>          Seconds a priority-5 push is assumed late, for the policy and
                                  the freshness report (default 120).
          --report-json <path>    Write the freshness report (engine, baselines, bound) as JSON.
          --reserve <n>           Priority-10 pushes kept for the last 2:00 and the final (2).
          --headroom <n>          Priority-10 pushes that score-change pushes leave for
                                  timeouts and period ends (1).
          --paced <n>             Priority-10 pushes per hour paced over score changes
                                  (default: budget - reserve).
          --run <n>               Unanswered points that make a timeout likely (8).
          --min-interval <s>      Least time between two pushes (1).
          --alerts <list>         Alerts to send: final,overtime,lead-change (default all) or none.
          --stale-after <s>       stale-date = send time + this (default 300).
          --dismiss-after <s>     dismissal-date on end = send time + this, at most 4 h (900).
          --policy <policy>       coalesce (default): budget-aware; every-change: priority 10 on
                                  every visible change, the sample-app baseline.
          --bundle-id <id>        The app's bundle id for apns-topic (default com.example.app).
          -q, --quiet             No summary or rejection messages on stderr.
          -h, --help              Show help information.

        EXAMPLES:
          scorefeed replay Fixtures/overtime.json
          scorefeed replay --jsonl Fixtures/overtime.json > pushes.jsonl

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        if arguments.flag("-h", "--help") {
            print(help, terminator: "")
            return 0
        }
        let jsonl = arguments.flag("--jsonl")
        let strict = arguments.flag("--strict")
        let quiet = arguments.flag("-q", "--quiet")
        let out = try arguments.option("--out")
        let bundleId = try arguments.option("--bundle-id") ?? "com.example.app"
        let frequent = arguments.flag("--frequent")
        var configuration: Coalescer.Configuration = frequent ? .frequentUpdates : .standard
        if let budget: Int = try arguments.number("--budget", in: 0...10_000) { configuration = configuration.withBudget(budget) }
        if let delay: Double = try arguments.number("--p5-delay", in: 0...86_400) { configuration.priority5Delay = delay }
        if let reserve: Int = try arguments.number("--reserve", in: 0...1000) { configuration.reserve = reserve }
        if let headroom: Int = try arguments.number("--headroom", in: 0...1000) { configuration.pauseHeadroom = headroom }
        if let rate: Double = try arguments.number("--paced", in: 0...10_000) { configuration.pacedPerHour = rate }
        if let run: Int = try arguments.number("--run", in: 1...100) { configuration.runLength = run }
        if let burst: Double = try arguments.number("--burst", in: 1...1000) { configuration.pacedBurst = burst }
        if let wait: Double = try arguments.number("--quiet-wait", in: 0...3600) { configuration.quietWait = wait }
        if let moments = try arguments.option("--paced-on") {
            var set: Set<Coalescer.Configuration.PacedMoment> = []
            for name in moments.split(separator: ",") {
                guard let moment = Coalescer.Configuration.PacedMoment(rawValue: String(name)) else {
                    throw ScoreFeedError(.usage, "--paced-on takes scoreChange, deadBall, quiet; not \(name)")
                }
                set.insert(moment)
            }
            configuration.pacedMoments = set
        }
        if let interval: Double = try arguments.number("--min-interval", in: 0...3600) { configuration.minInterval = interval }
        if let alerts = try arguments.option("--alerts") { configuration.alerts = try alertRules(alerts) }
        let staleAfter: Double? = try arguments.number("--stale-after", in: 0...28_800)
        let dismissAfter: Double? = try arguments.number("--dismiss-after", in: 0...14_400)

        let reportPath = try arguments.option("--report-json")
        let policyName = try arguments.option("--policy") ?? "coalesce"
        let policy: any PushPolicy
        switch policyName {
        case "coalesce": policy = Coalescer(configuration: configuration)
        case "every-change": policy = EveryChangePolicy()
        default: throw ScoreFeedError(.usage, "--policy must be coalesce or every-change, not \"\(policyName)\"")
        }
        let files = try arguments.positionals(max: 1)
        let path = try files.first ?? defaultGamePath()

        let document = try FeedReader.read(path: path)
        var sinks: [any PushSink] = []
        if jsonl {
            sinks.append(JSONLSink.standardOutput())
        } else {
            sinks.append(TableSink(attributes: document.attributes))
        }
        if let out { sinks.append(try JSONLSink(path: out)) }
        let recording = RecordingSink()
        sinks.append(recording)

        var rendering = PushRenderer.Configuration(bundleId: bundleId)
        if let staleAfter { rendering.staleAfter = staleAfter }
        if let dismissAfter { rendering.dismissAfter = dismissAfter }
        let replay = Replay(policy: policy, renderer: rendering, strict: strict)
        let summary: ReplaySummary
        do {
            summary = try await replay.run(document, sink: FanOutSink(sinks)) { error in
                if !quiet { Console.error((error.code == .duplicateSequence ? "ignored: " : "rejected: ") + "\(error)") }
            }
        } catch let error as ScoreFeedError where strict {
            Console.error("Error (--strict): \(error)")
            return ExitCode.failure
        }
        let report = FreshnessReport(
            game: document.attributes.gameId, records: await recording.records,
            timeline: ScoreTimeline(events: document.events),
            model: DeviceModel(budget: configuration.budget, priority5Delay: configuration.priority5Delay))
        if !quiet {
            Console.error(summaryText(summary, file: path))
            Console.error("\n" + report.text)
        }
        if let reportPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(report).write(to: URL(fileURLWithPath: reportPath))
            } catch {
                throw ScoreFeedError(.io, "cannot write the report: \(error.localizedDescription)", at: .init(file: reportPath))
            }
        }
        return 0
    }

    /// `final,overtime,lead-change` or `none`.
    static func alertRules(_ text: String) throws(ScoreFeedError) -> AlertRules {
        var rules = AlertRules.none
        guard text != "none" else { return rules }
        for name in text.split(separator: ",") {
            switch name {
            case "final": rules.final = true
            case "overtime": rules.overtime = true
            case "lead-change": rules.lateLeadChange = true
            default: throw ScoreFeedError(.usage, "--alerts takes final, overtime, lead-change or none; not \(name)")
            }
        }
        return rules
    }

    /// The shipped default game, found from the working directory or beside the executable.
    static func defaultGamePath() throws(ScoreFeedError) -> String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [defaultGame]
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent(defaultGame).path)
            directory = directory.deletingLastPathComponent()
        }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            return found
        }
        throw ScoreFeedError(.usage, "no file given and the default game \(defaultGame) is not here; run from the package folder or name a file")
    }

    static func summaryText(_ s: ReplaySummary, file: String) -> String {
        let home = s.attributes.home.tricode, away = s.attributes.away.tricode
        let state = s.finalState
        var lines = ["", "Summary of \(file)"]
        lines.append("  events read   \(s.eventsRead) (accepted \(s.accepted), rejected \(s.rejected.count), duplicates ignored \(s.duplicates.count))")
        lines.append("  pushes sent   \(s.pushes) (priority 10: \(s.priority10), priority 5: \(s.priority5))\(s.ended ? ", ended" : ", NOT ended: the feed has no game end")")
        var final = "  final score   \(away) \(state.awayScore) – \(home) \(state.homeScore) (\(state.periodLabel), \(state.phase.rawValue))"
        if let expected = s.expectedFinal {
            final += s.finalMatches ? ", matches the file" : ", DIFFERS from the file's final \(away) \(expected.away) – \(home) \(expected.home)"
        }
        lines.append(final)
        let ms = Double(s.wallTime.components.seconds) * 1000 + Double(s.wallTime.components.attoseconds) / 1e15
        lines.append("  wall time     \(String(format: "%.1f", ms)) ms")
        return lines.joined(separator: "\n")
    }
}

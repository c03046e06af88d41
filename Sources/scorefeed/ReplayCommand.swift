import Foundation
import ScoreFeed
import ScoreFeedModel

/// `scorefeed replay`: a recorded game through the engine on virtual time.
enum ReplayCommand {
    static let defaultGame = "Fixtures/one-point.json"

    static let help = """
        OVERVIEW: Replay a recorded game instantly (virtual time) and show each push that would
        be sent: game time, score, priority, event and why; then a summary.

        USAGE: scorefeed replay [<file>] [--jsonl] [--out <path>] [--strict]
                                [--budget <n>] [--largest-budget <n>] [--frequent]
                                [--p5-delay <s>] [--p5-shortest <s>]
                                [--keep-uses-share <x>] [--reserve <n>]
                                [--crunch-reserve <n>] [--final-reserve <n>] [--no-copies]
                                [--threshold <s>] [--paced <n>] [--burst <n>] [--spare-share <x>]
                                [--run <n>] [--min-interval <s>]
                                [--alerts <list>] [--report-json <path>] [--speed <x>]
                                [--no-color] [--policy <policy>] [--bundle-id <id>]
                                [--platform <platform>] [--fcm-project <id>]
                                [--mode <mode>] [--channel-id <id>] [--start]
                                [--webhook <url>] [--webhook-token-env <name>]
                                [--webhook-timeout <s>] [--webhook-give-up <s>]
                                [--stale-after <s>] [--dismiss-after <s>] [--quiet]

        ARGUMENTS:
          <file>                  A game file: the fixture format, NBA liveData, stats
                                  playbyplayv2 or a v3 action list, detected by content;
                                  - reads standard input. Default: \(defaultGame).

        OPTIONS:
          --jsonl                 Print only push records on stdout, one JSON object per line;
                                  the summary and messages go to stderr.
          --strict                Stop at the first rejected event with exit status 1.
          --report-json <path>    Write the freshness report (engine, baselines, bound) as JSON
                                  to <path>, replacing what it held.
          --speed <x>             Replay against the real clock, x times faster (60: a game in
                                  about 2.5 minutes), with a progress bar and a live scoreboard.
                                  The dates a device reads (aps.timestamp, stale-date,
                                  dismissal-date, apns-expiration, the game clock) are today's;
                                  an instant replay keeps the recorded ones.
          --no-color              With --speed: plain lines, no in-place status (also when
                                  NO_COLOR is set or stdout is not a terminal).
          --policy <policy>       coalesce (default): budget-aware; every-change: priority 10 on
                                  every visible change, the sample-app baseline (of the
                                  coalescer options it takes --budget, --frequent and
                                  --p5-delay, for the freshness report).
          -q, --quiet             No summary or rejection messages on stderr.
        \(PushOptions.help(.replay))
        \(CoalescerOptions.help)
          -h, --help              Show help information.

        EXAMPLES:
          scorefeed replay Fixtures/overtime.json
          scorefeed replay --jsonl Fixtures/overtime.json > pushes.jsonl
          scorefeed replay --jsonl --mode broadcast --channel-id dGVzdA== Fixtures/overtime.json
          API_TOKEN=… scorefeed replay --webhook http://127.0.0.1:8080/push --webhook-token-env API_TOKEN

        """

    /// The values `--policy` takes.
    enum PolicyName: String, CaseIterable {
        case coalesce
        case everyChange = "every-change"
    }

    /// Everything the command line says, read and checked before any file is opened.
    struct Options {
        var jsonl: Bool
        var strict: Bool
        var quiet: Bool
        var push: PushOptions
        var coalescer: Coalescer.Configuration
        var speed: Double?
        var noColor: Bool
        var reportPath: String?
        var policy: PolicyName
        /// The game file (the shipped default when none is named).
        var path: String

        init(_ arguments: inout Arguments) throws(ScoreFeedError) {
            jsonl = arguments.flag("--jsonl")
            strict = arguments.flag("--strict")
            quiet = arguments.flag("-q", "--quiet")
            push = try PushOptions.parse(&arguments, use: .replay)
            policy = try arguments.choice("--policy", of: PolicyName.self) ?? .coalesce
            if policy == .everyChange, push.platforms.count > 1 {
                throw ScoreFeedError(.usage, "--policy every-change is a baseline for one platform: replay each platform on its own")
            }
            if policy == .everyChange {
                try CoalescerOptions.refuse(
                    CoalescerOptions.coalescerOnly, in: &arguments, "with --policy every-change: it tunes the coalescer")
            }
            coalescer = try CoalescerOptions.parse(&arguments, broadcast: push.pacesBroadcasts, android: push.platform == .android)
            speed = try arguments.number("--speed", in: 0.001...1_000_000)
            noColor = arguments.flag("--no-color")
            if noColor, speed == nil {
                throw ScoreFeedError(.usage, "--no-color is for --speed: an instant replay prints plain lines")
            }
            if noColor, jsonl {
                throw ScoreFeedError(.usage, "--no-color does nothing with --jsonl: only push records are printed")
            }
            reportPath = try arguments.option("--report-json")
            let files = try arguments.positionals(max: 1)
            if let file = files.first { path = file } else { path = try defaultGamePath() }
            try push.refuseOverwriting([path])
            try OutputGuard.refuse(reportPath, inputs: [path], writing: "the freshness report")
        }
    }

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let options = try Options(&arguments)
        let (path, quiet, strict) = (options.path, options.quiet, options.strict)
        let policy: any PushPolicy = switch options.policy {
        case .coalesce: Coalescer(configuration: options.coalescer)
        case .everyChange: EveryChangePolicy()
        }

        let document = try FeedReader.read(path: path)
        let feedStart = document.events.first?.time ?? Date()
        // A demo on a real device: the dates it reads are today's, the decisions instant replay's.
        let pacing = options.speed.map { PushRenderer.Pacing(feedStart: feedStart, wallStart: Date(), speed: $0) }
        var console: LiveConsole?
        if options.speed != nil, !options.jsonl {
            console = LiveConsole(
                attributes: document.attributes, start: document.events.first?.time ?? Date(),
                end: document.events.map(\.time).max() ?? Date(),
                inPlace: LiveConsole.terminalAllowsColor(noColorFlag: options.noColor))
        }
        let screen: any PushSink = options.jsonl
            ? JSONLSink.standardOutput() : TableSink(attributes: document.attributes, console: console, pacing: pacing)
        let output = try options.push.open(screen: screen, quiet: quiet)
        var extra: [any PushSink] = []
        if !quiet { extra.append(CallbackSink(refused: { Console.error("refused \($0.activity) \($0.event.rawValue): \($0.error)") })) }
        let recording = RecordingSink()
        extra.append(recording)

        var replay = Replay(policy: policy, renderer: options.push.renderer(), strict: strict)
        if let speed = options.speed {
            let pacer = Pacer(speed: speed, virtualStart: feedStart)
            replay.renderer.pacing = pacing
            replay.pace = { [console] date in
                await pacer.wait(until: date)
                await console?.tick(date)
            }
            replay.progress = { [console] event, state in await console?.update(time: event.time, state: state) }
        }
        replay.otherLanes = options.push.otherLanes(beside: replay.renderer)
        let summary: ReplaySummary
        let sink = output.sink(adding: extra)
        do {
            // The sink's own work beside the replay: a webhook's records tried again as soon as
            // they are due (after an outage, a quiet game's last update).
            summary = try await sink.whileRunning {
                try await replay.run(document, sink: sink) { error in
                    if !quiet { Console.error((error.code == .duplicateSequence ? "ignored: " : "rejected: ") + "\(error)") }
                }
            }
        } catch let error as ScoreFeedError where strict {
            await console?.finish()
            Console.error("Error (--strict): \(error)")
            return ExitCode.failure
        }
        await console?.finish()
        let timeline = ScoreTimeline(events: document.events)
        let records = await recording.records
        // iOS: the push-to-start announces the activity; Android's start shows the game as any message does.
        var reports: [(platform: PushRenderer.Platform, report: any Encodable & Sendable, text: String)] = []
        for platform in options.push.platforms {
            let own = records.filter { $0.platform == platform }
            if platform == .android {
                let android = AndroidFreshnessReport(game: document.attributes.gameId, records: own, timeline: timeline)
                reports.append((platform, android, android.text))
            } else {
                let ios = FreshnessReport(
                    game: document.attributes.gameId, records: own.filter { $0.event != .start }, timeline: timeline,
                    model: DeviceModel(options.coalescer))
                reports.append((platform, ios, ios.text))
            }
        }
        // One platform's report as it was; several under their platforms' names.
        let report: any Encodable & Sendable = reports.count == 1
            ? reports[0].report : PlatformReports(reports: Dictionary(uniqueKeysWithValues: reports.map { ($0.platform.rawValue, $0.report) }))
        let reportText = reports.map(\.text).joined(separator: "\n")
        if !quiet {
            Console.error(summaryText(summary, file: path))
            Console.error(sourceText(document))
            Console.error("\n" + reportText)
        }
        if let reportPath = options.reportPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(report).write(to: URL(fileURLWithPath: reportPath))
            } catch {
                throw ScoreFeedError(.io, "cannot write the report: \(error.localizedDescription)", at: .init(file: reportPath))
            }
        }
        var failure: (any Error)?
        do { try await output.finish() } catch { failure = error }
        await output.sayWebhookFigures()
        if let failure { throw failure }
        return 0
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

    /// The format read, and where the feed's own score disagreed with the fold or was odd.
    static func sourceText(_ document: FeedDocument) -> String {
        var lines = ["  source        \(document.format.rawValue) (\(document.actionCount ?? document.events.count) actions)"]
        let d = document.discrepancies
        lines.append("  score check   \(d.count) discrepanc\(d.count == 1 ? "y" : "ies") with the feed's running score"
            + (d.first.map { "; first: \($0)" } ?? ""))
        if !document.warnings.isEmpty {
            lines.append("  warnings      \(document.warnings.count); first: \(document.warnings[0])")
        }
        return lines.joined(separator: "\n")
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

/// The freshness reports of several platforms, as `--report-json` writes them: one member per
/// platform (`ios`, `android`).
struct PlatformReports: Encodable, Sendable {
    var reports: [String: any Encodable & Sendable]

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Name.self)
        for (name, report) in reports { try c.encode(report, forKey: Name(stringValue: name)) }
    }

    struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

import Foundation
import ScoreFeed
import ScoreFeedModel

/// `scorefeed freshness`: the benchmark of the coalescer against the baselines and the bound.
enum FreshnessCommand {
    static let help = """
        OVERVIEW: Measure how right the lock screen is over whole games: the engine against the
        baselines and the clairvoyant bound, per game and as medians, at one or more budgets.

        USAGE: scorefeed freshness [<file> ...] [--generated <n>] [--budgets <list>] [options]
               scorefeed freshness --platform android [<file> ...] [--generated <n>] [options]
               scorefeed freshness --grid [--told] [--grid-budgets <list>] [--grid-delays <list>] <file> ...
               scorefeed freshness --join <list> [--grid-budgets <list>] [--grid-delays <list>] <file> ...

        ARGUMENTS:
          <file>                  Game files, in any format replay reads.

        OPTIONS:
          --generated <n>         Also measure n generated games (seeds 1…n).
          --budgets <list>        Budgets to measure, comma separated (default 15,60); they
                                  replace --budget, the other coalescer options apply to each.
          --platform <platform>   ios (default), or android: the engine's Android messages
                                  under the Android device model (FCM's collapsible bucket,
                                  NORMAL late as Doze delays it, the per-device caps) against
                                  HIGH on every change, with and without a collapse key.
        \(gridHelp)
        \(joinHelp)
        \(CoalescerOptions.help)
          -h, --help              Show help information.

        EXAMPLES:
          scorefeed freshness ../shared/nba-pbp/playbyplay_*.json
          scorefeed freshness --generated 100 --budgets 15
          scorefeed freshness --grid --told ../shared/nba-pbp/playbyplay_*.json
          scorefeed freshness --join 0.25,0.5,0.75 ../shared/nba-pbp/playbyplay_*.json

        """

    /// A game to measure, and its true score over time (the same at every budget).
    struct Game {
        var name: String
        var document: FeedDocument
        var timeline: ScoreTimeline

        init(name: String, document: FeedDocument) {
            self.name = name
            self.document = document
            timeline = ScoreTimeline(events: document.events)
        }
    }

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        if let join = try arguments.option("--join") { return try await runJoin(join, &arguments) }
        if arguments.flag("--grid") { return try await runGrid(&arguments) }
        let platform = try arguments.choice("--platform", of: PushRenderer.Platform.self) ?? .ios
        let generated: Int = try arguments.number("--generated", in: 0...100_000) ?? 0
        if platform == .android {
            try arguments.refuse("--budgets", "--budgets is for iOS: Android's policy plans for FCM, which has no hourly budget to measure")
            let configuration = try CoalescerOptions.parse(&arguments, android: true)
            return try await runAndroid(try games(files: try arguments.positionals(max: .max), generated: generated), configuration)
        }
        let budgetText = try arguments.option("--budgets") ?? "15,60"
        let budgets = budgetText.split(separator: ",").compactMap { Int($0) }
        guard !budgets.isEmpty, budgets.count == budgetText.split(separator: ",").count, budgets.allSatisfy({ $0 >= 0 }) else {
            throw ScoreFeedError(.usage, "--budgets takes budgets like 15,60; not \"\(budgetText)\"")
        }
        // The coalescer's options are read again for each budget, so explicit knobs (--reserve,
        // --threshold, …) apply at every one; this first read checks them and takes them out.
        try CoalescerOptions.refuse(["--budget", "--frequent"], in: &arguments, "here: --budgets <list> names the budgets measured")
        let coalescerOptions = arguments
        _ = try CoalescerOptions.parse(&arguments)
        let games = try games(files: try arguments.positionals(max: .max), generated: generated)
        for budget in budgets {
            var options = coalescerOptions
            let configuration = try CoalescerOptions.parse(&options, budget: budget)
            var reports: [(String, FreshnessReport)] = []
            for game in games {
                let records = try await Replay(policy: Coalescer(configuration: configuration)).records(game.document)
                let report = FreshnessReport(
                    game: game.document.attributes.gameId, records: records, timeline: game.timeline,
                    model: DeviceModel(configuration))
                reports.append((game.name, report))
            }
            print(table(reports, budget: budget, delay: configuration.priority5Delay, perGame: games.count <= 40))
        }
        return 0
    }

    /// The games named, then `generated` generated ones (seeds 1…n).
    static func games(files: [String], generated: Int) throws(ScoreFeedError) -> [Game] {
        guard !files.isEmpty || generated > 0 else {
            throw ScoreFeedError(.usage, "name game files or --generated <n>")
        }
        var games = try files.map { path throws(ScoreFeedError) in
            Game(name: URL(fileURLWithPath: path).lastPathComponent, document: try FeedReader.read(path: path))
        }
        for seed in 0..<generated {
            let game = GameGenerator(seed: UInt64(seed + 1)).generate()
            games.append(Game(name: "generated seed \(seed + 1)", document: game.document))
        }
        return games
    }

    /// The Android table: each game's engine (Android's policy and messages) against the two
    /// `HIGH` senders under ``AndroidDeviceModel``, and the medians.
    static func runAndroid(_ games: [Game], _ configuration: Coalescer.Configuration) async throws -> Int32 {
        var renderer = PushRenderer.Configuration()
        renderer.platform = .android
        var reports: [(String, AndroidFreshnessReport)] = []
        for game in games {
            let records = try await Replay(policy: Coalescer(configuration: configuration), renderer: renderer).records(game.document)
            reports.append((game.name, AndroidFreshnessReport(game: game.document.attributes.gameId, records: records, timeline: game.timeline)))
        }
        print(androidTable(reports, perGame: games.count <= 40))
        return 0
    }

    static func androidTable(_ reports: [(String, AndroidFreshnessReport)], perGame: Bool) -> String {
        func f(_ x: Double) -> String { String(format: "%.3f", x) }
        func seconds(_ x: Double?) -> String { x.map { "\(Int($0)) s" } ?? "never" }
        let columns = ["engine", "HIGH", "collaps.", "NORMAL", "eng-best", "HIGH n", "NORMAL n", "final"]
        var lines = [
            "Android device model: \(AndroidDeviceModel().summary). Wrong share (lower is better):",
            FreshnessReport.pad("game", 28, left: true) + columns.map { FreshnessReport.pad($0, 10) }.joined(),
        ]
        var engine: [Double] = [], best: [Double] = [], high: [Double] = [], collapsible: [Double] = [], finals: [Double] = []
        var neverFinal = 0
        for (name, report) in reports {
            let rows = report.rows
            engine.append(report.engine.wrongShare)
            best.append(report.bestBaseline.wrongShare)
            high.append(rows[1].wrongShare)
            collapsible.append(rows[2].wrongShare)
            if let lag = report.engine.finalLag { finals.append(lag) } else { neverFinal += 1 }
            if perGame {
                let cells = [
                    f(rows[0].wrongShare), f(rows[1].wrongShare), f(rows[2].wrongShare), f(rows[3].wrongShare),
                    String(format: "%+.3f", report.engine.wrongShare - report.bestBaseline.wrongShare),
                    "\(report.engine.priority10)", "\(report.engine.priority5)", seconds(report.engine.finalLag),
                ]
                lines.append(FreshnessReport.pad(String(name.prefix(27)), 28, left: true) + cells.map { FreshnessReport.pad($0, 10) }.joined())
            }
        }
        lines.append(
            "median of \(reports.count) games: engine \(f(median(engine))), HIGH every change \(f(median(high))), "
                + "HIGH collapsible \(f(median(collapsible))); engine - better baseline \(String(format: "%+.4f", median(engine) - median(best))) "
                + "of game time")
        lines.append(
            "  the engine's final on screen: at most \(seconds(finals.max())) after it was sent"
                + (neverFinal > 0 ? ", never on \(neverFinal) games" : ", on every game"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The middle value (the mean of the two middle ones for an even count); 0 for none.
    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? 0 : (s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2)
    }

    static func table(_ reports: [(String, FreshnessReport)], budget: Int, delay: Double, perGame: Bool) -> String {
        func f(_ x: Double) -> String { String(format: "%.3f", x) }
        func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f", a / b) : "n/a" }
        let columns = ["engine", "every", "fixed", "p10→p5", "rolling", "bound", "eng/best", "eng/bound", "p10", "peak", "overrun", "final"]
        var lines = [
            "Budget \(budget) priority-10 pushes per rolling hour; priority 5 shown \(Int(delay)) s late. Wrong share (lower is better):",
            FreshnessReport.pad("game", 28, left: true) + columns.map { FreshnessReport.pad($0, 10) }.joined(),
        ]
        var engine: [Double] = [], best: [Double] = [], bound: [Double] = [], rolling: [Double] = [], overruns = 0
        for (name, report) in reports {
            let rows = report.rows
            engine.append(report.engine.wrongShare)
            best.append(report.bestBaseline.wrongShare)
            bound.append(report.bound.wrongShare)
            rolling.append(report.rollingBaseline.wrongShare)
            overruns += report.engine.budgetOverruns
            if perGame {
                let cells = [
                    f(rows[0].wrongShare), f(rows[1].wrongShare), f(rows[2].wrongShare), f(rows[3].wrongShare),
                    f(report.rollingBaseline.wrongShare), f(report.bound.wrongShare),
                    ratio(report.engine.wrongShare, report.bestBaseline.wrongShare),
                    ratio(report.engine.wrongShare, report.bound.wrongShare),
                    "\(report.engine.priority10)", "\(report.engine.peakHourlyPriority10)",
                    "\(report.engine.budgetOverruns)", report.engine.finalLag.map { "\(Int($0)) s" } ?? "never",
                ]
                lines.append(FreshnessReport.pad(String(name.prefix(27)), 28, left: true) + cells.map { FreshnessReport.pad($0, 10) }.joined())
            }
        }
        lines.append(
            "median of \(reports.count) games: engine \(f(median(engine))), best named baseline \(f(median(best))), "
                + "rolling-budget baseline \(f(median(rolling))), bound \(f(median(bound)))")
        lines.append(
            "  engine / best baseline \(ratio(median(engine), median(best))), "
                + "engine / rolling baseline \(ratio(median(engine), median(rolling))), "
                + "engine / bound \(ratio(median(engine), median(bound))), budget overruns \(overruns)")
        return lines.joined(separator: "\n") + "\n"
    }
}

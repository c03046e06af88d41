import Foundation
import ScoreFeed

extension FreshnessCommand {
    static let gridHelp = """
          --grid                  Measure a grid of true budgets × true priority-5 delays
                                  instead: engine ÷ best simple baseline per cell (median over
                                  the files, the worst cell marked), then each cell's median
                                  wrong share of the engine, the best baseline and the
                                  feed-information bound.
          --told                  With --grid: the engine and the baselines are told each
                                  cell's budget and delay (default: the engine runs on its
                                  defaults and the baselines assume the same budget).
          --grid-budgets <list>   Default 8,10,15,20,30,60 told, 8,10,15,20,30 on defaults.
          --grid-delays <list>    Default 15,30,60,120,300.
          --in-sample             With --grid or --join: the engine uses the shipped value
                                  table. By default each file is measured with a table fit on
                                  the other files (and the --fit-also files): out of sample.
          --fit-also <list>       Comma-separated game files added to every fit.
        """

    static func list<T: LosslessStringConvertible & Comparable>(_ text: String, _ name: String, in range: ClosedRange<T>) throws(ScoreFeedError) -> [T] {
        let parts = text.split(separator: ",")
        let values = parts.compactMap { T(String($0)) }
        guard !values.isEmpty, values.count == parts.count, values.allSatisfy({ range.contains($0) }) else {
            throw ScoreFeedError(.usage, "\(name) takes a comma-separated list like 8,15,30 of \(range.lowerBound)…\(range.upperBound); not \"\(text)\"")
        }
        return values
    }

    /// The game files left in `arguments` (`missing`: the usage error without any), each with a
    /// value table fit on the others and on `--fit-also`'s files (out of sample), or with the
    /// shipped table (`inSample`): what `--grid` and `--join` measure. Read after every other option.
    static func measuredGames(_ arguments: inout Arguments, inSample: Bool, missing: String) throws(ScoreFeedError) -> [FreshnessGrid.Game] {
        let also = try arguments.option("--fit-also").map { $0.split(separator: ",").map(String.init) } ?? []
        let files = try arguments.positionals(max: .max)
        guard !files.isEmpty else { throw ScoreFeedError(.usage, missing) }
        let documents = try files.map { path throws(ScoreFeedError) in
            (name: URL(fileURLWithPath: path).lastPathComponent, document: try FeedReader.read(path: path))
        }
        let extra = try also.map { path throws(ScoreFeedError) in GameMoments(events: try FeedReader.read(path: path).events) }
        return FreshnessGrid.Game.leaveOneOut(documents, fitAlso: extra, inSample: inSample)
    }

    /// `freshness --grid`: reads the grid's options from `arguments` (the files stay).
    static func runGrid(_ arguments: inout Arguments) async throws -> Int32 {
        let told = arguments.flag("--told")
        let inSample = arguments.flag("--in-sample")
        let budgets: [Int] = try list(try arguments.option("--grid-budgets") ?? (told ? "8,10,15,20,30,60" : "8,10,15,20,30"), "--grid-budgets", in: 0...10_000)
        let delays: [Double] = try list(try arguments.option("--grid-delays") ?? "15,30,60,120,300", "--grid-delays", in: 0...86_400)
        if told {
            try CoalescerOptions.refuse(
                CoalescerOptions.replacedByTelling, in: &arguments, "with --told: each cell tells the engine its budget and delay")
        }
        let defaults = try CoalescerOptions.parse(&arguments)
        let games = try measuredGames(&arguments, inSample: inSample, missing: "name game files to measure the grid on")
        let grid = FreshnessGrid(budgets: budgets, delays: delays, told: told, defaults: defaults)
        let cells = try await grid.measure(games)
        print(gridText(cells, grid: grid, names: games.map(\.name), inSample: inSample), terminator: "")
        return 0
    }

    static func gridText(_ cells: [FreshnessGrid.Cell], grid: FreshnessGrid, names: [String], inSample: Bool) -> String {
        let worst = cells.max { $0.ratio < $1.ratio }
        func cell(_ budget: Int, _ delay: Double) -> FreshnessGrid.Cell? {
            cells.first { $0.budget == budget && $0.delay == delay }
        }
        let header = FreshnessReport.pad("budget \\ P5 delay", 18, left: true)
            + grid.delays.map { FreshnessReport.pad("\(Int($0)) s", 22) }.joined()
        let who = grid.told
            ? "told each cell's budget and delay (the baselines too)"
            : "on its defaults (budget \(grid.defaults.budget), P5 delay \(Int(grid.defaults.priority5Delay)) s assumed\(grid.defaults.hedgesDelay ? ", hedged down to \(Int(grid.defaults.shortestPriority5Delay)) s" : ""); the baselines assume budget \(grid.defaults.budget))"
        var lines = [
            "Engine \(who); \(names.count) games; value table \(inSample ? "shipped (in sample)" : "fit on the other games (out of sample)").",
            "",
            "Engine ÷ best simple baseline (median over the games; * the worst cell):",
            header,
        ]
        for budget in grid.budgets {
            var row = FreshnessReport.pad("\(budget)/h", 18, left: true)
            for delay in grid.delays {
                guard let c = cell(budget, delay) else { continue }
                let mark = c.budget == worst?.budget && c.delay == worst?.delay ? "*" : " "
                row += FreshnessReport.pad(String(format: "%.3f", c.ratio) + mark, 22)
            }
            lines.append(row)
        }
        lines += ["", "Wrong share, median: engine / best baseline / feed-information bound" + (grid.told ? " (! = over 1.10× the bound and 0.01 above it)" : "") + ":", header]
        for budget in grid.budgets {
            var row = FreshnessReport.pad("\(budget)/h", 18, left: true)
            for delay in grid.delays {
                guard let c = cell(budget, delay) else { continue }
                let flag = grid.told && !c.nearBound ? "!" : " "
                row += FreshnessReport.pad(String(format: "%.3f/%.3f/%.3f", c.engine, c.best, c.bound) + flag, 22)
            }
            lines.append(row)
        }
        if let worst {
            lines += ["", "The worst cell (\(worst.budget)/h, \(Int(worst.delay)) s) game by game: engine / best baseline (which) / bound"]
            for (name, result) in zip(names, worst.results) {
                lines.append("  " + FreshnessReport.pad(name, 30, left: true) + String(format: "%.4f / %.4f (%@) / %.4f", result.engine, result.best, result.bestPolicy, result.bound))
            }
        }
        let overruns = cells.reduce(0) { $0 + $1.overruns }
        let lateFinals = cells.filter { $0.worstFinalLag > $0.delay }
        let worstRatio = worst.map { String(format: "%.3f at %d/h, %d s", $0.ratio, $0.budget, Int($0.delay)) } ?? "n/a"
        lines += [
            "",
            "Worst cell: engine ÷ best baseline \(worstRatio); cells above 1.00: \(cells.filter { $0.ratio > 1.0 + 1e-9 }.count) of \(cells.count).",
            grid.told
                ? "Cells over the bound's 1.10× (and 0.01): \(cells.filter { !$0.nearBound }.count); priority-10 pushes past the budget: \(overruns)."
                : "Priority-10 pushes the true budget dropped are not overruns here: the engine was not told it.",
            "Cells where a game's final reached the screen later than one P5 delay: \(lateFinals.count)"
                + (lateFinals.isEmpty ? "." : " (" + lateFinals.map { "\($0.budget)/h \(Int($0.delay)) s: \(String(format: "%.0f", $0.worstFinalLag)) s" }.joined(separator: ", ") + ")."),
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

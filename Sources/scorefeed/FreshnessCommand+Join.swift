import Foundation
import ScoreFeed

extension FreshnessCommand {
    static let joinHelp = """
          --join <list>           Measure games met in progress instead: each joined at these
                                  shares of its span (comma separated, e.g. 0.25,0.5,0.75), the
                                  events before the join arriving as one moment, with no state.
                                  Per share, true budget × true P5 delay and device (its hour
                                  left untouched or spent by an earlier run): the median wrong
                                  share from the join to the end of each budget assumption at
                                  a join (fresh, spent, hedged, join-p10), of pushing only the
                                  newest state at the join, and of the engine that ran from
                                  tip-off; then each assumption ÷ that baseline, its regret
                                  (against the best assumption) on the worse device, and the
                                  assumption whose worst regret is least. Takes --grid-budgets
                                  (default 5,10,15,30,60), --grid-delays (default
                                  15,30,60,120), --in-sample, --fit-also and the coalescer's
                                  options (default: its defaults).
        """

    /// The median of `xs` (0 when empty).
    static func middle(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The short name of an assumption in the join tables.
    static func label(_ assumption: Coalescer.JoinBudget) -> String {
        switch assumption {
        case .fresh: "fresh"
        case .spent: "spent"
        case .hedged: "hedged"
        case .spentAfterJoinPush: "join-p10"
        }
    }

    /// `freshness --join <list>`: reads the measure's options from `arguments` (the files stay).
    static func runJoin(_ text: String, _ arguments: inout Arguments) async throws -> Int32 {
        let fractions: [Double] = try list(text, "--join", in: 0...1)
        let inSample = arguments.flag("--in-sample")
        let budgets: [Int] = try list(try arguments.option("--grid-budgets") ?? "5,10,15,30,60", "--grid-budgets", in: 0...10_000)
        let delays: [Double] = try list(try arguments.option("--grid-delays") ?? "15,30,60,120", "--grid-delays", in: 0...86_400)
        let defaults = try CoalescerOptions.parse(&arguments)
        let games = try measuredGames(&arguments, inSample: inSample, missing: "name game files to join")
        let grid = JoinGrid(fractions: fractions, budgets: budgets, delays: delays, defaults: defaults)
        let cells = try await grid.measure(games)
        print(joinText(cells, grid: grid, names: games.map(\.name), inSample: inSample), terminator: "")
        return 0
    }

    static func joinText(_ cells: [JoinGrid.Cell], grid: JoinGrid, names: [String], inSample: Bool) -> String {
        let assumptions = grid.assumptions
        let defaults = grid.defaults
        let devices = JoinGrid.Device.allCases
        func f(_ x: Double) -> String { x.isFinite ? String(format: "%.3f", x) : "—" }
        func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded())) %" }
        func cell(_ fraction: Double, _ budget: Int, _ delay: Double, _ device: JoinGrid.Device) -> JoinGrid.Cell? {
            cells.first { $0.fraction == fraction && $0.budget == budget && $0.delay == delay && $0.device == device }
        }
        let width = 9
        let indent = String(repeating: " ", count: 17)
        let heading = assumptions.map { FreshnessReport.pad(label($0), width) }.joined()
        func rowHead(_ budget: Int, _ delay: Double) -> String {
            FreshnessReport.pad("\(budget)/h", 8, left: true) + FreshnessReport.pad("\(Int(delay)) s", 7) + "  "
        }
        var lines = [
            "Games met in progress with no state: every event up to the join arrives as one moment at the join, then each later",
            "event at its own feed time. \(names.count) games; engine on its defaults (budget \(defaults.budget), P5 delay "
                + "\(Int(defaults.priority5Delay)) s assumed\(defaults.hedgesDelay ? ", hedged down to \(Int(defaults.shortestPriority5Delay)) s" : "")"
                + "\(defaults.copies ? "" : ", no copies")); value table \(inSample ? "shipped (in sample)" : "fit on the other games (out of sample)").",
            "Budget the engine assumes at the join (default \(label(.standard))): fresh = nothing spent; spent = the hour spent,",
            "within the assumed budget and beyond; hedged = the assumed budget spent, priority 10 beyond it (with its copy) left",
            "open; join-p10 = the join's push decided on a whole budget, then the hour spent. The device's true hour: untouched,",
            "or spent (its whole budget shown just before the join: nothing back for an hour). The screen shows an older score",
            "at the join. Baseline (base), pushing only the newest state: at the join the newest state alone at priority 10",
            "with a priority-5 copy, then the best per game of p10 every change, p5 every change, p10 while the hour has room",
            "and p10 fixed interval (at budget \(defaults.budget)). ran = the engine that ran from tip-off, nothing lost (its own",
            "pushes in the hour), over the same stretch. Wrong share from the join to the game's end, median over the",
            "games (lower is better); regret = an assumption's median wrong share less the best assumption's in the same cell",
            "and device; — = a ratio over a baseline never wrong in some game (p10 every change fits the true budget).",
        ]
        var regrets: [Coalescer.JoinBudget: [JoinGrid.Device: [(value: Double, at: String)]]] = [:]
        var ratios: [Coalescer.JoinBudget: [JoinGrid.Device: [Double]]] = [:]
        for fraction in grid.fractions {
            lines += ["", "Join at \(percent(fraction)) of the span. Wrong share:"]
            lines.append(
                FreshnessReport.pad("budget", 8, left: true) + FreshnessReport.pad("delay", 7) + "  "
                    + devices.map { FreshnessReport.pad("device \($0.rawValue)", width * (assumptions.count + ($0 == .untouched ? 2 : 1)) + 3, left: true) }.joined())
            lines.append(indent + devices.map { heading + FreshnessReport.pad("base", width) + ($0 == .untouched ? FreshnessReport.pad("ran", width) : "") + "   " }.joined())
            for budget in grid.budgets {
                for delay in grid.delays {
                    var row = rowHead(budget, delay)
                    for device in devices {
                        guard let c = cell(fraction, budget, delay, device) else { continue }
                        row += assumptions.map { FreshnessReport.pad(f(c.engine($0)), width) }.joined() + FreshnessReport.pad(f(c.baseline), width)
                            + (c.ran.map { FreshnessReport.pad(f($0), width) } ?? "") + "   "
                    }
                    lines.append(row)
                }
            }
            lines += ["", "Join at \(percent(fraction)): engine ÷ baseline (median over the games) per device; regret, the worse of the two devices (< the least):"]
            lines.append(indent + (devices.map { "\($0.rawValue) ÷ base" } + ["worse regret"]).map { FreshnessReport.pad($0, width * assumptions.count + 3, left: true) }.joined())
            lines.append(indent + Array(repeating: heading + "   ", count: devices.count + 1).joined())
            for budget in grid.budgets {
                for delay in grid.delays {
                    var row = rowHead(budget, delay)
                    var worse: [Coalescer.JoinBudget: Double] = [:]
                    let place = "\(percent(fraction)), \(budget)/h, \(Int(delay)) s"
                    for device in devices {
                        guard let c = cell(fraction, budget, delay, device) else { continue }
                        for assumption in assumptions {
                            let ratio = c.ratio(assumption)
                            row += FreshnessReport.pad(f(ratio), width)
                            if ratio.isFinite { ratios[assumption, default: [:]][device, default: []].append(ratio) }
                            let r = c.regret(assumption)
                            regrets[assumption, default: [:]][device, default: []].append((r, place))
                            worse[assumption] = max(worse[assumption] ?? 0, r)
                        }
                        row += "   "
                    }
                    let least = worse.values.min() ?? 0
                    for assumption in assumptions {
                        let r = worse[assumption] ?? 0
                        row += FreshnessReport.pad(f(r) + (r <= least + 1e-9 ? "<" : " "), width)
                    }
                    lines.append(row)
                }
            }
        }
        lines += ["", "Summary over \(grid.fractions.count) join shares × \(grid.budgets.count * grid.delays.count) cells, per assumption: the largest regret on each device"
            + " (where), the mean of the worse-of-two regret, engine ÷ baseline (median over the cells, — left out) per device:"]
        for assumption in assumptions {
            let byDevice = regrets[assumption] ?? [:]
            var parts: [String] = []
            for device in devices {
                let largest = (byDevice[device] ?? []).max { $0.value < $1.value }
                parts.append("\(device.rawValue) \(f(largest?.value ?? 0))" + (largest.map { $0.value > 1e-9 ? " (\($0.at))" : "" } ?? ""))
            }
            let worse = zip(byDevice[.untouched] ?? [], byDevice[.spent] ?? []).map { max($0.value, $1.value) }
            let mean = worse.isEmpty ? 0 : worse.reduce(0, +) / Double(worse.count)
            let ratioText = devices.map { "\($0.rawValue) \(f(middle(ratios[assumption]?[$0] ?? [])))" }.joined(separator: ", ")
            lines.append(
                "  " + FreshnessReport.pad(label(assumption), 9, left: true) + "largest regret: " + parts.joined(separator: "; ")
                    + "; mean worse-of-two \(f(mean)); ÷ base: \(ratioText)")
        }
        if let least = assumptions.min(by: { JoinGrid.worstRegret(cells, $0).regret < JoinGrid.worstRegret(cells, $1).regret }) {
            lines.append(
                "Least worst-case regret over both devices: \(label(least)) (\(f(JoinGrid.worstRegret(cells, least).regret)))"
                    + (least == .standard ? ", the default." : "; the default is \(label(.standard)) (\(f(JoinGrid.worstRegret(cells, .standard).regret)))."))
        }
        let standard = Coalescer.JoinBudget.standard
        if let worst = cells.filter({ $0.ratio(standard).isFinite }).max(by: { $0.ratio(standard) < $1.ratio(standard) }) {
            lines += [
                "",
                "The default (\(label(standard)))'s worst cell against the baseline (join at \(percent(worst.fraction)), "
                    + "\(worst.budget)/h, \(Int(worst.delay)) s, device \(worst.device.rawValue)) game by game: "
                    + assumptions.map(label).joined(separator: " / ") + " / baseline (which)",
            ]
            for (name, result) in zip(names, worst.results) {
                lines.append(
                    "  " + FreshnessReport.pad(name, 30, left: true) + assumptions.map { f(result.engine[$0] ?? .nan) }.joined(separator: " / ")
                        + " / \(f(result.baseline)) (\(result.baselinePolicy))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

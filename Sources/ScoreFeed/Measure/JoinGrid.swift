import Foundation
import ScoreFeedModel

/// The budget a coalescer assumes at a join, measured: each game met in progress at a share of
/// its span with no state (the events before the join arrive as one moment,
/// ``Replay/run(_:joiningAt:sink:)``), on a grid of true budgets × true priority-5 delays, for a
/// device whose hour an earlier run left untouched or spent. Each assumption
/// (``Coalescer/JoinBudget``) runs the engine on its defaults; the screen is scored from the
/// join to the game's end (``ScoreTimeline/joined(at:)``) against "pushing only the newest
/// state" (``Baselines/newestAtJoin(_:then:)``, the best of ``Baselines/afterJoin(_:budget:)``
/// per game), the same device for all.
public struct JoinGrid: Sendable {
    /// What the earlier run left of the device's hour at the join.
    public enum Device: String, Hashable, Sendable, CaseIterable {
        /// Nothing spent: a brand-new activity, or an earlier run that spent nothing this hour.
        case untouched
        /// The whole budget shown just before the join: nothing comes back for an hour (the
        /// worst an earlier run can leave).
        case spent

        /// The device of a true `budget` and `delay` met at `join` in this state.
        public func model(budget: Int, delay: TimeInterval, join: Date) -> DeviceModel {
            var model = DeviceModel(budget: budget, priority5Delay: delay)
            if self == .spent { model.spentBefore = Array(repeating: join, count: budget) }
            return model
        }
    }

    /// One game joined at one share of its span, in one cell and device state: the wrong share
    /// from the join to the end per assumption, and the best baseline's.
    public struct Result: Hashable, Sendable {
        public var engine: [Coalescer.JoinBudget: Double]
        public var baseline: Double
        public var baselinePolicy: String
        /// On an untouched device: the engine that ran from tip-off (nothing lost), scored over
        /// the same stretch, its own earlier pushes counted in the hour: what the join itself
        /// costs. Nil on a spent device (that earlier run is another instance's).
        public var ran: Double?
    }

    /// A join share, a true budget and delay, a device state: the games' results.
    public struct Cell: Sendable {
        public var fraction: Double
        public var budget: Int
        public var delay: TimeInterval
        public var device: Device
        public var results: [Result]

        /// Median over the games of the assumption's wrong share.
        public func engine(_ assumption: Coalescer.JoinBudget) -> Double {
            FreshnessGrid.Cell.median(results.compactMap { $0.engine[assumption] })
        }

        /// Median over the games of the best baseline's wrong share.
        public var baseline: Double { FreshnessGrid.Cell.median(results.map(\.baseline)) }

        /// Median over the games of the engine that ran from tip-off (nil on a spent device).
        public var ran: Double? {
            let shares = results.compactMap(\.ran)
            return shares.isEmpty ? nil : FreshnessGrid.Cell.median(shares)
        }

        /// Median over the games of the assumption's wrong share ÷ the best baseline's (a game
        /// where both are 0 counts 1).
        public func ratio(_ assumption: Coalescer.JoinBudget) -> Double {
            FreshnessGrid.Cell.median(results.compactMap { r in r.engine[assumption].map { FreshnessGrid.Cell.divide($0, r.baseline) } })
        }

        /// The assumption's median wrong share less the best measured assumption's: what
        /// choosing it cost on this device, in this cell.
        public func regret(_ assumption: Coalescer.JoinBudget) -> Double {
            let measured = results.first.map { Array($0.engine.keys) } ?? []
            return engine(assumption) - (measured.map(engine).min() ?? 0)
        }
    }

    /// The assumption's largest regret over `cells` (both device states, every share and cell):
    /// what choosing it can cost at worst, and the cell where it does.
    public static func worstRegret(_ cells: [Cell], _ assumption: Coalescer.JoinBudget) -> (regret: Double, cell: Cell?) {
        let worst = cells.max { $0.regret(assumption) < $1.regret(assumption) }
        return (worst?.regret(assumption) ?? 0, worst)
    }

    public var fractions: [Double]
    public var budgets: [Int]
    public var delays: [TimeInterval]
    public var assumptions: [Coalescer.JoinBudget]
    /// The engine's configuration (its defaults: it is not told the device).
    public var defaults: Coalescer.Configuration

    public init(
        fractions: [Double], budgets: [Int], delays: [TimeInterval],
        assumptions: [Coalescer.JoinBudget] = Coalescer.JoinBudget.allCases, defaults: Coalescer.Configuration = .standard
    ) {
        self.fractions = fractions
        self.budgets = budgets
        self.delays = delays
        self.assumptions = assumptions
        self.defaults = defaults
    }

    /// The moment a game is joined at `fraction` of its span (first to last event).
    public static func joinTime(_ timeline: ScoreTimeline, fraction: Double) -> Date {
        timeline.start.addingTimeInterval(fraction * timeline.duration)
    }

    /// Measures every cell on `games`: per share, budget, delay and device state, in that order.
    /// The engine's pushes do not depend on the device (it is not told it): each game is
    /// replayed once per share and assumption.
    public func measure(_ games: [FreshnessGrid.Game]) async throws -> [Cell] {
        var cells: [Cell] = []
        var ran: [[DeviceModel.Sent]] = []
        for game in games {
            ran.append(try await Replay(policy: Coalescer(configuration: defaults, values: game.engineValues)).records(game.document).map(DeviceModel.Sent.init))
        }
        for fraction in fractions {
            var runs: [(joined: ScoreTimeline, join: Date, engine: [Coalescer.JoinBudget: [DeviceModel.Sent]],
                        baselines: [(name: String, pushes: [DeviceModel.Sent])])] = []
            for game in games {
                let join = Self.joinTime(game.moments.timeline, fraction: fraction)
                var engine: [Coalescer.JoinBudget: [DeviceModel.Sent]] = [:]
                for assumption in assumptions {
                    engine[assumption] = try await Self.pushes(game, joiningAt: join, assumption: assumption, configuration: defaults)
                }
                let joined = game.moments.timeline.joined(at: join)
                runs.append((joined, join, engine, Baselines.afterJoin(joined, budget: defaults.budget)))
            }
            for budget in budgets {
                for delay in delays {
                    for device in Device.allCases {
                        let results = zip(runs, ran).map { run, ran in
                            let model = device.model(budget: budget, delay: delay, join: run.join)
                            func wrong(_ pushes: [DeviceModel.Sent]) -> Double {
                                Freshness.wrongShare(screen: model.screen(pushes), timeline: run.joined)
                            }
                            var best = (name: "", wrong: Double.infinity)
                            for baseline in run.baselines {
                                let share = wrong(baseline.pushes)
                                if share < best.wrong { best = (baseline.name, share) }
                            }
                            return Result(
                                engine: run.engine.mapValues(wrong), baseline: best.wrong, baselinePolicy: best.name,
                                ran: device == .untouched ? wrong(ran) : nil)
                        }
                        cells.append(Cell(fraction: fraction, budget: budget, delay: delay, device: device, results: results))
                    }
                }
            }
        }
        return cells
    }

    /// The engine's pushes for `game` joined at `join` under `assumption`.
    static func pushes(
        _ game: FreshnessGrid.Game, joiningAt join: Date, assumption: Coalescer.JoinBudget, configuration: Coalescer.Configuration
    ) async throws -> [DeviceModel.Sent] {
        var coalescer = Coalescer(configuration: configuration, values: game.engineValues)
        coalescer.joinBudget = assumption
        let sink = RecordingSink()
        _ = try await Replay(policy: coalescer).run(game.document, joiningAt: join, sink: sink)
        return await sink.records.map(DeviceModel.Sent.init)
    }
}

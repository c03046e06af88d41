import Foundation
import ScoreFeedModel

/// The engine measured over a grid of devices it may meet: true priority-10 budgets × true
/// priority-5 delays. Told, the engine and the baselines know the device; on defaults they do
/// not, and the baselines assume what the engine's defaults assume. Each cell holds, per game,
/// the engine, the best simple baseline and the feed-information bound.
public struct FreshnessGrid: Sendable {
    /// A game to measure: its events read once, and the value table the engine uses on it (fit
    /// on other games, so figures are out of sample) and the one the bound uses.
    public struct Game: Sendable {
        public var name: String
        public var document: FeedDocument
        public var moments: GameMoments
        public var engineValues: PushValues
        public var boundValues: PushValues

        public init(name: String, document: FeedDocument, moments: GameMoments, engineValues: PushValues, boundValues: PushValues) {
            self.name = name
            self.document = document
            self.moments = moments
            self.engineValues = engineValues
            self.boundValues = boundValues
        }

        /// The games to measure, named: each measured with a table fit on the others and on
        /// `fitAlso` (out of sample), or with the shipped table (`inSample`); the bound's table is
        /// fit on all of them.
        public static func leaveOneOut(
            _ documents: [(name: String, document: FeedDocument)], fitAlso: [GameMoments] = [], inSample: Bool = false
        ) -> [Game] {
            let moments = documents.map { GameMoments(events: $0.document.events) }
            let boundValues = PushValues.fit(moments)
            return documents.indices.map { i in
                let others = moments.indices.filter { $0 != i }.map { moments[$0] } + fitAlso
                return Game(
                    name: documents[i].name, document: documents[i].document, moments: moments[i],
                    engineValues: inSample || others.isEmpty ? .fitted : PushValues.fit(others), boundValues: boundValues)
            }
        }
    }

    /// One game in one cell.
    public struct Result: Hashable, Sendable {
        public var engine: Double
        public var best: Double
        public var bestPolicy: String
        public var bound: Double
        public var overruns: Int
        /// Seconds from the game's end to the final on screen (nil: never).
        public var finalLag: Double?
        public var priority10: Int
    }

    /// One cell: a true budget and delay, the games' results.
    public struct Cell: Sendable {
        public var budget: Int
        public var delay: TimeInterval
        public var results: [Result]

        /// Median over the games of engine ÷ best baseline (a game where both are 0 counts 1).
        public var ratio: Double { Self.median(results.map { Self.divide($0.engine, $0.best) }) }
        public var engine: Double { Self.median(results.map(\.engine)) }
        public var best: Double { Self.median(results.map(\.best)) }
        public var bound: Double { Self.median(results.map(\.bound)) }
        /// Within 1.10× of the bound, or within 0.01 of it: median engine against median bound.
        public var nearBound: Bool { engine <= bound * 1.10 || engine - bound <= 0.01 }
        public var overruns: Int { results.reduce(0) { $0 + $1.overruns } }
        /// The latest final over the games (infinity when one was never shown).
        public var worstFinalLag: Double { results.map { $0.finalLag ?? .infinity }.max() ?? 0 }

        static func divide(_ a: Double, _ b: Double) -> Double {
            b > 1e-9 ? a / b : (a <= 1e-9 ? 1 : .infinity)
        }

        static func median(_ xs: [Double]) -> Double {
            let s = xs.sorted()
            guard !s.isEmpty else { return 0 }
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
    }

    public var budgets: [Int]
    public var delays: [TimeInterval]
    /// Whether the engine and the baselines are told the true budget and delay.
    public var told: Bool
    /// The engine's configuration on defaults (and, with the cell's budget and delay, when told).
    public var defaults: Coalescer.Configuration

    public init(budgets: [Int], delays: [TimeInterval], told: Bool, defaults: Coalescer.Configuration = .standard) {
        self.budgets = budgets
        self.delays = delays
        self.told = told
        self.defaults = defaults
    }

    /// Measures every cell on `games`.
    public func measure(_ games: [Game]) async throws -> [Cell] {
        var cells: [Cell] = []
        for budget in budgets {
            for delay in delays {
                var results: [Result] = []
                for game in games { results.append(try await measure(game, budget: budget, delay: delay)) }
                cells.append(Cell(budget: budget, delay: delay, results: results))
            }
        }
        return cells
    }

    /// One game on a device with `budget` and `delay`.
    public func measure(_ game: Game, budget: Int, delay: TimeInterval) async throws -> Result {
        let configuration = told ? defaults.withBudget(budget).knowingDelay(delay) : defaults
        let records = try await Replay(policy: Coalescer(configuration: configuration, values: game.engineValues)).records(game.document)
        let device = DeviceModel(budget: budget, priority5Delay: delay)
        let timeline = game.moments.timeline
        let engine = Freshness(policy: "engine", pushes: records.map(DeviceModel.Sent.init), timeline: timeline, model: device)
        let assumed = told ? budget : configuration.budget
        let baselines: [(String, [DeviceModel.Sent])] = [
            ("p10 every change", Baselines.everyChange(timeline)),
            ("p5 every change", Baselines.priority5EveryChange(timeline)),
            ("p10 while the hour has room", Baselines.rollingBudget(timeline, budget: assumed)),
            ("p10 fixed interval", Baselines.fixedInterval(timeline, budget: assumed)),
        ]
        var best = (name: "", wrong: Double.infinity)
        for (name, pushes) in baselines {
            let wrong = Freshness(policy: name, pushes: pushes, timeline: timeline, model: device).wrongShare
            if wrong < best.wrong { best = (name, wrong) }
        }
        let bound = Baselines.feedInformationBound(game.moments, values: game.boundValues, budget: budget, priority5Delay: delay)
        return Result(
            engine: engine.wrongShare, best: best.wrong, bestPolicy: best.name, bound: bound.wrongShare,
            overruns: engine.budgetOverruns, finalLag: engine.finalLag, priority10: engine.priority10)
    }
}

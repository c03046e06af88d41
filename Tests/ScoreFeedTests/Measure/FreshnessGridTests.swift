import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The value table, the feed-information bound and the grid of true budgets × priority-5
/// delays: on generated games always, and on the real games in ../shared/nba-pbp when present.
@Suite("Freshness grid")
struct FreshnessGridTests {
    static let generated: [FreshnessGrid.Game] = (1...4).map { seed in
        let game = GameGenerator(seed: UInt64(seed)).generate()
        let document = FeedDocument(attributes: game.attributes, events: game.events, finalScore: game.finalScore)
        let moments = GameMoments(events: game.events)
        return FreshnessGrid.Game(
            name: "seed \(seed)", document: document, moments: moments, engineValues: .fitted,
            boundValues: PushValues.fit([moments]))
    }

    @Test(arguments: [5.0, 15, 60, 120, 300, 900])
    func aValueIsAtMostTheDelayAndGrowsWithIt(delay: Double) {
        let values = Make.values(means: [.score: 40])
        let value = values.value(.score, within: delay)
        #expect(value <= delay + 1e-9)
        #expect(value >= values.value(.score, within: delay * 0.9))
        // Exponential waits with a mean of 40 s buy 40 × (1 − e^(−R/40)).
        #expect(abs(value - 40 * (1 - exp(-delay / 40))) < 0.6, "\(value)")
    }

    @Test(arguments: [1e6, 1e30, Double.infinity, -5, 0])
    func anyDelayGivesAFiniteValue(delay: Double) {
        let value = PushValues.fitted.value(.pause, within: delay)
        #expect(value >= 0 && !value.isNaN, "\(value)")
        #expect(delay <= 0 ? value == 0 : value > 0)
    }

    @Test func aFitWithoutAPriorHasNoEmptyCurves() {
        let values = PushValues.fit([Self.generated[0].moments], prior: 0)
        for kind in Situation.Kind.allCases {
            #expect((values.survival[kind] ?? []).allSatisfy { !$0.isNaN }, "\(kind)")
        }
        #expect(!values.swiftSource(fitOn: ["x"]).contains("nan"))
    }

    @Test func theShippedTableRanksPausesAboveScoresAboveFreeThrowsToCome() {
        let values = PushValues.fitted
        for delay in [60.0, 120, 300] {
            #expect(values.value(.pause, within: delay) > values.value(.score, within: delay))
            #expect(values.value(.score, within: delay) > values.value(.freeThrowsToCome, within: delay))
        }
        #expect(values.scoresPerHour > 30 && values.scoresPerHour < 80, "\(values.scoresPerHour)")
    }

    @Test func aFitCountsEveryMomentAndItsCurvesFall() {
        let games = Self.generated.map(\.moments)
        let values = PushValues.fit(games)
        #expect(values.moments.values.reduce(0, +) == games.reduce(0) { $0 + $1.moments.count })
        #expect(values.scoreMoments.values.reduce(0, +) == games.reduce(0) { $0 + $1.timeline.changes.count })
        for kind in Situation.Kind.allCases {
            let curve = values.survival[kind] ?? []
            #expect(zip(curve, curve.dropFirst()).allSatisfy { $0 >= $1 }, "\(kind)")
        }
    }

    @Test func theBoundLiesBetweenNoBudgetAndTheClairvoyant() {
        for game in Self.generated {
            let timeline = game.moments.timeline
            let none = Baselines.feedInformationBound(game.moments, values: game.boundValues, budget: 0, priority5Delay: 120)
            let p5 = Freshness(policy: "p5", pushes: Baselines.priority5EveryChange(timeline), timeline: timeline, model: DeviceModel(budget: 0))
            #expect(abs(none.wrongShare - p5.wrongShare) < 0.002, "no budget: priority 5 on every change")
            var previous = none.wrongShare
            for budget in [8, 15, 30, 60] {
                let bound = Baselines.feedInformationBound(game.moments, values: game.boundValues, budget: budget, priority5Delay: 120)
                let clairvoyant = Baselines.clairvoyantBound(timeline, budget: budget, priority5Delay: 120)
                #expect(bound.wrongShare <= previous + 1e-9, "more budget never hurts")
                #expect(bound.wrongShare >= clairvoyant.wrongShare - 1e-9, "knowing only the feed is no better than knowing the future")
                previous = bound.wrongShare
            }
        }
    }

    /// The promises that hold in every cell whatever the games: told, no priority 10 past the
    /// budget; the final on screen within one priority-5 delay whatever the true budget.
    static func expectPromises(_ cells: [FreshnessGrid.Cell], told: Bool) {
        for cell in cells {
            if told { #expect(cell.overruns == 0, "\(cell.budget)/h \(cell.delay) s") }
            #expect(cell.worstFinalLag <= cell.delay, "\(cell.budget)/h \(cell.delay) s: \(cell.worstFinalLag)")
        }
    }

    /// Every score goes out at once, at least at priority 5: never worse than priority 5 on
    /// every change, told or not.
    @Test(arguments: [false, true])
    func generatedGamesKeepThePromises(told: Bool) async throws {
        let grid = FreshnessGrid(budgets: [8, 15, 60], delays: [15, 120, 300], told: told)
        let cells = try await grid.measure(Self.generated)
        #expect(cells.count == 9)
        Self.expectPromises(cells, told: told)
        for cell in cells {
            for (game, result) in zip(Self.generated, cell.results) {
                let p5 = Freshness(
                    policy: "p5", pushes: Baselines.priority5EveryChange(game.moments.timeline), timeline: game.moments.timeline,
                    model: DeviceModel(budget: cell.budget, priority5Delay: cell.delay))
                #expect(result.engine <= p5.wrongShare + 1e-9, "\(game.name) \(cell.budget)/h \(cell.delay) s")
            }
        }
    }

    /// The liveData games, each with a table fit on the other real games (as `freshness --grid
    /// --fit-also` the stats games): the whole default grids.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason), arguments: [false, true])
    func realGamesKeepThePromises(told: Bool) async throws {
        let files = NBAFiles.games.filter { $0.hasPrefix("playbyplay_") }
        let documents = try files.map { (name: $0, document: try FeedReader.read(path: NBAFiles.path($0))) }
        let others = try NBAFiles.games.filter { !$0.hasPrefix("playbyplay_") }.map { GameMoments(events: try FeedReader.read(path: NBAFiles.path($0)).events) }
        let games = FreshnessGrid.Game.leaveOneOut(documents, fitAlso: others)
        let grid = FreshnessGrid(budgets: told ? [8, 10, 15, 20, 30, 60] : [8, 10, 15, 20, 30], delays: [15, 30, 60, 120, 300], told: told)
        let cells = try await grid.measure(games)
        Self.expectPromises(cells, told: told)
        if told {
            let far = cells.filter { !$0.nearBound }.map { "\($0.budget)/h \(Int($0.delay)) s" }
            #expect(far.isEmpty, "every told cell within 1.10× of the bound (or 0.01)")
        }
    }
}

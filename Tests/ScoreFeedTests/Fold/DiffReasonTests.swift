import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// `Diff.reason` and `Diff(from:to:)` run for every push and every event, and were rewritten
/// for speed: they must say exactly what the first versions said.
@Suite("Diff reasons, as before")
struct DiffReasonTests {
    /// The first implementation of ``Diff/reason``, kept as the reference.
    static func referenceReason(_ diff: Diff) -> String {
        var parts: [String] = []
        if let phase = diff[.phase], case .text(let name) = phase.new {
            switch GamePhase(rawValue: name) {
            case .live:
                if case .text(GamePhase.pregame.rawValue)? = diff[.phase]?.old {
                    parts.append("tip-off")
                } else if case .int(let period)? = diff[.period]?.new {
                    parts.append("\(GameState.periodLabel(period)) start")
                } else {
                    parts.append("period start")
                }
            case .endOfPeriod: parts.append("end of period")
            case .halftime: parts.append("halftime")
            case .final: parts.append("final")
            default: parts.append(name)
            }
        } else if diff.contains(.period) {
            parts.append("new period")
        }
        if diff.changesScore {
            if case .text(let play)? = diff[.lastPlay]?.new { parts.append("score: \(play)") } else { parts.append("score") }
        } else if diff.contains(.lastPlay) {
            if case .text(let play)? = diff[.lastPlay]?.new { parts.append(play) }
        }
        if diff.contains(.homeTimeouts) || diff.contains(.awayTimeouts) { parts.append("timeout") }
        if diff.contains(.homeFouls) || diff.contains(.awayFouls) { parts.append("foul") }
        if diff.contains(.homeInBonus) || diff.contains(.awayInBonus) { parts.append("bonus") }
        if parts.isEmpty { parts.append(diff.changes.map(\.field.rawValue).joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    static func value(_ random: inout SeededRandom) -> Diff.Value {
        switch random.next() % 6 {
        case 0: return .int(Int(random.next() % 8))
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .text(["pregame", "live", "endOfPeriod", "halftime", "final", "", "J. Doe 2PT", "x"][Int(random.next() % 8)])
        case 3: return .clock(.stopped(seconds: Double(random.next() % 720)))
        case 4: return .null
        default: return .text(GamePhase.allCases[Int(random.next() % 5)].rawValue)
        }
    }

    @Test func randomDiffsGiveTheSameReason() {
        var random = SeededRandom(seed: 2024)
        for _ in 0..<20_000 {
            var changes: [Diff.Change] = []
            for _ in 0..<Int(random.next() % 6) {
                let field = Diff.Field.allCases[Int(random.next() % UInt64(Diff.Field.allCases.count))]
                changes.append(Diff.Change(field, Self.value(&random), Self.value(&random)))
            }
            let diff = Diff(changes)
            #expect(diff.reason == Self.referenceReason(diff), "\(diff)")
        }
    }

    @Test func foldedGamesGiveTheSameReasonsAndDiffs() {
        for seed in 1...5 {
            let game = GameGenerator(seed: UInt64(seed)).generate()
            var board = Scoreboard()
            var pushed = GameState()
            for (index, event) in game.events.enumerated() {
                let before = board.state
                let diff = board.apply(event)
                #expect(diff.reason == Self.referenceReason(diff))
                #expect(diff.changes.map(\.field) == Diff.Field.allCases.filter { Self.differs($0, before, board.state) })
                if index % 4 == 0 {
                    let since = Diff(from: pushed, to: board.state)
                    #expect(since.reason == Self.referenceReason(since))
                    pushed = board.state
                }
            }
        }
    }

    static func differs(_ field: Diff.Field, _ a: GameState, _ b: GameState) -> Bool {
        switch field {
        case .homeScore: a.homeScore != b.homeScore
        case .awayScore: a.awayScore != b.awayScore
        case .period: a.period != b.period
        case .phase: a.phase != b.phase
        case .clock: a.clock != b.clock
        case .possession: a.possession != b.possession
        case .homeFouls: a.homeFouls != b.homeFouls
        case .awayFouls: a.awayFouls != b.awayFouls
        case .homeInBonus: a.homeInBonus != b.homeInBonus
        case .awayInBonus: a.awayInBonus != b.awayInBonus
        case .homeTimeouts: a.homeTimeouts != b.homeTimeouts
        case .awayTimeouts: a.awayTimeouts != b.awayTimeouts
        case .lastPlay: a.lastPlay != b.lastPlay
        case .lastScorer: a.lastScorer != b.lastScorer
        }
    }
}

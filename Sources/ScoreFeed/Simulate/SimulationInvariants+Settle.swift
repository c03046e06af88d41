import Foundation
import ScoreFeedModel

extension SimulationInvariants {
    /// How long the policy holds the end of a decided fourth period or overtime for the game's
    /// end that follows it (``Coalescer/Configuration/settle``'s default, written out: the check
    /// must not read the value it checks).
    static let expectedSettle: TimeInterval = 3

    /// A `serve` game whose last period ends decided and whose end line comes right after it,
    /// well within the policy's settle: no push shows that period's end, since the final follows
    /// it at once (a push spent on a state the screen shows for a second or two, and a priority 10
    /// from the hour's budget near the end). Read from when the input handed each line to the
    /// service (``reads``). Held only where nothing else stands in the way: no join, no stall of
    /// the input, no instance starting or stopping near it, no trouble of the sender or the disk,
    /// no slow sender. `pushes`: the game's records, each once.
    mutating func checkDecidedEndSettled(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard plan.path == .serve, case .plays = plan.fate, plan.join == nil, day.sink.slowest == 0, let ending = plan.game.decidedEnd
        else { return }
        let periodEnd = plan.firstAction.addingTimeInterval(ending.periodEnd)
        let gameEnd = plan.firstAction.addingTimeInterval(ending.gameEnd)
        let room = Self.expectedSettle - 0.5
        guard gameEnd.timeIntervalSince(periodEnd) <= room else { return }
        // When the input handed each line over (the first read of the game's lines since it appeared).
        if let reads = reads?[plan.game.id] {
            guard let first = reads.first(where: { $0 >= periodEnd }), let second = reads.first(where: { $0 >= gameEnd }),
                  second.timeIntervalSince(first) <= room
            else { return }
        }
        guard nothingInTheWay(of: plan, in: periodEnd.addingTimeInterval(-10)..<gameEnd.addingTimeInterval(10)) else { return }
        let shown = pushes.filter {
            $0.state.phase == .endOfPeriod && $0.state.period == ending.period && $0.state.homeScore != $0.state.awayScore
        }
        let start = day.start
        check(shown.isEmpty,
              "game \(plan.game.id) (serve): period \(ending.period) ended decided at +\(Int(periodEnd.timeIntervalSince(start))) s and the game's end "
                  + "came \(JSONText.number(gameEnd.timeIntervalSince(periodEnd))) s later, within the policy's settle (\(Int(Self.expectedSettle)) s); "
                  + "\(shown.map { "seq \($0.seq)" }.joined(separator: ", ")) showed the period's end")
    }

    /// Whether nothing but the policy holds `plan`'s pushes in `window`: no stall of its input, no
    /// trouble of the sender (with its game's own) or of the disk, no instance starting, killed or
    /// stopping in it.
    func nothingInTheWay(of plan: SimulatedDay.Game, in window: Range<Date>) -> Bool {
        let troubles = plan.stalls + senderTroubles(for: plan.game.id) + diskTroubles
        return !troubles.contains(where: { $0.overlaps(window) }) && !instances.contains(where: window.contains)
            && !kills.contains(where: { $0.map(window.contains) ?? false }) && !day.restarts.contains(where: { window.contains($0.at) })
    }
}

import Foundation

/// The final on time: a played game's end goes once the service has what ends it.
extension SimulationInvariants {
    /// A played game's final end is on a push the sender has within ``freshnessSlack`` (and the
    /// day's least time between pushes) of the moment the service had what ends it: `serve`'s
    /// last line, or the poll that had given the poller both the play-by-play listing the last
    /// action and the boxscore saying final (``SimulatedCDN/finalsKnown``; the end may come
    /// sooner, on the play-by-play alone). The troubles that excuse a late score
    /// (``freshnessTroubles(_:wait:)``) excuse a late end, until they are over; the days and
    /// games ``checkFreshness(_:_:)`` leaves out are left out. What the freshness check cannot
    /// see: an end whose score was already shown, held for nothing (a checkpoint's retry after
    /// the disk has room that waits out an earlier spell's failures, say). `pushes`: the game's
    /// records, each once.
    mutating func checkFinalOnTime(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard plan.fate == .plays, timesItsNews(plan),
              let known = plan.path == .serve ? plan.lastAction : finalsKnown[plan.game.id]?.first,
              known > plan.join ?? .distantPast
        else { return }
        let wait = Self.freshnessSlack + day.minInterval
        let (troubles, killedHolding) = freshnessTroubles(plan, wait: wait)
        let from = known.addingTimeInterval(-wait)
        let until = Self.excused(from: from, until: known.addingTimeInterval(wait), by: troubles, wait: wait)
        guard !killedHolding.contains(where: { $0.overlaps(from..<until) }) else { return }
        let end = pushes.first { $0.event == .end && $0.state.phase == .final }
        let lag = end.map { (firstDelivery[$0.key] ?? $0.sentAt).timeIntervalSince(known) }
        let since = Int(known.timeIntervalSince(day.start))
        check(lag.map { $0 <= until.timeIntervalSince(known) } ?? false,
              "game \(plan.game.id) (\(plan.path.rawValue)): its final was known at +\(since) s, "
                  + (end.map { "its end (seq \($0.seq)) went \(JSONText.number(lag ?? 0)) s later" } ?? "no end went")
                  + "; at most \(Int(until.timeIntervalSince(known))) s")
    }
}

import Foundation

extension SimulationInvariants {
    /// A game whose checkpoint the next instance could not use (damaged, or in a format it does
    /// not read) starts afresh, but numbers its pushes on past every one made before: from its
    /// journal's whole lines, else from what the snapshot still says, else a jump a million ahead
    /// (``GameService``'s restore). A number named again would be a second push under it for the
    /// sender and the records. Counted from the last empty state directory before (whose instance
    /// numbers from 1). `pushes`: the game's records, each once.
    mutating func checkNumberingPastALostCheckpoint(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        let id = plan.game.id, dayStart = day.start
        guard let lost = gameResets[id] else { return }
        let resets = resets
        for start in lost where !resets.contains(start) {
            let since = resets.last { $0 <= start } ?? .distantPast
            guard let highest = pushes.lazy.filter({ since <= $0.sentAt && $0.sentAt < start }).map(\.seq).max() else { continue }
            let until = resets.first { $0 > start } ?? .distantFuture
            for push in pushes where start <= push.sentAt && push.sentAt < until {
                check(push.seq > highest,
                      "game \(id): \(push.event.rawValue) seq \(push.seq) at +\(Int(push.sentAt.timeIntervalSince(dayStart))) s, made after a checkpoint "
                          + "the instance could not use, is numbered no higher than seq \(highest), made before it")
            }
        }
    }
}

import Foundation
import ScoreFeedModel

extension SimulationInvariants {
    /// A record's `diff` says what changed since the push before it on its lane (the push record
    /// contract), across kills and restarts: where the record before it (seq one less, in the
    /// same state directory) is at hand, the diff is the one from that record's state to this
    /// one's. The records of one decision (a push-to-start and its update, a priority 10 and its
    /// copy) share theirs. Skipped where the record before is not at hand (an update the sender's
    /// queue or the outbox superseded), or where a seq names two bodies (a power cut lost the
    /// decision that made the first), and for fields either record trimmed to fit.
    /// `pushes`: the game's records, each once.
    mutating func checkDiffs(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        for group in Dictionary(grouping: pushes, by: directory(of:)).values {
            var bySeq: [Int: PushRecord] = [:]
            var twice: Set<Int> = []
            for push in group where bySeq.updateValue(push, forKey: push.seq) != nil { twice.insert(push.seq) }
            for push in group.sorted(by: { $0.seq < $1.seq }) where !twice.contains(push.seq) && !twice.contains(push.seq - 1) {
                guard let before = bySeq[push.seq - 1] else { continue }
                // One decision's records.
                if before.sentAt == push.sentAt, push.showsSameState(as: before) { continue }
                let trimmed = Set(before.trimmed + push.trimmed)
                func kept(_ diff: Diff) -> [Diff.Change] { diff.changes.filter { !trimmed.contains($0.field.rawValue) } }
                let expected = kept(Diff(from: before.state, to: push.state)), said = kept(push.diff)
                check(said == expected,
                      "game \(plan.game.id): \(push.event.rawValue) seq \(push.seq)'s diff says \(Self.describe(said)), but from seq \(push.seq - 1)'s state it is \(Self.describe(expected))")
            }
        }
    }

    /// A diff's changes as the record spells them (`field [old, new]`, each value as its JSON
    /// line writes it, `JSONBytes.diffValue`), for a violation's line.
    static func describe(_ changes: [Diff.Change]) -> String {
        func spelled(_ value: Diff.Value) -> String {
            var out = JSONBytes(capacity: 32)
            out.diffValue(value)
            return out.string()
        }
        return changes.isEmpty ? "nothing" : changes.map { "\($0.field.rawValue) [\(spelled($0.old)), \(spelled($0.new))]" }.joined(separator: ", ")
    }
}

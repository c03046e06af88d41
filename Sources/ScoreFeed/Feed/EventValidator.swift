import Foundation
import ScoreFeedModel

/// Checks each event against the game so far before it is folded, and is the one record of
/// what a game has applied: every accepted event's identity (`seq`) with a digest of its content.
/// Pure value type.
///
/// Identity is not order: an event whose `seq` was applied before is a duplicate at any distance
/// when its content is the same, and an edit of that event when its content differs. Rejected
/// events are reported and skipped; the fold never sees an impossible event.
public struct EventValidator: Sendable {
    /// What to do with one event.
    public enum Verdict: Hashable, Sendable {
        case accept
        /// Already applied with the same content; ignored and counted, not an error.
        case duplicate(ScoreFeedError)
        /// Applied before with other content: the feed edited it. `previous` is what was applied.
        case edit(previous: AppliedEvent)
        case reject(ScoreFeedError)
    }

    /// What the validator keeps of an applied event: enough to tell a repeat from an edit and to
    /// take back the points of an edited score.
    public struct AppliedEvent: Hashable, Sendable {
        /// ``GameEvent/digest`` of the content applied last; nil when unknown (a game resumed from
        /// a format-1 checkpoint, which kept only the numbers): any content is then a repeat.
        public var digest: UInt64?
        /// Digests of earlier versions of the event: a producer that sends an old version again
        /// (after a restart, or a second producer a poll behind) repeats it, it does not edit back.
        public var earlier: [UInt64] = []
        public var team: TeamSide?
        public var points: Int

        public init(_ event: GameEvent) {
            digest = event.digest
            team = event.team
            points = event.kind.points
        }

        /// An event known only by its number.
        init(unknown: ()) {
            digest = nil
            team = nil
            points = 0
        }

        /// This event edited to `event`.
        func edited(to event: GameEvent) -> AppliedEvent {
            var next = AppliedEvent(event)
            next.earlier = earlier + (digest.map { [$0] } ?? [])
            return next
        }

        /// Whether `event` says again what was applied now or before.
        func isRepeat(of event: GameEvent) -> Bool {
            guard let digest else { return true }
            let seen = event.digest
            return seen == digest || earlier.contains(seen)
        }
    }

    /// Applied events by `seq`.
    public internal(set) var applied: [Int: AppliedEvent] = [:]
    var period = 0
    var ended = false

    public init() {}

    /// A validator that knows only which numbers were applied (a format-1 checkpoint's).
    init(applied numbers: Set<Int>, period: Int, ended: Bool) {
        for seq in numbers { applied[seq] = AppliedEvent(unknown: ()) }
        self.period = period
        self.ended = ended
    }

    /// The room a game's table of applied events starts with: a quarter's first minutes. A
    /// whole game's room at once (about 768 entries, 56 KB) would be touched a page at a time as
    /// the game goes on, each page's first write a page fault on the live path, and would cost an
    /// idle game most of its memory; grown by doubling, a whole game hashes its entries again
    /// four times, a few microseconds in all.
    static let firstRoom = 64

    /// Length of `period` in seconds: 12:00 quarters, 5:00 overtimes.
    public static func length(ofPeriod period: Int) -> Double {
        period <= 4 ? 720 : 300
    }

    /// Whether the feed's `gameEnd` has been applied (the game's end push is another matter:
    /// ``GameSession/hasEnded``).
    public var sawGameEnd: Bool { ended }

    /// Checks `event` (found at `index` in the feed) and records it when accepted or edited.
    public mutating func check(_ event: GameEvent, index: Int) -> Verdict {
        let verdict = self.verdict(event, index: index)
        record(event, as: verdict)
        return verdict
    }

    /// Records `event` as ``verdict(_:index:)`` judged it (nothing changed in between).
    public mutating func record(_ event: GameEvent, as verdict: Verdict) {
        switch verdict {
        case .accept:
            // Room for the first events at once: the table is not grown (and every entry hashed
            // again) five times on the way to them.
            if applied.capacity == 0 { applied.reserveCapacity(Self.firstRoom) }
            applied[event.seq] = AppliedEvent(event)
            period = event.period
            if case .gameEnd = event.kind { ended = true }
        case .edit(let previous):
            applied[event.seq] = previous.edited(to: event)
        case .duplicate, .reject:
            break
        }
    }

    /// What ``check(_:index:)`` would say about `event`, without recording anything.
    public func verdict(_ event: GameEvent, index: Int) -> Verdict {
        let location = ScoreFeedError.Location(eventIndex: index, sequence: event.seq)
        func reject(_ code: ScoreFeedError.Code, _ message: String) -> Verdict {
            .reject(ScoreFeedError(code, message, at: location))
        }
        let previous = applied[event.seq]
        if let previous, previous.isRepeat(of: event) {
            return .duplicate(ScoreFeedError(
                .duplicateSequence, "sequence \(event.seq) was already applied; ignored", at: location))
        }
        if ended {
            return reject(.afterGameEnd, "\(previous == nil ? "" : "an edit of ")\(event.kind.typeName) after the game ended")
        }
        guard (1...99).contains(event.period) else {
            return reject(.invalidValue, "period \(event.period) is not between 1 and 99")
        }
        // An edit may name an earlier period: it changes an event of that period.
        if previous == nil, event.period < period {
            return reject(.periodBackwards, "period \(event.period) after period \(period)")
        }
        let length = Self.length(ofPeriod: event.period)
        guard event.clock.isFinite, event.clock >= 0, event.clock <= length else {
            return reject(
                .clockOutOfRange,
                "clock \(GameClockText.format(event.clock)) outside 0:00–\(GameClockText.format(length)) of period \(event.period)")
        }
        switch event.kind {
        case .fieldGoal(let points, _):
            if event.team == nil { return reject(.missingTeam, "field goal without a team") }
            if !(2...3).contains(points) {
                return reject(.pointsOutOfRange, "field goal worth \(points) points; expected 2 or 3")
            }
        case .freeThrow(let attempt, let of, _, let points):
            if event.team == nil { return reject(.missingTeam, "free throw without a team") }
            if !(1...3).contains(points) {
                return reject(.pointsOutOfRange, "free throw worth \(points) points; expected 1–3")
            }
            if !(1...3).contains(of) || !(1...of).contains(attempt) {
                return reject(.invalidValue, "free throw \(attempt) of \(of)")
            }
        case .correction(let points):
            if event.team == nil { return reject(.missingTeam, "score correction without a team") }
            if points == 0 || abs(points) > 100 {
                return reject(.pointsOutOfRange, "correction of \(points) points; expected ±1–100")
            }
        case .gameEnd where previous != nil:
            return reject(.invalidValue, "an edit cannot turn an event into the game's end")
        default:
            break
        }
        if let previous { return .edit(previous: previous) }
        return .accept
    }
}

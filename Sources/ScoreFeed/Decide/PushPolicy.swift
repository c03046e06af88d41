import Foundation
import ScoreFeedModel

/// The pure decision step between the fold and the renderer: given what changed and the time,
/// it says whether to hold, push or end. The engine owns one per game and hands it `now`.
///
/// ``EveryChangePolicy`` pushes each visible change; a budget-aware coalescer implements the
/// same protocol.
public protocol PushPolicy: Sendable {
    /// Called after each accepted event has been folded, when the event is a moment of its own
    /// (replay, feed time): the policy takes it in and decides at once.
    mutating func observe(_ change: StateChange, now: Date) -> PushDecision
    /// Takes in one change of an arrival without deciding. Live, what arrives together (a poll's
    /// snapshot, the lines read in one go, the answer after an outage) is one moment: only the
    /// state after all of it can still be shown, so the policy decides once, at
    /// ``decide(now:)``, after the arrival's last change.
    mutating func absorb(_ change: StateChange, now: Date)
    /// Decides at `now` on everything taken in so far: the end of an arrival.
    mutating func decide(now: Date) -> PushDecision
    /// The next moment the policy wants ``tick(now:)`` called (a held push coming due), if any.
    var deadline: Date? { get }
    /// Called at or after ``deadline``.
    mutating func tick(now: Date) -> PushDecision
    /// Called when the feed ends without more events: push whatever is still held, at once. No
    /// call comes after it to send a push held back, so a least time between pushes
    /// (``Coalescer/Configuration/minInterval``) does not hold it: the last state is never dropped.
    mutating func finish(now: Date) -> PushDecision
    /// Whether the policy has sent the game's `end`: it decides nothing more. The one record of
    /// a game's end for the engine (``GameSession/hasEnded``).
    var hasEnded: Bool { get }
    /// The game was called off (postponed or suspended: its `end` went out) and its feed came
    /// back: the policy decides again from the next change (the activity that ended is gone, so
    /// the next push starts or updates a new one). The budget it spent stays spent.
    mutating func reopen(now: Date)
    /// Called when a priority 10 the policy did not ask for went out (the renderer's
    /// push-to-start, which Apple wants at priority 10): a budget-aware policy counts it.
    mutating func countPriority10(at now: Date)
    /// Called when a priority-10 update the policy decided at `sentAt` (beyond its assumed budget,
    /// or within it) was dropped before any receiver had it (a newer state superseded it while the
    /// game waited for its channel, or in the sender's queue): Apple never counts it, so a
    /// budget-aware policy gives it back, and a later push (the final's end) may go at priority 10.
    mutating func refundPriority10(at sentAt: Date, beyondBudget: Bool)
}

extension PushPolicy {
    public mutating func countPriority10(at now: Date) {}
    public mutating func refundPriority10(at sentAt: Date, beyondBudget: Bool) {}
}

/// One folded event: the event, the state before it and after it, and what it changed.
public struct StateChange: Sendable {
    public var event: GameEvent {
        get { storage.fields.event }
        set { SharedFields.own(&storage).fields.event = newValue }
    }
    public var before: GameState {
        get { storage.fields.before }
        set { SharedFields.own(&storage).fields.before = newValue }
    }
    public var diff: Diff {
        get { storage.fields.diff }
        set { SharedFields.own(&storage).fields.diff = newValue }
    }
    /// The state after the event.
    public var state: GameState {
        get { storage.fields.state }
        set { SharedFields.own(&storage).fields.state = newValue }
    }
    /// A change is handed from the fold through the session to the policy and the renderer: its
    /// copies share the fields (``SharedFields``).
    private var storage: SharedFields<Fields>

    private struct Fields: Sendable {
        var event: GameEvent
        var before: GameState
        var diff: Diff
        var state: GameState
    }

    /// (`before` and `after` are taken, not copied: a caller's last use of them hands them over.)
    public init(event: GameEvent, before: consuming GameState, after: consuming GameState) {
        let diff = Diff(from: before, to: after)
        storage = SharedFields(Fields(event: event, before: before, diff: diff, state: after))
    }

    /// Whether the event moved the score.
    public var changesScore: Bool {
        state.homeScore != before.homeScore || state.awayScore != before.awayScore
    }
}

extension StateChange: CustomReflectable {
    /// The fields themselves, as a plain struct shows them (not the storage).
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}

/// What the policy wants done now.
public enum PushDecision: Hashable, Sendable {
    /// Nothing to send yet; changes (if any) stay pending.
    case hold
    /// Send the current state.
    case push(Push)
}

/// A push the policy asked for; the renderer turns it into an APNs request.
public struct Push: Hashable, Sendable {
    public enum Event: String, Hashable, Sendable, Codable {
        case start, update, end

        /// Hashes the case, not its name: a raw-value enum hashes its raw value by default, a
        /// string hashed at every push delivered (``GameSession/Statistics/handed``).
        public func hash(into hasher: inout Hasher) {
            hasher.combine(self == .start ? 0 : self == .update ? 1 : 2)
        }
    }

    public var event: Event
    /// APNs priority: 10 counts against the activity's budget, 5 does not but arrives late.
    public var priority: Int
    /// An alert to show with this push (never on priority 5).
    public var alert: AlertKind?
    /// Why it is sent, for people reading a replay.
    public var reason: String
    /// Send a priority-5 copy right behind this priority 10: if the device drops the first (a
    /// budget smaller than assumed), the copy still brings the state, late by the priority-5 delay.
    public var priority5Copy = false

    /// Ends the reason of a priority 10 sent beyond the budget the policy assumes (while the true
    /// one may be larger): a device at the assumed budget drops it and shows its priority 5.
    public static let beyondBudget = "beyond the assumed budget"

    /// Whether `reason` says ``beyondBudget``: a byte search (the marker is ASCII; Foundation's
    /// `contains` compares by Unicode rules, which costs more than the rest of taking a delivery).
    public static func isBeyondBudget(_ reason: String) -> Bool {
        ByteSearch.contains(reason, beyondBudget)
    }

    /// The reason of a priority 10's priority-5 copy (``priority5Copy``).
    public static let copyReason = "priority-5 copy of the push before, in case the budget dropped it"

    public init(event: Event, priority: Int, alert: AlertKind? = nil, reason: String) {
        self.event = event
        self.priority = priority
        self.alert = priority == 5 ? nil : alert
        self.reason = reason
    }
}

/// Alerts the renderer knows how to word.
public enum AlertKind: String, Hashable, Sendable, Codable {
    case final
    case overtime
    case leadChange
}

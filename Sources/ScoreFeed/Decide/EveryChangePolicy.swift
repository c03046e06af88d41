import Foundation
import ScoreFeedModel

/// Pushes at priority 10 whenever the lock screen would look different, and ends with the game.
///
/// Clock and possession changes alone are not pushed (the widget counts the clock down by
/// itself); they ride along with the next push. This is the simple policy sample apps use and
/// spends the budget early; it is the baseline the coalescer improves on.
public struct EveryChangePolicy: PushPolicy {
    /// Whether folded changes have not been pushed yet.
    private var pending = false
    /// Whether a visible change waits (an arrival's changes are pushed once, at its end).
    private var visible = false
    /// Whether the feed's end was taken in and its `end` is still to go.
    private var ending = false
    public private(set) var hasEnded = false
    /// What the `end` says it is: "final", or "postponed" / "suspended" for a game called off.
    private var endReason = "final"

    public init() {}

    public var deadline: Date? { nil }

    public mutating func observe(_ change: StateChange, now: Date) -> PushDecision {
        absorb(change, now: now)
        return decide(now: now)
    }

    public mutating func absorb(_ change: StateChange, now: Date) {
        guard !hasEnded, !ending else { return }
        if case .gameEnd = change.event.kind {
            ending = true
            endReason = change.state.phase.isCalledOff ? change.state.phase.rawValue : "final"
        }
        guard !change.diff.isEmpty else { return }
        pending = true
        if change.diff.isVisible { visible = true }
    }

    public mutating func decide(now: Date) -> PushDecision {
        guard !hasEnded else { return .hold }
        if ending {
            pending = false
            hasEnded = true
            return .push(Push(event: .end, priority: 10, alert: .final, reason: endReason))
        }
        guard visible else { return .hold }
        pending = false
        visible = false
        return .push(Push(event: .update, priority: 10, reason: "every change"))
    }

    public mutating func tick(now: Date) -> PushDecision { .hold }

    public mutating func reopen(now: Date) {
        hasEnded = false
        ending = false
    }

    public mutating func finish(now: Date) -> PushDecision {
        guard pending else { return .hold }
        pending = false
        return .push(Push(event: .update, priority: 10, reason: "feed ended; last state"))
    }
}

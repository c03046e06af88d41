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
    public private(set) var hasEnded = false

    public init() {}

    public var deadline: Date? { nil }

    public mutating func observe(_ change: StateChange, now: Date) -> PushDecision {
        guard !hasEnded else { return .hold }
        if case .gameEnd = change.event.kind {
            pending = false
            hasEnded = true
            return .push(Push(event: .end, priority: 10, alert: .final, reason: "final"))
        }
        guard !change.diff.isEmpty else { return .hold }
        guard change.diff.isVisible else {
            pending = true
            return .hold
        }
        pending = false
        return .push(Push(event: .update, priority: 10, reason: "every change"))
    }

    public mutating func tick(now: Date) -> PushDecision { .hold }

    public mutating func finish(now: Date) -> PushDecision {
        guard pending else { return .hold }
        pending = false
        return .push(Push(event: .update, priority: 10, reason: "feed ended; last state"))
    }
}

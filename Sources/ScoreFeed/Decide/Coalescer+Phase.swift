import Foundation
import ScoreFeedModel

extension Coalescer {
    /// Where a game is for the coalescer. Each case holds only what matters in it, so a push, the
    /// game's end or a timer moves the whole phase at once.
    enum Phase: Hashable, Sendable {
        /// A game taken over whose earlier pushes are unknown (a lost checkpoint): at its first
        /// event the hour's budget counts as spent, then it is idle.
        case takingOver
        /// The screen has been sent everything worth a push.
        case idle(Waits)
        /// Visible changes wait to be pushed.
        case pending(Unsent, Waits)
        /// The feed's game end came: the `end` waits only for the minimum interval.
        case ending(Waits)
        /// The `end` went out; nothing more is pushed.
        case ended

        /// When the coalescer next wants to be ticked: the earlier of its waits.
        var deadline: Date? {
            switch self {
            case .takingOver, .ended: return nil
            case .idle(let waits), .pending(_, let waits), .ending(let waits): return waits.next
            }
        }

        var isEnding: Bool {
            if case .ending = self { true } else { false }
        }

        /// What waits to be pushed, in ``pending(_:_:)``.
        var unsent: Unsent? {
            if case .pending(let unsent, _) = self { unsent } else { nil }
        }

        /// The phase's timers (none in ``takingOver`` and ``ended``, where setting them does nothing).
        var waits: Waits {
            get {
                switch self {
                case .takingOver, .ended: return Waits()
                case .idle(let waits), .pending(_, let waits), .ending(let waits): return waits
                }
            }
            set {
                switch self {
                case .takingOver, .ended: break
                case .idle: self = .idle(newValue)
                case .pending(let unsent, _): self = .pending(unsent, newValue)
                case .ending: self = .ending(newValue)
                }
            }
        }
    }

    /// Visible changes not yet pushed: the most significant of them, and an alert they earned.
    struct Unsent: Hashable, Sendable {
        var significance = Significance.none
        var alert: AlertKind?
    }

    /// What a wanted push waits for.
    struct Waits: Hashable, Sendable {
        /// The decisive end of the 4th or of an overtime waits this long for the game's end, so
        /// the final goes out as one push.
        var settleUntil: Date?
        /// The minimum interval since the last push ends then.
        var interval: Date?

        var next: Date? {
            guard let settleUntil else { return interval }
            guard let interval else { return settleUntil }
            return min(settleUntil, interval)
        }
    }
}

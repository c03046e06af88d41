import Foundation

/// The game clock as a widget can draw it without further pushes.
///
/// While it runs the state carries the moment it reaches zero, so the widget counts down on its
/// own (`Text(timerInterval:countsDown:)`); while stopped it carries the seconds left.
public enum GameClock: Codable, Hashable, Sendable {
    /// Stopped with `seconds` left in the period.
    case stopped(seconds: Double)
    /// Running; reaches zero at `endsAt`.
    case running(endsAt: Date)

    /// Seconds left at `now`, never negative.
    public func secondsRemaining(at now: Date) -> Double {
        switch self {
        case .stopped(let seconds):
            return seconds
        case .running(let endsAt):
            return max(0, endsAt.timeIntervalSince(now))
        }
    }

    public var isRunning: Bool {
        if case .running = self { return true }
        return false
    }
}

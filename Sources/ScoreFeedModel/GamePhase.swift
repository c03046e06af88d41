/// Where the game stands, so the widget can say "Halftime" or "Final" instead of a frozen clock.
public enum GamePhase: String, Codable, Hashable, Sendable, CaseIterable {
    /// Before the opening tip.
    case pregame
    /// A period is being played.
    case live
    /// Between periods other than halftime, including before an overtime.
    case endOfPeriod
    /// Between the second and third periods.
    case halftime
    /// The game is over; the score is final.
    case final
    /// Called off before it started (postponed or cancelled): the activity ends without a score.
    case postponed
    /// Stopped and not finished: the feed went silent while the game was live (or it was
    /// suspended); the activity ends with the score it had. The game may be completed another day.
    case suspended

    /// Whether the game reached an end that is not a final: postponed or suspended.
    public var isCalledOff: Bool { self == .postponed || self == .suspended }
}

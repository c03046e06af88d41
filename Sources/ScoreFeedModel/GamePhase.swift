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
}

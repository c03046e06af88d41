/// Which of the two teams: the lock screen lays out away on the left, home on the right.
public enum TeamSide: String, Codable, Hashable, Sendable, CaseIterable {
    case home
    case away

    /// The other team.
    public var opponent: TeamSide { self == .home ? .away : .home }
}

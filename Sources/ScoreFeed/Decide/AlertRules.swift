/// Which moments get an alert (a banner and sound) with their push. Alerts only ride on
/// priority-10 pushes and always have a title and a body.
public struct AlertRules: Hashable, Sendable, Codable {
    /// The final score.
    public var final: Bool
    /// The start of each overtime.
    public var overtime: Bool
    /// A lead change or tie in the last 2:00 of the 4th or an overtime.
    public var lateLeadChange: Bool

    public init(final: Bool = true, overtime: Bool = true, lateLeadChange: Bool = true) {
        self.final = final
        self.overtime = overtime
        self.lateLeadChange = lateLeadChange
    }

    /// No alerts at all.
    public static let none = AlertRules(final: false, overtime: false, lateLeadChange: false)
}

import Foundation

/// A team as the lock screen shows it.
public struct Team: Codable, Hashable, Sendable {
    /// The feed's team identifier, for example `1610612742`.
    public var id: String
    /// Three-letter code, for example `DAL`.
    public var tricode: String
    /// Nickname, for example `Mavericks`.
    public var name: String
    /// Home city, for example `Dallas`.
    public var city: String
    /// Primary color as `#RRGGBB`, so the widget can tint without shipping assets per team.
    public var primaryColor: String

    public init(id: String, tricode: String, name: String, city: String, primaryColor: String) {
        self.id = id
        self.tricode = tricode
        self.name = name
        self.city = city
        self.primaryColor = primaryColor
    }
}

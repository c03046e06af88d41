import Foundation
import ScoreFeedModel

/// The model's types read by the byte reader: every field required, as their `Decodable`
/// conformances require; a missing, `null`, mistyped or repeated field is declined.
extension JSONScanner {
    /// A ``Team``: `id`, `tricode`, `name`, `city`, `primaryColor`, all strings.
    mutating func team(depth: Int) throws(Declined) -> Team {
        var id: String?, tricode: String?, name: String?, city: String?, primaryColor: String?
        if try beginObject() {
            repeat {
                let key = try key()
                if key.is("id") {
                    try fresh(id)
                    id = try string()
                } else if key.is("tricode") {
                    try fresh(tricode)
                    tricode = try string()
                } else if key.is("name") {
                    try fresh(name)
                    name = try string()
                } else if key.is("city") {
                    try fresh(city)
                    city = try string()
                } else if key.is("primaryColor") {
                    try fresh(primaryColor)
                    primaryColor = try string()
                } else {
                    try skipValue(depth: depth + 1)
                }
            } while try nextMember()
        }
        guard let id, let tricode, let name, let city, let primaryColor else { throw Declined() }
        return Team(id: id, tricode: tricode, name: name, city: city, primaryColor: primaryColor)
    }

    /// A ``GameAttributes``: `gameId`, `league`, `home`, `away`.
    mutating func gameAttributes(depth: Int) throws(Declined) -> GameAttributes {
        var gameId: String?, league: String?, home: Team?, away: Team?
        if try beginObject() {
            repeat {
                let key = try key()
                if key.is("gameId") {
                    try fresh(gameId)
                    gameId = try string()
                } else if key.is("league") {
                    try fresh(league)
                    league = try string()
                } else if key.is("home") {
                    try fresh(home)
                    home = try team(depth: depth + 1)
                } else if key.is("away") {
                    try fresh(away)
                    away = try team(depth: depth + 1)
                } else {
                    try skipValue(depth: depth + 1)
                }
            } while try nextMember()
        }
        guard let gameId, let league, let home, let away else { throw Declined() }
        return GameAttributes(gameId: gameId, league: league, home: home, away: away)
    }

    /// A ``FinalScore``: `home` and `away`, integers.
    mutating func finalScore(depth: Int) throws(Declined) -> FinalScore {
        var home: Int?, away: Int?
        if try beginObject() {
            repeat {
                let key = try key()
                if key.is("home") {
                    try fresh(home)
                    home = try int()
                } else if key.is("away") {
                    try fresh(away)
                    away = try int()
                } else {
                    try skipValue(depth: depth + 1)
                }
            } while try nextMember()
        }
        guard let home, let away else { throw Declined() }
        return FinalScore(home: home, away: away)
    }

    /// Declines a field seen before (`JSONDecoder` keeps the first of repeated keys; the byte
    /// reader leaves such input to it).
    @inline(__always)
    func fresh<T>(_ current: T?) throws(Declined) {
        guard current == nil else { throw Declined() }
    }
}

import Foundation
import ScoreFeedModel

/// The NBA's `todaysScoreboard_00.json`: which games are on today, when they tip off, and
/// whether they are over.
public struct LiveScoreboard: Hashable, Sendable {
    public struct Game: Hashable, Sendable {
        public var gameId: String
        public var status: LiveBoxscore.Status
        /// `gameStatusText`: "PPD" for a postponed game.
        public var statusText: String?
        public var tipOff: Date?
        /// Who plays, when the scoreboard names both teams (`homeTeam`, `awayTeam`).
        public var attributes: GameAttributes?

        /// Whether the scoreboard calls the game off (postponed or cancelled).
        public var isCalledOff: Bool { LiveBoxscore.callsOff(status: status, text: statusText) }
    }

    public var games: [Game]

    /// Reads the scoreboard's bytes; `url` names it in errors.
    public static func decode(_ data: Data, url: String) throws(ScoreFeedError) -> LiveScoreboard {
        struct Root: Decodable {
            var scoreboard: Board?
            struct Board: Decodable { var games: [Entry]? }
            struct Entry: Decodable {
                var gameId: String?
                var gameStatus: Int?
                var gameStatusText: String?
                var gameTimeUTC: String?
                var homeTeam: LiveDataFormat.Root.Team?
                var awayTeam: LiveDataFormat.Root.Team?
            }
        }
        let root: Root
        do {
            root = try JSONDecoder().decode(Root.self, from: data)
        } catch {
            throw ScoreFeedError(.malformedJSON, "the scoreboard is not JSON (\(data.count) bytes; cut or garbled)", at: .init(file: url))
        }
        guard let entries = root.scoreboard?.games else {
            throw ScoreFeedError(.missingField, "the scoreboard has no \"scoreboard.games\"", at: .init(file: url))
        }
        return LiveScoreboard(games: entries.compactMap { entry in
            guard let id = entry.gameId, !id.isEmpty else { return nil }
            var attributes: GameAttributes?
            if let home = entry.homeTeam, let away = entry.awayTeam, let homeId = home.teamId, let awayId = away.teamId, homeId != awayId {
                attributes = GameAttributes(
                    gameId: id,
                    home: NBAFeed.team(id: homeId, tricode: home.teamTricode, name: home.teamName, city: home.teamCity, home: true),
                    away: NBAFeed.team(id: awayId, tricode: away.teamTricode, name: away.teamName, city: away.teamCity, home: false))
            }
            return Game(
                gameId: id, status: entry.gameStatus.flatMap(LiveBoxscore.Status.init(rawValue:)) ?? .scheduled,
                statusText: entry.gameStatusText,
                tipOff: entry.gameTimeUTC.flatMap(ISOTime.seconds).map(Date.init(timeIntervalSince1970:)), attributes: attributes)
        })
    }
}

import Foundation
import ScoreFeedModel

/// Reads the NBA's liveData play-by-play (`{"meta", "game": {"gameId", "actions": [...]}}`),
/// with `boxscore_<gameId>.json` beside it (when present) for team names and the final.
///
/// Actions are ordered by `orderNumber` (inserted actions carry out-of-order `actionNumber`s).
/// The feed's running score is authoritative: where the fold disagrees with it, a correction
/// event brings the score to the feed's and the discrepancy is counted.
public enum LiveDataFormat {
    /// Whether `data` looks like liveData play-by-play.
    static func matches(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.contains("\"actions\"") && head.contains("\"game\"") && !head.contains("\"resultSets\"")
            && !head.contains("\"pageProps\"")
    }

    public static func decode(_ data: Data, file: String? = nil, boxscore: Data? = nil) throws(ScoreFeedError) -> FeedDocument {
        let root: Root
        do {
            root = try JSONDecoder().decode(Root.self, from: data)
        } catch let error as DecodingError {
            throw DecodingErrorText.error(error, data: data, file: file)
        } catch {
            throw ScoreFeedError(.malformedJSON, "\(error)", at: .init(file: file))
        }
        let box = boxscore.flatMap { try? JSONDecoder().decode(Boxscore.self, from: $0) }?.game
        var rejected: [ScoreFeedError] = []
        var actions: [(index: Int, action: Action)] = []
        for (index, slot) in root.game.actions.enumerated() {
            switch slot.result {
            case .success(let action): actions.append((index, action))
            case .failure(var error):
                error.location.file = file
                error.location.eventIndex = index
                rejected.append(error)
            }
        }
        actions.sort { ($0.action.orderNumber ?? Double($0.action.actionNumber ?? 0)) < ($1.action.orderNumber ?? Double($1.action.actionNumber ?? 0)) }

        let homeId = box?.homeTeam.teamId ?? inferHomeTeam(actions.map(\.action))
        let attributes = GameAttributes(
            gameId: root.game.gameId, league: "NBA",
            home: team(box?.homeTeam, fallbackId: homeId, actions: actions.map(\.action), home: true),
            away: team(box?.awayTeam, fallbackId: nil, actions: actions.map(\.action), home: false, homeId: homeId))

        var mapper = Mapper(homeId: homeId, file: file)
        for (index, action) in actions {
            do {
                try mapper.add(action, index: index)
            } catch {
                rejected.append(error)
            }
        }
        var finalScore = mapper.feedScore
        if let box { finalScore = FinalScore(home: box.homeTeam.score ?? finalScore.home, away: box.awayTeam.score ?? finalScore.away) }
        var document = FeedDocument(
            attributes: attributes, events: mapper.events, positions: mapper.positions, rejected: rejected,
            finalScore: finalScore, file: file)
        document.discrepancies = mapper.discrepancies
        document.warnings = mapper.warnings
        return document
    }

    /// The team whose scoring first moves `scoreHome` is the home team.
    static func inferHomeTeam(_ actions: [Action]) -> Int? {
        var home = 0
        for action in actions {
            guard let value = action.scoreHome.flatMap({ Int($0) }) else { continue }
            if value > home, let team = action.teamId, team != 0 { return team }
            home = value
        }
        return nil
    }

    static func team(_ box: Boxscore.Team?, fallbackId: Int?, actions: [Action], home: Bool, homeId: Int? = nil) -> Team {
        if let box {
            let known = NBATeams.all.first { $0.id == String(box.teamId) }
            return Team(
                id: String(box.teamId), tricode: box.teamTricode ?? known?.tricode ?? "???",
                name: box.teamName ?? known?.name ?? "", city: box.teamCity ?? known?.city ?? "",
                primaryColor: known?.primaryColor ?? "#1D428A")
        }
        let match = actions.first { action in
            guard let id = action.teamId, id != 0, action.teamTricode != nil else { return false }
            return home ? id == fallbackId : id != homeId
        }
        let tricode = match?.teamTricode ?? (home ? "HOME" : "AWAY")
        if let known = NBATeams.all.first(where: { $0.tricode == tricode }) { return known }
        return Team(
            id: match?.teamId.map(String.init) ?? "", tricode: tricode, name: tricode, city: "", primaryColor: "#1D428A")
    }

    // MARK: - Wire types

    struct Root: Decodable {
        var game: Game
        struct Game: Decodable {
            var gameId: String
            var actions: [ActionSlot]
        }
    }

    struct ActionSlot: Decodable {
        var result: Result<Action, ScoreFeedError>
        init(from decoder: any Decoder) throws {
            do {
                result = .success(try Action(from: decoder))
            } catch {
                result = .failure((error as? DecodingError).map(DecodingErrorText.eventError) ?? ScoreFeedError(.invalidValue, "\(error)"))
            }
        }
    }

    struct Action: Decodable {
        var actionNumber: Int?
        var orderNumber: Double?
        var clock: String?
        var timeActual: String?
        var period: Int?
        var teamId: Int?
        var teamTricode: String?
        var actionType: String?
        var subType: String?
        var descriptor: String?
        var playerNameI: String?
        var shotResult: String?
        var scoreHome: String?
        var scoreAway: String?
        var possession: Int?
        var description: String?
        var qualifiers: [String]?
    }

    struct Boxscore: Decodable {
        var game: Game
        struct Game: Decodable {
            var homeTeam: Team
            var awayTeam: Team
        }
        struct Team: Decodable {
            var teamId: Int
            var teamName: String?
            var teamCity: String?
            var teamTricode: String?
            var score: Int?
        }
    }
}

import Foundation
import ScoreFeedModel

/// Reads playbyplayv3-style action lists: an nba.com game page's data
/// (`props.pageProps.playByPlay.actions`, teams and final in `props.pageProps.game`), or the v3
/// endpoint's `{"game": {"gameId", "actions": [...]}}` (actions with `actionId` and no
/// `timeActual`).
///
/// Actions are ordered by `actionId` (v3's `actionNumber` repeats: a block shares its shot's).
/// The only wall clock is in a few descriptions ("Start of 1st Period (3:41 PM EST)", also period
/// ends and instant replays), to the minute; other actions' times are estimated between those
/// (`WallClockEstimate`) on the game's date (its game code or `gameEt`). Scores are stated only
/// on scoring actions (`""` elsewhere). The page's `gameStatus` 3 means final: a game end is added.
public enum PlayByPlayV3Format {
    /// Decodes the bytes of a game page or a v3 play-by-play response.
    public static func decode(_ data: Data, file: String? = nil) throws(ScoreFeedError) -> FeedDocument {
        try feed(data, file: file).document()
    }

    static func feed(_ data: Data, file: String?) throws(ScoreFeedError) -> NBAFeed {
        let root = try DecodingErrorText.decode(Root.self, from: data, file: file)
        let page = root.props?.pageProps
        guard let list = page?.playByPlay ?? root.game, let slots = list.actions else {
            if page?.game != nil {
                throw ScoreFeedError(
                    .unknownFormat,
                    "this nba.com game page has no play-by-play (props.pageProps.playByPlay); "
                        + "save the page's play-by-play tab, or use the game's liveData playbyplay_<gameId>.json",
                    at: .init(file: file))
            }
            throw ScoreFeedError(.missingField, "no \"actions\" list (props.pageProps.playByPlay.actions or game.actions)", at: .init(file: file))
        }
        var mapper = Mapper(slots: slots, game: page?.game, gameId: list.gameId, file: file)
        return mapper.feed()
    }

    // MARK: - Wire types

    struct Root: Decodable {
        var props: Props?
        /// The v3 endpoint's shape.
        var game: ActionList?

        struct Props: Decodable {
            var pageProps: PageProps?
        }

        struct PageProps: Decodable {
            var game: Game?
            var playByPlay: ActionList?

            enum CodingKeys: String, CodingKey { case game, playByPlay }

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                game = try? c.decodeIfPresent(Game.self, forKey: .game)
                playByPlay = try c.decodeIfPresent(ActionList.self, forKey: .playByPlay)
            }
        }
    }

    struct ActionList: Decodable {
        var gameId: String?
        var actions: [NBAActionSlot]?

        enum CodingKeys: String, CodingKey { case gameId, actions }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            gameId = c.lenientString(.gameId)
            actions = try c.decodeIfPresent([NBAActionSlot].self, forKey: .actions)
        }
    }

    /// The game page's game: ids, date, status, teams and their scores.
    struct Game: Decodable {
        var gameId: String?
        var gameCode: String?
        var gameStatus: Int?
        var gameStatusText: String?
        var gameTimeUTC: String?
        var gameEt: String?
        var homeTeamId: Int?
        var awayTeamId: Int?
        var homeTeam: LiveDataFormat.Root.Team?
        var awayTeam: LiveDataFormat.Root.Team?

        enum CodingKeys: String, CodingKey {
            case gameId, gameCode, gameStatus, gameStatusText, gameTimeUTC, gameEt, homeTeamId, awayTeamId, homeTeam, awayTeam
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            gameId = c.lenientString(.gameId)
            gameCode = c.lenientString(.gameCode)
            gameStatus = c.lenientInt(.gameStatus)
            gameStatusText = c.lenientString(.gameStatusText)
            gameTimeUTC = c.lenientString(.gameTimeUTC)
            gameEt = c.lenientString(.gameEt)
            homeTeamId = c.lenientInt(.homeTeamId)
            awayTeamId = c.lenientInt(.awayTeamId)
            homeTeam = try? c.decodeIfPresent(LiveDataFormat.Root.Team.self, forKey: .homeTeam)
            awayTeam = try? c.decodeIfPresent(LiveDataFormat.Root.Team.self, forKey: .awayTeam)
        }

        /// Final when the status says so; nil when the page does not say.
        var isFinal: Bool? {
            if let gameStatus { return gameStatus == 3 }
            return gameStatusText.map { $0.lowercased().hasPrefix("final") }
        }
    }
}

import Foundation
import ScoreFeedModel

/// Reads stats.nba.com `playbyplayv2` (`resultSets[…].name == "PlayByPlay"`), with
/// `stats_summary_<gameId>.json` (boxscoresummaryv2) beside it, when present, for the teams, the
/// date and the final.
///
/// Rows are taken in file order: `EVENTNUM` is the sequence number but is not always rising
/// (rows entered late), and folding in file order gives the feed's `SCORE` ("away - home", on
/// scoring rows and some others) at every row. There is no usable wall clock: `WCTIMESTRING`
/// ("8:04 PM", US Eastern) has no date and minute precision, so times are estimated
/// (`WallClockEstimate`): the date comes from the summary (its game code or `GAME_DATE_EST`);
/// without a summary the game is placed on 1 October of its season's first year (from the game
/// id) and a warning says so. Within a minute, rows are spread by game clock and count.
public enum StatsV2Format {
    /// Decodes a `playbyplayv2` file's bytes, with its summary's bytes when there is one.
    public static func decode(_ data: Data, file: String? = nil, summary: Data? = nil) throws(ScoreFeedError) -> FeedDocument {
        try feed(data, file: file, summary: summary).document()
    }

    static func feed(_ data: Data, file: String?, summary: Data?) throws(ScoreFeedError) -> NBAFeed {
        let root = try DecodingErrorText.decode(Root.self, from: data, file: file)
        let sets = root.sets
        guard let table = sets.first(where: { $0.name == "PlayByPlay" }) ?? sets.first(where: { $0.column("EVENTMSGTYPE") != nil }) else {
            let names = sets.compactMap(\.name)
            if names.contains("GameSummary") || names.contains("LineScore") {
                throw notPlayByPlay(summary: sets, file: file)
            }
            throw ScoreFeedError(
                .unknownFormat,
                "stats.nba.com result sets \(names.isEmpty ? "(none)" : names.joined(separator: ", ")) hold no play-by-play; "
                    + "ScoreFeed reads playbyplayv2 (a \"PlayByPlay\" result set)",
                at: .init(file: file))
        }
        for name in ["EVENTNUM", "EVENTMSGTYPE", "PERIOD"] where table.column(name) == nil {
            throw ScoreFeedError(.missingField, "the PlayByPlay result set has no \(name) column", at: .init(file: file))
        }
        let info = summary.flatMap { try? JSONDecoder().decode(Root.self, from: $0) }.map { Summary($0.sets) }
        var mapper = Mapper(table: table, summary: info, file: file)
        return mapper.feed()
    }

    /// The error for a boxscore summary given where play-by-play was expected.
    static func notPlayByPlay(summary sets: [ResultSet], file: String?) -> ScoreFeedError {
        let gameId = Summary(sets).gameId
        let instead = gameId.map { "stats_\($0).json" } ?? "the game's playbyplayv2 file (stats_<gameId>.json)"
        return ScoreFeedError(
            .unknownFormat,
            "this is a stats.nba.com boxscoresummaryv2 (teams and line score, no play-by-play), not a game to replay; "
                + "replay \(instead) beside it instead (this summary is read from there)",
            at: .init(file: file))
    }

    // MARK: - Wire types

    /// The top level: `resultSets` (a list), or `resultSet` (one) in some endpoints.
    struct Root: Decodable {
        var resultSets: [ResultSet]?
        var resultSet: ResultSet?

        var sets: [ResultSet] { (resultSets ?? []) + (resultSet.map { [$0] } ?? []) }
    }

    /// One result set: a name, column headers, and rows of mixed JSON values.
    struct ResultSet: Decodable {
        var name: String?
        var headers: [String]
        var rows: [[JSONScalar]?]
        private var index: [String: Int] = [:]

        enum CodingKeys: String, CodingKey { case name, headers, rowSet }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = c.lenientString(.name)
            headers = ((try? c.decodeIfPresent([JSONScalar].self, forKey: .headers)) ?? []).map { $0.string ?? "" }
            for (i, header) in headers.enumerated() where index[header] == nil { index[header] = i }
            rows = []
            guard c.contains(.rowSet), !(try c.decodeNil(forKey: .rowSet)) else { return }
            // Row by row, each value tried first as what its column usually holds.
            let numeric = headers.map(Self.isNumeric)
            var list = try c.nestedUnkeyedContainer(forKey: .rowSet)
            rows.reserveCapacity(list.count ?? 0)
            while !list.isAtEnd {
                guard var row = try? list.nestedUnkeyedContainer() else {
                    _ = try list.decode(JSONScalar.self)
                    rows.append(nil)
                    continue
                }
                var values: [JSONScalar] = []
                values.reserveCapacity(headers.count)
                var column = 0
                while !row.isAtEnd {
                    values.append(try JSONScalar.next(from: &row, number: column < numeric.count && numeric[column]))
                    column += 1
                }
                rows.append(values)
            }
        }

        /// Columns that hold numbers in stats.nba.com result sets.
        static func isNumeric(_ header: String) -> Bool {
            header.hasSuffix("_ID") || header.hasSuffix("TYPE") || header.hasPrefix("PTS") || header.hasPrefix("EVENTMSG")
                || ["EVENTNUM", "PERIOD", "GAME_SEQUENCE", "VIDEO_AVAILABLE_FLAG", "ATTENDANCE"].contains(header)
        }

        func column(_ name: String) -> Int? { index[name] }

        /// The value of column `name` in `row`, or `.null`.
        func value(_ row: [JSONScalar], _ name: String) -> JSONScalar {
            guard let i = index[name], i < row.count else { return .null }
            return row[i]
        }
    }

    /// What boxscoresummaryv2 says: game id and date, the teams, their points, whether final.
    struct Summary {
        var gameId: String?
        var day: EasternTime.Day?
        var homeId: Int?
        var awayId: Int?
        var final: Bool?
        var teams: [Int: (tricode: String?, city: String?, name: String?, points: Int?)] = [:]

        init(_ sets: [ResultSet]) {
            if let game = sets.first(where: { $0.name == "GameSummary" }), let row = game.rows.first ?? nil {
                gameId = game.value(row, "GAME_ID").string
                day = game.value(row, "GAMECODE").string.flatMap(EasternTime.Day.parse)
                    ?? game.value(row, "GAME_DATE_EST").string.flatMap(EasternTime.Day.parse)
                homeId = game.value(row, "HOME_TEAM_ID").int
                awayId = game.value(row, "VISITOR_TEAM_ID").int
                if let status = game.value(row, "GAME_STATUS_ID").int { final = status == 3 }
                if let text = game.value(row, "GAME_STATUS_TEXT").string, text.lowercased().hasPrefix("final") { final = true }
            }
            if let lines = sets.first(where: { $0.name == "LineScore" }) {
                for case let row? in lines.rows {
                    guard let id = lines.value(row, "TEAM_ID").int else { continue }
                    teams[id] = (
                        lines.value(row, "TEAM_ABBREVIATION").string, lines.value(row, "TEAM_CITY_NAME").string,
                        lines.value(row, "TEAM_NICKNAME").string, lines.value(row, "PTS").int)
                    if gameId == nil { gameId = lines.value(row, "GAME_ID").string }
                    if day == nil { day = lines.value(row, "GAME_DATE_EST").string.flatMap(EasternTime.Day.parse) }
                }
            }
        }
    }
}

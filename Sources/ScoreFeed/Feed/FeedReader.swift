import Foundation

/// Reads a game file in any format ScoreFeed knows (``FeedFormat``), deciding by content, not by
/// name: the fixture format, NBA liveData play-by-play, stats.nba.com playbyplayv2, and
/// playbyplayv3-style action lists. Files that are only a companion (a liveData boxscore, a
/// boxscore summary) are a clear error that names the file to use instead.
public enum FeedReader {
    /// Reads and decodes the file at `path` (`-` for standard input). For NBA feeds, the
    /// companion file beside it is read when present: `boxscore_<gameId>.json` (liveData) or
    /// `stats_summary_<gameId>.json` (playbyplayv2), for team names, the date and the final.
    public static func read(path: String) throws(ScoreFeedError) -> FeedDocument {
        if path == "-" {
            return try decode(FileHandle.standardInput.readDataToEndOfFile(), file: "<stdin>")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScoreFeedError(.io, "cannot read the file: \(error.localizedDescription)", at: .init(file: path))
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try decode(data, file: path) { name in
            try? Data(contentsOf: directory.appendingPathComponent(name))
        }
    }

    /// Decodes bytes in any known format. `boxscore` is the companion file's bytes (a liveData
    /// boxscore or a stats summary) when the caller has them; otherwise `companion` is asked for
    /// a companion by file name (`boxscore_<gameId>.json`, `stats_summary_<gameId>.json`).
    public static func decode(
        _ data: Data, file: String? = nil, boxscore: Data? = nil, companion: (String) -> Data? = { _ in nil }
    ) throws(ScoreFeedError) -> FeedDocument {
        try decodeAny(data, file: file, boxscore: boxscore, companion: companion).document
    }

    /// A decoded file: a fixture's document, or an NBA feed's mapped actions before the score
    /// check (the live differ needs only those, so the check is not run until ``document`` asks).
    enum Decoded {
        case fixture(FeedDocument)
        case nba(NBAFeed)

        /// The document: the fixture's, or the NBA feed's after the score check (``NBAFeed/document()``,
        /// run on every call).
        var document: FeedDocument {
            switch self {
            case .fixture(let document): document
            case .nba(let feed): feed.document()
            }
        }
    }

    static func decodeAny(
        _ data: Data, file: String?, boxscore: Data? = nil, companion: (String) -> Data? = { _ in nil },
        homeTeamId: Int? = nil
    ) throws(ScoreFeedError) -> Decoded {
        guard !data.isEmpty else {
            throw ScoreFeedError(.malformedJSON, "the file is empty", at: .init(file: file))
        }
        let feed: NBAFeed
        switch FeedShape.of(data) {
        case .fixture, .unknown:
            return .fixture(try FixtureFormat.decode(data, file: file))
        case .liveData:
            let box = boxscore ?? peekGameId(data).flatMap { companion("boxscore_\($0).json") }
            feed = try LiveDataFormat.feed(data, file: file, boxscore: box, homeTeamId: homeTeamId)
        case .liveDataBoxscore:
            throw LiveDataFormat.notPlayByPlay(gameId: peekGameId(data), file: file)
        case .statsResultSets:
            let summary = boxscore ?? peekStatsGameId(data).flatMap { companion("stats_summary_\($0).json") }
            feed = try StatsV2Format.feed(data, file: file, summary: summary)
        case .playByPlayV3:
            feed = try PlayByPlayV3Format.feed(data, file: file)
        }
        return .nba(feed)
    }

    /// The `"gameId"` value in the first part of a liveData file, without parsing the whole.
    static func peekGameId(_ data: Data) -> String? {
        stringValue(of: "\"gameId\"", in: head(data))
    }

    /// A stats.nba.com file's game id: `"GameID"` in its parameters, else the first ten-digit
    /// string that starts `00` (the `GAME_ID` column).
    static func peekStatsGameId(_ data: Data) -> String? {
        let head = Self.head(data)
        if let id = stringValue(of: "\"GameID\"", in: head) { return id }
        var rest = head[...]
        while let quote = rest.range(of: "\"00") {
            let candidate = head[quote.lowerBound...].dropFirst().prefix(11)
            if candidate.count == 11, candidate.last == "\"", candidate.dropLast().allSatisfy(\.isNumber) {
                return String(candidate.dropLast())
            }
            rest = head[quote.upperBound...]
        }
        return nil
    }

    /// The first 64 KiB of a file as text: where the peeks look.
    private static func head(_ data: Data) -> String {
        String(decoding: data.prefix(65_536), as: UTF8.self)
    }

    /// The string after `key` and a colon in `head`, when it is a plain string of letters and
    /// digits (a game id).
    private static func stringValue(of key: String, in head: String) -> String? {
        guard let range = head.range(of: key) else { return nil }
        let after = head[range.upperBound...].drop { $0 == " " || $0 == ":" || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard after.first == "\"" else { return nil }
        let value = after.dropFirst().prefix { $0 != "\"" }
        guard !value.isEmpty, value.count <= 32, value.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return String(value)
    }
}

import Foundation

/// What a poller needs from the NBA's liveData boxscore: whether the game is on, over or not
/// started, and the score it states (the final, once over).
public struct LiveBoxscore: Hashable, Sendable {
    public enum Status: Int, Sendable {
        case scheduled = 1
        case live = 2
        case final = 3
    }

    public var gameId: String?
    public var status: Status
    public var statusText: String?
    public var homeTeamId: Int?
    public var score: FinalScore?
    /// Scheduled tip-off.
    public var tipOff: Date?
    /// When the feed wrote this copy (`meta.time`), when it says: Eastern wall-clock time read as
    /// if it were UTC, as decoded; a poller reads it as the moment it stands for
    /// (``NewestCopy/moment(ofWall:near:)``).
    public var written: Date?

    /// How new this copy is (``NewestCopy``): when it was written, the game's status, which
    /// never goes back, and its points, which tell an hour-old copy the night the clocks go back.
    public var stamp: NewestCopy.Stamp { NewestCopy.Stamp(written: written, status: status, points: score.map { $0.home + $0.away }) }

    /// Whether the NBA calls the game off: postponed or cancelled. The liveData feeds keep such a
    /// game at status 1 (scheduled) and say it in the status text: "PPD" (game 0022000194 on
    /// 2021-01-16), "Postponed", "Cancelled".
    public var isCalledOff: Bool { Self.callsOff(status: status, text: statusText) }

    /// Whether a status and its text call a game off (see ``isCalledOff``).
    static func callsOff(status: Status, text: String?) -> Bool {
        guard status != .final, let text else { return false }
        // Trimmed only when an end is white space: `trimmingCharacters` costs more than the rest
        // of a poll's look at its boxscore, and the text is almost always bare ("Q3 5:12").
        let bare = (text.unicodeScalars.first.map { !$0.properties.isWhitespace } ?? true)
            && (text.unicodeScalars.last.map { !$0.properties.isWhitespace } ?? true)
        let word = (bare ? text : text.trimmingCharacters(in: .whitespaces)).lowercased()
        return word == "ppd" || word.hasPrefix("postpone") || word.hasPrefix("cancel")
    }

    /// Reads a boxscore's bytes (with the liveData reader's own wire types); `url` names it in
    /// errors.
    public static func decode(_ data: Data, url: String) throws(ScoreFeedError) -> LiveBoxscore {
        let root: LiveDataFormat.Root
        do {
            root = try LiveDataFormat.Root.scanning(data) ?? JSONDecoder().decode(LiveDataFormat.Root.self, from: data)
        } catch {
            throw ScoreFeedError(.malformedJSON, "the boxscore is not JSON (\(data.count) bytes; cut or garbled)", at: .init(file: url))
        }
        guard let game = root.game else {
            throw ScoreFeedError(.missingField, "the boxscore has no \"game\"", at: .init(file: url))
        }
        // Every boxscore states its status; a document without one is another (the play-by-play
        // an edge answered in its place), whose `meta.time` would make the boxscore's next real
        // copies look older and be refused.
        guard let code = game.gameStatus else {
            throw ScoreFeedError(.missingField, "the boxscore has no \"game.gameStatus\" (another document?)", at: .init(file: url))
        }
        let status = Status(rawValue: code) ?? .scheduled
        var score: FinalScore?
        if let home = game.homeTeam?.score, let away = game.awayTeam?.score { score = FinalScore(home: home, away: away) }
        return LiveBoxscore(
            gameId: game.gameId, status: status, statusText: game.gameStatusText, homeTeamId: game.homeTeam?.teamId,
            score: score, tipOff: game.gameTimeUTC.flatMap(ISOTime.seconds).map(Date.init(timeIntervalSince1970:)),
            written: root.written)
    }
}

import Foundation
import ScoreFeedModel

/// Reads the NBA's liveData play-by-play (`{"meta", "game": {"gameId", "actions": [...]}}`),
/// with `boxscore_<gameId>.json` beside it (when present) for team names and the final.
///
/// Actions are ordered by `orderNumber`: actions inserted later (a challenge's ruling, a turnover
/// added after review) carry higher `actionNumber`s than their neighbours, and gaps in
/// `actionNumber` are deletions. Times are `timeActual`. The feed's running score is
/// authoritative (see ``FeedDocument/discrepancies``).
public enum LiveDataFormat {
    /// Decodes a play-by-play file's bytes, with its boxscore's bytes when there is one.
    public static func decode(_ data: Data, file: String? = nil, boxscore: Data? = nil) throws(ScoreFeedError) -> FeedDocument {
        try feed(data, file: file, boxscore: boxscore).document()
    }

    /// The file mapped, before the score check. `homeTeamId` (a live poller that already knows
    /// the home team) wins over the boxscore and over inference.
    static func feed(_ data: Data, file: String?, boxscore: Data?, homeTeamId: Int? = nil) throws(ScoreFeedError) -> NBAFeed {
        let root: Root
        if let scanned = Root.scanning(data) { root = scanned } else { root = try DecodingErrorText.decode(Root.self, from: data, file: file) }
        return try feed(root: root, file: file, boxscore: boxscore, homeTeamId: homeTeamId)
    }

    /// ``feed(_:file:boxscore:homeTeamId:)`` of a document already read (a poller reads it first
    /// to tell what it is).
    static func feed(root: Root, file: String?, boxscore: Data?, homeTeamId: Int? = nil) throws(ScoreFeedError) -> NBAFeed {
        var memo: ActionsMemo?
        return try feed(root: root, file: file, boxscore: boxscore, homeTeamId: homeTeamId, memo: &memo)
    }

    /// ``feed(root:file:boxscore:homeTeamId:)`` of a copy read with `memo`
    /// (``Root/scanning(_:memo:)``). A copy that repeats the last one and adds actions after its
    /// last in feed order (a live game's usual next copy) maps and settles only the new actions
    /// (``FeedMemo``); otherwise the slots it took unread from the copy before are mapped as they
    /// were then, under the same teams. The feed is the same either way; `memo` keeps this copy's.
    static func feed(
        root: Root, file: String?, boxscore: Data?, homeTeamId: Int?, memo: inout ActionsMemo?
    ) throws(ScoreFeedError) -> NBAFeed {
        guard let game = root.game else {
            throw ScoreFeedError(.missingField, "no \"game\" in the top level", at: .init(file: file))
        }
        guard let slots = game.actions else {
            if game.homeTeam != nil || game.awayTeam != nil {
                throw notPlayByPlay(gameId: game.gameId, file: file)
            }
            throw ScoreFeedError(.missingField, "no \"actions\" in \"game\"", at: .init(file: file))
        }
        let box = boxscore.flatMap { Root.scanning($0) ?? (try? JSONDecoder().decode(Root.self, from: $0)) }?.game
        let inputs = FeedMemo.Inputs(homeTeamId: homeTeamId, gameId: game.gameId, box: box, file: file)
        if memo != nil, var last = memo?.lastFeed.take(),
            let feed = last.appending(slots, reused: memo!.reused, inputs: inputs, written: root.written, box: box, rows: &memo!.rows)
        {
            memo?.lastFeed = last
            return feed
        }
        var (actions, rejected) = NBAFeed.split(slots, file: file)
        sortInFeedOrder(&actions)

        // Home and away: the boxscore's, else the teams whose baskets move scoreHome and scoreAway
        // (one of them is enough when only two teams appear); unknown before the first basket.
        let inferred = inferTeams(actions.lazy.map(\.action))
        let homeId = homeTeamId ?? box?.homeTeam?.teamId ?? inferred.home
        let awayId = (homeTeamId == nil ? box?.awayTeam?.teamId : nil) ?? inferred.away.flatMap { $0 == homeId ? nil : $0 }
            ?? (homeId == nil ? nil : actions.lazy.compactMap(\.action.teamId).first { $0 != 0 && $0 != homeId })
        let home = NBAFeed.team(
            stated: box?.homeTeam, id: box?.homeTeam?.teamId ?? homeId, tricodeOf: homeId, in: actions, home: true)
        let away = NBAFeed.team(
            stated: box?.awayTeam, id: box?.awayTeam?.teamId ?? awayId, tricodeOf: awayId, in: actions, home: false)
        let gameId = game.gameId ?? box?.gameId ?? "unknown"

        var feed = NBAFeed(format: .liveData, file: file, attributes: GameAttributes(gameId: gameId, home: home, away: away))
        feed.homeTeamId = homeId
        feed.actionCount = slots.count
        feed.written = root.written
        feed.adopt(gameTimeUTC: box?.gameTimeUTC, home: box?.homeTeam, away: box?.awayTeam)

        var mapper = Mapper(homeId: homeId, awayId: awayId, file: file)
        let mapping = ActionsMemo.Mapping(homeId: homeId, awayId: awayId, file: file)
        let known = memo.map { $0.mapping == mapping ? min($0.reused, $0.rows.count) : 0 } ?? 0
        var mapped = [NBAFeed.Row?](repeating: nil, count: memo == nil ? 0 : slots.count)
        var rows: [NBAFeed.Row] = []
        rows.reserveCapacity(actions.count)
        for (index, action) in actions {
            if index < known, let row = memo?.rows[index] {
                rows.append(row)
                mapped[index] = row
                continue
            }
            do {
                let row = try mapper.row(action, index: index)
                rows.append(row)
                if !mapped.isEmpty, Mapper.dependsOnActionAlone(row.kind) { mapped[index] = row }
            } catch {
                rejected.append(error)
            }
        }
        if memo != nil {
            memo?.rows = mapped
            memo?.mapping = mapping
        }
        feed.setRejected(rejected)
        feed.warnings = mapper.unknown.warnings
        let start = feed.scheduledStart?.timeIntervalSince1970 ?? NBAFeed.unknownDate
        let settling = feed.setActions(rows, start: start)
        // Kept for the next copy when what maps and orders its actions cannot change with more of
        // them: the teams settled by baskets of both, each team's tricode found, no number renumbered.
        let decided = inferred.settled && homeId != nil && awayId != nil && !settling.renumbered
            && (box?.homeTeam?.teamTricode != nil || actions.contains { $0.action.teamId == homeId })
            && (box?.awayTeam?.teamTricode != nil || actions.contains { $0.action.teamId == awayId })
        if memo != nil, decided, let last = actions.last {
            memo?.lastFeed = FeedMemo(
                inputs: inputs, slotCount: slots.count, feed: feed, mapper: mapper, last: last, settling: settling, start: start)
        }
        return feed
    }

    /// Where an action stands in feed order: its `orderNumber` (`actionNumber` where it is
    /// missing), then its position in the file.
    typealias FeedPosition = (order: Double, index: Int)

    static func position(of entry: NBAFeed.IndexedAction) -> FeedPosition {
        (entry.action.orderNumber ?? entry.action.actionNumber.map(Double.init) ?? .infinity, entry.index)
    }

    static func comesBefore(_ a: FeedPosition, _ b: FeedPosition) -> Bool {
        a.order != b.order ? a.order < b.order : a.index < b.index
    }

    /// Sorts `actions` into feed order. Mostly in order already: looked at once before sorting,
    /// by the sort's key (no copy of an action per comparison).
    static func sortInFeedOrder(_ actions: inout [NBAFeed.IndexedAction]) {
        var last: FeedPosition = (-.infinity, .min)
        for entry in actions.indices {
            let this = position(of: actions[entry])
            guard comesBefore(last, this) else {
                actions.sort { comesBefore(position(of: $0), position(of: $1)) }
                return
            }
            last = this
        }
    }

    /// The error for a liveData boxscore given where play-by-play was expected.
    static func notPlayByPlay(gameId: String?, file: String?) -> ScoreFeedError {
        let instead = gameId.map { "playbyplay_\($0).json" } ?? "the game's playbyplay_<gameId>.json"
        return ScoreFeedError(
            .unknownFormat,
            "this is an NBA liveData boxscore (teams and totals, no play-by-play), not a game to replay; "
                + "replay \(instead) beside it instead (its boxscore is read from there)",
            at: .init(file: file))
    }

    /// The team whose basket first moves `scoreHome` is the home team, and the one that moves
    /// `scoreAway` the away team; when only one is known, the other is the other team in the feed.
    /// `settled` when baskets showed both (more actions cannot change them).
    static func inferTeams(_ actions: some Collection<NBAAction>) -> (home: Int?, away: Int?, settled: Bool) {
        var home: Int?, away: Int?
        var last = (home: 0, away: 0)
        for action in actions {
            guard let score = action.feedScore else { continue }
            if let team = action.teamId, team != 0 {
                if score.home > last.home, home == nil { home = team }
                if score.away > last.away, away == nil { away = team }
            }
            last = (score.home, score.away)
            if home != nil, away != nil { return (home, away, true) }
        }
        let teams = actions.lazy.compactMap(\.teamId).filter { $0 != 0 }
        if home == nil, let away { home = teams.first { $0 != away } }
        if away == nil, let home { away = teams.first { $0 != home } }
        return (home, away, false)
    }

    // MARK: - Wire types

    /// The actions of the last copy of a play-by-play read, for reading the next copy
    /// (``Root/scanning(_:memo:)``): their bytes, from the first action's first byte to the last
    /// action's last, and what they read as.
    struct ActionsMemo: Sendable {
        var bytes: [UInt8]
        var slots: [NBAActionSlot]
        /// How many leading slots this copy took from the copy before it, unread.
        var reused = 0
        /// What ``feed(root:file:boxscore:homeTeamId:memo:)`` mapped each slot to (by position),
        /// for the rows whose mapping depends on the action alone, under `mapping`.
        var rows: [NBAFeed.Row?] = []
        var mapping: Mapping?
        /// What the feed made of this copy, when a next copy may only add to it.
        var lastFeed: FeedMemo?

        /// What a row depends on besides its action: the teams and the file named in errors.
        struct Mapping: Equatable, Sendable {
            var homeId: Int?
            var awayId: Int?
            var file: String?
        }
    }

    /// The top level of a play-by-play or boxscore file.
    struct Root: Decodable, Equatable {
        var game: Game?
        /// When the feed wrote this copy (`meta.time`: Eastern wall-clock time without a zone,
        /// `2025-02-11 01:16:27.797538`), read as if it were UTC: only ever compared with the same
        /// document's other copies. Nil when absent or unreadable.
        var written: Date?

        enum CodingKeys: String, CodingKey { case game, meta }

        init() {}

        struct Meta: Decodable {
            var time: String?

            enum CodingKeys: String, CodingKey { case time }

            init(from decoder: any Decoder) throws {
                time = try decoder.container(keyedBy: CodingKeys.self).lenientString(.time)
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            game = try c.decodeIfPresent(Game.self, forKey: .game)
            written = (try? c.decodeIfPresent(Meta.self, forKey: .meta))?.time
                .flatMap(ISOTime.seconds).map(Date.init(timeIntervalSince1970:))
        }

        struct Game: Decodable, Equatable {
            var gameId: String?
            var actions: [NBAActionSlot]?
            var gameTimeUTC: String?
            /// A boxscore's: 1 scheduled, 2 live, 3 final.
            var gameStatus: Int?
            var gameStatusText: String?
            var homeTeam: Team?
            var awayTeam: Team?

            enum CodingKeys: String, CodingKey {
                case gameId, actions, gameTimeUTC, gameStatus, gameStatusText, homeTeam, awayTeam
            }

            init() {}

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                gameId = c.lenientString(.gameId)
                actions = try c.decodeIfPresent([NBAActionSlot].self, forKey: .actions)
                gameTimeUTC = c.lenientString(.gameTimeUTC)
                gameStatus = c.lenientInt(.gameStatus)
                gameStatusText = c.lenientString(.gameStatusText)
                homeTeam = try? c.decodeIfPresent(Team.self, forKey: .homeTeam)
                awayTeam = try? c.decodeIfPresent(Team.self, forKey: .awayTeam)
            }
        }

        /// A boxscore's team: who, and the score.
        struct Team: Decodable, Equatable {
            var teamId: Int?
            var teamName: String?
            var teamCity: String?
            var teamTricode: String?
            var score: Int?

            enum CodingKeys: String, CodingKey { case teamId, teamName, teamCity, teamTricode, score }

            init() {}

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                teamId = c.lenientInt(.teamId)
                teamName = c.lenientString(.teamName)
                teamCity = c.lenientString(.teamCity)
                teamTricode = c.lenientString(.teamTricode)
                score = c.lenientInt(.score)
            }
        }
    }
}

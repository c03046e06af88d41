import Foundation
import ScoreFeedModel

extension StatsV2Format {
    /// Maps `playbyplayv2` rows to rows of an ``NBAFeed``.
    ///
    /// `EVENTMSGTYPE`: 1 made and 2 missed shot (3 points when the description says `3PT`),
    /// 3 free throw (missed when the description starts with `MISS`; `1 of 2` from the text),
    /// 4 rebound (offensive when the rebounding team missed last), 5 turnover, 6 foul, 7 violation,
    /// 8 substitution (player 1 out, player 2 in), 9 timeout, 10 jump ball (player 3 gets the
    /// ball), 11 ejection, 12 and 13 period start and end, 18 instant replay (these rows may carry
    /// `SCORE`, or `SCORE` null), 20 stoppage. `PERSON1TYPE` 2/4 is the home team/a home player,
    /// 3/5 the visitors'. Other types become non-scoring events and a warning.
    struct Mapper {
        let table: ResultSet
        let summary: Summary?
        let file: String?
        private(set) var homeId: Int?
        private(set) var awayId: Int?
        private var unknown = NBAFeed.UnknownTypes()
        private var rebound = NBAFeed.ReboundHint()

        init(table: ResultSet, summary: Summary?, file: String?) {
            self.table = table
            self.summary = summary
            self.file = file
            homeId = summary?.homeId
            awayId = summary?.awayId
            for case let row? in table.rows where homeId == nil || awayId == nil {
                guard let team = table.value(row, "PLAYER1_TEAM_ID").int else { continue }
                switch table.value(row, "PERSON1TYPE").int {
                case 4: if homeId == nil, team != awayId { homeId = team }
                case 5: if awayId == nil, team != homeId { awayId = team }
                default: break
                }
            }
        }

        mutating func feed() -> NBAFeed {
            let firstRow = table.rows.lazy.compactMap { $0 }.first
            let gameId = firstRow.flatMap { table.value($0, "GAME_ID").string } ?? summary?.gameId ?? "unknown"
            var feed = NBAFeed(
                format: .statsV2, file: file,
                attributes: GameAttributes(gameId: gameId, home: team(homeId, home: true), away: team(awayId, home: false)))
            feed.actionCount = table.rows.count
            feed.homeTeamId = homeId
            if let home = homeId.flatMap({ summary?.teams[$0]?.points }), let away = awayId.flatMap({ summary?.teams[$0]?.points }) {
                feed.statedFinal = NBAFeed.score(home: home, away: away)
            }
            let day: EasternTime.Day
            if let known = summary?.day {
                day = known
            } else {
                day = Self.seasonDay(gameId)
                feed.warnings.append(ScoreFeedError(
                    .missingField,
                    "no summary (stats_summary_\(gameId).json) beside the file, so the game's date is unknown: "
                        + "times are placed on \(day.year)-10-01, the start of its season",
                    at: .init(file: file)))
            }
            feed.scheduledStart = nil

            var rows: [NBAFeed.Row] = []
            rows.reserveCapacity(table.rows.count)
            var clock = EasternTime.MinuteClock(day: day)
            for (index, values) in table.rows.enumerated() {
                guard let values else {
                    feed.rejected.append(ScoreFeedError(.invalidValue, "the row is not an array", at: .init(file: file, eventIndex: index)))
                    continue
                }
                do {
                    var row = try self.row(values, index: index)
                    if let minute = table.value(values, "WCTIMESTRING").string.flatMap(EasternTime.minuteOfDay) {
                        row.wallMinute = clock.unixSeconds(minuteOfDay: minute)
                    }
                    rows.append(row)
                } catch {
                    feed.rejected.append(error)
                }
            }
            if let end = NBAFeed.gameEndRow(after: rows, final: summary?.final, position: table.rows.count) {
                rows.append(end)
            }
            feed.warnings += unknown.warnings
            feed.setActions(rows, start: EasternTime.unixSeconds(day: day, minuteOfDay: 19 * 60))
            return feed
        }

        /// 1 October of the season's first year: `0021900001` → 2019-10-01.
        static func seasonDay(_ gameId: String) -> EasternTime.Day {
            let digits = Array(gameId.utf8)
            var year = 2000
            if digits.count >= 5, let yy = Int(String(decoding: digits[3..<5], as: UTF8.self)) {
                year = yy >= 46 ? 1900 + yy : 2000 + yy
            }
            return EasternTime.Day(year: year, month: 10, day: 1)
        }

        private func team(_ id: Int?, home: Bool) -> Team {
            if let id, let known = summary?.teams[id] {
                return NBAFeed.team(id: id, tricode: known.tricode, name: known.name, city: known.city, home: home)
            }
            let row = table.rows.lazy.compactMap { $0 }.first { id != nil && table.value($0, "PLAYER1_TEAM_ID").int == id }
            return NBAFeed.team(
                id: id, tricode: row.flatMap { table.value($0, "PLAYER1_TEAM_ABBREVIATION").string },
                name: row.flatMap { table.value($0, "PLAYER1_TEAM_NICKNAME").string },
                city: row.flatMap { table.value($0, "PLAYER1_TEAM_CITY").string }, home: home)
        }

        /// The side of person `n` (1–3) of a row.
        private func side(_ row: [JSONScalar], person n: Int) -> TeamSide? {
            let teamId = table.value(row, "PLAYER\(n)_TEAM_ID").int
            if let side = NBAFeed.side(teamId, home: homeId, away: awayId) { return side }
            switch table.value(row, "PERSON\(n)TYPE").int {
            case 2, 4: return .home
            case 3, 5: return .away
            default: return NBAFeed.side(table.value(row, "PLAYER\(n)_ID").int, home: homeId, away: awayId)
            }
        }

        /// Person `n`'s name, short form, when that person is a player.
        private func player(_ row: [JSONScalar], person n: Int) -> String? {
            NBAFeed.shortName(table.value(row, "PLAYER\(n)_NAME").string)
        }

        private mutating func row(_ values: [JSONScalar], index: Int) throws(ScoreFeedError) -> NBAFeed.Row {
            let seqValue = table.value(values, "EVENTNUM").int
            let location = ScoreFeedError.Location(file: file, eventIndex: index, sequence: seqValue)
            let seq = try NBAFeed.checkedSeq(seqValue, name: "EVENTNUM", location: location)
            guard let type = table.value(values, "EVENTMSGTYPE").int else {
                throw ScoreFeedError(.missingField, "no EVENTMSGTYPE", at: location)
            }
            guard let period = table.value(values, "PERIOD").int else { throw ScoreFeedError(.missingField, "no PERIOD", at: location) }
            let action = table.value(values, "EVENTMSGACTIONTYPE").int ?? 0
            var team = side(values, person: 1)
            var player = player(values, person: 1)
            let home = table.value(values, "HOMEDESCRIPTION").string
            let neutral = table.value(values, "NEUTRALDESCRIPTION").string
            let visitor = table.value(values, "VISITORDESCRIPTION").string
            let own = (team == .home ? home : team == .away ? visitor : nil) ?? home ?? visitor ?? neutral ?? ""
            let personType = table.value(values, "PERSON1TYPE").int
            let teamLevel = personType == 2 || personType == 3 || (personType != 4 && personType != 5)

            let kind: GameEvent.Kind
            switch type {
            case 1, 2:
                kind = .fieldGoal(points: own.contains("3PT") ? 3 : 2, made: type == 1)
            case 3:
                let trip = NBAFeed.attemptOf(own) ?? Self.freeThrowTrips[action] ?? (1, 1)
                kind = .freeThrow(attempt: trip.attempt, of: trip.of, made: !own.uppercased().hasPrefix("MISS"), points: 1)
            case 4:
                if teamLevel { player = nil }
                kind = .rebound(offensive: rebound.offensive(team))
            case 5:
                if teamLevel { player = nil }
                kind = .turnover(kind: Self.turnovers[action])
            case 6:
                kind = .foul(Self.foulKind(action: action, description: own))
            case 7:
                if teamLevel { player = nil }
                kind = .violation(kind: Self.violations[action])
            case 8:
                kind = .substitution(out: player)
                player = self.player(values, person: 2)
            case 9:
                player = nil
                if action == 4 || team == nil {
                    kind = .timeout(.official)
                } else {
                    kind = own.lowercased().contains("challenge") ? .timeout(.challenge) : .timeout(.full)
                }
            case 10:
                team = side(values, person: 3)
                player = self.player(values, person: 3)
                kind = .jumpBall
            case 11:
                kind = .other(type: "ejection")
            case 12:
                kind = .periodStart
                team = nil
                player = nil
            case 13:
                kind = .periodEnd
                team = nil
                player = nil
            case 18:
                // Instant replay; the feed gives no ruling text.
                team = nil
                player = nil
                kind = .replay(ruling: action == 0 ? nil : "instant replay (action type \(action))", challenge: false)
            case 20:
                team = nil
                player = nil
                kind = .other(type: "stoppage")
            default:
                unknown.note("EVENTMSGTYPE \(type)", at: location)
                kind = .other(type: "stats event type \(type)")
            }
            rebound.note(kind, team: team)
            let text = [home, neutral, visitor].compactMap { $0 }.joined(separator: " / ")
            return NBAFeed.Row(
                seq: seq, period: period,
                clock: table.value(values, "PCTIMESTRING").string.flatMap(GameClockText.seconds),
                kind: kind, team: team, player: player, description: text.isEmpty ? nil : text,
                feedScore: table.value(values, "SCORE").string.flatMap(Self.score), position: index,
                wallTime: nil, wallMinute: nil)
        }

        /// `SCORE` is "away - home".
        static func score(_ text: String) -> FinalScore? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return NBAFeed.score(home: LenientNumber.int(String(parts[1])), away: LenientNumber.int(String(parts[0])))
        }

        /// Free-throw trips by `EVENTMSGACTIONTYPE`, where the description does not say.
        static let freeThrowTrips: [Int: (attempt: Int, of: Int)] = [
            10: (1, 1), 11: (1, 2), 12: (2, 2), 13: (1, 3), 14: (2, 3), 15: (3, 3), 16: (1, 1), 18: (1, 2), 19: (2, 2),
            20: (1, 1), 21: (1, 2), 22: (2, 2), 25: (1, 2), 26: (2, 2), 27: (1, 3), 28: (2, 3), 29: (3, 3),
        ]

        /// Fouls: the description's abbreviation first (`S.FOUL`, `T.FOUL`, `OFF.Foul`, …), then the code.
        static func foulKind(action: Int, description: String) -> GameEvent.FoulKind {
            let text = description.uppercased()
            if text.contains("T.FOUL") || text.contains("TECHNICAL") || [11, 12, 13, 16, 17, 18, 19, 25, 30].contains(action) {
                return .technical
            }
            if text.contains("FLAGRANT") || [14, 15].contains(action) { return .flagrant }
            if text.contains("OFF.FOUL") || text.contains("OFFENSIVE") || [4, 26].contains(action) { return .offensive }
            if text.contains("S.FOUL") || text.contains("SHOOTING") || [2, 29].contains(action) { return .shooting }
            if text.contains("L.B.FOUL") || text.contains("LOOSE BALL") || action == 3 { return .looseBall }
            return .personal
        }

        static let turnovers: [Int: String] = [
            1: "bad pass", 2: "lost ball", 4: "traveling", 6: "double dribble", 7: "discontinued dribble",
            8: "3 second violation", 9: "5 second violation", 10: "8 second violation", 11: "shot clock",
            12: "inbound", 13: "backcourt", 15: "lane violation", 17: "jump ball violation", 18: "kicked ball",
            19: "illegal assist", 20: "palming", 35: "basket from below", 36: "illegal screen",
            37: "offensive foul", 38: "offensive goaltending", 39: "step out of bounds", 40: "out of bounds lost ball",
            41: "lost ball", 42: "punched ball", 44: "too many players", 45: "out of bounds - bad pass",
        ]

        static let violations: [Int: String] = [
            1: "delay of game", 2: "defensive goaltending", 3: "lane", 4: "jump ball", 5: "kicked ball", 6: "double lane",
        ]
    }
}

import Foundation
import ScoreFeedModel

extension PlayByPlayV3Format {
    /// Maps v3 actions to rows of an ``NBAFeed``.
    ///
    /// v3 spells types as words: `period`, `Jump Ball`, `Made Shot`/`Missed Shot` (`shotValue` 2
    /// or 3), `Free Throw` (`Free Throw 1 of 2`, `Free Throw Technical`; missed when the
    /// description starts with `MISS`), `Rebound` (offensive when the rebounding team missed
    /// last), `Turnover`, `Foul`, `Violation`, `Timeout`, `Substitution` ("SUB: In FOR Out"),
    /// `Instant Replay` (the ruling in `subType`, e.g. "Coach Challenge Overturn Ruling"),
    /// `Ejection`, and an empty type for steals and blocks (told apart by the description).
    /// `location` `h`/`v` is the side. A jump ball's team is that of the player it is tipped to.
    /// Other types become non-scoring events and a warning.
    struct Mapper {
        let slots: [NBAActionSlot]
        let game: Game?
        let gameId: String?
        let file: String?
        private var homeId: Int?
        private var awayId: Int?
        /// Player (family) names to their side and `playerNameI`, from every action that names one.
        private var sides: [String: TeamSide?] = [:]
        private var initials: [String: String] = [:]
        private var unknown = NBAFeed.UnknownTypes()
        private var rebound = NBAFeed.ReboundHint()
        private var lastTimeout: (period: Int, clock: Double?, team: TeamSide)?

        init(slots: [NBAActionSlot], game: Game?, gameId: String?, file: String?) {
            self.slots = slots
            self.game = game
            self.gameId = gameId
            self.file = file
        }

        mutating func feed() -> NBAFeed {
            var (actions, rejected) = NBAFeed.split(slots, file: file)
            if actions.allSatisfy({ $0.action.actionId != nil }) {
                actions.sort { $0.action.actionId! != $1.action.actionId! ? $0.action.actionId! < $1.action.actionId! : $0.index < $1.index }
            }
            homeId = game?.homeTeamId ?? game?.homeTeam?.teamId
                ?? actions.first { $0.action.location == "h" && ($0.action.teamId ?? 0) != 0 }?.action.teamId
            awayId = game?.awayTeamId ?? game?.awayTeam?.teamId
                ?? actions.first { $0.action.location == "v" && ($0.action.teamId ?? 0) != 0 }?.action.teamId
            for (_, action) in actions {
                guard let name = action.playerName, !name.isEmpty, let side = side(of: action) else { continue }
                if let known = sides[name], known != side { sides[name] = .some(nil) } else { sides[name] = side }
                if let initial = action.player { initials[name] = initial }
            }
            let home = NBAFeed.team(stated: game?.homeTeam, id: homeId, tricodeOf: homeId, in: actions, home: true)
            let away = NBAFeed.team(stated: game?.awayTeam, id: awayId, tricodeOf: awayId, in: actions, home: false)
            var feed = NBAFeed(
                format: .playByPlayV3, file: file,
                attributes: GameAttributes(gameId: game?.gameId ?? gameId ?? "unknown", home: home, away: away))
            feed.actionCount = slots.count
            feed.homeTeamId = homeId
            feed.adopt(gameTimeUTC: game?.gameTimeUTC, home: game?.homeTeam, away: game?.awayTeam)
            let day = game?.gameCode.flatMap(EasternTime.Day.parse) ?? game?.gameEt.flatMap(EasternTime.Day.parse)
                ?? feed.scheduledStart.flatMap { Self.easternDay(utc: $0.timeIntervalSince1970) }
            var clock = day.map { EasternTime.MinuteClock(day: $0) }
            if day == nil {
                feed.warnings.append(ScoreFeedError(
                    .missingField, "the file states no date for the game: times are placed on 2000-01-01",
                    at: .init(file: file)))
            }

            var rows: [NBAFeed.Row] = []
            rows.reserveCapacity(actions.count)
            for (index, action) in actions {
                do {
                    var row = try self.row(action, index: index)
                    if let minute = action.description.flatMap(EasternTime.minuteOfDay) {
                        row.wallMinute = clock?.unixSeconds(minuteOfDay: minute)
                    }
                    rows.append(row)
                } catch {
                    rejected.append(error)
                }
            }
            if let end = NBAFeed.gameEndRow(after: rows, final: game?.isFinal, position: slots.count) {
                rows.append(end)
            }
            feed.setRejected(rejected)
            feed.warnings += unknown.warnings
            let start = feed.scheduledStart?.timeIntervalSince1970
                ?? day.map { EasternTime.unixSeconds(day: $0, minuteOfDay: 19 * 60) } ?? NBAFeed.unknownDate
            feed.setActions(rows, start: start)
            return feed
        }

        /// The Eastern date of a UTC instant (daylight saving ignored: games are not played at midnight).
        static func easternDay(utc: Double) -> EasternTime.Day? {
            guard utc.isFinite, abs(utc) < 1e11, let days = LenientNumber.int(((utc - 5 * 3600) / 86_400).rounded(.down)) else {
                return nil
            }
            return EasternTime.Day(daysSinceEpoch: days)
        }

        private func side(of action: NBAAction) -> TeamSide? {
            switch action.location?.lowercased() {
            case "h": return .home
            case "v": return .away
            default:
                return NBAFeed.side(action.teamId, home: homeId, away: awayId)
                    ?? NBAFeed.side(action.personId, home: homeId, away: awayId)
            }
        }

        private mutating func row(_ action: NBAAction, index: Int) throws(ScoreFeedError) -> NBAFeed.Row {
            let seqValue = action.actionId ?? action.actionNumber
            let location = ScoreFeedError.Location(file: file, eventIndex: index, sequence: seqValue)
            let seq = try NBAFeed.checkedSeq(
                seqValue, name: "action id", missing: "\"actionId\" or \"actionNumber\"", location: location)
            guard let period = action.period else { throw ScoreFeedError(.missingField, "no \"period\"", at: location) }
            let type = (action.actionType ?? "").lowercased()
            let sub = (action.subType ?? "").lowercased()
            let description = action.description ?? ""
            let clock = action.clock.flatMap(GameClockText.seconds)
            var team = side(of: action)
            var player = action.player
            let kind: GameEvent.Kind
            switch type {
            case "period":
                team = nil
                kind = sub == "start" ? .periodStart : sub == "end" ? .periodEnd : .other(type: "period \(sub)")
            case "game":
                team = nil
                kind = sub == "end" ? .gameEnd : .other(type: "game \(sub)")
            case "jump ball":
                let receiver = Self.after("Tip to ", in: description)
                team = receiver.flatMap { sides[$0] ?? nil }
                player = receiver.map { initials[$0] ?? $0 }
                kind = .jumpBall
            case "made shot", "missed shot":
                let value = action.shotValue.flatMap { (2...3).contains($0) ? $0 : nil } ?? (description.contains("3PT") ? 3 : 2)
                kind = .fieldGoal(points: value, made: type == "made shot")
            case "free throw":
                let trip = NBAFeed.attemptOf(sub) ?? NBAFeed.attemptOf(description) ?? (1, 1)
                kind = .freeThrow(attempt: trip.attempt, of: trip.of, made: !description.uppercased().hasPrefix("MISS"), points: 1)
            case "rebound":
                if (action.teamId ?? 0) == 0 { player = nil }
                kind = .rebound(offensive: rebound.offensive(team))
            case "turnover":
                if (action.teamId ?? 0) == 0 { player = nil }
                kind = .turnover(kind: sub.isEmpty ? nil : sub)
            case "foul":
                kind = .foul(LiveDataFormat.Mapper.foulKind(sub: sub, descriptor: sub))
            case "violation":
                if (action.teamId ?? 0) == 0 { player = nil }
                kind = .violation(kind: sub.isEmpty ? nil : sub)
            case "timeout":
                player = nil
                kind = .timeout(NBAFeed.timeoutKind(sub: sub, team: team))
                if let team { lastTimeout = (period, clock, team) }
            case "substitution":
                kind = .substitution(out: action.player)
                player = Self.after("SUB: ", in: description).flatMap { text in
                    text.range(of: " FOR ").map { String(text[..<$0.lowerBound]) }
                }.map { initials[$0] ?? $0 }
            case "instant replay":
                let challenge = sub.contains("challenge")
                if challenge, team == nil, let lastTimeout, lastTimeout.period == period, lastTimeout.clock == clock {
                    team = lastTimeout.team
                }
                player = nil
                kind = .replay(ruling: action.subType.flatMap { $0.isEmpty ? nil : $0 }, challenge: challenge)
            case "ejection", "stoppage":
                kind = NBAFeed.other(type: type, sub: sub)
            case "":
                let text = description.uppercased()
                if text.contains("STEAL") {
                    kind = .steal
                } else if text.contains("BLOCK") {
                    kind = .block
                } else {
                    unknown.note("\"\" (no type, not a steal or block)", at: location)
                    kind = .other(type: "unspecified")
                }
            default:
                unknown.note(action, type: type, sub: sub, at: location)
                kind = NBAFeed.other(type: type, sub: sub)
            }
            rebound.note(kind, team: team)
            return NBAFeed.Row(
                seq: seq, period: period, clock: clock, kind: kind, team: team, player: player,
                description: description.isEmpty ? nil : description, feedScore: action.feedScore, position: index,
                wallTime: nil, wallMinute: nil)
        }

        /// The text after `marker`, up to the end, trimmed: "Tip to Haliburton" → "Haliburton".
        static func after(_ marker: String, in text: String) -> String? {
            guard let range = text.range(of: marker) else { return nil }
            let rest = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            return rest.isEmpty ? nil : rest
        }
    }
}

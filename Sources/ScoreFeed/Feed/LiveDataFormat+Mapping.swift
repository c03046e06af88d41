import Foundation
import ScoreFeedModel

extension LiveDataFormat {
    /// Maps liveData actions to rows, one at a time in feed order.
    ///
    /// Every `actionType`/`subType` seen in real files is mapped: shots, free throws (`1 of 2`,
    /// technical and flagrant ones), rebounds (team rebounds have no player), turnovers, steals,
    /// blocks, fouls, violations, timeouts (full, challenge, official), substitutions, jump balls
    /// (also with descriptor `challenge`: a jump ball awarded by a challenge), instant replay
    /// (`request`/`challenge` with ruling `support`/`overturned` and the ruling text in `value`),
    /// stoppages and ejections (kept as non-scoring events), period and game start and end. Any
    /// other type becomes a non-scoring event and a warning.
    struct Mapper {
        let homeId: Int?
        let awayId: Int?
        let file: String?
        var unknown = NBAFeed.UnknownTypes()
        /// The team of the last challenge timeout, for a challenge ruling that names no team.
        private var challenger: TeamSide?

        init(homeId: Int?, awayId: Int?, file: String?) {
            self.homeId = homeId
            self.awayId = awayId
            self.file = file
        }

        /// Whether a row of `kind` is what its action alone maps to (with the teams and file):
        /// not a challenge's timeout or ruling (the mapper remembers the challenger) nor a type
        /// it does not know (it notes a warning), so it can be taken again for the same action.
        static func dependsOnActionAlone(_ kind: GameEvent.Kind) -> Bool {
            switch kind {
            case .replay, .timeout(.challenge), .other: false
            default: true
            }
        }

        mutating func row(_ action: NBAAction, index: Int) throws(ScoreFeedError) -> NBAFeed.Row {
            let location = ScoreFeedError.Location(file: file, eventIndex: index, sequence: action.actionNumber)
            let seq = try NBAFeed.checkedSeq(action.actionNumber, name: "\"actionNumber\"", location: location)
            guard let period = action.period else { throw ScoreFeedError(.missingField, "no \"period\"", at: location) }
            guard let type = action.actionType, !type.isEmpty else {
                throw ScoreFeedError(.missingField, "no \"actionType\"", at: location)
            }
            var team = NBAFeed.side(action.teamId, home: homeId, away: awayId)
            let kind = self.kind(of: action, type: type.lowercased(), team: team, location: location)
            if case .replay(_, true) = kind, team == nil { team = challenger }
            if case .timeout(.challenge) = kind { challenger = team }
            var player = action.player
            var description = action.description
            if case .substitution(let out) = kind, out != nil { player = nil }
            if description == nil || description!.isEmpty {
                description = [action.actionType, action.subType, action.descriptor, action.value]
                    .compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
            }
            return NBAFeed.Row(
                seq: seq, period: period, clock: action.clock.flatMap(GameClockText.seconds), kind: kind, team: team,
                player: player, description: description, feedScore: action.feedScore, position: index,
                wallTime: action.timeActual.flatMap(ISOTime.seconds), wallMinute: nil)
        }

        private mutating func kind(
            of action: NBAAction, type: String, team: TeamSide?, location: ScoreFeedError.Location
        ) -> GameEvent.Kind {
            let sub = action.subType?.lowercased() ?? ""
            let descriptor = action.descriptor?.lowercased() ?? ""
            let made = action.shotResult?.lowercased() == "made"
            switch type {
            case "period":
                switch sub {
                case "start": return .periodStart
                case "end": return .periodEnd
                default: return .other(type: "period \(sub)")
                }
            case "game":
                return sub == "end" ? .gameEnd : .other(type: "game \(sub)")
            case "jumpball":
                // Descriptor startperiod, heldball, or challenge (awarded by a coach's challenge).
                return .jumpBall
            case "2pt", "3pt":
                return .fieldGoal(points: type == "2pt" ? 2 : 3, made: made)
            case "freethrow":
                // "1 of 2", "2 of 3", "1 of 1"; technical and flagrant trips say so in the subType.
                let trip = NBAFeed.attemptOf(sub) ?? (1, 1)
                return .freeThrow(attempt: trip.attempt, of: trip.of, made: made, points: 1)
            case "rebound":
                return .rebound(offensive: sub == "offensive")
            case "turnover":
                return .turnover(kind: sub.isEmpty ? nil : sub)
            case "steal":
                return .steal
            case "block":
                return .block
            case "foul":
                return .foul(Self.foulKind(sub: sub, descriptor: descriptor))
            case "violation":
                return .violation(kind: sub.isEmpty ? nil : sub)
            case "timeout":
                return .timeout(NBAFeed.timeoutKind(sub: sub, team: team))
            case "substitution":
                return .substitution(out: sub == "out" ? action.player : nil)
            case "instantreplay":
                // subType request or challenge; descriptor support, overturned, stands; value the ruling.
                let ruling = [action.descriptor, action.value].compactMap { $0?.isEmpty == false ? $0 : nil }
                    .joined(separator: ": ")
                return .replay(ruling: ruling.isEmpty ? nil : ruling, challenge: sub == "challenge")
            case "stoppage", "ejection":
                return NBAFeed.other(type: type, sub: sub)
            default:
                unknown.note(action, type: type, sub: sub, at: location)
                return NBAFeed.other(type: type, sub: sub)
            }
        }

        /// liveData fouls: subType personal, offensive, technical, flagrant (descriptor type1/type2),
        /// with descriptors shooting, loose ball, take, charge, …
        static func foulKind(sub: String, descriptor: String) -> GameEvent.FoulKind {
            if ByteSearch.contains(sub, "technical") { return .technical }
            if ByteSearch.contains(sub, "flagrant") { return .flagrant }
            if ByteSearch.contains(sub, "offensive") { return .offensive }
            if ByteSearch.contains(descriptor, "shooting") { return .shooting }
            if ByteSearch.contains(descriptor, "loose ball") { return .looseBall }
            return .personal
        }
    }
}

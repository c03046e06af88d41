import Foundation
import ScoreFeedModel

extension LiveDataFormat {
    /// Maps liveData actions to events in order, folding as it goes to check the feed's score.
    struct Mapper {
        let homeId: Int?
        let file: String?
        var events: [GameEvent] = []
        var positions: [Int] = []
        var discrepancies = ScoreDiscrepancies()
        var warnings: [ScoreFeedError] = []
        var feedScore = FinalScore(home: 0, away: 0)
        private var validator = EventValidator()
        private var board = Scoreboard()
        private var lastTime: Double?

        init(homeId: Int?, file: String?) {
            self.homeId = homeId
            self.file = file
        }

        mutating func add(_ action: Action, index: Int) throws(ScoreFeedError) {
            let location = ScoreFeedError.Location(file: file, eventIndex: index, sequence: action.actionNumber)
            func fail(_ code: ScoreFeedError.Code, _ message: String) -> ScoreFeedError {
                ScoreFeedError(code, message, at: location)
            }
            guard let seq = action.actionNumber else { throw fail(.missingField, "no actionNumber") }
            guard let period = action.period else { throw fail(.missingField, "no period") }
            guard let type = action.actionType else { throw fail(.missingField, "no actionType") }
            let clock = action.clock.flatMap(GameClockText.seconds) ?? 0
            // Time: timeActual; an action without one takes the previous action's time.
            let time = action.timeActual.flatMap(ISOTime.seconds) ?? lastTime
            guard let time else { throw fail(.missingField, "no usable timeActual and no earlier action to take it from") }
            lastTime = time
            let side: TeamSide? = action.teamId.flatMap { id in
                guard id != 0, let homeId else { return nil }
                return id == homeId ? .home : .away
            }
            let kind = try self.kind(of: action, type: type, index: index)
            let event = GameEvent(
                seq: seq, time: Date(timeIntervalSince1970: time), period: period, clock: clock, kind: kind,
                team: side, player: action.playerNameI, description: action.description)
            append(event, index: index)

            // The feed's score is authoritative: bring the fold to it where they differ.
            guard let home = action.scoreHome.flatMap({ Int($0) }), let away = action.scoreAway.flatMap({ Int($0) }) else {
                return
            }
            feedScore = FinalScore(home: home, away: away)
            let state = board.state
            guard state.homeScore != home || state.awayScore != away else { return }
            discrepancies.count += 1
            if discrepancies.first == nil {
                discrepancies.first = fail(
                    .invalidValue,
                    "feed score \(away)-\(home) (away-home) but the fold has \(state.awayScore)-\(state.homeScore); the feed wins")
            }
            for (team, delta) in [(TeamSide.home, home - state.homeScore), (.away, away - state.awayScore)] where delta != 0 {
                var correction = event
                correction.seq = 1_000_000_000 + seq * 2 + (team == .home ? 0 : 1)
                correction.kind = .correction(points: delta)
                correction.team = team
                correction.description = "feed score correction"
                append(correction, index: index)
            }
        }

        private mutating func append(_ event: GameEvent, index: Int) {
            guard validator.check(event, index: index) == .accept else {
                // The engine rejects it too and reports why; keep it so its message is seen.
                events.append(event)
                positions.append(index)
                return
            }
            board.apply(event)
            events.append(event)
            positions.append(index)
        }

        private mutating func kind(of action: Action, type: String, index: Int) throws(ScoreFeedError) -> GameEvent.Kind {
            let sub = action.subType?.lowercased() ?? ""
            let descriptor = action.descriptor?.lowercased()
            let made = action.shotResult == "Made"
            switch type {
            case "period": return sub == "end" ? .periodEnd : .periodStart
            case "game": return sub == "end" ? .gameEnd : .other(type: "game \(sub)")
            case "jumpball": return .jumpBall
            case "2pt", "3pt": return .fieldGoal(points: type == "2pt" ? 2 : 3, made: made)
            case "freethrow":
                // "1 of 2", "2 of 3", …; technical and flagrant shots say so in the descriptor.
                let parts = sub.split(separator: " ")
                if parts.count == 3, let attempt = Int(parts[0]), let of = Int(parts[2]) {
                    return .freeThrow(attempt: attempt, of: of, made: made, points: 1)
                }
                return .freeThrow(attempt: 1, of: 1, made: made, points: 1)
            case "rebound": return .rebound(offensive: sub == "offensive")
            case "turnover": return .turnover(kind: action.subType)
            case "steal": return .steal
            case "block": return .block
            case "foul":
                switch sub {
                case "offensive": return .foul(.offensive)
                case "technical", "double technical": return .foul(.technical)
                case "flagrant": return .foul(.flagrant)
                default:
                    if descriptor == "shooting" { return .foul(.shooting) }
                    if descriptor == "loose ball" { return .foul(.looseBall) }
                    return .foul(.personal)
                }
            case "violation": return .violation(kind: action.subType)
            case "timeout":
                switch sub {
                case "challenge": return .timeout(.challenge)
                case "mandatory", "official", "tv": return .timeout(.official)
                default: return action.teamId == nil || action.teamId == 0 ? .timeout(.official) : .timeout(.full)
                }
            case "substitution": return .substitution(out: sub == "out" ? action.playerNameI : nil)
            case "instantreplay": return .replay(ruling: action.descriptor, challenge: sub == "challenge")
            default:
                warnings.append(ScoreFeedError(
                    .unknownEventType, "action type \"\(type)\"\(sub.isEmpty ? "" : "/\(sub)") is kept as a non-scoring event",
                    at: .init(file: file, eventIndex: index, sequence: action.actionNumber)))
                return .other(type: sub.isEmpty ? type : "\(type) \(sub)")
            }
        }
    }
}

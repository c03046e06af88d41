import Foundation
import ScoreFeedModel

/// An event exactly as the fixture format spells it: every field optional, checked by ``event(index:)``.
struct RawEvent: Codable {
    var seq: Int?
    var time: Double?
    var period: Int?
    var clock: String?
    var type: String?
    var team: String?
    var player: String?
    var description: String?
    var points: Int?
    var made: Bool?
    var attempt: Int?
    var of: Int?
    var offensive: Bool?
    var kind: String?
    var out: String?
    var ruling: String?
    var challenge: Bool?
    var score: FinalScore?

    enum CodingKeys: String, CodingKey {
        case seq, time, period, clock, type, team, player, description, points, made, attempt, of
        case offensive, kind, out, ruling, challenge, score
    }

    /// The typed event, or the first thing wrong with it. Range rules that need game context
    /// (period order, clock length) are the validator's.
    func event(index: Int) throws(ScoreFeedError) -> GameEvent {
        let location = ScoreFeedError.Location(eventIndex: index, sequence: seq)
        func fail(_ code: ScoreFeedError.Code, _ message: String) -> ScoreFeedError {
            ScoreFeedError(code, message, at: location)
        }
        guard let seq else { throw fail(.missingField, "no \"seq\"") }
        guard let time else { throw fail(.missingField, "no \"time\"") }
        guard time.isFinite, time >= 0, time < 4_102_444_800 else {
            throw fail(.invalidValue, "\"time\" \(time) is not a Unix time between 1970 and 2100")
        }
        guard let period else { throw fail(.missingField, "no \"period\"") }
        guard let clockText = clock else { throw fail(.missingField, "no \"clock\"") }
        guard let clock = GameClockText.seconds(clockText) else {
            throw fail(.invalidValue, "\"clock\" \"\(clockText)\" is not M:SS, M:SS.f or PTnMn.nS")
        }
        guard let type else { throw fail(.missingField, "no \"type\"") }
        if let score, score.home < 0 || score.away < 0 || score.home > 999 || score.away > 999 {
            throw fail(.invalidValue, "\"score\" \(score.away)-\(score.home) (away-home) is not between 0 and 999")
        }
        var side: TeamSide?
        if let team {
            guard let parsed = TeamSide(rawValue: team) else {
                throw fail(.invalidValue, "\"team\" is \"\(team)\"; expected \"home\" or \"away\"")
            }
            side = parsed
        }
        func require<T>(_ value: T?, _ name: String) throws(ScoreFeedError) -> T {
            guard let value else { throw fail(.missingField, "\(type) needs \"\(name)\"") }
            return value
        }
        let kind: GameEvent.Kind
        switch type {
        case "periodStart": kind = .periodStart
        case "periodEnd": kind = .periodEnd
        case "jumpBall": kind = .jumpBall
        case "fieldGoal":
            kind = .fieldGoal(points: try require(points, "points"), made: try require(made, "made"))
        case "freeThrow":
            kind = .freeThrow(
                attempt: try require(attempt, "attempt"), of: try require(of, "of"),
                made: try require(made, "made"), points: points ?? 1)
        case "rebound": kind = .rebound(offensive: offensive ?? false)
        case "turnover": kind = .turnover(kind: self.kind)
        case "steal": kind = .steal
        case "block": kind = .block
        case "foul":
            let name = try require(self.kind, "kind")
            guard let foul = GameEvent.FoulKind(rawValue: name) else {
                throw fail(.invalidValue, "foul kind \"\(name)\" is not one of "
                    + GameEvent.FoulKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = .foul(foul)
        case "violation": kind = .violation(kind: self.kind)
        case "timeout":
            let name = self.kind ?? "full"
            guard let timeout = GameEvent.TimeoutKind(rawValue: name) else {
                throw fail(.invalidValue, "timeout kind \"\(name)\" is not one of "
                    + GameEvent.TimeoutKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = .timeout(timeout)
        case "substitution": kind = .substitution(out: out)
        case "replay": kind = .replay(ruling: ruling, challenge: challenge ?? false)
        case "correction": kind = .correction(points: try require(points, "points"))
        case "gameEnd": kind = .gameEnd
        case "other": kind = .other(type: self.kind ?? "unspecified")
        default:
            throw fail(.unknownEventType, "unknown event type \(GameID.quoted(type))")
        }
        return GameEvent(
            seq: seq, time: Date(timeIntervalSince1970: time), period: period, clock: clock,
            kind: kind, team: side, player: player, description: description, feedScore: score)
    }

    /// The fixture spelling of a typed event.
    init(_ event: GameEvent) {
        seq = event.seq
        time = event.time.timeIntervalSince1970
        period = event.period
        clock = GameClockText.exact(event.clock)
        type = event.kind.typeName
        team = event.team?.rawValue
        player = event.player
        description = event.description
        score = event.feedScore
        switch event.kind {
        case .fieldGoal(let points, let made):
            self.points = points
            self.made = made
        case .freeThrow(let attempt, let of, let made, let points):
            self.attempt = attempt
            self.of = of
            self.made = made
            self.points = points == 1 ? nil : points
        case .rebound(let offensive): self.offensive = offensive
        case .turnover(let kind), .violation(let kind): self.kind = kind
        case .foul(let foul): kind = foul.rawValue
        case .timeout(let timeout): kind = timeout.rawValue
        case .substitution(let out): self.out = out
        case .replay(let ruling, let challenge):
            self.ruling = ruling
            self.challenge = challenge
        case .correction(let points): self.points = points
        case .other(let type): kind = type
        case .periodStart, .periodEnd, .jumpBall, .steal, .block, .gameEnd: break
        }
    }
}

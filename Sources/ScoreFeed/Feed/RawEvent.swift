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
        guard Self.isValid(time: time) else {
            throw fail(.invalidValue, "\"time\" \(time) is not a Unix time between 1970 and 2100")
        }
        guard let period else { throw fail(.missingField, "no \"period\"") }
        guard let clockText = clock else { throw fail(.missingField, "no \"clock\"") }
        guard let clock = GameClockText.seconds(clockText) else {
            throw fail(.invalidValue, "\"clock\" \"\(clockText)\" is not M:SS, M:SS.f or PTnMn.nS")
        }
        guard let type else { throw fail(.missingField, "no \"type\"") }
        if let score, !Self.isValid(score: score) {
            throw fail(.invalidValue, "\"score\" \(score.away)-\(score.home) (away-home) is not between 0 and 999")
        }
        var side: TeamSide?
        if let team {
            guard let parsed = TeamSide(rawValue: team) else {
                throw fail(.invalidValue, "\"team\" is \"\(team)\"; expected \"home\" or \"away\"")
            }
            side = parsed
        }
        guard let eventType = EventType(rawValue: type) else {
            throw fail(.unknownEventType, "unknown event type \(GameID.quoted(type))")
        }
        return try event(eventType, seq: seq, time: time, period: period, clock: clock, team: side, at: location)
    }

    /// Whether `time` is a Unix time between 1970 and 2100.
    static func isValid(time: Double) -> Bool {
        time.isFinite && time >= 0 && time < 4_102_444_800
    }

    /// Whether both of a feed's scores are between 0 and 999.
    static func isValid(score: FinalScore) -> Bool {
        (0...999).contains(score.home) && (0...999).contains(score.away)
    }

    /// The typed event of a known `type` whose common fields are checked (`seq`, a `time` in
    /// range, `period`, the `clock` read, the score in range, the `team`): the fields its type
    /// needs, or the first one missing or wrong.
    func event(
        _ type: EventType, seq: Int, time: Double, period: Int, clock: Double, team side: TeamSide?,
        at location: ScoreFeedError.Location
    ) throws(ScoreFeedError) -> GameEvent {
        func fail(_ code: ScoreFeedError.Code, _ message: String) -> ScoreFeedError {
            ScoreFeedError(code, message, at: location)
        }
        func require<T>(_ value: T?, _ name: String) throws(ScoreFeedError) -> T {
            guard let value else { throw fail(.missingField, "\(type.rawValue) needs \"\(name)\"") }
            return value
        }
        let kind: GameEvent.Kind
        switch type {
        case .periodStart: kind = .periodStart
        case .periodEnd: kind = .periodEnd
        case .jumpBall: kind = .jumpBall
        case .fieldGoal:
            kind = .fieldGoal(points: try require(points, "points"), made: try require(made, "made"))
        case .freeThrow:
            kind = .freeThrow(
                attempt: try require(attempt, "attempt"), of: try require(of, "of"),
                made: try require(made, "made"), points: points ?? 1)
        case .rebound: kind = .rebound(offensive: offensive ?? false)
        case .turnover: kind = .turnover(kind: self.kind)
        case .steal: kind = .steal
        case .block: kind = .block
        case .foul:
            let name = try require(self.kind, "kind")
            guard let foul = GameEvent.FoulKind(rawValue: name) else {
                throw fail(.invalidValue, "foul kind \"\(name)\" is not one of "
                    + GameEvent.FoulKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = .foul(foul)
        case .violation: kind = .violation(kind: self.kind)
        case .timeout:
            let name = self.kind ?? "full"
            guard let timeout = GameEvent.TimeoutKind(rawValue: name) else {
                throw fail(.invalidValue, "timeout kind \"\(name)\" is not one of "
                    + GameEvent.TimeoutKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kind = .timeout(timeout)
        case .substitution: kind = .substitution(out: out)
        case .replay: kind = .replay(ruling: ruling, challenge: challenge ?? false)
        case .correction: kind = .correction(points: try require(points, "points"))
        case .gameEnd: kind = .gameEnd
        case .other: kind = .other(type: self.kind ?? "unspecified")
        }
        return GameEvent(
            seq: seq, time: Date(timeIntervalSince1970: time), period: period, clock: clock,
            kind: kind, team: side, player: player, description: description, feedScore: score)
    }

    /// An event's `type` as the fixture format spells it. A name that matches one as a Swift
    /// string (canonical equivalence) matches it byte for byte: no name has a letter with another
    /// canonical spelling (such as `K`, the Kelvin sign's).
    enum EventType: String, CaseIterable {
        case periodStart, periodEnd, jumpBall, fieldGoal, freeThrow, rebound, turnover, steal, block, foul
        case violation, timeout, substitution, replay, correction, gameEnd, other

        /// The type whose name is exactly `bytes`, or nil.
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            for (name, type) in Self.names where name.count == bytes.count {
                if name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                    self = type
                    return
                }
            }
            return nil
        }

        private static let names = allCases.map { (Array($0.rawValue.utf8), $0) }
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

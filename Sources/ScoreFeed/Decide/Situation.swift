import Foundation
import ScoreFeedModel

/// What the feed has said so far about the wait for the next score: each event read in order
/// gives a ``Kind`` of moment (a timeout began, a score in the period's last seconds, free throws
/// to come…). The coalescer prices a priority-10 push by it, and the freshness measure fits and
/// scores the same reading, so policy and measure see the game alike. Pure value type.
public struct Situation: Hashable, Sendable, Codable {
    /// A kind of moment, by what it says about the next score.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A timeout, the end of a period, a review: a long pause began.
        case pause
        /// A dead ball while an NBA mandatory timeout is due: the TV timeout is being taken.
        case mandatoryTimeout
        /// A score with a shot clock or less left in the period.
        case periodEndsSoon
        /// A score while a mandatory timeout is due (it comes at the next dead ball).
        case scoreBeforeMandatoryTimeout
        /// A score within a minute of game clock above a mandatory-timeout mark not yet met.
        case scoreNearMandatoryTimeout
        /// A score in the last 2:00 of the 4th or of an overtime.
        case crunchTime
        /// A score ending a run of unanswered points.
        case run
        /// An offensive or loose-ball foul: a dead ball with no free throws.
        case stoppage
        /// Players checking in.
        case substitution
        /// A common foul: a dead ball, an inbound.
        case commonFoul
        /// Free throws still to come (a shooting foul, the first of two): the next point is close.
        case freeThrowsToCome
        /// Any other score.
        case score
        /// Play goes on (a shot, a rebound, a steal).
        case play

        /// The kind's place in `allCases`.
        var ordinal: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        /// Whether play has stopped for a break the feed announced.
        public var isPause: Bool { self == .pause || self == .mandatoryTimeout }

        /// What a push reason says about it.
        public var reason: String {
            switch self {
            case .pause: "pause begins"
            case .mandatoryTimeout, .scoreBeforeMandatoryTimeout: "mandatory timeout due"
            case .periodEndsSoon: "period ends soon"
            case .scoreNearMandatoryTimeout: "mandatory timeout near"
            case .crunchTime: "crunch time"
            case .run: "run"
            case .stoppage: "stoppage"
            case .substitution: "substitution"
            case .commonFoul: "foul"
            case .freeThrowsToCome: "free throws to come"
            case .score: "score"
            case .play: "play"
            }
        }
    }

    /// A score with this little left on the game clock likely ends the period.
    public var periodEndWindow: Double = 24
    /// A score this close (game clock) above an unmet mandatory-timeout mark likely precedes it.
    public var mandatoryWindow: Double = 60
    /// Unanswered points after which the other team likely calls a timeout.
    public var runLength = 8

    /// The moment the last event made.
    public private(set) var kind = Kind.play
    /// Period and game clock of the last event.
    public private(set) var period = 0
    public private(set) var clock = 720.0
    private var mandatory = MandatoryTimeouts()
    /// Points scored in a row by `runTeam`.
    private var runTeam: TeamSide?
    private var runPoints = 0

    /// The situation as its synthesized `Encodable` spells it in a checkpoint
    /// (``Coalescer/appendCheckpoint(to:)``).
    func appendCheckpoint(to out: inout JSONBytes) throws(JSONBytes.NonFinite) {
        out.raw("{\"clock\":")
        try out.double(clock)
        out.raw(",\"kind\":")
        out.string(kind.rawValue, escapingSlashes: true)
        out.raw(",\"mandatory\":")
        mandatory.appendCheckpoint(to: &out)
        out.raw(",\"mandatoryWindow\":")
        try out.double(mandatoryWindow)
        out.raw(",\"period\":")
        out.int(period)
        out.raw(",\"periodEndWindow\":")
        try out.double(periodEndWindow)
        out.raw(",\"runLength\":")
        out.int(runLength)
        out.raw(",\"runPoints\":")
        out.int(runPoints)
        if let runTeam {
            out.raw(",\"runTeam\":")
            out.string(runTeam.rawValue, escapingSlashes: true)
        }
        out.byte(UInt8(ascii: "}"))
    }

    public init(periodEndWindow: Double = 24, mandatoryWindow: Double = 60, runLength: Int = 8) {
        self.periodEndWindow = periodEndWindow
        self.mandatoryWindow = mandatoryWindow
        self.runLength = runLength
    }

    /// The last 2:00 of the 4th or of an overtime.
    public var isCrunchTime: Bool { Significance.isCrunchTime(period: period, clock: clock) }

    /// Reads `event`, folded from `before` to `after`, and returns the moment it makes.
    @discardableResult
    public mutating func observe(_ event: GameEvent, before: GameState, after: GameState) -> Kind {
        period = event.period
        clock = event.clock.isFinite ? event.clock : clock
        mandatory.observe(event)
        let home = after.homeScore - before.homeScore, away = after.awayScore - before.awayScore
        if home != 0 || away != 0 {
            trackRun(home: home, away: away)
            kind = scoreKind(event)
        } else {
            kind = momentKind(event)
        }
        return kind
    }

    private func scoreKind(_ event: GameEvent) -> Kind {
        if case .freeThrow(let attempt, let of, _, _) = event.kind, attempt < of { return .freeThrowsToCome }
        if period > 0 && clock <= periodEndWindow { return .periodEndsSoon }
        if mandatory.isDue(clock: clock) { return .scoreBeforeMandatoryTimeout }
        if mandatory.isNear(clock: clock, window: mandatoryWindow) { return .scoreNearMandatoryTimeout }
        if isCrunchTime { return .crunchTime }
        if runPoints >= runLength { return .run }
        return .score
    }

    private func momentKind(_ event: GameEvent) -> Kind {
        let due = mandatory.isDue(clock: clock)
        switch event.kind {
        case .timeout, .periodEnd, .replay:
            return .pause
        case .foul(let foul):
            if due { return .mandatoryTimeout }
            switch foul {
            case .offensive, .looseBall: return .stoppage
            case .personal: return kind == .freeThrowsToCome ? kind : .commonFoul
            case .shooting, .technical, .flagrant: return .freeThrowsToCome
            }
        case .freeThrow(let attempt, let of, _, _):
            return attempt < of ? .freeThrowsToCome : .play
        case .substitution:
            return kind.isPause || kind == .freeThrowsToCome ? kind : due ? .mandatoryTimeout : .substitution
        case .other:
            return kind.isPause ? kind : due ? .mandatoryTimeout : kind == .freeThrowsToCome ? kind : .play
        case .correction:
            return kind
        case .turnover(let turnover):
            // A bad pass or a lost ball is usually stolen: play goes on. Other turnovers stop it.
            let live = turnover == "bad pass" || turnover == "lost ball"
            return !live && due ? .mandatoryTimeout : turnover == "offensive foul" ? .stoppage : .play
        case .violation:
            return due ? .mandatoryTimeout : .play
        case .periodStart, .jumpBall, .fieldGoal, .rebound, .steal, .block, .gameEnd:
            return .play
        }
    }

    private mutating func trackRun(home: Int, away: Int) {
        let side: TeamSide = home > 0 ? .home : .away
        let points = max(0, side == .home ? home : away)
        if side == runTeam {
            runPoints += points
        } else {
            runTeam = side
            runPoints = points
        }
    }
}

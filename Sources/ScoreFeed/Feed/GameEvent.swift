import Foundation
import ScoreFeedModel

/// One thing that happened in a game, as the feed reported it, decoded and typed.
public struct GameEvent: Hashable, Sendable, Codable {
    /// The feed's sequence number: the event's identity within its game, not its order (the
    /// NBA numbers actions it inserts later above the ones around them). The order of events is
    /// the feed's.
    public var seq: Int
    /// When the feed recorded the event (wall clock); replay's virtual time follows it.
    public var time: Date
    /// 1–4 for quarters, 5 and up for overtimes.
    public var period: Int
    /// Seconds left on the game clock in `period`.
    public var clock: Double
    public var kind: Kind
    /// The team the event belongs to: the shooter's, the fouler's, the one calling timeout.
    public var team: TeamSide?
    public var player: String?
    /// Free text from the feed, kept for display.
    public var description: String?
    /// The feed's running score after this event, when the feed states one: the engine follows
    /// it, so one lost or misread event cannot leave the lock screen wrong past the next score.
    public var feedScore: FinalScore?

    public init(
        seq: Int, time: Date, period: Int, clock: Double, kind: Kind,
        team: TeamSide? = nil, player: String? = nil, description: String? = nil, feedScore: FinalScore? = nil
    ) {
        self.seq = seq
        self.time = time
        self.period = period
        self.clock = clock
        self.kind = kind
        self.team = team
        self.player = player
        self.description = description
        self.feedScore = feedScore
    }

    /// What happened, with the fields that only some events have.
    public enum Kind: Hashable, Sendable, Codable {
        case periodStart
        case periodEnd
        /// `team` gains possession.
        case jumpBall
        /// A 2- or 3-point attempt.
        case fieldGoal(points: Int, made: Bool)
        /// Free throw `attempt` of `of`; `points` is 1 in the NBA.
        case freeThrow(attempt: Int, of: Int, made: Bool, points: Int)
        case rebound(offensive: Bool)
        case turnover(kind: String?)
        case steal
        case block
        case foul(FoulKind)
        case violation(kind: String?)
        case timeout(TimeoutKind)
        /// `player` comes in, `out` goes out.
        case substitution(out: String?)
        /// Instant replay review or coach's challenge ruling.
        case replay(ruling: String?, challenge: Bool)
        /// Points given to (positive) or taken from (negative) `team` by the officials or the feed.
        case correction(points: Int)
        case gameEnd
        /// A feed event ScoreFeed does not model (a stoppage, an ejection, …): kept for the
        /// record, changes nothing on the lock screen.
        case other(type: String)
    }

    public enum FoulKind: String, Hashable, Sendable, CaseIterable, Codable {
        case personal, shooting, offensive, technical, flagrant
        /// Loose-ball fouls count like personal fouls.
        case looseBall
    }

    public enum TimeoutKind: String, Hashable, Sendable, CaseIterable, Codable {
        case full
        /// A coach's challenge uses a timeout when unsuccessful.
        case challenge
        /// Official or TV timeouts do not charge a team.
        case official
    }
}

extension GameEvent.Kind {
    /// The fixture-format `type` name of this kind.
    public var typeName: String {
        switch self {
        case .periodStart: "periodStart"
        case .periodEnd: "periodEnd"
        case .jumpBall: "jumpBall"
        case .fieldGoal: "fieldGoal"
        case .freeThrow: "freeThrow"
        case .rebound: "rebound"
        case .turnover: "turnover"
        case .steal: "steal"
        case .block: "block"
        case .foul: "foul"
        case .violation: "violation"
        case .timeout: "timeout"
        case .substitution: "substitution"
        case .replay: "replay"
        case .correction: "correction"
        case .gameEnd: "gameEnd"
        case .other: "other"
        }
    }

    /// Points this event adds to its team's score (negative for a correction that takes some away).
    public var points: Int {
        switch self {
        case .fieldGoal(let points, true): points
        case .freeThrow(_, _, true, let points): points
        case .correction(let points): points
        default: 0
        }
    }
}

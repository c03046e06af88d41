import Foundation
import ScoreFeedModel

/// The pure scoring fold: each event turns the displayed ``ScoreFeedModel/GameState`` into the
/// next and says exactly what changed.
///
/// Besides the state it keeps the little the rules need that the lock screen does not show
/// (fouls in the last two minutes of the period, for the penalty).
public struct Scoreboard: Hashable, Sendable, Codable {
    /// What the lock screen should show after the events applied so far.
    public private(set) var state: GameState
    /// Team fouls committed in the last two minutes of the current period: home, away.
    private var homeLateFouls = 0
    private var awayLateFouls = 0
    /// Free throws after a technical or flagrant foul: the ball does not change hands after them.
    private var freeThrowsKeepBall = false

    /// Timeouts per team for regulation, and per overtime period.
    public static let regulationTimeouts = 7
    public static let overtimeTimeouts = 2

    public init(state: GameState = GameState()) {
        self.state = state
    }

    /// `(state, event) → (state′, diff)`: the fold as a function, starting from `state` alone.
    public static func apply(_ state: GameState, _ event: GameEvent) -> (GameState, Diff) {
        var board = Scoreboard(state: state)
        let diff = board.apply(event)
        return (board.state, diff)
    }

    /// Brings the score to the feed's running score, keeping the last play: the feed is
    /// authoritative. Returns whether the score had to change.
    @discardableResult
    public mutating func follow(_ feed: FinalScore) -> Bool {
        guard feed.home != state.homeScore || feed.away != state.awayScore else { return false }
        state.homeScore = max(0, feed.home)
        state.awayScore = max(0, feed.away)
        return true
    }

    /// The game reached an end that is not a final (`phase`: postponed or suspended): the clock
    /// stops where it stood at `now`, the score stays.
    public mutating func callOff(_ phase: GamePhase, now: Date) {
        state.phase = phase
        state.clock = .stopped(seconds: state.clock.secondsRemaining(at: now))
    }

    /// A game called off is under way again: live.
    mutating func reopen() {
        state.phase = .live
    }

    /// Folds one validated event into the state and returns what changed. A clock the event
    /// starts runs out `event.clock` seconds after the event's time moved by `clockShift` (see
    /// ``GameFold/clockShift(eventTime:newest:now:)``: a recording's times are not today's).
    @discardableResult
    public mutating func apply(_ event: GameEvent, clockShift: TimeInterval = 0) -> Diff {
        let before = state
        fold(event, clockShift: clockShift)
        return Diff(from: before, to: state)
    }

    /// ``apply(_:clockShift:)`` without the diff: the game's fold makes the change's own diff
    /// (``StateChange``), so it does not have the board make one as well.
    mutating func fold(_ event: GameEvent, clockShift: TimeInterval = 0) {
        let clockStart = event.time.addingTimeInterval(clockShift)
        let team = event.team
        switch event.kind {
        case .periodStart:
            if event.period != state.period || state.phase == .pregame {
                startPeriod(event.period)
            }
            state.phase = .live
            run(event, from: clockStart)
        case .periodEnd:
            state.period = event.period
            state.phase = event.period == 2 ? .halftime : .endOfPeriod
            state.clock = .stopped(seconds: 0)
        case .jumpBall:
            enterLive(event)
            if let team { state.possession = team }
            run(event, from: clockStart)
        case .fieldGoal(let points, let made):
            enterLive(event)
            if made, let team {
                score(points, for: team, play: "\(who(event)) \(points)PT")
                state.possession = team.opponent
                // NBA: the clock stops after a made basket in the last minute of the 1st–3rd
                // periods and the last 2:00 of the 4th and overtime.
                if event.clock <= (event.period >= 4 ? 120 : 60) { stop(event) } else { run(event, from: clockStart) }
            } else {
                run(event, from: clockStart)
            }
        case .freeThrow(let attempt, let of, let made, let points):
            enterLive(event)
            if made, let team {
                score(points, for: team, play: "\(who(event)) FT \(attempt)/\(of)")
                if attempt == of && !freeThrowsKeepBall { state.possession = team.opponent }
            }
            if attempt == of { freeThrowsKeepBall = false }
            stop(event)
        case .rebound:
            enterLive(event)
            if let team { state.possession = team }
            // A team rebound (no player) is a dead ball: out of bounds, or between free throws.
            if event.player != nil { run(event, from: clockStart) }
            freeThrowsKeepBall = false
        case .turnover:
            enterLive(event)
            if let team { state.possession = team.opponent }
            stop(event)
        case .steal:
            enterLive(event)
            if let team { state.possession = team }
            run(event, from: clockStart)
        case .block:
            enterLive(event)
            run(event, from: clockStart)
        case .foul(let kind):
            enterLive(event)
            stop(event)
            if let team { foul(kind, by: team, at: event) }
            if kind == .technical || kind == .flagrant { freeThrowsKeepBall = true }
        case .violation:
            enterLive(event)
            stop(event)
        case .timeout(let kind):
            stop(event)
            if let team, kind != .official { spendTimeout(team) }
        case .substitution, .other:
            break
        case .replay(let ruling, let challenge):
            // A successful coach's challenge gives the timeout back.
            if challenge, let team, let ruling, ruling.lowercased().contains("overturn") {
                refundTimeout(team)
            }
        case .correction(let points):
            if let team {
                let before = state.score(team)
                setScore(max(0, before + points), for: team)
                let signed = points > 0 ? "+\(points)" : "\(points)"
                state.lastPlay = "Score corrected: \(team == .home ? "home" : "away") \(signed)"
            }
        case .gameEnd:
            state.phase = .final
            state.clock = .stopped(seconds: 0)
            state.possession = nil
        }
        capTimeouts(event)
    }

    /// A new period: team fouls reset, overtime brings fresh timeouts.
    private mutating func startPeriod(_ period: Int) {
        state.period = period
        state.homeFouls = 0
        state.awayFouls = 0
        state.homeInBonus = false
        state.awayInBonus = false
        homeLateFouls = 0
        awayLateFouls = 0
        if period >= 5 {
            state.homeTimeouts = Self.overtimeTimeouts
            state.awayTimeouts = Self.overtimeTimeouts
        }
    }

    /// A play event implies the period is under way even when the feed skipped `periodStart`.
    private mutating func enterLive(_ event: GameEvent) {
        if event.period != state.period || state.phase == .pregame {
            startPeriod(event.period)
        }
        if state.phase != .live && state.phase != .final { state.phase = .live }
    }

    private mutating func run(_ event: GameEvent, from clockStart: Date) {
        state.clock = .running(endsAt: clockStart.addingTimeInterval(event.clock))
    }

    private mutating func stop(_ event: GameEvent) {
        state.clock = .stopped(seconds: event.clock)
    }

    private mutating func score(_ points: Int, for team: TeamSide, play: String) {
        setScore(state.score(team) + points, for: team)
        state.lastPlay = play
        state.lastScorer = team
    }

    private mutating func setScore(_ value: Int, for team: TeamSide) {
        if team == .home { state.homeScore = value } else { state.awayScore = value }
    }

    /// Counts a team foul and updates the penalty. NBA: offensive and technical fouls are not
    /// team fouls; the quota is 4 per quarter (3 per overtime), and in the last 2:00 of a period
    /// a team's second foul is penalized even below the quota.
    private mutating func foul(_ kind: GameEvent.FoulKind, by team: TeamSide, at event: GameEvent) {
        guard kind != .offensive && kind != .technical else { return }
        let late = event.clock <= 120
        if team == .home {
            state.homeFouls += 1
            if late { homeLateFouls += 1 }
        } else {
            state.awayFouls += 1
            if late { awayLateFouls += 1 }
        }
        let quota = event.period <= 4 ? 4 : 3
        let fouls = team == .home ? state.homeFouls : state.awayFouls
        let lateCount = team == .home ? homeLateFouls : awayLateFouls
        let penalty = fouls >= quota || lateCount >= 1
        // The opponent of the fouling team is the one "in the bonus".
        if team == .home { state.awayInBonus = penalty } else { state.homeInBonus = penalty }
    }

    private mutating func spendTimeout(_ team: TeamSide) {
        if team == .home { state.homeTimeouts = max(0, state.homeTimeouts - 1) } else { state.awayTimeouts = max(0, state.awayTimeouts - 1) }
    }

    private mutating func refundTimeout(_ team: TeamSide) {
        let limit = state.period >= 5 ? Self.overtimeTimeouts : Self.regulationTimeouts
        if team == .home { state.homeTimeouts = min(limit, state.homeTimeouts + 1) } else { state.awayTimeouts = min(limit, state.awayTimeouts + 1) }
    }

    /// NBA limits: at most 4 timeouts in the 4th quarter, at most 2 in its last 3:00.
    private mutating func capTimeouts(_ event: GameEvent) {
        guard state.period == 4, event.period == 4 else { return }
        let cap = event.clock <= 180 ? 2 : 4
        state.homeTimeouts = min(state.homeTimeouts, cap)
        state.awayTimeouts = min(state.awayTimeouts, cap)
    }

    private func who(_ event: GameEvent) -> String {
        if let player = event.player, !player.isEmpty { return player }
        return event.team == .home ? "Home" : "Away"
    }
}

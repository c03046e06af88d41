import Foundation
import ScoreFeedModel

/// The one place the rules of applying an event to a game live: validate it (identity, repeats,
/// edits), fold it into the scoreboard, follow the feed's running score, and turn an edit into
/// the change of its points. The engine (``GameSession``), the freshness measure
/// (``ScoreTimeline``, ``GameMoments``), the report and the NBA score check all apply events
/// through it, so what they call the score is what the lock screen was sent. Pure value type.
///
/// - Identity is not order: an event seen before is a duplicate at any distance; the same `seq`
///   with other content is an edit, applied as the change of its points.
/// - The feed's running score wins: after an event that states one, the scoreboard follows it.
///   Once a feed states its score, edits wait for the next stated score instead of moving the
///   score themselves (moving it here as well could count them twice).
public struct GameFold: Sendable {
    /// The applied events: the one record of what this game has seen.
    public internal(set) var validator = EventValidator()
    public internal(set) var board: Scoreboard
    /// The feed states its running score on events (or a poller says it): the scoreboard
    /// follows it.
    public internal(set) var followsFeedScore = false

    /// What applying one event did.
    public struct Step: Sendable {
        public var verdict: EventValidator.Verdict
        /// The change the game saw, for the push policy; nil when the score and state did not
        /// move (a duplicate, a rejected event, an edit the feed's score will carry).
        public var change: StateChange?
        /// Whether the scoreboard had to follow the feed's running score.
        public var corrected = false
    }

    public init(state: GameState = GameState()) {
        board = Scoreboard(state: state)
    }

    init(validator: EventValidator, board: Scoreboard, followsFeedScore: Bool) {
        self.validator = validator
        self.board = board
        self.followsFeedScore = followsFeedScore
    }

    /// The state after every event applied so far.
    public var state: GameState { board.state }

    /// Whether the feed's game end has been applied: later events are refused.
    public var sawGameEnd: Bool { validator.sawGameEnd }

    /// What ``apply(_:index:now:)`` would say of `event`, changing nothing.
    public func verdict(_ event: GameEvent, index: Int) -> EventValidator.Verdict {
        validator.verdict(event, index: index)
    }

    /// Applies `event` (found at `index` in its feed) at `now`, the game's moment: a correction
    /// an edit causes happens at the game's current period and clock.
    @discardableResult
    public mutating func apply(_ event: GameEvent, index: Int, now: Date) -> Step {
        apply(event, judged: validator.verdict(event, index: index), now: now)
    }

    /// Applies `event` as ``verdict(_:index:)`` judged it, when nothing changed in between. A clock
    /// it starts counts from its time moved by `clockShift` (``clockShift(eventTime:newest:now:)``).
    public mutating func apply(
        _ event: GameEvent, judged verdict: EventValidator.Verdict, now: Date, clockShift: TimeInterval = 0
    ) -> Step {
        validator.record(event, as: verdict)
        var step = Step(verdict: verdict)
        switch verdict {
        case .duplicate, .reject:
            break
        case .accept:
            let before = board.state
            board.fold(event, clockShift: clockShift)
            if let feed = event.feedScore {
                followsFeedScore = true
                step.corrected = board.follow(feed)
            }
            step.change = StateChange(event: event, before: before, after: board.state)
        case .edit(let previous):
            guard !followsFeedScore else { break }
            let before = board.state
            let moved = PointsMoved.between((previous.team, previous.points), (event.team, event.kind.points))
            for (team, points) in moved {
                board.fold(correction(points, team: team, seq: event.seq, time: event.time, now: now, why: "seq \(event.seq) edited by the feed"))
            }
            guard !moved.isEmpty else { break }
            let shown = correction(
                event.kind.points - previous.points, team: event.team ?? previous.team ?? .home, seq: event.seq,
                time: event.time, now: now, why: event.description ?? "seq \(event.seq) edited by the feed")
            step.change = StateChange(event: shown, before: before, after: board.state)
        }
        return step
    }

    /// The feed says its running score is `score` now (a live poll's snapshot, or its boxscore):
    /// the scoreboard follows, and a change is a correction at the game's current moment, dated
    /// `time` (the newest event's feed time). The same score again changes nothing; after the
    /// game's end nothing does.
    public mutating func follow(_ score: FinalScore, time: Date, now: Date) -> StateChange? {
        guard !sawGameEnd else { return nil }
        followsFeedScore = true
        let before = board.state
        guard board.follow(score) else { return nil }
        let home = score.home - before.homeScore, away = score.away - before.awayScore
        let event = correction(
            abs(home) >= abs(away) ? home : away, team: abs(home) >= abs(away) ? .home : .away, seq: 0,
            time: time, now: now, why: "the feed's score")
        return StateChange(event: event, before: before, after: board.state)
    }

    /// The game ends without a final (`phase`: postponed, or suspended with the score it had),
    /// dated `time` (the newest event's feed time), its clock stopped where it stood at `clockAt`
    /// (when the game last applied an event: the feed went silent after it): the change the
    /// policy ends the game on (its event is a `gameEnd` that says why). Nil once the feed's own
    /// end is applied or the game is already called off; a later event of the feed (a game that
    /// comes back) reopens it (`reopen()`).
    public mutating func callOff(_ phase: GamePhase, why: String, time: Date, clockAt: Date) -> StateChange? {
        guard phase.isCalledOff, !sawGameEnd, !board.state.phase.isCalledOff, board.state.phase != .final else { return nil }
        let before = board.state
        board.callOff(phase, now: clockAt)
        let event = GameEvent(
            seq: 0, time: time, period: max(1, before.period), clock: before.clock.secondsRemaining(at: clockAt), kind: .gameEnd,
            description: why)
        return StateChange(event: event, before: before, after: board.state)
    }

    /// A game called off is under way again (its feed brought a new event): live, whatever the
    /// event (a substitution says nothing of the phase).
    mutating func reopen() {
        guard board.state.phase.isCalledOff else { return }
        board.reopen()
    }

    /// A correction of `points` for `team` that happens now: at the game's current period and
    /// clock, whatever the moment of the event that caused it.
    private func correction(_ points: Int, team: TeamSide, seq: Int, time: Date, now: Date, why: String) -> GameEvent {
        GameEvent(
            seq: seq, time: time, period: max(1, board.state.period), clock: board.state.clock.secondsRemaining(at: now),
            kind: .correction(points: points), team: team, description: why)
    }
}

extension GameFold {
    /// How far behind the game's clock a feed's newest time may be and still be the wall clock's:
    /// 10 minutes. A live feed publishes an action seconds after it happens (a minute at worst);
    /// a recording played today (`stream` into `serve`, a recorded game behind a live endpoint)
    /// is hours to years behind.
    public static let liveFeedLag: TimeInterval = 600

    /// The shift that puts a game clock started by an event at `eventTime` on the game's clock at
    /// `now` (the system clock in production), when the feed's `newest` time so far (this event's
    /// included) lags it by more than ``liveFeedLag``: the feed's times are a recording's (or
    /// off), so the clock counts from the moment the newest event arrived, not from a recorded
    /// time long past (the widget's countdown would already be over). A live feed's times are
    /// kept (the clock has run since the action, not since it was published); on the feed clock
    /// and in replay the game's clock is the feed's time, so the shift is 0 and nothing moves.
    public static func clockShift(eventTime: Date, newest: Date?, now: Date) -> TimeInterval {
        let lag = now.timeIntervalSince(max(newest ?? eventTime, eventTime))
        return lag > liveFeedLag ? lag : 0
    }

    /// Applies a whole recorded game the way the engine does, each event at its own feed time,
    /// and hands every change to `body` (with the event's index). For the measures and the report.
    public static func replay(_ events: [GameEvent], _ body: (Int, StateChange) -> Void) {
        var fold = GameFold()
        for (index, event) in events.enumerated() {
            if let change = fold.apply(event, index: index, now: event.time).change { body(index, change) }
        }
    }
}

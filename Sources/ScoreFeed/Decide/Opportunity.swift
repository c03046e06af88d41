import Foundation

/// What a moment of the game promises a priority-10 push: about how many seconds the score on
/// the lock screen will stay the current one, and why. The values are the mean wait for the
/// next score after such a moment in real NBA games (capped at the priority-5 delay of 120 s),
/// so the coalescer can spend priority 10 where it buys the most correct-screen time.
public struct Opportunity: Hashable, Sendable, Codable {
    /// Seconds the current score is expected to stay.
    public var value: TimeInterval
    /// A long pause began: worth priority 10 whatever the price, while the budget lasts.
    public var isPause: Bool
    /// Why, for the push's reason.
    public var reason: String

    public init(value: TimeInterval, isPause: Bool = false, reason: String) {
        self.value = value
        self.isPause = isPause
        self.reason = reason
    }

    /// A timeout, the end of a period, a review.
    public static let pause = Opportunity(value: 120, isPause: true, reason: "pause begins")
    /// A dead ball when a mandatory TV timeout is due.
    public static let mandatoryTimeout = Opportunity(value: 100, isPause: true, reason: "mandatory timeout due")
    /// A score with a shot clock or less left in the period: the break follows.
    public static let periodEndsSoon = Opportunity(value: 95, reason: "period ends soon")
    /// A score while a mandatory timeout is due (it comes at the next dead ball).
    public static let scoreBeforeMandatoryTimeout = Opportunity(value: 90, reason: "mandatory timeout due")
    /// A score within a minute of game clock of a mandatory timeout mark not yet met.
    public static let scoreNearMandatoryTimeout = Opportunity(value: 85, reason: "mandatory timeout near")
    /// A score in the last 2:00 of the 4th or of an overtime: fouls and timeouts.
    public static let crunchTime = Opportunity(value: 75, reason: "crunch time")
    /// An offensive or loose-ball foul: a dead ball with no free throws.
    public static let stoppage = Opportunity(value: 70, reason: "stoppage")
    /// A score ending a run of unanswered points: the other bench likely calls a timeout.
    public static let run = Opportunity(value: 65, reason: "run")
    /// Players checking in: the ball is dead for a while.
    public static let substitution = Opportunity(value: 60, reason: "substitution")
    /// A common foul: a dead ball, an inbound.
    public static let commonFoul = Opportunity(value: 55, reason: "foul")
    /// Any other score.
    public static let score = Opportunity(value: 50, reason: "score")
    /// Play goes on (a shot, a rebound, a steal).
    public static let play = Opportunity(value: 35, reason: "play")

    /// The better of two.
    static func max(_ a: Opportunity, _ b: Opportunity) -> Opportunity {
        a.value >= b.value ? a : b
    }
}

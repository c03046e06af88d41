import Foundation
import ScoreFeedModel

/// Whether a followed game has reached an end that is not a final, so that every game ends on
/// the lock screen and a day's `poll --today` finishes: the boxscore calls it postponed or
/// cancelled, its play-by-play has not appeared ``giveUpAfter`` after its known tip-off
/// (postponed), or it brought nothing new for ``giveUpAfter`` while it was under way (suspended:
/// the feed went silent, the game was stopped and not finished, or the feed could not be had
/// that long). Pure: handed the moments, it says what to do.
public struct FeedWatch: Hashable, Sendable {
    /// Seconds without news after which a game is given up (`--give-up-after`).
    public var giveUpAfter: TimeInterval
    /// From when a game whose play-by-play has not appeared is waited for: its tip-off, or the
    /// moment following began when that is later (a recorded tip-off, or a poll started late).
    /// Nil while no tip-off is known (`poll --games` before the boxscore answers): a game is not
    /// called postponed on a guess.
    public private(set) var waitingSince: Date?
    /// When following began.
    public let started: Date
    /// When the feed last brought something new (new or edited actions); nil until its
    /// play-by-play first did.
    public private(set) var lastNews: Date?

    /// The default ``giveUpAfter``: an hour and a half. Longer than any stoppage a game came back
    /// from (halftime is 15 minutes; a shattered backboard replaced, a leaking roof or a wet
    /// floor dealt with: under an hour), so a game that is only delayed is not given up; short
    /// enough that a suspended game's activity ends hours before iOS would end it (8 hours), and
    /// a day's run finishes the same evening.
    public static let defaultGiveUpAfter: TimeInterval = 5400

    public init(giveUpAfter: TimeInterval = defaultGiveUpAfter, started: Date, tipOff: Date? = nil) {
        self.giveUpAfter = giveUpAfter
        self.started = started
        waitingSince = tipOff.map { max(started, $0) }
    }

    /// What the watch says of a game.
    public enum Verdict: Hashable, Sendable {
        case follow
        /// Call the game off as postponed (it never started), saying why.
        case postponed(String)
        /// Call the game off as suspended (it stopped unfinished), saying why.
        case suspended(String)

        /// The phase the game ends in; nil to keep following.
        public var phase: GamePhase? {
            switch self {
            case .follow: return nil
            case .postponed: return .postponed
            case .suspended: return .suspended
            }
        }

        public var why: String {
            switch self {
            case .follow: return ""
            case .postponed(let why), .suspended(let why): return why
            }
        }
    }

    /// The feed brought new or edited actions at `now`.
    public mutating func news(at now: Date) {
        lastNews = max(lastNews ?? now, now)
    }

    /// A tip-off learned later (the boxscore's): a game is waited for until then at least.
    public mutating func heard(tipOff: Date) {
        if lastNews == nil { waitingSince = max(waitingSince ?? started, tipOff) }
    }

    /// What to do with the game at `now`, given its last boxscore (nil: none read).
    public func verdict(now: Date, boxscore: LiveBoxscore?) -> Verdict {
        if let boxscore, boxscore.isCalledOff {
            return .postponed("the boxscore says \"\(boxscore.statusText ?? "")\"")
        }
        if boxscore?.status == .final { return .follow }
        guard let lastNews else {
            guard let waitingSince, now.timeIntervalSince(waitingSince) >= giveUpAfter else { return .follow }
            return .postponed("no play-by-play \(Self.seconds(giveUpAfter)) after tip-off")
        }
        guard now.timeIntervalSince(lastNews) >= giveUpAfter else { return .follow }
        return .suspended("no new action for \(Self.seconds(giveUpAfter))" + (boxscore?.status == .live ? " while the boxscore says live" : ""))
    }

    /// The moment ``verdict(now:boxscore:)`` would give the game up, unless news comes first
    /// (nil: not before its play-by-play appears or a tip-off is known).
    public var deadline: Date? {
        (lastNews ?? waitingSince)?.addingTimeInterval(giveUpAfter)
    }

    static func seconds(_ value: TimeInterval) -> String {
        value.rounded() == value ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}

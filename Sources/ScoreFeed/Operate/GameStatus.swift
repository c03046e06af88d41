import Foundation
import ScoreFeedModel

/// One game as `scorefeed status` shows it, from its session (a checkpoint and its journal):
/// state, score, period and clock, the age of its newest event, pushes by priority, the
/// priority-10 budget used, corrections and its channel. Pure: built from a session and `now`.
public struct GameStatus: Hashable, Sendable, Codable {
    public var game: String
    /// `pregame` (nothing applied yet), `live` or `ended` (its `end` rendered).
    public var state: String
    public var away: String
    public var home: String
    public var awayScore: Int
    public var homeScore: Int
    public var period: Int
    /// The game clock as the game's last moment left it (`4:32`, `12.3`).
    public var clock: String
    /// Feed time of the newest event (seconds since 1970), and its age at `now`.
    public var lastEvent: Double?
    public var lastEventAge: Double?
    /// Pushes rendered (`pushes` in the summaries), by priority.
    public var priority10: Int
    public var priority5: Int
    /// Pushes rendered and not yet handed to the sink.
    public var unsent: Int
    /// Priority-10 pushes in the rolling hour up to `now`.
    public var budgetUsed: Int
    public var corrections: Int
    /// Copies of the feed ignored as older than one already seen (a stale CDN edge's).
    public var staleCopies: Int
    /// The broadcast channel's id and state (none in token mode).
    public var channel: String?
    public var channelState: String?
    /// With several platforms (`--platform ios,android`), each lane's pushes handed to the sink
    /// by priority and its budget used; nil with one.
    public var lanes: [Lane]?

    /// One platform's figures in a game pushed to several.
    public struct Lane: Hashable, Sendable, Codable {
        public var platform: String
        public var priority10: Int
        public var priority5: Int
        public var budgetUsed: Int
    }

    public init(_ session: GameSession, now: Date) {
        let a = session.attributes, s = session.state, statistics = session.statistics
        game = a.gameId
        state = session.operatingState
        away = a.away.tricode
        home = a.home.tricode
        awayScore = s.awayScore
        homeScore = s.homeScore
        period = s.period
        clock = s.clockText(at: session.now)
        lastEvent = session.newestSourceTime?.timeIntervalSince1970
        lastEventAge = session.newestSourceTime.map { max(0, now.timeIntervalSince($0)) }
        priority10 = statistics.priority10
        priority5 = statistics.priority5
        unsent = session.outbox.count
        budgetUsed = session.priority10Used(at: now)
        corrections = statistics.corrections
        staleCopies = statistics.staleCopies
        if case .none = session.channel.phase {} else {
            channel = session.channel.id
            channelState = session.channel.state
        }
        if session.lanes.count > 1 {
            lanes = session.lanes.indices.map { index in
                let handed = statistics.handed.filter { $0.key.lane == index }
                return Lane(
                    platform: session.lanes[index].platform.rawValue, priority10: handed.filter { $0.key.priority == 10 }.values.reduce(0, +),
                    priority5: handed.filter { $0.key.priority != 10 }.values.reduce(0, +),
                    budgetUsed: session.lanes[index].priority10Used(at: now))
            }
        }
    }

    /// One line for people: `0022400762  ended  DAL 128 – 129 SAC  Q4 0.0  last event 3h ago  …`.
    public var line: String {
        var parts = [
            game, state, "\(away) \(awayScore) – \(homeScore) \(home)", "\(GameState.periodLabel(period)) \(clock)",
            "last event " + (lastEventAge.map(Self.age) ?? "none"),
            "pushes p10 \(priority10) p5 \(priority5)" + (unsent > 0 ? " (\(unsent) unsent)" : ""),
            "budget used \(budgetUsed)", "corrections \(corrections)",
        ]
        if staleCopies > 0 { parts.append("older copies ignored \(staleCopies)") }
        if let channelState { parts.append("channel \(channel ?? "-") \(channelState)") }
        for lane in lanes ?? [] {
            parts.append("\(lane.platform): sent p10 \(lane.priority10) p5 \(lane.priority5) budget used \(lane.budgetUsed)")
        }
        return parts.joined(separator: "  ")
    }

    /// `42s ago`, `5m ago`, `3h ago`, `12d ago`.
    static func age(_ seconds: Double) -> String {
        switch seconds {
        case ..<120: "\(Int(seconds))s ago"
        case ..<7_200: "\(Int(seconds / 60))m ago"
        case ..<172_800: "\(Int(seconds / 3_600))h ago"
        default: "\(Int(seconds / 86_400))d ago"
        }
    }
}

extension GameSession {
    /// `pregame` (nothing applied yet), `live`, or `ended` (its `end` rendered): the state
    /// `scorefeed status` shows and `scorefeed_games` counts.
    public var operatingState: String {
        hasEnded ? "ended" : statistics.accepted + statistics.edits == 0 ? "pregame" : "live"
    }
}

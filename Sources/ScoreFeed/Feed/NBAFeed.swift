import Foundation
import ScoreFeedModel

/// One NBA game file (liveData, stats v2 or v3) read into ScoreFeed's terms, before the score
/// check. Every format's reader produces this, so they all end in the same ``FeedDocument``
/// (``document()``, in `NBAFeed+ScoreCheck.swift`).
struct NBAFeed: Sendable {
    var format: FeedFormat
    var file: String?
    var attributes: GameAttributes
    /// Mapped actions in feed order.
    var actions: [FeedAction] = []
    /// Actions that could not be mapped, each with where and why.
    var rejected: [ScoreFeedError] = []
    var warnings: [ScoreFeedError] = []
    /// The final score a companion file (boxscore, summary, game page) states.
    var statedFinal: FinalScore?
    var scheduledStart: Date?
    /// Actions in the file, mapped or not.
    var actionCount = 0
    /// When the feed wrote this copy of the file (liveData's `meta.time`), when it says.
    var written: Date?
    /// The home team's NBA id when the file says or shows it (used to tell sides apart).
    var homeTeamId: Int?

    /// Synthetic sequence numbers (corrections, an added game end) start here; feed sequence
    /// numbers must be below it.
    static let syntheticSeqBase = 1_000_000_000

    /// One action as a format's reader maps it, before times are settled.
    struct Row: Sendable {
        var seq: Int
        var period: Int
        /// Seconds left; nil when the feed gives no usable clock (the previous one is used).
        var clock: Double?
        var kind: GameEvent.Kind
        var team: TeamSide?
        var player: String?
        var description: String?
        var feedScore: FinalScore?
        var position: Int
        /// Exact wall time (Unix seconds), when the feed states one.
        var wallTime: Double?
        /// The start of the minute the feed states (Unix seconds), for minute-precision feeds.
        var wallMinute: Double?

        /// The settled row (its clock known) as an action at `time` (Unix seconds).
        func action(at time: Double) -> FeedAction {
            FeedAction(
                event: GameEvent(
                    seq: seq, time: Date(timeIntervalSince1970: time), period: period, clock: clock!,
                    kind: kind, team: team, player: player, description: description),
                feedScore: feedScore, position: position)
        }
    }

    /// Where a feed with no date at all is placed: 2000-01-01T00:00:00Z.
    static let unknownDate: Double = 946_684_800

    /// Settles clocks, sequence numbers and times (``WallClockEstimate``) and stores the rows as
    /// actions. `start` is used only when no row has a known time. Returns what it settled by,
    /// for rows appended later (``Settling``).
    @discardableResult
    mutating func setActions(_ rows: consuming [Row], start: Double) -> Settling {
        var filled = rows
        var settling = Settling(nextFree: (filled.lazy.map(\.seq).max() ?? 0) + 1, capacity: filled.count)
        for i in filled.indices { settling.settle(&filled[i]) }
        let times = WallClockEstimate.times(settling.clocks, start: start)
        actions = zip(filled, times).map { row, time in row.action(at: time) }
        return settling
    }

    /// What settling rows in feed order carries from one row to the next: the last clock (a row
    /// without one takes it), the sequence numbers used (a number seen twice gets a fresh one)
    /// and what each row says about its time.
    struct Settling: Sendable {
        private var lastClock: (period: Int, clock: Double)?
        private var used: Set<Int>
        private var nextFree: Int
        /// What each row settled so far says about its time, for ``WallClockEstimate``.
        private(set) var clocks: [WallClockEstimate.Row] = []
        /// Whether a sequence number was seen twice (and renumbered).
        private(set) var renumbered = false

        init(nextFree: Int, capacity: Int) {
            self.nextFree = nextFree
            used = Set(minimumCapacity: capacity)
            clocks.reserveCapacity(capacity)
        }

        mutating func settle(_ row: inout Row) {
            if row.clock == nil {
                row.clock = lastClock.flatMap { $0.period == row.period ? $0.clock : nil }
                    ?? EventValidator.length(ofPeriod: max(1, row.period))
            }
            lastClock = (row.period, row.clock!)
            // A sequence number seen twice (v3 gives a block its shot's actionNumber) gets a fresh one.
            if !used.insert(row.seq).inserted {
                renumbered = true
                if nextFree < NBAFeed.syntheticSeqBase {
                    row.seq = nextFree
                    used.insert(nextFree)
                    nextFree += 1
                }
            }
            clocks.append(.init(period: row.period, clock: row.clock!, exact: row.wallTime, minute: row.wallMinute))
        }
    }

    /// A game end after the last action, for formats that have no game-end action (v2, v3),
    /// when the game is over: the source says it is final, or (when it says nothing) the last
    /// action ends period 4 or later with the feed's score not tied.
    static func gameEndRow(after rows: [Row], final: Bool?, position: Int) -> Row? {
        guard let last = rows.last else { return nil }
        if final == false { return nil }
        if final == nil {
            guard case .periodEnd = last.kind, last.period >= 4,
                let score = rows.last(where: { $0.feedScore != nil })?.feedScore, score.home != score.away
            else { return nil }
        }
        let seq = min((rows.map(\.seq).max() ?? 0) + 1, syntheticSeqBase - 1)
        return Row(
            seq: seq, period: last.period, clock: 0, kind: .gameEnd, description: "Game End (final)",
            position: position, wallTime: nil, wallMinute: last.wallMinute)
    }

    /// Which side `teamId` is, given the two teams' ids.
    static func side(_ teamId: Int?, home: Int?, away: Int?) -> TeamSide? {
        guard let teamId, teamId != 0 else { return nil }
        if teamId == home { return .home }
        if teamId == away { return .away }
        return nil
    }

    /// A team for the attributes: the stated details, else the NBA's by id or tricode, else a
    /// placeholder that still says which side it is.
    static func team(id: Int?, tricode: String?, name: String?, city: String?, home: Bool) -> Team {
        let known = NBATeams.all.first { id != nil && $0.id == String(id!) }
            ?? tricode.flatMap { code in NBATeams.all.first { $0.tricode == code } }
        let code = tricode.flatMap { $0.isEmpty ? nil : $0 } ?? known?.tricode ?? (home ? "HOME" : "AWAY")
        return Team(
            id: id.map(String.init) ?? known?.id ?? "",
            tricode: code,
            name: name.flatMap { $0.isEmpty ? nil : $0 } ?? known?.name ?? code,
            city: city.flatMap { $0.isEmpty ? nil : $0 } ?? known?.city ?? "",
            primaryColor: known?.primaryColor ?? "#1D428A")
    }

    /// `M. Gasol` from `Marc Gasol`, the feeds' short form for display.
    static func shortName(_ full: String?) -> String? {
        guard let full = full?.trimmingCharacters(in: .whitespaces), !full.isEmpty else { return nil }
        let parts = full.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let initial = parts[0].first, !parts[0].hasSuffix(".") else { return full }
        return "\(initial). \(parts[1])"
    }

    /// A score that is a plausible basketball score, else nil (the feed's "" or garbage).
    static func score(home: Int?, away: Int?) -> FinalScore? {
        guard let home, let away, (0..<10_000).contains(home), (0..<10_000).contains(away) else { return nil }
        return FinalScore(home: home, away: away)
    }

    /// `1` and `2` from "1 of 2", "Free Throw 1 of 2", "flagrant 2 of 2".
    static func attemptOf(_ text: String) -> (attempt: Int, of: Int)? {
        let words = text.lowercased().split(separator: " ")
        guard let index = words.lastIndex(of: "of"), index > 0, index + 1 < words.count,
            let attempt = Int(words[index - 1]), let of = Int(words[index + 1].prefix(while: \.isNumber)),
            (1...3).contains(of), (1...of).contains(attempt)
        else { return nil }
        return (attempt, of)
    }

    /// Collects "type X is not modelled" warnings: one per type, with its count and first place.
    struct UnknownTypes: Sendable {
        private var seen: [String: (count: Int, first: ScoreFeedError.Location)] = [:]
        private var order: [String] = []

        mutating func note(_ type: String, at location: ScoreFeedError.Location) {
            if let entry = seen[type] {
                seen[type] = (entry.count + 1, entry.first)
            } else {
                seen[type] = (1, location)
                order.append(type)
            }
        }

        /// Notes an NBA action of a type that is not modelled, named as the feed spells it
        /// (`"type"/"subType"`); `type` and `sub` are the lowercased forms, used when it spells none.
        mutating func note(_ action: NBAAction, type: String, sub: String, at location: ScoreFeedError.Location) {
            note("\"\(action.actionType ?? type)\"\(sub.isEmpty ? "" : "/\(action.subType ?? sub)")", at: location)
        }

        var warnings: [ScoreFeedError] {
            order.map { type in
                let entry = seen[type]!
                return ScoreFeedError(
                    .unknownEventType,
                    "action type \(type) (\(entry.count) action\(entry.count == 1 ? "" : "s")) is kept as a non-scoring event",
                    at: entry.first)
            }
        }
    }

    /// Offensive or defensive, for feeds that do not say: a rebound by the team that missed last.
    struct ReboundHint: Sendable {
        private var lastMiss: TeamSide?

        mutating func note(_ kind: GameEvent.Kind, team: TeamSide?) {
            switch kind {
            case .fieldGoal(_, let made), .freeThrow(_, _, let made, _): lastMiss = made ? nil : team
            default: break
            }
        }

        func offensive(_ team: TeamSide?) -> Bool {
            team != nil && team == lastMiss
        }
    }
}

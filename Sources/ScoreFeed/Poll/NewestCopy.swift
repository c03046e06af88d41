import Foundation

/// The newest copy of one liveData document (a game's play-by-play or boxscore) that a poller
/// has seen, and the rule that tells an older copy from news: the NBA's CDN answers from many
/// edges, and one may hold an older copy (an older `meta.time`, fewer actions, a status the game
/// has left). Such a copy is stale, not a correction: it is ignored whole. A copy at least as new
/// as the newest (``Stamp/isOlder(than:)``) is admitted, deletions and edits included. Pure.
public struct NewestCopy: Hashable, Sendable {
    /// How new one copy says it is. A count the copy does not state (nil) decides nothing.
    public struct Stamp: Hashable, Sendable {
        /// When the feed wrote the copy: `meta.time`, its Eastern wall-clock time read as a moment
        /// (``NewestCopy/moment(ofWall:near:)``), so the hour the clocks go back orders too.
        public var written: Date?
        /// The highest `actionNumber` among its actions (play-by-play): actions inserted later get
        /// higher numbers, so a copy with a lower highest number has not heard of some.
        public var newestAction: Int?
        /// The game's status (boxscore): scheduled, live and final only ever follow each other
        /// in that order.
        public var status: LiveBoxscore.Status?
        /// The points both teams have (boxscore): they only rise in play, so in the hour the
        /// clocks go back a copy with fewer than the newest's (and no later status) is an hour old
        /// (``NewestCopy/admit(_:received:)``). Orders nothing else: a correction may take points back.
        public var points: Int?

        public init(written: Date? = nil, newestAction: Int? = nil, status: LiveBoxscore.Status? = nil, points: Int? = nil) {
            self.written = written
            self.newestAction = newestAction
            self.status = status
            self.points = points
        }

        /// Whether this copy is older than `newest`. A status behind the newest's is older
        /// whatever else the copy says (a game never goes back). Then, where both state when they
        /// were written, that decides: an edge's older copy was written earlier, and a copy written
        /// later is news even when it lists fewer actions (the feed deleted the newest one).
        /// Where `meta.time` is absent or the same, a lower highest action number is older.
        public func isOlder(than newest: Stamp) -> Bool {
            if let status, let seen = newest.status, status.rawValue < seen.rawValue { return true }
            if let written, let seen = newest.written, written != seen { return written < seen }
            if let newestAction, let seen = newest.newestAction, newestAction < seen { return true }
            return false
        }

        /// The newer of the two on each count.
        func merged(with other: Stamp) -> Stamp {
            Stamp(
                written: Self.max(written, other.written), newestAction: Self.max(newestAction, other.newestAction),
                status: Self.max(status?.rawValue, other.status?.rawValue).flatMap(LiveBoxscore.Status.init(rawValue:)),
                points: Self.max(points, other.points))
        }

        private static func max<T: Comparable>(_ a: T?, _ b: T?) -> T? {
            guard let a else { return b }
            guard let b else { return a }
            return Swift.max(a, b)
        }
    }

    /// The moment a liveData copy's `meta.time` stands for, read beside the clock `now` (when the
    /// copy came): `meta.time` is US Eastern wall-clock time without a zone, which the decoders
    /// hand over as if it were UTC (``LiveSnapshot/stamp``, ``LiveBoxscore/written``). Copies are
    /// compared, and aged, as moments: the night the clocks go back, the hour from 1 a.m. comes
    /// twice, and a time in it is read as its second pass unless that moment lies more than five
    /// minutes ahead of `now` (read as its first, each copy of the second pass would be an hour
    /// older than the first pass's last, and refused as a stale edge's). A copy of the first pass
    /// read in the second 55 minutes old or more is taken for one an hour newer.
    public static func moment(ofWall wall: Date, near now: Date) -> Date {
        EasternTime.instant(wall: wall, near: now)
    }

    /// The newest on each count of the copies admitted so far (nil: none yet).
    public private(set) var newest: Stamp?
    /// Copies refused as older than the newest.
    public private(set) var stale = 0

    /// `floor`: what is known to have been seen before this poller began (when the newest copy
    /// the game took in an earlier run was written, and the highest action number it applied),
    /// so a restart's first answer from a stale edge is caught too.
    public init(floor: Stamp? = nil) {
        newest = floor
    }

    /// Refuses (true, and counted) a copy written at `written`, before it is read, when that
    /// alone makes it older than the newest (``Stamp/isOlder(than:)``: a different `meta.time`
    /// decides, whatever the copy lists); false when only reading it can tell.
    public mutating func refuses(written: Date?) -> Bool {
        guard written != nil, let newest, Stamp(written: written).isOlder(than: newest) else { return false }
        stale += 1
        return true
    }

    /// Admits a copy stamped `stamp` (true), or refuses it as older than the newest (false, and
    /// counted). `received`: when the copy came. The night the clocks go back, a copy's
    /// `meta.time` in the repeated hour may be the first pass's, read as the second's
    /// (`EasternTime.instant(wall:near:)`): nothing tells an hour-old copy from a fresh one by
    /// time. So a copy of the play-by-play said to be written in the second pass with fewer
    /// actions than the newest is refused: an hour old, it read as written seconds before it came
    /// and took the score back (`simulate --days 250 --seed 23 --interval 60 --platform
    /// ios,android`, day 212: 89-81, then 89-79). The cost, that hour a year: a copy that deleted
    /// the newest action waits for the next. A boxscore's copy in the second pass with fewer
    /// points than the newest, and no later status, is refused likewise: an hour-old one,
    /// admitted, made every fresh copy look older for minutes (`LiveDayScenarioTests.aFirstPassCopyReadAsTheSecondPassTakesNoScoreBack`,
    /// found by the simulated CDN's check of the validators a request carries). With as many
    /// actions or more it is ordered as ever
    /// (a real feed may number an early action highest, so that count stands still:
    /// `--games ../shared/nba-pbp`, seed 4343, day 7, where ordering such copies by actions took a
    /// stale edge's in). And one said to be written more than ``aheadOfArrival`` after it came is
    /// ordered by its actions and status alone, its time not kept: 55 minutes old, it read as
    /// minutes ahead (`simulate --days 500 --seed 1 --platform ios`, day 52: 80-77, then 78-77).
    public mutating func admit(_ stamp: Stamp, received: Date? = nil) -> Bool {
        var ordered = stamp
        if let written = stamp.written, EasternTime.isSecondPass(written) {
            if let actions = stamp.newestAction, let seen = newest?.newestAction, actions < seen {
                stale += 1
                return false
            }
            if let points = stamp.points, let seen = newest?.points, points < seen,
               (stamp.status?.rawValue ?? 0) <= (newest?.status?.rawValue ?? 0) {
                stale += 1
                return false
            }
            if let received, written.timeIntervalSince(received) > Self.aheadOfArrival { ordered.written = nil }
        }
        if let newest, ordered.isOlder(than: newest) {
            stale += 1
            return false
        }
        newest = newest.map { $0.merged(with: ordered) } ?? ordered
        return true
    }

    /// How far after its arrival a copy of the repeated hour may say it was written and still be
    /// ordered by that time (``admit(_:received:)``): the CDN's clock and ours differ by a second
    /// or two.
    public static let aheadOfArrival: TimeInterval = 5
}

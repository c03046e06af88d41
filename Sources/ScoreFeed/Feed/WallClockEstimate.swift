import Foundation

/// Wall-clock times for feeds that do not give every action an exact one.
///
/// liveData states `timeActual` to the tenth of a second on every action. stats.nba.com v2 only
/// states the minute (`WCTIMESTRING` "7:41 PM", no date), and v3 actions only carry one in a few
/// descriptions ("Start of 1st Period (3:41 PM EST)"). Replay needs a time on every event, rising,
/// so ScoreFeed estimates the missing ones from what is known:
///
/// - Each action gets a *progress* value: game seconds elapsed since tip-off, plus a typical
///   period break before each period (130 s, halftime 900 s), plus ``secondsPerAction`` for every
///   action before it (dead-ball actions take wall time although the game clock stands still).
/// - *Anchors* are actions whose time is known: an exact time, or the first action of a run of
///   actions stating the same minute, placed at the start of that minute.
/// - Between two anchors, times are interpolated linearly in progress; before the first and after
///   the last, they run at ``pace`` wall seconds per unit of progress; with no anchor at all, from
///   `start` at that pace.
/// - An action that states its minute stays inside that minute; times never decrease.
enum WallClockEstimate {
    /// What is known about one action's time.
    struct Row: Hashable, Sendable {
        var period: Int
        /// Seconds left on the game clock.
        var clock: Double
        /// An exact time, Unix seconds.
        var exact: Double?
        /// The start of the minute the feed states for it, Unix seconds.
        var minute: Double?
    }

    /// Wall seconds charged to every action, on top of the game clock.
    static let secondsPerAction = 5.0
    /// Wall seconds per unit of progress where no anchor says otherwise (a regulation game of
    /// about 520 actions then takes about 2 h 15 min).
    static let pace = 1.2
    /// Assumed break before each period after the first, and at halftime.
    static let periodBreak = 130.0
    static let halftime = 900.0

    /// Game seconds before `clock` in `period`, plus the breaks before it.
    static func elapsed(period: Int, clock: Double) -> Double {
        let p = min(max(period, 1), 99)
        let length = EventValidator.length(ofPeriod: p)
        let before = p <= 4 ? Double(p - 1) * 720 : 2880 + Double(p - 5) * 300
        let left = clock.isFinite ? min(max(clock, 0), length) : length
        let breaks = p <= 1 ? 0 : Double(p - 1) * periodBreak + (p >= 3 ? halftime - periodBreak : 0)
        return before + (length - left) + breaks
    }

    /// `progress` (of a prefix of `rows`) carried on to every row: never decreasing, at least
    /// ``secondsPerAction`` per row. A row's progress depends on the rows before it alone.
    private static func extendProgress(_ progress: inout [Double], to rows: [Row]) {
        progress.reserveCapacity(rows.count)
        for i in progress.count..<rows.count {
            let value = elapsed(period: rows[i].period, clock: rows[i].clock) + secondsPerAction * Double(i)
            progress.append(i == 0 ? value : max(value, progress[i - 1] + secondsPerAction))
        }
    }

    /// A time for every row (Unix seconds), non-decreasing; `start` is used only when no row
    /// has a known time.
    static func times(_ rows: [Row], start: Double) -> [Double] {
        var estimate = Estimate()
        extend(&estimate, to: rows, start: start)
        return estimate.times
    }

    /// The progress and times of some rows, kept to estimate rows appended to them
    /// (``extend(_:to:start:)``).
    struct Estimate: Sendable {
        var progress: [Double] = []
        var times: [Double] = []
        /// How many leading times the estimate this one extended gave and this one kept as they
        /// were (the rest were worked out again).
        var kept = 0
    }

    /// `estimate`, of a prefix of `rows` under the same `start`, made ``times(_:start:)`` of
    /// `rows`: the times up to its last anchor stand, as a time depends only on the rows before it
    /// and the next anchor, so only the rows after that anchor are worked out again (a live
    /// game's next copy, whose actions all state their time, costs its new rows). In place: the
    /// memo that keeps it is not copied.
    static func extend(_ estimate: inout Estimate, to rows: [Row], start: Double) {
        if estimate.times.count > rows.count || estimate.progress.count != estimate.times.count { estimate = Estimate() }
        guard !rows.isEmpty else { return estimate = Estimate() }
        extendProgress(&estimate.progress, to: rows)
        let u = estimate.progress
        func isAnchor(_ i: Int) -> Bool {
            rows[i].exact != nil || rows[i].minute.map { i == 0 || rows[i - 1].minute != $0 } ?? false
        }
        func anchorTime(_ i: Int) -> Double { rows[i].exact ?? rows[i].minute! }
        // The last known anchor and the times before it stand; the rest are worked out again.
        let last = (0..<estimate.times.count).last(where: isAnchor)
        let from = last.map { $0 + 1 } ?? 0
        estimate.times.removeSubrange(from...)
        estimate.kept = from
        var anchors: [(index: Int, time: Double)] = []
        for i in (last ?? 0)..<rows.count where isAnchor(i) { anchors.append((i, anchorTime(i))) }
        estimate.times.reserveCapacity(rows.count)
        var next = 0
        var previous = from > 0 ? estimate.times[from - 1] : -Double.infinity
        for i in from..<rows.count {
            while next < anchors.count, anchors[next].index < i { next += 1 }
            var t: Double
            if next < anchors.count, anchors[next].index == i {
                t = anchors[next].time
            } else {
                let before = next > 0 ? anchors[next - 1] : nil
                let after = next < anchors.count ? anchors[next] : nil
                switch (before, after) {
                case let (a?, b?):
                    let span = u[b.index] - u[a.index]
                    t = b.time > a.time && span > 0 ? a.time + (b.time - a.time) * (u[i] - u[a.index]) / span : a.time
                case let (a?, nil):
                    t = a.time + pace * (u[i] - u[a.index])
                case let (nil, b?):
                    t = b.time - pace * (u[b.index] - u[i])
                case (nil, nil):
                    t = start + pace * (u[i] - u[0])
                }
            }
            if let minute = rows[i].minute { t = min(max(t, minute), minute + 59.9) }
            t = max(t, previous)
            estimate.times.append(t)
            previous = t
        }
    }
}

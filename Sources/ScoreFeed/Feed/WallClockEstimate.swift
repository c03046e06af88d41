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

    /// Progress of each row: never decreasing, at least ``secondsPerAction`` per row.
    static func progress(_ rows: [Row]) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            let value = elapsed(period: row.period, clock: row.clock) + secondsPerAction * Double(i)
            result.append(i == 0 ? value : max(value, result[i - 1] + secondsPerAction))
        }
        return result
    }

    /// A time for every row (Unix seconds), non-decreasing; `start` is used only when no row
    /// has a known time.
    static func times(_ rows: [Row], start: Double) -> [Double] {
        guard !rows.isEmpty else { return [] }
        let u = progress(rows)
        var anchors: [(index: Int, time: Double)] = []
        for (i, row) in rows.enumerated() {
            if let exact = row.exact {
                anchors.append((i, exact))
            } else if let minute = row.minute, i == 0 || rows[i - 1].minute != minute {
                anchors.append((i, minute))
            }
        }
        var result: [Double] = []
        result.reserveCapacity(rows.count)
        var next = 0
        var previous = -Double.infinity
        for i in rows.indices {
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
            result.append(t)
            previous = t
        }
        return result
    }
}

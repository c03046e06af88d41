import Foundation

extension GameAttributes.ContentState {
    /// The score of `side`.
    public func score(_ side: TeamSide) -> Int {
        side == .home ? homeScore : awayScore
    }

    /// Home lead (negative when away leads).
    public var margin: Int { homeScore - awayScore }

    /// `Q1`…`Q4`, `OT`, `2OT`, …: the period as scoreboards print it.
    public var periodLabel: String {
        Self.periodLabel(period)
    }

    /// `Q1`…`Q4`, `OT`, `2OT`, …
    public static func periodLabel(_ period: Int) -> String {
        if period <= 4 { return "Q\(period)" }
        return period == 5 ? "OT" : "\(period - 4)OT"
    }

    /// The clock as `M:SS`, or `S.t` under a minute, at `now`.
    public func clockText(at now: Date) -> String {
        Self.clockText(clock.secondsRemaining(at: now))
    }

    /// `M:SS`, or `S.t` under a minute, as NBA scoreboards print the game clock.
    public static func clockText(_ seconds: Double) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 {
            let tenths = Int((seconds * 10).rounded(.down))
            return "\(tenths / 10).\(tenths % 10)"
        }
        let whole = Int(seconds.rounded(.down))
        let secs = whole % 60
        return "\(whole / 60):\(secs < 10 ? "0" : "")\(secs)"
    }
}

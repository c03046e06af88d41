import Foundation
import ScoreFeedModel

/// The points each team gains or loses when the feed replaces one version of an event with
/// another (an edit, a deletion, a late insert): the old version's points taken back, the new
/// one's given. Home first; teams whose points do not move are left out.
enum PointsMoved {
    /// `old` and `new` are a version's team and points; nil when there is no such version.
    static func between(
        _ old: (team: TeamSide?, points: Int)?, _ new: (team: TeamSide?, points: Int)?
    ) -> [(team: TeamSide, points: Int)] {
        var home = 0, away = 0
        func add(_ team: TeamSide?, _ points: Int) {
            if team == .home { home += points } else if team == .away { away += points }
        }
        if let old { add(old.team, -old.points) }
        if let new { add(new.team, new.points) }
        return [(TeamSide.home, home), (.away, away)].filter { $0.1 != 0 }.map { (team: $0.0, points: $0.1) }
    }
}

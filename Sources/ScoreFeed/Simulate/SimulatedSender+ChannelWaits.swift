import Foundation

/// Games that waited for a free channel on a day with `--max-channels`: once fewer channels than
/// the cap are open at APNs, a game that waits gets its create at once.
extension SimulatedSender {
    /// An instance of the service: when it started and when it stopped (its drain over, or killed).
    public typealias Span = Range<Date>

    /// Games that waited for their first channel longer than `slack` while fewer than `cap`
    /// channels were open at APNs, said as the checker says a
    /// violation; and how many such waits were held to it (each a check). A game waits in an
    /// instance from the first moment that instance was handed it (`handed`: a `serve` line, or a
    /// poller's news) until APNs makes a channel for it. The wait is not counted within `grace`
    /// of an instance's start (its reconciliation runs then) nor within `troubles` (the sender,
    /// the disk or APNs' channel service in trouble, which hold the work that frees a channel).
    public func channelsGrantedLate(
        cap: Int, handed: [String: [Date]], instances: [Span], troubles: [Range<Date>], slack: TimeInterval, grace: TimeInterval,
        dayStart: Date
    ) -> (checks: Int, violations: [String]) {
        Self.grantedLate(
            changes: channelHistory, cap: cap, handed: handed, instances: instances, troubles: troubles, slack: slack, grace: grace,
            dayStart: dayStart)
    }

    /// ``channelsGrantedLate(cap:handed:instances:troubles:slack:grace:dayStart:)`` over
    /// `changes`, in order, instance `k` (from 1) being `instances[k - 1]`.
    static func grantedLate(
        changes: [ChannelChange], cap: Int, handed: [String: [Date]], instances: [Span], troubles: [Range<Date>], slack: TimeInterval,
        grace: TimeInterval, dayStart: Date
    ) -> (checks: Int, violations: [String]) {
        var checks = 0
        var violations: [String] = []
        let troubles = troubles.sorted { $0.lowerBound < $1.lowerBound }
        /// A wait from `since` that ended at `end`: held to `slack` from its start, moved past
        /// the troubles that begin before the slack is over.
        func held(_ since: Date, _ end: Date, waiting: [String], open: Int) {
            var from = since
            for trouble in troubles where trouble.lowerBound <= from.addingTimeInterval(slack) && trouble.upperBound > from {
                from = max(from, trouble.upperBound)
            }
            guard from <= end else { return }
            checks += 1
            guard end.timeIntervalSince(from) > slack else { return }
            let who = (waiting.count == 1 ? "game " : "games ") + waiting.prefix(3).joined(separator: ", ") + (waiting.count > 3 ? " and \(waiting.count - 3) more" : "")
            violations.append(
                "\(who) waited for a channel from +\(JSONText.number(from.timeIntervalSince(dayStart))) s to +\(JSONText.number(end.timeIntervalSince(dayStart))) s while APNs had \(open) open, fewer than --max-channels (\(cap)) (at most \(Int(slack)) s)")
        }
        var opened: Set<String> = []
        for (index, span) in instances.enumerated() {
            let instance = index + 1
            // The channels open at APNs as the instance starts. (Not ``mostOpen(_:)``'s count: a
            // channel a later reconciliation deleted as no game's may be one this instance knows,
            // its state directory lost only after it, and counts against its cap; seed 101, day 55.)
            var open: Set<String> = []
            for change in changes where change.at < span.lowerBound || change.instance < instance {
                if change.opened { open.insert(change.channel) } else { open.remove(change.channel) }
                if change.opened, let game = change.game { opened.insert(game) }
            }
            let mine = changes.filter { $0.instance == instance && $0.at >= span.lowerBound }
            // What happens in the instance, in time: channels made or deleted, games first handed.
            let firstHanded = handed.compactMapValues { $0.first(where: span.contains) }
            let moments = Set(mine.map(\.at)).union(firstHanded.values)
            var waiting: [String] = []
            var since: Date?
            var next = mine[...]
            let counted = span.lowerBound.addingTimeInterval(grace)
            for moment in moments.sorted() {
                // Deletes first: a channel freed and given out at one moment is a wait of none.
                var made: [ChannelChange] = []
                while let change = next.first, change.at <= moment {
                    next.removeFirst()
                    if change.opened { made.append(change) } else { open.remove(change.channel) }
                }
                for (game, first) in firstHanded.sorted(by: { $0.key < $1.key }) where first <= moment && !opened.contains(game) && !waiting.contains(game) {
                    waiting.append(game)
                }
                if since == nil, open.count < cap, !waiting.isEmpty { since = max(moment, counted) }
                let (waited, openThen) = (waiting, open.count)
                for change in made {
                    open.insert(change.channel)
                    if let game = change.game {
                        opened.insert(game)
                        waiting.removeAll { $0 == game }
                    }
                }
                // A create ends a wait: the service is giving channels out.
                if let start = since, !made.isEmpty {
                    held(start, moment, waiting: waited, open: openThen)
                    since = nil
                }
                if since == nil, open.count < cap, !waiting.isEmpty { since = max(moment, counted) }
            }
            if let start = since { held(start, span.upperBound, waiting: waiting, open: open.count) }
        }
        return (checks, violations)
    }
}

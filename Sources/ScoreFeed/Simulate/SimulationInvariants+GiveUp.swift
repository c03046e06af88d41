import Foundation

extension SimulationInvariants {
    /// A polled game whose feed goes silent is given up on time: its end (suspended) is on a push
    /// the sender has within ``expectedGiveUpAfter`` of the last news its poller could see, a
    /// poll's interval to see it, another to decide, and ``freshnessSlack``. The last news is the
    /// feed's last change, or the start of an instance that took the game up again or its join
    /// (a restored game counts its restore as news; a lost one its first copy, a poll later).
    /// Only a trouble around a moment (the feed failing, the sender or the disk, a restart)
    /// excuses a later end, until it is over. A game that comes back after that bound (a comeback
    /// the running instance does not follow) must have been given up by then; one that comes back
    /// sooner is followed to its final. Without this check a poller that counts each copy it hands
    /// over as news (the same copy again after a 304) gives a silent game up late or, when it
    /// comes back, never, and every other check passes. A stale edge may hold the last change
    /// back from a poller for a few polls: its news is when the CDN gave it (``playByPlayNews``).
    mutating func checkGiveUp(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard plan.path == .poll else { return }
        // When the feed stops, and when it comes back (never, for a silent game).
        let silence: Date, back: Date
        switch plan.fate {
        case .silent(let share):
            silence = plan.firstAction.addingTimeInterval(share * plan.game.span)
            back = .distantFuture
        case .comeback(let share, let pause) where !plan.comebackIsFollowed:
            silence = plan.firstAction.addingTimeInterval(share * plan.game.span)
            back = silence.addingTimeInterval(pause)
        default:
            return
        }
        let end = pushes.first { $0.event == .end && $0.state.phase == .suspended }
        let interval = day.pollInterval
        let wait = interval + Self.freshnessSlack
        let before = end?.sentAt ?? back
        // The last instance to take the game up before its end went, its join, and the last
        // copy that changed its poller was given (a stale edge may hold the last change back).
        let resumed = instances.dropFirst().last { $0 < before }.map { $0.addingTimeInterval(interval) }
        let joined = plan.join.map { $0.addingTimeInterval(interval) }
        let given = playByPlayNews[plan.game.id]?.last { $0 < before }
        let news = [silence, resumed, joined, given].compactMap { $0 }.max()!
        let feed = Self.feedTroubles(plan, interval: interval, requestTimeout: day.requestTimeout)
        let troubles = feed + senderTroubles(for: plan.game.id) + diskTroubles
            + day.restarts.map { $0.at..<$0.at.addingTimeInterval($0.downFor + wait) } + firstCopyWaits(newPollers(plan, feed: feed))
        // The latest the poller sees it (the feed's troubles around it put it off), then the
        // latest it may decide and the sender have the end.
        let seen = Self.excused(from: news.addingTimeInterval(-wait), until: news.addingTimeInterval(wait), by: troubles, wait: wait)
        let due = seen.addingTimeInterval(Self.expectedGiveUpAfter + wait)
        let most = Self.excused(from: due.addingTimeInterval(-wait), until: due, by: troubles, wait: wait)
        // A game that comes back after that was given up before (else it is followed again, and
        // rightly ends on its final); a silent game's missing end breaks ``checkEnd(_:_:)``.
        guard most < back, end != nil || back < .distantFuture else { return }
        let delivered = end.map { firstDelivery[$0.key] ?? $0.sentAt }
        let start = day.start
        check(delivered.map { $0 <= most } ?? false,
              "game \(plan.game.id) (poll, \(plan.fate)): "
                  + (delivered.map { "given up \(Int($0.timeIntervalSince(news))) s after the last news it could see (seq \(end?.seq ?? 0))" }
                      ?? "never given up, the feed silent from +\(Int(news.timeIntervalSince(start))) s to +\(Int(back.timeIntervalSince(start))) s")
                  + "; at most \(Int(most.timeIntervalSince(news))) s")
    }
}

import Foundation

extension SimulationInvariants {
    /// A game whose boxscore fails alone across its end (``SimulatedDay/Game/boxscoreOutages``)
    /// ends on its play-by-play, whose copy lists the end: the poller's boxscore no longer decides
    /// after three failures in a row (each at least a poll's interval, or the 503's `Retry-After`,
    /// after the one before: written out, as ``LivePoller``'s rule), and the play-by-play's next
    /// poll reads its copy again without it, though that copy has not changed (a 304). So the end
    /// goes within a poll's interval (and ``freshnessSlack``) of the later of the last action and
    /// that give-up, long before the boxscore is back. Held only where nothing else stands in the
    /// way: no trouble of the feed, the sender or the disk, no instance stopping or starting near
    /// it, no stale edge, no join, no slow sender, no wait for a channel. `pushes`: the game's
    /// records, each once.
    mutating func checkEndWithoutTheBoxscore(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard plan.path == .poll, case .plays = plan.fate, let outage = plan.boxscoreOutages.first, let last = plan.lastAction,
              plan.join == nil, !plan.hasStaleEdge, day.sink.slowest == 0, !(day.hasChannels && day.channelsWait)
        else { return }
        let interval = day.pollInterval
        let apart = max(interval, plan.outageRetryAfter ?? plan.drawnRetryAfter)
        // The boxscore's first request in the outage comes within an interval of its start.
        let givenUp = outage.lowerBound.addingTimeInterval(interval + 2 * apart)
        let most = max(last, givenUp).addingTimeInterval(interval + Self.freshnessSlack)
        guard most < outage.upperBound else { return }
        let window = outage.lowerBound.addingTimeInterval(-interval)..<most
        let troubles = Self.feedTroubles(plan, interval: interval, requestTimeout: day.requestTimeout) + senderTroubles(for: plan.game.id)
            + diskTroubles
        guard !troubles.contains(where: { $0.overlaps(window) }),
              !instanceStopsOrStarts(near: window)
        else { return }
        let end = pushes.filter { $0.event == .end }.map { firstDelivery[$0.key] ?? $0.sentAt }.min()
        let start = day.start
        func at(_ date: Date) -> String { "+\(Int(date.timeIntervalSince(start))) s" }
        let message = "game \(plan.game.id) (poll): its boxscore failed alone from \(at(outage.lowerBound)) to \(at(outage.upperBound)), its play-by-play listed the end at \(at(last)); "
            + (end.map { "the end came at \(at($0))" } ?? "no end came") + ", at most \(at(most))"
        check(end.map { $0 <= most } ?? false, message)
    }

    /// A game whose play-by-play fails alone across its end (``SimulatedDay/Game/playByPlayOutages``)
    /// is not ended on its final boxscore before the play-by-play has failed three times since
    /// the boxscore said final (``LivePoller``'s few tries for the last actions, written out),
    /// nor before the play-by-play's outage is over, if that comes first: its next copy then lists
    /// the last actions and the end. Read from the requests as the simulated CDN answered them (a
    /// failure at the moment the boxscore said final counts, as the poller may have read it
    /// first). Held only where nothing else stands in the way: no other trouble of the feed, no
    /// instance stopping or starting near it, no stale edge, no join.
    mutating func checkEndAfterThePlayByPlaysTries(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard plan.path == .poll, case .plays = plan.fate, let outage = plan.playByPlayOutages.first, plan.join == nil, !plan.hasStaleEdge,
              let requests = endRequests[plan.game.id], let final = requests.first(where: { $0.kind == .boxscoreFinal })?.at
        else { return }
        // Its third failure since (within the outage), or else the outage's end (its next answer
        // comes no sooner; a poller that ended the game asks no more).
        let failures = requests.filter { $0.kind == .playByPlayFailed && $0.at >= final }.map(\.at)
        let tries = 3
        let earliest = failures.count >= tries ? failures[tries - 1] : outage.upperBound
        let window = outage.lowerBound.addingTimeInterval(-day.pollInterval)..<earliest.addingTimeInterval(day.pollInterval)
        guard !(plan.outages + plan.timeouts + plan.hostile).contains(where: { $0.overlaps(window) }),
              !instanceStopsOrStarts(near: window)
        else { return }
        let start = day.start
        func at(_ date: Date) -> String { "+\(Int(date.timeIntervalSince(start))) s" }
        for end in pushes where end.event == .end {
            check(end.sentAt >= earliest,
                  "game \(plan.game.id) (poll): its play-by-play failed alone from \(at(outage.lowerBound)) to \(at(outage.upperBound)), "
                      + "its boxscore said final at \(at(final)); the end was made at \(at(end.sentAt)), after \(failures.filter { $0 <= end.sentAt }.count) "
                      + "of the play-by-play's failures since, before \(at(earliest)) (its third failure, or the outage's end)")
        }
    }

    /// A game whose play-by-play fails alone across its end while its final boxscore fails every
    /// other request (``SimulatedDay/Game/flakyBoxscore``: a 304 between each two failures, so
    /// the boxscore never fails three times in a row and keeps deciding) ends on that final by
    /// the play-by-play's third failure since the boxscore said final (``LivePoller``'s few
    /// tries), within a poll's interval and ``freshnessSlack``: not when the play-by-play is back,
    /// three `Retry-After`s and more later. Held only where nothing else stands in the way: no
    /// other trouble of the feed or the disk, no instance stopping or starting near it, no join,
    /// no wait for a channel. (A stale edge's answers are answers: they end no failures' run of
    /// the play-by-play, whose outage answers first.)
    mutating func checkEndByThePlayByPlaysTries(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard plan.path == .poll, case .plays = plan.fate, plan.flakyBoxscore != nil, let outage = plan.playByPlayOutages.first,
              plan.join == nil, !(day.hasChannels && day.channelsWait),
              let requests = endRequests[plan.game.id], let final = requests.first(where: { $0.kind == .boxscoreFinal })?.at
        else { return }
        // Failures after the final's first answer (one at the same moment may have come first).
        let failures = requests.filter { $0.kind == .playByPlayFailed && $0.at > final }.map(\.at)
        let tries = 3
        guard failures.count >= tries else { return }
        let most = failures[tries - 1].addingTimeInterval(day.pollInterval + Self.freshnessSlack)
        guard most < outage.upperBound else { return }
        let window = outage.lowerBound.addingTimeInterval(-day.pollInterval)..<most
        let troubles = plan.outages + plan.timeouts + plan.hostile + plan.boxscoreOutages + diskTroubles
        guard !troubles.contains(where: { $0.overlaps(window) }),
              !instanceStopsOrStarts(near: window)
        else { return }
        // When the end was made (the sender's trouble may hold its delivery), also one the sender
        // was handed and never delivered: an instance killed while the sender was down loses it
        // (seed 251, day 159: made within the bound, the sender down, the instance killed, its
        // state lost at the next kill; the end made again by a fresh instance 6 minutes later).
        let end = (pushes + (tried[plan.game.id] ?? [])).filter { $0.event == .end }.map(\.sentAt).min()
        let start = day.start
        func at(_ date: Date) -> String { "+\(Int(date.timeIntervalSince(start))) s" }
        check(end.map { $0 <= most } ?? false,
              "game \(plan.game.id) (poll): its play-by-play failed alone from \(at(outage.lowerBound)) to \(at(outage.upperBound)), "
                  + "its boxscore said final at \(at(final)) and failed every other request since; "
                  + (end.map { "the end came at \(at($0))" } ?? "no end came") + ", at most \(at(most)) (the play-by-play's third failure since)")
    }

    /// Whether an instance stops or starts near `window`: a restart from its moment to four polls
    /// past its downtime (its poller's first answers) touching it.
    private func instanceStopsOrStarts(near window: Range<Date>) -> Bool {
        day.restarts.contains { $0.at < window.upperBound && $0.at.addingTimeInterval($0.downFor + 4 * day.pollInterval) > window.lowerBound }
    }
}

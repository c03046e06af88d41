import Foundation

extension SimulationInvariants {
    /// A polled game whose feed goes silent is given up on time: its end (suspended) is on a push
    /// the sender has within ``expectedGiveUpAfter`` of the last news its poller could see, a
    /// poll's interval to see it, another to decide, ``freshnessSlack`` and the sender's slowest
    /// answer. The last news is the feed's last change, or the start of an instance that took the
    /// game up again or its join (a restored game counts its restore as news; a lost one its
    /// first copy, a poll later). Only a trouble around a moment (the feed failing, the sender or
    /// the disk, a restart) excuses a later end, until it is over. A game that comes back after
    /// that bound (a comeback the running instance does not follow) must have been given up by
    /// then; one that comes back sooner is followed to its final. Without this check a poller
    /// that counts each copy it hands over as news (the same copy again after a 304) gives a
    /// silent game up late or, when it comes back, never, and every other check passes. A stale
    /// edge may hold the last change back from a poller for a few polls: its news is when the CDN
    /// gave it (``playByPlayNews``).
    mutating func checkGiveUp(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard waitsOnItsWatch(plan) else { return }
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
        let troubles = troubles(plan, feed: feed, wait: wait) + firstCopyWaits(newPollers(plan, feed: feed))
        // The latest the poller sees it (the feed's troubles around it put it off), then the
        // latest it may decide and the sender have the end.
        let seen = Self.excused(from: news.addingTimeInterval(-wait), until: news.addingTimeInterval(wait), by: troubles, wait: wait)
        let due = seen.addingTimeInterval(Self.expectedGiveUpAfter + wait + slowestSend)
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

    /// A postponed game its poller follows is called off on time: its end (postponed) is on a
    /// push the sender has within two polls' intervals, twice ``freshnessSlack`` and the sender's
    /// slowest answer of its tip-off where its boxscore says so (it says so from before), else
    /// ``expectedGiveUpAfter`` after the tip-off (the watch's wait, whether the poller was told
    /// the tip-off or heard it from the boxscore), or after the start of the instance that took
    /// the game up last, or its join, if later (a game never started has nothing to end). Only a
    /// trouble around that moment (the feed or the boxscore failing, the sender or the disk, a
    /// restart) excuses a later end, until it is over; a game never called off breaks it too.
    /// One whose boxscore never says so is not called off before that wait has passed since its
    /// tip-off or its join, whichever is later.
    /// Without this check a watch that never hears the boxscore's tip-off keeps such a game, and
    /// its day, going for ever.
    mutating func checkCallOff(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        // A game never started has no activity to end: the poll only reports it.
        guard plan.fate == .postponed, !pushes.isEmpty, waitsOnItsWatch(plan) else { return }
        let end = pushes.first { $0.event == .end }
        let interval = day.pollInterval
        let wait = interval + Self.freshnessSlack
        let before = end?.sentAt ?? .distantFuture
        // The later of its tip-off and its join: no watch counts the silence from sooner.
        let started = max(plan.tipOff, plan.join ?? plan.tipOff)
        let from = max(started, instances.last { $0 < before } ?? started)
        // A poll to see the deadline pass, another for the end's way out (the policy may hold it
        // a moment), and the sender's slowest answers (``slowestSend``).
        let due = from.addingTimeInterval((plan.postponedUnsaid ? Self.expectedGiveUpAfter : 0) + 2 * wait + slowestSend)
        let feed = Self.feedTroubles(plan, interval: interval, requestTimeout: day.requestTimeout)
        let troubles = troubles(plan, feed: feed, wait: wait) + plan.boxscoreOutages
        let most = Self.excused(from: due.addingTimeInterval(-wait), until: due, by: troubles, wait: wait)
        let delivered = end.map { firstDelivery[$0.key] ?? $0.sentAt }
        let told = [plan.postponedUnsaid ? "the boxscore silent" : nil, plan.tipOffKnown ? nil : "tip-off unknown"].compactMap { $0 }
        let game = "game \(plan.game.id) (poll, postponed\(told.map { ", \($0)" }.joined()))"
        check(delivered.map { $0 <= most } ?? false,
              "\(game): "
                  + (delivered.map { "called off \(Int($0.timeIntervalSince(from))) s after its tip-off or its instance's start (seq \(end?.seq ?? 0))" }
                      ?? "never called off")
                  + "; at most \(Int(most.timeIntervalSince(from))) s")
        // Nor sooner: a watch counts the silence from the tip-off at the earliest (from its join,
        // if later), however early its poller began (session 91: a watch that took the sooner of
        // its start and the tip-off called such a game off 600 s early).
        guard plan.postponedUnsaid, let end else { return }
        let least = started.addingTimeInterval(Self.expectedGiveUpAfter)
        check(end.sentAt >= least.addingTimeInterval(-0.001),
              "\(game): called off \(Int(end.sentAt.timeIntervalSince(started))) s after its tip-off or its join (seq \(end.seq)); at least \(Int(Self.expectedGiveUpAfter)) s")
    }

    /// The longest a push may wait for the sender: its own answer, and on a day with both lanes
    /// those of the other lane's pushes of its moment sent before it, an end and its priority-5
    /// copy (a game's engine sends its lanes' records one after the other; seed 241, days 41 and
    /// 51, broadcast on ios,android, a sender answering in up to 23 and 26 s: a postponed game's
    /// Android end, behind the iOS end and its copy, delivered 7 and 15 s past one answer's
    /// allowance).
    var slowestSend: TimeInterval {
        day.sink.slowest * (otherLanes.isEmpty ? 1 : 3)
    }

    /// Whether `plan`'s game ends when its poller's watch says so, and nothing else may hold its
    /// end as long as it takes: a polled game, not on a broadcast day whose channels may wait
    /// (refused, or past the cap).
    private func waitsOnItsWatch(_ plan: SimulatedDay.Game) -> Bool {
        plan.path == .poll && !(day.hasChannels && day.channelsWait)
    }

    /// What excuses a late push of `plan`'s game around a moment: the feed's troubles (`feed`),
    /// the sender's and the disk's, and each restart with `wait` after its downtime.
    func troubles(_ plan: SimulatedDay.Game, feed: [Range<Date>], wait: TimeInterval) -> [Range<Date>] {
        feed + senderTroubles(for: plan.game.id) + diskTroubles + day.restarts.map { $0.at..<$0.at.addingTimeInterval($0.downFor + wait) }
    }
}

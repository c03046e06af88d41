import Foundation
import ScoreFeedModel

extension SimulationInvariants {
    /// Where pushes start activities (Android always, iOS token mode with `--start`), an activity
    /// is started before anything shows on it: no update, and no final, reaches a device whose
    /// activity was never started or was ended since (a game back after it was called off starts
    /// a new one). An end before any start (a game called off before it started) shows nothing,
    /// and may go. `mine`: the game's records as delivered, in order.
    mutating func checkStarts(_ plan: SimulatedDay.Game, _ mine: [PushRecord]) {
        guard day.platform == .android || (day.startsActivities && day.mode.isToken) else { return }
        var started = false
        var lastEnd: PushRecord?
        for record in mine {
            switch record.event {
            case .start:
                // Shown now, not when the device's budget or Doze allows.
                check(record.priority == 10, "game \(plan.game.id): start seq \(record.seq) at priority \(record.priority)")
                started = true
            case .update:
                check(started, "game \(plan.game.id): update seq \(record.seq) delivered with no activity started\(lastEnd == nil ? "" : " since its end seq \(lastEnd?.seq ?? 0)")")
            case .end:
                // The end's priority-5 copy, or the end delivered again, ends what it ended.
                let again = lastEnd.map(record.showsSameState(as:)) ?? false
                if record.state.phase == .final {
                    check(started || again, "game \(plan.game.id): final end seq \(record.seq) delivered with no activity started to show it")
                }
                started = false
                lastEnd = record
            }
        }
    }

    /// Feed seconds before the newest event a push shows within which an alert's moment is still
    /// news: the product's rule (``Coalescer/arrivalAlertWindow``), stated here apart, so that a
    /// build whose window is another breaks the check instead of moving it.
    public static let alertWindow: TimeInterval = 30

    /// An update's alert says what just happened: a lead change or tie late in the game, or an
    /// overtime under way, no more than ``alertWindow`` of feed time before the newest event the
    /// push shows (a catch-up's moments already past bring no alert). Read in the payload's bytes
    /// (an alert's title). A deleted basket's late lead change or tie is news when a poll sees
    /// the deletion: on the first push after it that shows none of the scores the basket made.
    /// `pushes`: the game's records, each once.
    mutating func checkAlerts(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        var moments = plan.game.alertMoments
        if let basket = plan.game.deletedBasket, basket.deletionMoves, let deleted = plan.date(at: basket.deleted) {
            let listed = plan.game.scoresListingTheBasket
            let seen = pushes.first { $0.sentAt >= deleted && !listed.contains(FinalScore(home: $0.state.homeScore, away: $0.state.awayScore)) }
            if let shown = seen?.sourceTime { moments = (moments + [(shown, false)]).sorted { $0.time < $1.time } }
        }
        for push in pushes where push.event != .end {
            guard let shown = push.sourceTime else { continue }
            for (title, overtime) in [("Lead change: ", false), ("Overtime: ", true)] where Self.has(title, in: push.payload) {
                let moment = moments.last { $0.overtime == overtime && $0.time <= shown.addingTimeInterval(0.001) }
                let before = moment.map { shown.timeIntervalSince($0.time) }
                check(before.map { $0 <= Self.alertWindow + 0.001 } ?? false,
                      "game \(plan.game.id): \(push.event.rawValue) seq \(push.seq) alerts \"\(title)…\" for "
                          + (before.map { "a moment \(Int($0)) s of feed time before the newest event it shows" } ?? "no such moment in the feed"))
            }
        }
    }

    /// The other way round: the first push to show a late lead change or tie, where it is still
    /// the present (the newest score change it shows, no more than ``alertWindow`` of feed time
    /// before the newest event), alerts for it when it goes at priority 10 (alerts ride priority
    /// 10 alone). Not where a restart, the sender's or the disk's trouble, or a join falls around
    /// it (what was decided may be lost or superseded there), in a game whose feed corrects its
    /// score, or where a long name fills the push. `pushes`: the game's records, each once.
    mutating func checkAlertsSent(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        let game = plan.game
        guard !game.corrects, !game.hasLongName, game.alertMoments.contains(where: { !$0.overtime }) else { return }
        let troubles = senderTroubles(for: game.id) + diskTroubles
            + day.restarts.map { $0.at..<$0.at.addingTimeInterval($0.downFor + day.pollInterval) }
        var newestShown = Date.distantPast
        for push in pushes {
            guard let shown = push.sourceTime else { continue }
            defer { newestShown = max(newestShown, shown) }
            guard push.event == .update, push.priority == 10,
                  let scored = game.scoreChanges.last(where: { $0 <= shown.addingTimeInterval(0.001) }),
                  scored > newestShown.addingTimeInterval(0.001),
                  shown.timeIntervalSince(scored) <= Self.alertWindow - 1,
                  game.alertMoments.contains(where: { !$0.overtime && abs($0.time.timeIntervalSince(scored)) < 0.001 })
            else { continue }
            let around = push.sentAt.addingTimeInterval(-(Self.alertWindow + day.pollInterval + 60))..<push.sentAt.addingTimeInterval(1)
            guard plan.join.map({ !around.contains($0) }) ?? true, !troubles.contains(where: { $0.overlaps(around) }) else { continue }
            check(Self.has("Lead change: ", in: push.payload) || Self.has("Overtime: ", in: push.payload),
                  "game \(game.id): update seq \(push.seq) at priority 10 is the first to show a late lead change or tie "
                      + "\(Int(shown.timeIntervalSince(scored))) s of feed time before its newest event, with no alert")
        }
    }

    /// On a day whose policy keeps a least time between an activity's pushes
    /// (``SimulatedDay/minInterval``), two moments of a game's pushes are that far apart (a
    /// priority-5 copy goes at its push's moment, and a push-to-start with the push it starts),
    /// also across a restart, which restores the wait: not across one that started without the
    /// game's state. `pushes`: the game's records, each once.
    mutating func checkLeastTimeBetweenPushes(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        let least = day.minInterval, start = day.start
        guard least > 0 else { return }
        // One push a moment, beside its priority-5 copy and a push-to-start.
        let atOnce = Dictionary(grouping: pushes.filter { $0.event != .start && $0.reason != Push.copyReason }, by: \.sentAt)
        for (moment, together) in atOnce where together.count > 1 {
            check(false, "game \(plan.game.id): \(together.count) pushes at once at +\(Int(moment.timeIntervalSince(start))) s, the least time between pushes is \(JSONText.number(least)) s")
        }
        let moments = Set(pushes.map(\.sentAt)).sorted()
        let resets = resets(of: plan.game.id)
        for (before, after) in zip(moments, moments.dropFirst()) where !resets.contains(where: { before < $0 && $0 <= after }) {
            check(after.timeIntervalSince(before) >= least - 0.001,
                  "game \(plan.game.id): pushes \(JSONText.number(after.timeIntervalSince(before))) s apart at +\(Int(after.timeIntervalSince(start))) s, the least is \(JSONText.number(least)) s")
        }
    }

    /// On a day whose policy keeps a least time between pushes, a `serve` game's new score that
    /// comes within that time of the push before goes the moment the time is up: every new score
    /// is worth a push (priority 5 at least), and only that wait holds it. A push a second late
    /// is a timer missed. Read from when the input handed each line to the service (``reads``).
    /// Held only where nothing else stands in the way (as ``checkDecidedEndSettled(_:_:)``): no
    /// join, no stall of the input, no instance starting or stopping near it, no trouble of the
    /// sender or the disk, no slow sender, not in a decided last period's settle.
    /// `pushes`: the game's records, each once.
    mutating func checkHeldPushGoesWhenTheWaitEnds(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        let least = day.minInterval, start = day.start, moment = moment
        guard least > 0, plan.path == .serve, case .plays = plan.fate, day.sink.slowest == 0 else { return }
        let moments = Set(pushes.map(\.sentAt)).sorted()
        let settle = plan.game.decidedEnd.map {
            plan.firstAction.addingTimeInterval($0.periodEnd - 1)..<plan.firstAction.addingTimeInterval($0.gameEnd + Self.expectedSettle + 1)
        }
        let reads = reads?[plan.game.id]
        var checked: Set<Date> = []
        for news in plan.game.serveScores {
            guard let appeared = plan.date(at: news.offset) else { continue }
            let read = reads?.first { $0 >= appeared } ?? appeared
            guard let before = moments.last(where: { $0 < read }), read < before.addingTimeInterval(least) else { continue }
            let due = before.addingTimeInterval(least)
            guard checked.insert(due).inserted else { continue }
            let window = before.addingTimeInterval(-10)..<due.addingTimeInterval(10)
            guard !(settle?.overlaps(window) ?? false), plan.join.map({ $0 >= window.upperBound }) ?? true,
                  nothingInTheWay(of: plan, in: window)
            else { continue }
            let next = moments.first { $0 > before }
            check(next.map { abs($0.timeIntervalSince(due)) <= moment } ?? false,
                  "game \(plan.game.id) (serve): a new score read at +\(JSONText.number(read.timeIntervalSince(start))) s, "
                      + "\(JSONText.number(read.timeIntervalSince(before))) s after the push before, waited for the least time between pushes "
                      + "(\(JSONText.number(least)) s) and went " + (next.map { "at +\(JSONText.number($0.timeIntervalSince(start))) s" } ?? "never")
                      + ", not when the wait ended (+\(JSONText.number(due.timeIntervalSince(start))) s)")
        }
    }
}

import Foundation
import ScoreFeedModel

/// What must hold of a simulated day's delivered records, whatever went wrong in it: each check
/// counted, each failure one line naming the game and what was seen.
public struct SimulationInvariants {
    let day: SimulatedDay
    let records: [PushRecord]
    /// When the sender delivered each record (empty: not known, not checked).
    let deliveredAt: [Date]
    /// When each record (by its key) was first delivered, where every delivery's time is known.
    let firstDelivery: [String: Date]
    /// The other platforms' records of a day on several, with when each was delivered, by
    /// activity: a lane's record may wait behind another lane's of its activity (a game's engine
    /// sends its lanes' records one after the other).
    let otherLanes: [String: [(record: PushRecord, at: Date)]]
    /// When each instance started, and whether it started without the state before it.
    let instances: [Date]
    let lostState: [Bool]
    /// When instances started on an empty state directory (a lost machine), in order.
    let resets: [Date]
    /// When instances started without a game's state, by game, where a damaged checkpoint
    /// (``SimulatedDay/Restart/damagedCheckpoint``) lost it alone (else ``resets``).
    let gameResets: [String: [Date]]
    /// When the instance before each was killed (nil: none was, or the run came once the
    /// sender was back).
    let kills: [Date?]
    /// Whether the stop before each instance was a power cut (``SimulatedDay/Restart/powerCut``).
    let powerCuts: [Bool]
    let openChannels: Set<String>
    /// Broadcast pushes to a channel APNs did not have open (``SimulatedSender/strays``).
    let strays: [String]
    /// Records of this platform the sender was handed and did not deliver, by game
    /// (``SimulatedSender/tried``).
    let tried: [String: [PushRecord]]
    /// When a blip failed one of each game's pushes on this lane (``SimulatedSender/blipped(on:)``).
    let blipped: [String: [Date]]
    /// The requests of each game whose play-by-play failed alone across its end (``SimulatedCDN/endRequests``).
    let endRequests: [String: [SimulatedCDN.EndRequest]]
    /// When each game's poller was given a play-by-play that changed (``SimulatedCDN/playByPlayNews``).
    let playByPlayNews: [String: [Date]]
    /// When each game's poller had been given its last action and its final (``SimulatedCDN/finalsKnown``).
    let finalsKnown: [String: [Date]]
    /// How far apart pushes may be and still count as one moment (``checkMoments(_:_:)``).
    let moment: TimeInterval
    /// What the last instance's push policy had booked when the day ended, by game: the session's
    /// last moment and the priority 10s within the budget and beyond it (``checkBooked()``).
    let booked: [String: Booked]
    /// When `serve`'s input handed each game's lines to the service, by game (nil: not recorded;
    /// the times they appeared, ``Simulation/input(of:from:)``, stand for them).
    let reads: [String: [Date]]?

    /// A game's priority 10s as its policy booked them.
    struct Booked: Sendable {
        var now: Date
        var spent: [Date]
    }
    public private(set) var checks = 0
    public private(set) var violations: [String] = []

    init(
        day: SimulatedDay, records: [PushRecord], deliveredAt: [Date] = [], otherLanes: [(record: PushRecord, at: Date)] = [],
        instances: [Date], lostState: [Bool], lostGames: [Set<String>] = [], kills: [Date?], powerCuts: [Bool] = [], openChannels: Set<String>,
        strays: [String] = [], tried: [PushRecord] = [], moment: TimeInterval = Simulation.defaultMoment, booked: [String: Booked] = [:],
        reads: [String: [Date]]? = nil, blipped: [String: [Date]] = [:], endRequests: [String: [SimulatedCDN.EndRequest]] = [:],
        playByPlayNews: [String: [Date]] = [:], finalsKnown: [String: [Date]] = [:]
    ) {
        self.finalsKnown = finalsKnown
        diskTroubles = Self.diskTroubles(of: day)
        self.endRequests = endRequests
        self.playByPlayNews = playByPlayNews
        self.reads = reads
        self.blipped = blipped
        self.powerCuts = powerCuts
        self.booked = booked
        self.strays = strays
        self.tried = Dictionary(grouping: tried, by: \.game)
        self.otherLanes = Dictionary(grouping: otherLanes, by: \.record.activity)
        self.kills = kills
        self.moment = moment
        self.day = day
        self.records = records
        self.deliveredAt = deliveredAt
        firstDelivery = deliveredAt.count == records.count
            ? Dictionary(zip(records.map(\.key), deliveredAt), uniquingKeysWith: { first, _ in first }) : [:]
        self.instances = instances
        self.lostState = lostState
        resets = zip(instances, lostState).filter(\.1).map(\.0)
        var gameResets: [String: [Date]] = [:]
        for game in Set(lostGames.joined()) {
            gameResets[game] = instances.indices.filter { lostState[$0] || lostGames.indices.contains($0) && lostGames[$0].contains(game) }
                .map { instances[$0] }
        }
        self.gameResets = gameResets
        self.openChannels = openChannels
    }

    mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        checks += 1
        if !condition { violations.append(message()) }
    }

    mutating func checkAll() {
        let byGame = Dictionary(grouping: records, by: \.game)
        for plan in day.games {
            let mine = byGame[plan.game.id] ?? []
            checkEnd(plan, mine)
            checkStarts(plan, mine)
            // Each push once: a record delivered again after a crash (its `apns-id` seen before)
            // repeats a push the policy made once, and a sender that cannot know whether the
            // first delivery got through sends it again (a device never sees it twice: the
            // sender deduplicates by the `apns-id`).
            var seen: Set<String> = []
            let pushes = mine.filter { seen.insert($0.key).inserted }
            checkOrder(plan, pushes)
            checkBudget(plan, pushes)
            checkMoments(plan, pushes)
            checkFinalsWhileDown(plan, pushes)
            checkCopies(plan, pushes)
            checkTimestamps(plan, pushes)
            checkRequests(plan, pushes)
            checkPayloads(plan, pushes)
            checkDiffs(plan, pushes)
            checkNumberingPastALostCheckpoint(plan, pushes)
            checkAlerts(plan, pushes)
            checkAlertsSent(plan, pushes)
            checkFreshness(plan, pushes)
            checkFinalOnTime(plan, pushes)
            checkGiveUp(plan, pushes)
            checkCallOff(plan, pushes)
            checkEndWithoutTheBoxscore(plan, pushes)
            checkEndAfterThePlayByPlaysTries(plan, pushes)
            checkEndByThePlayByPlaysTries(plan, pushes)
            checkChannelKept(plan, pushes)
            checkLeastTimeBetweenPushes(plan, pushes)
            checkHeldPushGoesWhenTheWaitEnds(plan, pushes)
            checkDecidedEndSettled(plan, pushes)
        }
        checkIDs()
        checkRepeats()
        checkBooked()
        checkLeftOver()
        checkBroadcastStamps()
        let open = openChannels.count
        if day.hasChannels { check(open == 0, "channels left open at the day's end: \(open)") }
        // A broadcast push reaches devices only through a channel APNs has open.
        let strays = strays
        check(strays.isEmpty, "\(strays.count) broadcast pushes to channels APNs did not have open: \(strays.prefix(3).joined(separator: "; "))")
    }

    /// When the push sender or APNs' channel service failed, each with the retries' longest wait
    /// after it (the sender's queue keeps only a game's newest state while it fails and tries
    /// again up to its longest wait once it is back; a channel's work waits for two backoffs, one
    /// under the other: ``channelRetryTail``).
    var senderTroubles: [Range<Date>] {
        day.sink.failing.map { $0.lowerBound..<$0.upperBound.addingTimeInterval(Self.retryTail) }
            + (!day.hasChannels ? [] : day.sink.channelOutages.map { $0.lowerBound..<$0.upperBound.addingTimeInterval(Self.channelRetryTail) })
    }

    /// The longest a game's channel work may wait after APNs' channel service is back: the sink
    /// backs channel requests off across games (``ResilientSink/manage(_:)``, up to its backoff's
    /// longest wait, a minute, after the outage's last failure) and fails the game's tries
    /// meanwhile at once; the game tries again on its own backoff (``ChannelBoard/longestRetry``),
    /// so a try failed just before the sink's wait is over is made again up to a minute after it.
    /// Found at seed 1, day 2708 (broadcast): a `serve` game's create 75 s after the outage.
    public static let channelRetryTail = retryTail + expectedChannelRetry

    /// The longest a game's first channel create, or a push, failed alone (a blip) may wait to be
    /// tried again once the failures before it were answered since: the sink's first wait (a
    /// second at most) and the game's or the activity's first retry (a second), with room to
    /// spare; a sink or an activity that still counted the failures before would wait up to a
    /// minute (``SimulatedSender/blipsRetriedLate(tail:troubles:)``, ``SimulatedSender/pushBlipsRetriedLate(tail:troubles:)``).
    public static let blipRetryTail: TimeInterval = 20

    /// The longest a game waits to try its channel work again (``ChannelBoard/longestRetry``,
    /// written out: the check must not read the value it checks).
    public static let expectedChannelRetry: TimeInterval = 60

    /// ``senderTroubles``, and the windows where the sender failed `game`'s pushes alone, with its
    /// retries' longest wait after each. Only that game's: every other game's pushes go on.
    func senderTroubles(for game: String) -> [Range<Date>] {
        senderTroubles + gameFailing(game)
    }

    /// The windows where the state directory's disk was full, with the engines' longest wait to
    /// try their checkpoints again after each: the pushes decided meanwhile wait in their games'
    /// outboxes, as they do for a sender down.
    let diskTroubles: [Range<Date>]

    /// ``diskTroubles`` of `day`.
    static func diskTroubles(of day: SimulatedDay) -> [Range<Date>] {
        // A game's failures in a row are counted from its first in the trouble: the retries'
        // wait doubles from a second, so the one that comes after the disk has room waits at
        // most as long as the game had failed by then, and a second. Spells closer than that
        // wait are one trouble (a game may fail through both without a write that succeeds).
        func excused(_ fault: Range<Date>) -> Date {
            fault.upperBound.addingTimeInterval(
                min(expectedCheckpointRetry, fault.upperBound.timeIntervalSince(fault.lowerBound) + 1) + checkpointRetrySlack)
        }
        var spells: [Range<Date>] = []
        for fault in day.diskFaults.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = spells.last, fault.lowerBound <= excused(last) {
                spells[spells.count - 1] = last.lowerBound..<max(last.upperBound, fault.upperBound)
            } else {
                spells.append(fault)
            }
        }
        return spells.map { $0.lowerBound..<excused($0) }
    }

    /// What a checkpoint's retry may come after its backoff's wait: the engine is woken for it
    /// with the service's other deadlines.
    static let checkpointRetrySlack: TimeInterval = 1

    /// The longest an engine waits to try a failed checkpoint again: half a minute
    /// (``MatchEngine/checkpointRetry``'s backoff, written out: the check must not read the value
    /// it checks, as ``SimulatedSender/expectedBackoff``).
    public static let expectedCheckpointRetry: TimeInterval = 30

    /// A poller's backoff after failures: doubling from 1 s to a minute, up to half of each wait
    /// taken off at random (``PollSchedule``'s default, written out).
    public static let expectedPollBackoff = Backoff(initial: 1, multiplier: 2, maximum: 60, jitter: 0.5)

    /// The most old copies a poller new to a game waits through for a fresh one, and the room
    /// each wait allows past the next answer's time-out (``LivePoller``'s `oldCopiesWaited` and
    /// `freshCopyRoom`, written out): the freshness check excuses a new poller's wait by them.
    public static let expectedOldCopiesWaited = 4
    public static let expectedFreshCopyRoom: TimeInterval = 5

    /// How long a poller follows a game that brings nothing new before it gives it up
    /// (``FeedWatch/defaultGiveUpAfter``, written out): a comeback sooner than this is the
    /// running instance's to follow (``SimulatedDay``).
    public static let expectedGiveUpAfter: TimeInterval = 5400

    /// How long an iOS push's score may be shown before it is stale, and how long a final is kept
    /// at least (the renderer's `staleAfter` and `dismissAfter` defaults, written out), and at
    /// most (Apple's four hours).
    public static let expectedStaleAfter: TimeInterval = 300
    /// How long a start or an update lives undelivered (the renderer's `expiration`, written out).
    public static let expectedExpiration: TimeInterval = 3600
    public static let expectedDismissAfter: TimeInterval = 900
    public static let longestDismissal: TimeInterval = 4 * 3600

    /// The windows where the sender failed `game`'s pushes alone, with the retries' longest wait
    /// after each.
    func gameFailing(_ game: String) -> [Range<Date>] {
        day.sink.gameFailing.filter { $0.game == game }.map { $0.during.lowerBound..<$0.during.upperBound.addingTimeInterval(Self.retryTail) }
    }

    /// The longest the sender's queue waits between its retries (``ResilientSink``'s default
    /// backoff, written out: the check must not read the value it checks).
    static let retryTail: TimeInterval = 60

    /// The budget the policy believes in holds every priority 10 that left: in the hour before
    /// its session's last moment, the last instance's policy has booked at least as many as its
    /// state directory sent or tried (more when a join counted its hour as spent). One it forgot
    /// (an end not charged, a refund of one that went) lets a later push spend past Apple's
    /// budget, which drops it unseen.
    mutating func checkBooked() {
        let tens = Dictionary(grouping: (records + tried.values.joined()).filter { $0.priority == 10 && directory(of: $0) == resets(of: $0.game).count }, by: \.game)
        for (game, book) in booked.sorted(by: { $0.key < $1.key }) {
            let hour = book.now.addingTimeInterval(-3600)
            // What left a second inside the hour's edge: a push's record and its booking name one moment.
            let left = Set((tens[game] ?? []).filter { hour.addingTimeInterval(1) < $0.sentAt && $0.sentAt <= book.now }.map(\.key)).count
            let spent = book.spent.filter { hour < $0 && $0 <= book.now }.count
            check(spent >= left, "game \(game): its policy had booked \(spent) priority 10 in the hour before its last moment, and \(left) were sent or tried then")
        }
    }

    /// Whether the instance on state directory `index` (from 0) was killed after `moment`, and
    /// the next instance started without its state.
    func killed(leaving index: Int, of game: String, after moment: Date) -> Bool {
        let resets = resets(of: game)
        guard index < resets.count, let next = instances.firstIndex(of: resets[index]), let kill = kills[next] else { return false }
        return kill >= moment
    }

    /// Which state directory sent `record`: 0 for the day's first, one more after each lost one
    /// (or each that lost its game's checkpoint alone).
    func directory(of record: PushRecord) -> Int {
        resets(of: record.game).filter { $0 <= record.sentAt }.count
    }

    /// When instances started without `game`'s state: on an empty state directory, or on one
    /// whose checkpoint of the game was damaged.
    func resets(of game: String) -> [Date] {
        gameResets[game] ?? resets
    }

    /// Whether instance `index` started without `game`'s state.
    func lost(_ game: String, at index: Int) -> Bool {
        resets(of: game).contains(instances[index])
    }

    /// The last push carries the feed's score; a final ends its game exactly once (once per state
    /// directory: after a lost one, the fresh instance sends it again), and nothing but that end
    /// follows it.
    mutating func checkEnd(_ plan: SimulatedDay.Game, _ mine: [PushRecord]) {
        var id = plan.game.id
        let ends = mine.filter { $0.event == .end }
        switch plan.fate {
        case .postponed:
            check(mine.allSatisfy { $0.state.phase == .postponed || $0.event == .start },
                  "game \(id) (postponed): a push shows \(mine.first { $0.state.phase != .postponed }?.state.phase.rawValue ?? "")")
            check(Self.distinctStates(ends) <= 1, "game \(id) (postponed): \(ends.count) ends")
            return
        case .silent(let share):
            let stated = plan.game.score(after: plan.game.visible(at: share * plan.game.span))
            guard let last = mine.last else { return check(false, "game \(id) (silent): no push at all") }
            check(last.event == .end && last.state.phase == .suspended,
                  "game \(id) (silent): the last push is \(last.event.rawValue) \(last.state.phase.rawValue), not an end suspended")
            check(last.state.homeScore == stated.home && last.state.awayScore == stated.away,
                  "game \(id) (silent): the last push shows \(last.state.homeScore)-\(last.state.awayScore), the feed \(stated.home)-\(stated.away)")
            return
        case .comeback(let share, let pause):
            // A pause a poller waits through is followed to the final by the instance running.
            // After a longer one the game is seen again only by an instance started once the feed
            // was back; before that the game was given up, and rightly ends suspended where the
            // feed stopped.
            let back = plan.firstAction.addingTimeInterval(share * plan.game.span + pause)
            if !plan.comebackIsFollowed, !instances.contains(where: { $0 >= back }) {
                var silent = plan
                silent.fate = .silent(at: share)
                return checkEnd(silent, mine)
            }
        case .plays:
            break
        }
        id = "\(plan.game.id) (\(plan.path.rawValue)\(plan.fate == .plays ? "" : ", \(plan.fate)")\(plan.join == nil ? "" : ", joined"))"
        guard let last = mine.last else { return check(false, "game \(id): no push at all") }
        check(last.event == .end && last.state.phase == .final,
              "game \(id): the last push is \(last.event.rawValue) \(last.state.phase.rawValue), not its final end")
        check(last.state.homeScore == plan.game.final.home && last.state.awayScore == plan.game.final.away,
              "game \(id): the last push shows \(last.state.homeScore)-\(last.state.awayScore), the final is \(plan.game.final.home)-\(plan.game.final.away)")
        let finals = ends.filter { $0.state.phase == .final }
        // One end, and its priority-5 copy when it went at priority 10; a retry after a crash
        // repeats a record (the same apns-id), never makes another. An instance that starts
        // without its state directory cannot know that the lost one's end reached the device, so
        // it sends the final's end again (a final is never dropped): once per state directory.
        // Its end shows the same final, from a copy of the feed no older than the lost one's (it
        // may be newer: the lost one may have ended the game on a boxscore's final while the
        // play-by-play lagged, naming an older last action).
        let byDirectory = Dictionary(grouping: finals) { directory(of: $0) }.sorted { $0.key < $1.key }
        for (index, ends) in byDirectory {
            var distinct: [String: Int] = [:]
            for end in ends { distinct[end.key] = end.priority }
            let priorities = distinct.values.sorted()
            let which = resets(of: plan.game.id).isEmpty ? "" : " from state directory \(index + 1)"
            let states = Self.distinctStates(ends)
            check(states == 1, "game \(id): \(states) different final ends\(which)")
            check(priorities == [10] || priorities == [5] || priorities == [5, 10],
                  "game \(id): \(distinct.count) final ends\(which) (priorities \(priorities))")
            // At priority 5 alone only once the hour's largest budget is spent (``Coalescer``: an
            // end takes a priority 10 while one is left, within the budget or beyond it). The
            // records may show fewer than the policy spent: an update the sender failed (or cut
            // short while slow) may have reached APNs, and stays spent; one superseded before it
            // was tried (in the sender's queue while it failed, or in the outbox while a broadcast
            // game waited for its channel) never did, and the policy got it back; one may be lost
            // with a killed instance, so an hour with a kill is not counted.
            if priorities == [5], let end = ends.first {
                let hour = end.sentAt.addingTimeInterval(-3600)...end.sentAt
                let triedHere = tried[plan.game.id] ?? []
                let inHour = (mine + triedHere).filter { directory(of: $0) == index && hour.contains($0.sentAt) }
                let spent = Set(inHour.filter { $0.priority == 10 }.map(\.key)).count
                // What the end superseded as it went was given back after it was decided.
                let missing = givenBackLate(before: end, in: Set((mine + triedHere).filter { directory(of: $0) == index }.map(\.seq)).sorted())
                let largest = day.coalescer.largestBudget
                // A coalescer that took the game over from a damaged checkpoint (its state
                // directory kept) counts the hour's whole budget spent at the first event it saw
                // (``Coalescer/assumeBudgetSpent(at:)``), before its first push, sent or tried. Found at seed 7,
                // day 27: an end 46 min after the takeover, 67 min after the kill before it.
                let gameResets = resets(of: plan.game.id)
                let tookOver = index > 0 && index <= gameResets.count && !resets.contains(gameResets[index - 1])
                    && (mine + triedHere).filter({ directory(of: $0) == index }).map(\.sentAt).min().map { end.sentAt < $0.addingTimeInterval(3600) } ?? false
                check(stopped(in: hour) || tookOver || spent + missing >= largest,
                      "game \(id): its final end\(which) went at priority 5 alone with \(spent) priority 10 sent or tried in the hour "
                          + "before it and \(missing) seq missing right before it (largest budget \(largest)): an end takes a priority 10 while one is left")
            }
        }
        let firstEnds = byDirectory.map { $0.value[0] }
        for (earlier, later) in zip(firstEnds, firstEnds.dropFirst()) {
            let place = directory(of: later) + 1
            check(later.state.homeScore == earlier.state.homeScore && later.state.awayScore == earlier.state.awayScore,
                  "game \(id): the final end from state directory \(place) shows \(later.state.homeScore)-\(later.state.awayScore), the one before \(earlier.state.homeScore)-\(earlier.state.awayScore)")
            // Without both source times nothing tells the newer copy: the same end, then.
            let notOlder = earlier.sourceTime.flatMap { first in later.sourceTime.map { $0 >= first } } ?? later.showsSameState(as: earlier)
            check(notOlder, "game \(id): the final end from state directory \(place) names an older copy of the feed than the one before")
        }
        let endOf = Dictionary(uniqueKeysWithValues: byDirectory.map { ($0.key, $0.value[0]) })
        if let first = mine.firstIndex(where: { $0.event == .end && $0.state.phase == .final }) {
            // Only its state directory's end again (on Android, a later directory's activity
            // begins with its start). A later directory whose end never went may still have
            // started the activity with the final: when its instance was killed after that start
            // and the next one started without its state, with the first end's score from a copy
            // of the feed no older than the first end's.
            // A push delivered before it and again after it, the same bytes (its start, kept until
            // the sink confirmed it, sent again after a crash), repeats that push: a sender
            // deduplicates by its `apns-id`.
            let firstEnd = mine[first]
            let before = Set(mine[..<first].lazy.map(\.key))
            let after = mine[(first + 1)...].filter { record in
                guard !before.contains(record.key) else { return false }
                let from = directory(of: record)
                guard record.event == .start, from > directory(of: firstEnd) else {
                    return !(endOf[from].map(record.showsSameState(as:)) ?? false) || record.event != .end
                }
                if let end = endOf[from] { return !record.showsSameState(as: end) }
                let notOlder = record.sourceTime.flatMap { start in firstEnd.sourceTime.map { start >= $0 } } ?? record.showsSameState(as: firstEnd)
                return !(record.state.phase == .final && record.state.homeScore == firstEnd.state.homeScore
                    && record.state.awayScore == firstEnd.state.awayScore && notOlder && killed(leaving: from, of: plan.game.id, after: record.sentAt))
            }
            check(after.isEmpty, "game \(id): \(after.count) pushes after its final end (first: \(after.first?.event.rawValue ?? "") seq \(after.first?.seq ?? 0))")
        }
    }

    /// No push shows a score older than one already pushed, unless the feed itself corrected it.
    /// `pushes`: the game's records, each once (one delivered again repeats the push before).
    mutating func checkOrder(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard !plan.game.corrects else { return }
        var high = (home: 0, away: 0)
        for record in pushes {
            check(record.state.homeScore >= high.home && record.state.awayScore >= high.away,
                  "game \(plan.game.id): push seq \(record.seq) shows \(record.state.homeScore)-\(record.state.awayScore) after \(high.home)-\(high.away) was shown")
            high = (max(high.home, record.state.homeScore), max(high.away, record.state.awayScore))
        }
    }

    /// A device that started a game's activity subscribed to its broadcast channel and hears
    /// nothing on another: a game's pushes stay on one channel until its `end`, across kills and a
    /// damaged checkpoint (``ChannelBoard/salvage(from:)``: `channels.json` still names it). Only
    /// a lost state directory (nothing on the machine names the channel any more) or a comeback
    /// after an end gives a game a new one. `pushes`: the game's records, each once, in order.
    mutating func checkChannelKept(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard day.hasChannels else { return }
        var kept: (channel: String, seq: Int)?
        var since = Date.distantPast
        for push in pushes {
            guard let channel = push.request[header: "apns-channel-id"] else { continue }
            // A lost state directory since the channel's last push: it starts afresh.
            if resets.contains(where: { $0 > since && $0 <= push.sentAt }) { kept = nil }
            if let kept {
                check(channel == kept.channel,
                      "game \(plan.game.id): push seq \(push.seq) (\(push.event.rawValue)) went to channel \(channel), and seq \(kept.seq) before it to \(kept.channel), with no end between: devices subscribed to the first hear nothing more")
            }
            kept = push.event == .end ? nil : (channel, push.seq)
            since = push.sentAt
        }
    }

    /// Priority 10 stays within the largest budget the policy hedges for, in every rolling hour
    /// (counted afresh after a lost state directory: nothing can know what was spent before).
    /// `pushes`: the game's records, each once (a record delivered again counts once).
    /// Those the policy books within the assumed budget (every priority-10 update or end whose
    /// reason does not say it went beyond it) stay within that budget in every rolling hour as well: what an hour
    /// spent stays spent across a restart.
    mutating func checkBudget(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        let configuration = day.coalescer
        let urgent = pushes.filter { $0.priority == 10 }
        func checkHours(_ times: [Date], limit: Int, _ what: String) {
            var start = 0
            for (index, time) in times.enumerated() {
                // Counted afresh only after a lost state directory: a game whose checkpoint was
                // damaged alone is known to be lost, and its policy counts the hour as spent.
                while times[start] <= time.addingTimeInterval(-3600) || resets.contains(where: { times[start] < $0 && $0 <= time }) { start += 1 }
                check(index - start + 1 <= limit, "game \(plan.game.id): \(index - start + 1) \(what) within an hour (budget \(limit))")
            }
        }
        checkHours(urgent.map(\.sentAt).sorted(), limit: configuration.largestBudget, "priority 10")
        // A push-to-start is the renderer's, not booked by the policy.
        checkHours(urgent.filter { $0.event != .start && !Push.isBeyondBudget($0.reason) }.map(\.sentAt).sorted(), limit: configuration.budget,
              "priority 10 booked within the assumed budget")
        // A priority 10 goes beyond the assumed budget only once the hour holds the budget's
        // priority 10s within it, sent or tried (the sender failed it, or cut it short: APNs may
        // have had it). One superseded before it was tried never reached APNs, and the policy
        // gets it back, but only once the push that superseded it was decided: the `seq`s missing
        // right before it count as ``givenBackLate(before:in:)`` says. One lost with an instance
        // that stopped may be missing, so an hour with a kill (or the rerun once the sender is
        // back) is not counted.
        let triedHere = tried[plan.game.id] ?? []
        let within = (urgent + triedHere.filter { $0.priority == 10 }).filter { !Push.isBeyondBudget($0.reason) }
        // The `seq`s of each state directory apart: a fresh one numbers its pushes from 1 again,
        // so another directory's would fill the gap before a push (seed 5, day 181).
        let seqs = Dictionary(grouping: pushes + triedHere, by: directory(of:)).mapValues { Set($0.map(\.seq)).sorted() }
        for beyond in urgent where Push.isBeyondBudget(beyond.reason) {
            let hour = beyond.sentAt.addingTimeInterval(-3600)
            guard !stopped(in: hour...beyond.sentAt) else { continue }
            let place = directory(of: beyond)
            let booked = Set(within.filter { hour < $0.sentAt && $0.sentAt <= beyond.sentAt && directory(of: $0) == place }.map(\.key)).count
            let missing = givenBackLate(before: beyond, in: seqs[place] ?? [])
            check(booked + missing >= configuration.budget,
                  "game \(plan.game.id): \(beyond.event.rawValue) seq \(beyond.seq) went beyond the assumed budget with \(booked) priority 10 sent or tried within it in the hour and \(missing) seq missing right before it (budget \(configuration.budget))")
        }
    }

    /// Whether an instance was killed in `hour`, or the run once the sender is back started in it:
    /// what the instance before had booked and not sent may be lost (a booking in the hour before
    /// a decision of the next instance puts its stop in that hour too).
    func stopped(in hour: ClosedRange<Date>) -> Bool {
        day.restarts.contains { hour.contains($0.at) } || zip(instances, kills).dropFirst().contains { $1 == nil && hour.contains($0) }
    }

    /// How many of the `seq`s missing right before `push` in the sorted `seqs` (superseded
    /// untried) may have been booked priority 10s still when `push` was decided, their give-back
    /// coming after it: the one state a push supersedes as it goes (the sender's queue, and the
    /// outbox while a broadcast game waits for its channel, keep only the newest), or every one
    /// when `push` was decided while the disk was full (``diskTroubles``): nothing leaves the
    /// outbox while the checkpoint cannot be written, so every push decided since it filled waits
    /// there (``GameSession/supersedeWaiting()`` keeps the newest state, but not what a delivery
    /// had in flight as the disk filled), and a sender failing when the disk has room supersedes
    /// them all at once, after `push` was decided. Found at seed 2, day 147 (`--platform ios`):
    /// a final decided while the disk was full went beyond the budget with the 21 pushes of the
    /// game's last 11 minutes waiting before it, seven of them priority 10s given back only once
    /// the disk had room and the sender, down, superseded them.
    func givenBackLate(before push: PushRecord, in seqs: [Int]) -> Int {
        let missing = Self.missing(before: push.seq, in: seqs)
        return diskTroubles.contains { $0.contains(push.sentAt) } ? missing : min(1, missing)
    }

    /// How many `seq`s are missing right before `seq` in the sorted `seqs` (those a push
    /// superseded, untried, as it went).
    static func missing(before seq: Int, in seqs: [Int]) -> Int {
        var low = 0, high = seqs.count
        while low < high {
            let middle = (low + high) / 2
            if seqs[middle] < seq { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : max(0, seq - seqs[low - 1] - 1)
    }

    /// No moment sends a game more than two pushes and one priority 10 besides a start that goes
    /// with the end (the present state and its priority-5 copy, or a start and the end): an instance's first moment with it (a join, a catch-up after a restart),
    /// the answer after an outage, and every other. `pushes`: the game's records, each once (a
    /// record delivered again after a crash is a repeat, not a push of its moment).
    /// Pushes `moment` apart or less count as one moment (by default 10 ms: `serve`'s backlog
    /// split in batches a millisecond apart is one catch-up).
    /// A `serve` game's lines that come after a pause longer than `moment` (a live line after a
    /// catch-up was decided, however soon) begin a moment of their own.
    /// A `serve` backlog handed in parts (``SimulatedDay/Game/backlogBatches``) is one catch-up
    /// with the service's window for its parts after the last (``GameService/Options/catchUpWindow``):
    /// its pushes after its first part count as one moment however the decision was spread (what a
    /// restart sends at its start, before it reads, is a moment of its own; a live line read after
    /// the decision is news: seed 277, day 109 on Android, 8 ms after it).
    mutating func checkMoments(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        let news = plan.path == .serve ? newsAfterPauses(plan) : []
        let catchUps = catchUpsInParts(plan)
        var moments: [(at: Date, records: [PushRecord])] = []
        for record in pushes.sorted(by: { $0.sentAt < $1.sentAt }) {
            // A line read after the moment began (after a catch-up was decided too) is news.
            if let last = moments.last, !news.contains(where: { last.at < $0 && $0 <= record.sentAt }),
               catchUps.contains(where: { $0.after < last.at && record.sentAt <= $0.until }) || record.sentAt.timeIntervalSince(last.at) <= moment {
                moments[moments.count - 1].records.append(record)
            } else {
                moments.append((record.sentAt, [record]))
            }
        }
        for (at, moment) in moments {
            // A start that goes with its game's end is the renderer's (for a game met at its end,
            // on Android or with `--start`), not the policy's: it does not count (as in
            // ``checkBudget(_:_:)``).
            let startWithEnd = moment.contains { $0.event == .start } && moment.contains { $0.event == .end }
            let urgent = moment.filter { $0.priority == 10 }.count - (startWithEnd ? 1 : 0)
            let starts = instances, start = day.start
            check(moment.count - (startWithEnd ? 1 : 0) <= 2 && urgent <= 1, "game \(plan.game.id): \(Self.describe(at, in: pushes, instances: starts, dayStart: start)) sent \(moment.count) pushes (\(urgent) priority 10)")
        }
    }

    /// A game whose final came while no instance ran: the next instance's first push of it is its
    /// `end`. What the policy held for the final (the last period's end) shows a game the feed has
    /// already ended, so the restart waits for the feed instead of sending it alone first (its
    /// catch-up window). Counted where the feed answers the restart at once: `serve`'s input, or
    /// a poll path without faults around the restart; not after a lost state directory (a fresh
    /// instance joins). `pushes`: the game's records, each once (one sent again after the restart
    /// was made before it).
    mutating func checkFinalsWhileDown(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard let lastLine = plan.lastAction else { return }
        let final = plan.path == .serve ? lastLine : max(lastLine, plan.finalAt ?? lastLine)
        for (index, started) in instances.enumerated().dropFirst() where !lost(plan.game.id, at: index) {
            // The kill that this instance followed (none for the run after the day's last).
            guard let killed = kills[index],
                  killed < lastLine, final < started, (plan.join ?? .distantPast) < killed
            else { continue }
            if plan.path == .poll {
                let around = started.addingTimeInterval(-day.pollInterval)..<started.addingTimeInterval(2 * day.pollInterval)
                guard !plan.hasStaleEdge, !(plan.outages + plan.playByPlayOutages + plan.timeouts + plan.hostile).contains(where: { $0.overlaps(around) })
                else { continue }
            }
            // A game no push of which was delivered before this instance, since its state was last
            // lost if it was, has no activity to end: it starts one with the final first. (An
            // instance killed soon after it started on a lost directory: seed 3, day 36; a game
            // followed before its tip-off that played out while no instance ran: seed 18, day 87.)
            // Nor has one whose activity an `end` closed (given up, it came back while no instance
            // ran: seed 99, day 51).
            let since = resets(of: plan.game.id).filter { $0 < started }.max() ?? .distantPast
            let before = pushes.filter { $0.sentAt >= since && $0.sentAt < started }
            let last = before.map(\.sentAt).max()
            let unstarted = before.isEmpty || before.contains { $0.sentAt == last && $0.event == .end }
            let stop = nextStart(after: index)
            // An instance asked to stop before it heard any input (``SimulatedDay/Restart/heardNothing``)
            // never read the final: it sends only what its checkpoints left (seed 11, day 159).
            guard !day.restarts.contains(where: { $0.heardNothing && $0.at >= started && $0.at < stop }),
                  let first = pushes.filter({ $0.sentAt >= started && $0.sentAt < stop }).min(by: { $0.sentAt < $1.sentAt })
            else { continue }
            check(first.event == .end || (unstarted && first.event == .start && first.state.phase == .final),
                  "game \(plan.game.id): its final came while no instance ran, and instance \(index + 1)'s first push of it is \(first.event.rawValue) \(first.state.phase.rawValue) seq \(first.seq), not its end")
        }
    }

    /// A priority-10 push that nothing else backs goes with its priority-5 copy (the same event
    /// and state, at the same moment), in case the device's budget is smaller than assumed and
    /// drops the first: every `end` at priority 10, and every push beyond the assumed budget.
    /// Not counted where the copy may have been lost with the sender's queue: a kill, or the sender
    /// down, between the push and the game's next record (updates in flight are given up, as
    /// every later state supersedes them); nor where the game's next record was made before the
    /// copy could go: it waits behind its priority-10 push (one record of a lane in flight at a
    /// time) and then takes up to the sender's slowest answer, and a newer state made by then
    /// supersedes it in the sender's queue (an attempt cut short, as at the run's end, leaves it
    /// there); nor where the disk was full between the push and the game's next record: the copy
    /// waited in the outbox, and the newer state superseded it there once the disk had room
    /// (``GameSession/supersedeWaiting()``; seed 2, day 429). `pushes`: the game's records, each
    /// once, in order.
    mutating func checkCopies(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard day.coalescer.copies else { return }
        let copies = Dictionary(grouping: pushes.filter { $0.priority == 5 }) { Copy(event: $0.event, at: $0.sentAt) }
        let kills = day.restarts.map(\.at)
        let failing = day.sink.failing + gameFailing(plan.game.id)
        for (index, push) in pushes.enumerated()
        where push.priority == 10 && (push.event == .end || (push.event == .update && Push.isBeyondBudget(push.reason))) {
            let next = pushes[(index + 1)...].first { $0.sentAt > push.sentAt }?.sentAt ?? .distantFuture
            let span = push.sentAt...next
            guard !kills.contains(where: span.contains), !(failing + diskTroubles).contains(where: { $0.lowerBound <= next && push.sentAt <= $0.upperBound })
            else { continue }
            // (An `end`'s copy is never superseded: the queue skips updates alone.)
            if push.event == .update, let delivered = firstDelivery[push.key], next <= delivered.addingTimeInterval(day.sink.slowest) {
                continue
            }
            check(copies[Copy(event: push.event, at: push.sentAt)]?.contains { $0.showsSameState(as: push) } == true,
                  "game \(plan.game.id): the priority-10 \(push.event.rawValue) seq \(push.seq) (\(push.reason)) has no priority-5 copy")
        }
        // A copy and its priority 10 stay or go together (an outbox that waits drops both for a
        // newer state): a copy never goes alone, as if it were newer than the push it copies.
        let originals = Dictionary(grouping: pushes.filter { $0.priority == 10 }) { Copy(event: $0.event, at: $0.sentAt) }
        for copy in pushes where copy.priority == 5 && copy.reason == Push.copyReason {
            // Unless a kill came between the copy's moment (a kill inside a write may come at that
            // very moment) and its delivery and the sender had been
            // handed its priority 10 and failed it: that one had left the outbox for the sender's
            // queue, in memory, and was lost with the instance (updates are not kept), while the
            // copy, handed as it died, was not yet in the checkpoint and went from the next
            // instance's outbox (seed 6, day 133: the sender down, the priority 10 failed twice).
            // So too when the queue held it untried, stuck behind an earlier push of the game that
            // the killed instance made and the sender failed, and that neither went nor was
            // passed by a later one before the kill (seed 1: day 8 of the default run, days 50
            // and 229 of `--days 500 --platform ios`; the sender down, the kill inside the write
            // of the copy's delivery or of its priority 10's).
            let triedHere = tried[plan.game.id] ?? []
            // The push it was stuck behind may be one an instance before made: a start kept and
            // sent again at a restart (seed 24, day 257 of `--days 300 --platform ios,android
            // --per-day 15-25`: the start made before a kill failed through the next instance's
            // life, which was killed as it made a priority 10 and its copy). Seqs are compared
            // within the copy's state directory, as each lost one numbers afresh (seed 35, day 68
            // of `--days 150 --platform ios,android --per-day 10-20`: a copy stuck behind seq 16,
            // failed in an outage, was taken for passed by an earlier directory's seq 21).
            let here = directory(of: copy)
            func stuck(at kill: Date) -> Bool {
                triedHere.contains { failed in
                    directory(of: failed) == here && failed.seq < copy.seq && failed.sentAt <= kill
                        && firstDelivery[failed.key].map { $0 > kill } ?? true
                        && !pushes.contains {
                            directory(of: $0) == here && $0.seq > failed.seq && firstDelivery[$0.key].map { $0 < kill } == true
                        }
                }
            }
            // Never an `end`'s: one handed to the sink and not confirmed delivered goes again at a
            // restart (``GameSession`` keeps it: ``GameSession/resume(lanes:)``).
            if copy.event == .update, let delivered = firstDelivery[copy.key], kills.contains(where: { kill in
                copy.sentAt <= kill && kill <= delivered && (triedHere.contains(where: copy.isPriority5Copy(of:)) || stuck(at: kill))
            }) {
                continue
            }
            check(originals[Copy(event: copy.event, at: copy.sentAt)]?.contains(where: copy.isPriority5Copy(of:)) == true,
                  "game \(plan.game.id): the priority-5 copy seq \(copy.seq) (\(copy.event.rawValue)) went without its priority 10")
        }
    }

    /// A device shows a push only when its `timestamp` is newer than the newest it has shown
    /// (DESIGN.md: keep them strictly increasing): each push of a game has a timestamp above every
    /// one made before it (its priority-5 copy's too), across restarts and lost state directories.
    /// `pushes`: the game's records, each once (a record delivered again after a crash is the same
    /// push).
    mutating func checkTimestamps(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        var last: PushRecord?
        for push in pushes.sorted(by: { ($0.sentAt, $0.seq) < ($1.sentAt, $1.seq) }) {
            defer { if push.timestamp > last?.timestamp ?? .min { last = push } }
            guard let last else { continue }
            check(push.timestamp > last.timestamp,
                  "game \(plan.game.id): push seq \(push.seq) (\(push.event.rawValue)) has timestamp \(push.timestamp), "
                      + "not after seq \(last.seq)'s \(last.timestamp): the device ignores it")
        }
    }

    /// What APNs and a device refuse or ignore (DESIGN.md), on each iOS push: a payload over
    /// APNs' limit (4096 bytes per device push, 5120 per broadcast push), a `timestamp` more than
    /// 8 h ahead (dropped), an alert on a priority-5 push, a `dismissal-date` on anything but an
    /// `end`. And what the lock screen shows: a start's or update's score not stale before the
    /// renderer's `staleAfter` (its `stale-date`), a final kept on it for the renderer's
    /// `dismissAfter` at least and 4 h at most (its `dismissal-date`), a final at priority 10 with
    /// its alert (the coalescer's `alerts.final`). `pushes`: the game's records, each once.
    mutating func checkRequests(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        guard day.platform == .ios else {
            for push in pushes {
                let dismissal = Self.number(after: "\"dismiss_after\":\"", in: push.payload)
                guard push.event == .end else {
                    check(dismissal == nil, "game \(plan.game.id): \(push.event.rawValue) seq \(push.seq) says when to dismiss it: only an end is dismissed")
                    // A HIGH update lives as long as its score is fresh, a NORMAL one (it waits
                    // for the phone and collapses) and a start the hour (`android.ttl`): a phone
                    // offline longer does not get a burst of stale scores at HIGH.
                    let ttl = Self.androidTTL(push.payload)
                    let lives = Int(push.event == .update && push.priority == 10 ? Self.expectedStaleAfter : Self.expectedExpiration)
                    check(ttl == lives,
                          "game \(plan.game.id): \(push.event.rawValue) seq \(push.seq) (priority \(push.priority)) lives \(ttl.map { "\($0) s" } ?? "no android.ttl"), not \(lives) s")
                    continue
                }
                // An Android end lives 4 h as well (`android.ttl`).
                let ttl = Self.androidTTL(push.payload)
                check(ttl.map { $0 >= 4 * 3600 } ?? false,
                      "game \(plan.game.id): end seq \(push.seq) lives \(ttl.map { "\($0) s" } ?? "no android.ttl"), not 4 h: a phone offline for longer keeps the stale score")
                // And shows its final as long as an iOS end does (`dismiss_after`, in milliseconds).
                let sent = Int((push.sentAt.timeIntervalSince1970 * 1000).rounded(.down))
                let least = sent + Int(min(Self.expectedDismissAfter, Self.longestDismissal)) * 1000
                check(dismissal.map { $0 >= least && $0 <= sent + Int(Self.longestDismissal) * 1000 } ?? false,
                      "game \(plan.game.id): end seq \(push.seq) is dismissed \(dismissal.map { "\(($0 - sent) / 1000) s after it is sent" } ?? "when the app likes (no dismiss_after)"), not \(Int(Self.expectedDismissAfter)) s to 4 h")
            }
            return
        }
        let limit = day.mode.payloadLimit
        for push in pushes {
            let ahead = TimeInterval(push.timestamp) - push.sentAt.timeIntervalSince1970
            let alert = push.priority != 10 && Self.has("\"alert\":", in: push.payload)
            let dismissal = push.event != .end && Self.has("\"dismissal-date\":", in: push.payload)
            check(push.payload.count <= limit && ahead <= 8 * 3600 && !alert && !dismissal,
                  "game \(plan.game.id): push seq \(push.seq) (\(push.event.rawValue), priority \(push.priority)) is refused or ignored: "
                      + "\(push.payload.count) bytes (at most \(limit)), timestamp \(Int(ahead)) s ahead (at most 8 h), "
                      + "alert \(alert), dismissal-date \(dismissal)")
            let shown = Self.shownFor(push, coalescer: day.coalescer)
            check(shown.isEmpty, "game \(plan.game.id): push seq \(push.seq) (\(push.event.rawValue), priority \(push.priority)): \(shown.joined(separator: "; "))")
            guard let expiration = push.request[header: "apns-expiration"].flatMap(Int.init) else { continue }
            let sent = Int(push.sentAt.timeIntervalSince1970.rounded(.down))
            let token = day.mode.isToken
            if push.event != .end {
                // A start or an update lives the hour in token mode, and not at all on a broadcast
                // channel that stores nothing (the simulator's): a device offline for longer does
                // not get a stale score.
                check(expiration == (token ? sent + Int(Self.expectedExpiration) : 0),
                      "game \(plan.game.id): \(push.event.rawValue) seq \(push.seq) expires \(expiration == 0 ? "at once (0)" : "\(expiration - sent) s after it is sent"), not \(token ? "\(Int(Self.expectedExpiration)) s after" : "at once (0)")")
            } else {
                // An end outlives the updates: a device offline for an hour still gets it and loses
                // the stale score (``PushRenderer``: 4 hours; 0 on a broadcast channel that stores nothing).
                check(expiration == 0 ? !token : expiration >= sent + 4 * 3600,
                      "game \(plan.game.id): end seq \(push.seq) expires \(expiration == 0 ? "at once (0)" : "\(expiration - sent) s after it is sent"), "
                          + "not 4 h: a device offline for longer keeps the stale score")
            }
        }
    }

    /// What is wrong with how long an iOS push shows its score (from its second, `sentAt`): an
    /// `update` or `start` whose `stale-date` comes before the renderer's `staleAfter`, an `end`
    /// whose `dismissal-date` keeps the final less than `dismissAfter` or more than 4 h, or a
    /// final at priority 10 without its alert while `coalescer` alerts finals.
    public static func shownFor(_ push: PushRecord, coalescer: Coalescer.Configuration) -> [String] {
        let sent = Int(push.sentAt.timeIntervalSince1970.rounded(.down))
        var problems: [String] = []
        switch push.event {
        case .start, .update:
            let stale = number(after: "\"stale-date\":", in: push.payload)
            if stale.map({ $0 < sent + Int(Self.expectedStaleAfter) }) ?? true {
                problems.append("its score is stale \(stale.map { "\($0 - sent) s after it is sent" } ?? "at once (no stale-date)"), not \(Int(Self.expectedStaleAfter)) s")
            }
        case .end:
            let dismissal = number(after: "\"dismissal-date\":", in: push.payload)
            let least = sent + Int(min(Self.expectedDismissAfter, Self.longestDismissal))
            if dismissal.map({ $0 < least || $0 > sent + Int(Self.longestDismissal) }) ?? true {
                problems.append("its final is dismissed \(dismissal.map { "\($0 - sent) s after it is sent" } ?? "when the system likes (no dismissal-date)"), not \(Int(Self.expectedDismissAfter)) s to 4 h")
            }
            if push.priority == 10, push.state.phase == .final, coalescer.alerts.final, !has("\"alert\":", in: push.payload) {
                problems.append("a final at priority 10 without its alert")
            }
        }
        return problems
    }

    /// The integer written after `key` in `payload` (`"stale-date":1735956878`; ``decimal(after:in:)``);
    /// nil when the key is not there or no number follows it.
    static func number(after key: String, in payload: Data) -> Int? {
        decimal(after: key, in: payload).flatMap { abs($0) < 1e18 ? Int($0) : nil }
    }

    /// An FCM message's `android.ttl` in seconds (`"ttl":"14400s"`).
    private static func androidTTL(_ payload: Data) -> Int? {
        number(after: "\"ttl\":\"", in: payload)
    }

    /// Whether `payload` holds `text` anywhere: a key with its quotes and colon (a string in the
    /// payload has its quotes escaped), or words.
    static func has(_ text: String, in payload: Data) -> Bool {
        var text = text
        return text.withUTF8 { text in payload.withUnsafeBytes { ByteSearch.contains($0, UnsafeRawBufferPointer(text)) } }
    }

    /// APNs drops a broadcast `update` whose timestamp is in the past (an `end` it does not, and
    /// DESIGN.md says no more): each iOS broadcast update is delivered before its timestamp's
    /// second is over (the renderer stamps them ahead). Not counted where the sender or APNs'
    /// channel service failed, the disk was full, or a kill came, between the push and its
    /// delivery (the retries, up to their longest wait, or the next instance send it late; a later
    /// push supersedes it), nor for one made in a stop's drain that the next instance sent, nor where the sender failed that push alone (a blip: its retry, after
    /// its activity's backoff and a slow sender's sends, comes late; seed 6, day 151 at
    /// --interval 60), nor
    /// for a push made while the sender still delivered older ones (it waited in the queue).
    /// Whether a push made at `made` came from an instance already stopping (a stop or kill asked
    /// for after its start, before `made`), and an instance started after it by `delivered`.
    func madeInADrain(_ made: Date, sentByTheNextInstanceBy delivered: Date) -> Bool {
        let started = instances.last { $0 <= made } ?? .distantPast
        let stopping = day.restarts.contains { started <= $0.at && $0.at <= made }
        return stopping && instances.contains { made < $0 && $0 <= delivered }
    }

    mutating func checkBroadcastStamps() {
        // A sender slower than the stamps' lead (``PushRenderer/Configuration/failoverHeadStart``)
        // delivers late whatever the stamp, as do channels refused and made again later.
        guard day.hasChannels, deliveredAt.count == records.count, !day.channelsWait,
              day.sink.slowest < TimeInterval(PushRenderer.Configuration.failoverHeadStart)
        else { return }
        let kills = day.restarts.map(\.at)
        let failedOnce = Set(tried.values.joined().lazy.map(\.key))
        // The sender's troubles, and for a game whose pushes it failed alone, those too.
        let troubles = senderTroubles + diskTroubles
        let gameTroubles = Dictionary(uniqueKeysWithValues: Set(day.sink.gameFailing.map(\.game)).map { ($0, senderTroubles(for: $0) + diskTroubles) })
        // A record made while the sender still had an older one of its activity to deliver
        // (delivered after this one was made) waited behind it: a game's own pushes go one at a
        // time, and a sender slower than the lead for each delivers the later ones late whatever
        // the stamp. Other games' pushes go side by side (``ResilientSink``), so a failover's
        // catch-up of every game is no queue (storms found one; see SimulatingLiveDays, "Storms").
        // A priority-5 copy, made in the same instant as its priority 10 (stamped a second later),
        // waits behind it too where that one failed once: a slow sender's try, the backoff, the
        // retry and the copy's own send outlast the lead (seed 30, day 8 at --interval 60: 65 s).
        for (index, (record, at)) in zip(records, deliveredAt).enumerated() where record.event == .update {
            var earlier = index - 1
            var queued = false
            // Deliveries are in order: only those after this record was made can be its queue.
            while earlier >= 0, deliveredAt[earlier] > record.sentAt, !queued {
                let older = records[earlier]
                queued = older.activity == record.activity
                    && (older.sentAt < record.sentAt
                        || older.sentAt == record.sentAt && older.seq < record.seq && failedOnce.contains(older.key))
                earlier -= 1
            }
            // Or behind another lane's record of its activity (an iOS Live Activity and its
            // Android notification are one game's: its engine sends their records one at a time).
            queued = queued || (otherLanes[record.activity] ?? []).contains {
                $0.record.sentAt < record.sentAt && $0.at > record.sentAt && $0.at <= at
            }
            if queued || failedOnce.contains(record.key) { continue }
            // (Nor one made in a stop's drain and sent by the next instance: the drain ran out of
            // grace behind a slow sender.)
            guard !kills.contains(where: { record.sentAt <= $0 && $0 <= at }), !madeInADrain(record.sentAt, sentByTheNextInstanceBy: at),
                  !(gameTroubles[record.game] ?? troubles).contains(where: { $0.lowerBound <= at && record.sentAt <= $0.upperBound })
            else { continue }
            check(at.timeIntervalSince1970 < Double(record.timestamp + 1),
                  "game \(record.game): broadcast update seq \(record.seq) was delivered \(Int(at.timeIntervalSince1970) - record.timestamp) s "
                      + "after its timestamp: APNs drops it")
        }
    }

    private struct Copy: Hashable {
        let event: Push.Event
        let at: Date
    }

    /// How many states `records` show, the size guard's trimming aside
    /// (`PushRecord.showsSameState(as:)`: a priority 10 with an alert is trimmed more than its copy).
    static func distinctStates(_ records: [PushRecord]) -> Int {
        var shown: [PushRecord] = []
        for record in records where !shown.contains(where: record.showsSameState(as:)) { shown.append(record) }
        return shown.count
    }

    /// What an instance left unsent (records made before the next instance started, delivered by
    /// it) goes out as that instance starts, before anything waits for the feed: its restore sends
    /// every game's outbox first. Not counted where the sender is slow, down or refusing channels
    /// around the start (its retries and a channel's creation take their time), nor for a push
    /// delivered within a full disk that began by the moment after the start (nothing goes before
    /// its checkpoint is written; seed 1, day 2397: an end's copy left by a kill went 13.7 s after
    /// the disk had room), nor for a game whose push a blip failed since the start (the sink and
    /// the activity wait their first backoff, a second at most, and
    /// ``SimulatedSender/pushBlipsRetriedLate(tail:troubles:)`` holds them to it; seed 37, day 24
    /// of `--games ../shared/nba-pbp --platform ios,android`: a blip drawn while the lane failed,
    /// met by the next instance's first push, 0.6 s before its retry went).
    mutating func checkLeftOver() {
        guard deliveredAt.count == records.count, day.sink.slowest == 0 else { return }
        for (index, started) in instances.enumerated().dropFirst() {
            let stop = nextStart(after: index)
            let around = started.addingTimeInterval(-1)..<started.addingTimeInterval(900)
            guard !day.sink.failing.contains(where: { $0.overlaps(around) }),
                  !day.sink.channelOutages.contains(where: { $0.overlaps(around) }), !day.channelsWait
            else { continue }
            for (record, at) in zip(records, deliveredAt) where at >= started && at < stop && record.sentAt < started {
                guard !gameFailing(record.game).contains(where: { $0.overlaps(around) }),
                      !(blipped[record.game] ?? []).contains(where: { started <= $0 && $0 <= at }),
                      !diskTroubles.contains(where: { $0.lowerBound <= started.addingTimeInterval(moment) && at <= $0.upperBound })
                else { continue }
                check(at <= started.addingTimeInterval(moment),
                      "game \(record.game): instance \(index + 1) sent seq \(record.seq), left by the instance before it, "
                          + "\((at.timeIntervalSince(started) * 10).rounded() / 10) s after it started (its restore sends what is left at once)")
            }
        }
    }

    /// How long after the feed shows a new score a push may show it (or a newer one), beyond a
    /// poll's interval: the policy holds a decisive end for ``Coalescer/Configuration/settle``
    /// (3 s) and nothing else; the rest is room for the moment.
    public static let freshnessSlack: TimeInterval = 10

    /// News goes out: every score a game's feed starts to show is on a push the sender has (or a
    /// newer score is: delivered, not only made, where delivery times are known) within a poll's
    /// interval (serve: none) and ``freshnessSlack``, its first too (a poller
    /// that follows a game from before tip-off polls at its interval through the pregame 404s).
    /// Not counted where something explains a wait: the feed failing (an outage, time-outs,
    /// garbage, and the poller's backoff after; `serve`'s input stalled) or a stale edge that may
    /// answer any poll; news from before a join (the join's catch-up shows it); a restart or the sender down, or
    /// failing this game's pushes alone (and its retries after), around the news (another game's
    /// pushes failing alone excuse nothing); a slow sender (a batch waits for its games'
    /// requests, and each game's pushes for its own); a broadcast game while channels are refused or down
    /// (and their retries after, ``channelRetryTail``); a game paused for a comeback longer than a poller waits (given
    /// up, it is only taken back by a later instance). Such a trouble excuses a wait only until it is over (with the
    /// troubles that overlap it): then the news goes within the same bound, whether or not the
    /// game has more news to carry it. Only a kill while the sender failed excuses a wait for
    /// good (the records the sink held are gone with the instance). `pushes`: the game's records, each once.
    mutating func checkFreshness(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        let sent = pushes.sorted { $0.sentAt < $1.sentAt }
        // A game with no push at all breaks ``checkEnd(_:_:)`` already (its last push carries the
        // feed's final).
        guard !sent.isEmpty, timesItsNews(plan) else { return }
        let wait = (plan.path == .poll ? day.pollInterval : 0) + Self.freshnessSlack
        let scored = plan.path == .poll ? plan.game.pollScores : plan.game.serveScores
        var hold = Double.infinity
        if case .comeback(let share, _) = plan.fate, !plan.comebackIsFollowed { hold = share * plan.game.span }
        // Each news: when it appears, and the first push that shows it or a newer score.
        let news: [(at: Date, score: FinalScore)] = scored.compactMap { one in
            guard one.offset <= hold, let at = plan.date(at: one.offset) else { return nil }
            return (at, one.score)
        }
        guard !news.isEmpty else { return }
        func shownScore(_ push: PushRecord) -> FinalScore { FinalScore(home: push.state.homeScore, away: push.state.awayScore) }
        var places: [FinalScore: [Int]] = [:]
        for (index, one) in news.enumerated() { places[one.score, default: []].append(index) }
        var shown = [PushRecord?](repeating: nil, count: news.count)
        var covered = 0
        for push in sent where covered < news.count {
            let score = shownScore(push)
            // The newest news with this score that had appeared when the push went.
            guard let last = places[score]?.last(where: { news[$0].at <= push.sentAt.addingTimeInterval(0.001) }), last >= covered
            else { continue }
            for index in covered...last { shown[index] = push }
            covered = last + 1
        }
        // When the feed itself took the news back to the score the lock screen showed then (a
        // basket listed, then deleted, between two polls: seed 37, day 222 at --interval 60):
        // from that moment the screen is right without a push, and the news before it waits no
        // longer.
        var takenBack = [Date?](repeating: nil, count: news.count)
        var next = 0, open = 0
        var showing: FinalScore?
        for (index, one) in news.enumerated() {
            while next < sent.count, sent[next].sentAt <= one.at {
                showing = shownScore(sent[next])
                next += 1
            }
            guard showing == one.score else { continue }
            for earlier in open...index { takenBack[earlier] = one.at }
            open = index + 1
        }
        let (troubles, killedHolding) = freshnessTroubles(plan, wait: wait)
        for (index, one) in news.enumerated() where one.at > plan.join ?? .distantPast {
            let from = one.at.addingTimeInterval(-wait)
            let until = Self.excused(from: from, until: one.at.addingTimeInterval(wait), by: troubles, wait: wait)
            guard !killedHolding.contains(where: { $0.overlaps(from..<until) }) else { continue }
            // When the sender had it (made, where delivery times are not known).
            let pushed = shown[index].map { (firstDelivery[$0.key] ?? $0.sentAt).timeIntervalSince(one.at) }
            let lag = [pushed, takenBack[index].map { $0.timeIntervalSince(one.at) }].compactMap { $0 }.min()
            let most = until.timeIntervalSince(one.at)
            let since = Int(one.at.timeIntervalSince(day.start))
            check(lag.map { $0 <= most } ?? false,
                  "game \(plan.game.id) (\(plan.path.rawValue)): the feed showed \(one.score.away)-\(one.score.home) (away-home) at +\(since) s, "
                      + (shown[index].map { "no push showed it or newer for \(Int(lag ?? 0)) s (seq \($0.seq) did)" }
                          ?? "no push ever showed it or newer")
                      + "; at most \(Int(most)) s" + (most > wait ? " (troubles around it included)" : ""))
        }
    }

    /// Whether the time `plan`'s news takes to go out is checked (``checkFreshness(_:_:)``,
    /// ``checkFinalOnTime(_:_:)``): not a game with a stale edge, which may answer any poll with
    /// an older copy; not on a day whose sender is slow, or whose channels may wait.
    func timesItsNews(_ plan: SimulatedDay.Game) -> Bool {
        !plan.hasStaleEdge && day.sink.slowest == 0 && !(day.hasChannels && day.channelsWait)
    }

    /// What excuses `plan`'s news going later than `wait` after it appears
    /// (``checkFreshness(_:_:)``): the feed's, the sender's and the disk's troubles, restarts,
    /// and a new poller's waits; and the sender's troubles an instance was killed in (the records
    /// its sink still held are gone with it, the checkpoint has them handed over, so what they
    /// showed waits for the game's next push after the restart).
    func freshnessTroubles(_ plan: SimulatedDay.Game, wait: TimeInterval) -> (troubles: [Range<Date>], killedHolding: [Range<Date>]) {
        let feed = Self.feedTroubles(plan, interval: day.pollInterval, requestTimeout: day.requestTimeout)
        let pollers = plan.path == .poll ? newPollers(plan, feed: feed) : []
        let killedHolding = senderTroubles(for: plan.game.id).filter { trouble in day.restarts.contains { trouble.contains($0.at) } }
        return (troubles(plan, feed: feed, wait: wait) + endListedWaits(plan, pollers: pollers) + firstCopyWaits(pollers), killedHolding)
    }

    /// A poller new to the game (an instance started on an empty state directory, or the game's
    /// join) whose first answer comes between the game's last action and its boxscore's final
    /// (the feed's troubles may put it off): its first copy lists the end, which it holds until
    /// the final (a lost instance may have ended the game on a newer copy: ``LivePoller``'s wait
    /// for a first copy), and the play-by-play's next poll after the boxscore's decides it. Found
    /// at seed 1, days 1063 (a restart) and 1453 (a join in an outage). `pollers`: the game's
    /// `newPollers(_:feed:)`.
    func endListedWaits(_ plan: SimulatedDay.Game, pollers: [NewPoller]) -> [Range<Date>] {
        guard plan.path == .poll, let last = plan.lastAction, let final = plan.finalAt else { return [] }
        return pollers.compactMap { poller in
            poller.started < final && last <= poller.answer ? max(poller.started, last)..<final.addingTimeInterval(day.pollInterval) : nil
        }
    }

    /// A poller new to the game (an instance started on an empty state directory, or the game's
    /// join) whose first copy is old, written more than a poll's interval before it came (a game
    /// at a break, on a CDN that stamps a copy when its document last changed): it cannot tell
    /// such a copy from a stale edge's, and waits through its old copies for a fresh one, at most
    /// ``expectedOldCopiesWaited`` of them, each a poll's interval, a request's time-out and
    /// ``expectedFreshCopyRoom`` (``LivePoller``'s `firstCopyWait`). Each wait runs from the start
    /// to the next poll after the game's copy changes, or to the last old copy's wait, each wait
    /// taken at its longest (on the simulated CDN, which answers at once, a wait lasts a poll's
    /// interval: a poller that waited an answer or two more would pass here). Found at
    /// seed 4141 with the real games: day 52 (a lost state directory, the game in a timeout, its
    /// copy 61 s old: the news 236 s late) and day 30 (a join in an outage, the first answer after
    /// it 33 s old). A later copy that lists the game's end before the boxscore is final is no
    /// fresh one either (seed 211, day 67, `--keep-state --per-day 10-20`, broadcast on Android: a
    /// join 30 s before the game's end, its first copy old, the next listing the end, held
    /// through four answers: the final score shown 115 s after it came, where 95 were allowed).
    /// `pollers`: the game's `newPollers(_:feed:)`.
    func firstCopyWaits(_ pollers: [NewPoller]) -> [Range<Date>] {
        pollers.compactMap { poller in poller.waitEnd.map { poller.started..<$0 } }
    }

    /// A poller new to a game (`newPollers(_:feed:)`): where it starts, the latest its first
    /// answer can come, and the end of its wait through old copies (`firstCopyWaits(_:)`; nil:
    /// its first copy is fresh, or the game's copies are stamped as they are asked for).
    struct NewPoller {
        var started: Date
        var answer: Date
        var waitEnd: Date?
    }

    /// The end of the wait through old copies of a poller new to `plan`'s game from `started`,
    /// its first answer at `answer` at the latest (`NewPoller.waitEnd`). The feed's troubles
    /// (`feed`) hold the wait without counting (a failed answer is no copy): the copies left to
    /// wait through come after the trouble, the last of them with its whole wait (seed 11,
    /// day 453 on Android: three old copies, a 4-minute outage, then the fourth and its wait,
    /// 11 s past a wait counted from the first copy on), and a copy that changed in the trouble
    /// may be old again by the answer after it (seed 23, day 183 at `--interval 60`).
    private func firstCopyWait(_ plan: SimulatedDay.Game, started: Date, answer: Date, feed: [Range<Date>]) -> Date? {
        guard plan.path == .poll, plan.stampsWhenWritten else { return nil }
        let interval = day.pollInterval
        let each = interval + day.requestTimeout + Self.expectedFreshCopyRoom
        let longest = Double(Self.expectedOldCopiesWaited) * each
        // The copy's stamp at each second from the start, read once.
        let span = answer.timeIntervalSince(started)
        let stamps = stride(from: 0, through: span + longest, by: 1).map { plan.playByPlayWritten(at: started.addingTimeInterval($0)) }
        // The first answer comes at a second from the start to `answer`: the wait of each
        // such second whose copy is old, the longest of them.
        var end: Date?
        var change = 0
        for second in 0...Int(span) {
            let first = started.addingTimeInterval(Double(second))
            guard let stamp = stamps[second], first.timeIntervalSince(stamp) > interval else { continue }
            // A copy that changes meanwhile is fresh at the next answer after it.
            if change <= second {
                change = second + 1
                while change < stamps.count, stamps[change] == nil || stamps[change] == stamps[change - 1] { change += 1 }
            }
            let fresh = change < stamps.count ? started.addingTimeInterval(Double(change) + each) : .distantFuture
            // The answers, one a poll's interval apart where the feed answers, until a fresh copy
            // or the last old one, each with its wait: the feed's troubles may keep every answer
            // from the poller until its copy is old again (a game silent since it changed: seed
            // 23, day 183 at --interval 60).
            var copies = 0, at = first, walked = first
            while true {
                // A trouble's range ends a poll's interval before its first answer at the latest
                // (`feedTroubles`), as `newPollers`' first answers read it.
                if let trouble = feed.first(where: { $0.contains(at) }) {
                    at = trouble.upperBound.addingTimeInterval(interval)
                    continue
                }
                // The final decides; before it, a copy that lists the game's end is held as an old
                // one (``endListedWaits(_:pollers:)``).
                let isFresh = copies > 0 && (plan.finalAt.map { at >= $0 } == true
                    || ((plan.lastAction.map { at < $0 } ?? true) && plan.playByPlayWritten(at: at).map { at.timeIntervalSince($0) <= interval } == true))
                if !isFresh { copies += 1 }
                if isFresh || copies == Self.expectedOldCopiesWaited {
                    walked = at.addingTimeInterval(each)
                    break
                }
                at = at.addingTimeInterval(interval)
            }
            let over = max(min(first.addingTimeInterval(longest), fresh), walked)
            end = max(end ?? over, over)
        }
        return end
    }

    /// Where a poller new to `plan`'s game starts (a state directory that lost the game, the
    /// game's join), each with the latest its first answer can come: through the feed's troubles
    /// the start falls in, each and the interval after it (a trouble's range leaves its last
    /// interval out: a request just before an outage's end waits its `Retry-After`; seed 2, day
    /// 482, Android). A join while no instance ran (the one before killed, the next not yet
    /// started) is the next instance's: its poller asks first as it starts (seed 73, day 91).
    /// So is a game whose first action came while no instance ran, or so soon before the kill
    /// that the instance killed may have applied none of it: the next instance holds nothing of
    /// the game (seed 6161, day 9 of the real games' sweep: its first copy 105 s old, in a
    /// timeout). So is the instance that runs at the game's first action while the feed's
    /// troubles keep its first answer of the game from it, and the instance after one killed
    /// before its first answer, in its wait for a fresh copy, or before its first push of the game.
    func newPollers(_ plan: SimulatedDay.Game, feed: [Range<Date>]) -> [NewPoller] {
        let join = plan.join.map { join in zip(instances, kills).first { started, killed in (killed ?? .distantFuture) <= join && join < started }?.0 ?? join }
        let unseen = zip(instances, kills).compactMap { started, killed in
            killed.flatMap { $0 < plan.firstAction.addingTimeInterval(day.pollInterval) && plan.firstAction < started ? started : nil }
        }
        // The instance that runs at the game's first action is new to the game until its first
        // answer after it, which comes within a poll's interval: through the feed's troubles
        // that fall in that interval (seed 1, day 46: garbage from 5 s after the first action
        // for 4 minutes, the first copy after it 35 s old, in a timeout).
        let first = plan.firstAction
        let running = instances.indices.contains { index in
            instances[index] <= first && (index + 1 == instances.count || kills[index + 1].map { first < $0 } ?? true)
        }
        let firstTrouble = running ? feed.filter { $0.overlaps(first..<first.addingTimeInterval(day.pollInterval)) }.max { $0.upperBound < $1.upperBound } : nil
        // The latest a poller's first answer can come, from its first request at `request`.
        func firstAnswer(from request: Date) -> Date {
            var answer = request
            while let trouble = feed.first(where: { $0.contains(answer) }) { answer = trouble.upperBound.addingTimeInterval(day.pollInterval) }
            return answer
        }
        var answers: [Date: Date] = [:]
        for started in resets(of: plan.game.id) + [join].compactMap({ $0 }) + unseen { answers[started] = firstAnswer(from: started) }
        if let firstTrouble { answers[first] = max(answers[first] ?? first, firstAnswer(from: firstTrouble.upperBound.addingTimeInterval(day.pollInterval))) }
        var found: [Date: NewPoller] = [:]
        for (started, answer) in answers {
            found[started] = NewPoller(started: started, answer: answer, waitEnd: firstCopyWait(plan, started: started, answer: answer, feed: feed))
        }
        // An instance killed before its first answer, or while it waited through old copies,
        // leaves the next one new to the game too: a state directory that holds nothing of the
        // game, or the wait restored open (seed 1, day 261: a fresh state directory killed 35 s
        // in, the next instance back 12 minutes later waited through the copies of a timeout).
        // So does one killed after its first answer but before it made a push of the game: what
        // it took may never have reached the disk (seed 1, day 402 of 500 on iOS, broadcast: a
        // join a second before a device failed at a rename and the power went; the next
        // instance's first copy 32 s old, its wait through the copies of a timeout).
        let made = records.filter { $0.game == plan.game.id }.map(\.sentAt)
        var chained = Array(found.values)
        while let poller = chained.popLast() {
            guard let index = instances.lastIndex(where: { $0 <= poller.started }), index + 1 < instances.count,
                  let killed = kills[index + 1],
                  killed < max(poller.answer, poller.waitEnd ?? poller.answer) || !made.contains(where: { poller.started <= $0 && $0 < killed })
            else { continue }
            let next = instances[index + 1]
            guard found[next] == nil else { continue }
            let answer = firstAnswer(from: next)
            let poller = NewPoller(started: next, answer: answer, waitEnd: firstCopyWait(plan, started: next, answer: answer, feed: feed))
            found[next] = poller
            chained.append(poller)
        }
        return found.values.sorted { $0.started < $1.started }
    }

    /// The feed's troubles for `plan`'s poller, each as long as the poller may be kept from a
    /// fresh answer by it. Troubles closer together than a poll's longest spacing are one (no
    /// request need fall between them). The poller counts its failures in a row, at most one a
    /// poll interval apart (the interval is its shortest wait, on the boxscore's schedule as on the
    /// play-by-play's), from none at the trouble's start (an answer before it reset them; a
    /// pregame 404 keeps them, and a drawn day's troubles come after the first action); its wait
    /// after the last of them, the backoff those failures earned (or an outage's `Retry-After`), is
    /// what the trouble adds beyond the interval the freshness check allows anyway: a short
    /// trouble adds little, a long one up to the backoff's longest wait.
    /// (Counted from each trouble alone, a poller that never forgets its failures waits the
    /// longest after every trouble of its game, and is caught.) A `serve` game's troubles are its
    /// input's stalls, each from ``freshnessSlack`` into it to its end.
    public static func feedTroubles(_ plan: SimulatedDay.Game, interval: TimeInterval, requestTimeout: TimeInterval) -> [Range<Date>] {
        let schedule = PollSchedule(interval: interval, backoff: Self.expectedPollBackoff)
        // The longest the poller's own schedule waits after `failures` in a row (an outage's
        // answers may ask for a `Retry-After`).
        let retryAfters = [plan.outages.isEmpty ? nil : plan.outageRetryAfter ?? plan.drawnRetryAfter, plan.playByPlayRetryAfter]
        let failure = PollSchedule.Outcome.failed(retryAfter: retryAfters.compactMap { $0 }.max())
        func longestWait(afterFailures failures: Int) -> TimeInterval {
            var failing = schedule
            for _ in 1..<max(1, failures) { _ = failing.next(after: failure, now: .distantPast, random: 0) }
            return failing.longestWait(after: failure)
        }
        // The backoff's longest wait, once the failures have grown it to its cap (64 failures are
        // past any backoff's cap).
        let capped = 64
        let spacing = requestTimeout + longestWait(afterFailures: capped)
        // Each trouble, and whether its requests time out (the others answer at once).
        let all = ((plan.outages + plan.playByPlayOutages).map { ($0, false) } + plan.timeouts.map { ($0, true) } + plan.hostile.map { ($0, false) })
            .sorted { $0.0.lowerBound < $1.0.lowerBound }
        var merged: [(during: Range<Date>, timesOut: Bool)] = []
        for (trouble, timesOut) in all {
            if let last = merged.last, trouble.lowerBound.timeIntervalSince(last.during.upperBound) < spacing {
                merged[merged.count - 1] = (last.during.lowerBound..<max(last.during.upperBound, trouble.upperBound), last.timesOut || timesOut)
            } else {
                merged.append((trouble, timesOut))
            }
        }
        // A stalled `serve` input holds the news that appears in it until it flushes
        // (``SimulatedDay/Game/stalls``): counted from ``freshnessSlack`` into the stall, so that
        // news from before it, read live, is not excused (a trouble excuses what appeared up to
        // the slack before it).
        let stalls = plan.stalls.map { min($0.lowerBound.addingTimeInterval(freshnessSlack), $0.upperBound)..<$0.upperBound }
        return stalls + merged.map { trouble in
            let failures = min(capped, 1 + Int(trouble.during.upperBound.timeIntervalSince(trouble.during.lowerBound) / schedule.interval))
            // A request started in the trouble answers (up to a time-out after it), then waits.
            let after = (trouble.timesOut ? requestTimeout : 0) + longestWait(afterFailures: failures) - schedule.interval
            return trouble.during.lowerBound..<trouble.during.upperBound.addingTimeInterval(max(0, after))
        }
    }

    /// How long a wait in `from..<until` may last: a trouble overlapping it excuses the wait until
    /// `wait` after the trouble is over (and so on for the troubles overlapping that), not for
    /// good: then the news goes.
    static func excused(from: Date, until start: Date, by troubles: [Range<Date>], wait: TimeInterval) -> Date {
        var until = start
        var longer = true
        while longer {
            longer = false
            for trouble in troubles where trouble.overlaps(from..<until) && trouble.upperBound.addingTimeInterval(wait) > until {
                until = trouble.upperBound.addingTimeInterval(wait)
                longer = true
            }
        }
        return until
    }

    /// When the instance after instance `index` started: the end of `index`'s run.
    private func nextStart(after index: Int) -> Date {
        index + 1 < instances.count ? instances[index + 1] : .distantFuture
    }

    /// When `serve` read a line of `plan` more than ``moment`` after the line before it, in each
    /// instance: when the input handed it to the service (``reads``), which is later than it
    /// appeared while the service was busy (a batch waiting for a slow sender), else when it
    /// appeared (``Simulation/input(of:from:)``).
    private func newsAfterPauses(_ plan: SimulatedDay.Game) -> [Date] {
        var times: [Date] = []
        if let reads {
            times = reads[plan.game.id] ?? []
        } else {
            for (index, started) in instances.enumerated() {
                let stop = nextStart(after: index)
                times += Simulation.input(of: plan, from: started).map(\.at).filter { $0 >= started && $0 < stop }
            }
        }
        times.sort()
        // A backlog's parts come within a few milliseconds of the instance's start or the join
        // (``Simulation/input(of:from:)``); any other line is live, news however soon it follows
        // the one before (seed 241, day 5 on Android: a basket edited on review 7 ms after a free
        // throw, each score a priority 10 of its own).
        let backlogs = instances.map { backlogStart(of: plan, in: $0) }
        return zip(times.dropFirst(), times).filter { later, earlier in
            later.timeIntervalSince(earlier) > moment || (later > earlier && !backlogs.contains { $0 <= earlier && later < $0.addingTimeInterval(Self.backlogSpan) })
        }.map(\.0)
    }

    /// The span after its instance's start, or the game's join, within which a `serve` backlog's
    /// parts all come: they go a millisecond apart (``Simulation/input(of:from:)``).
    static let backlogSpan: TimeInterval = 0.005

    /// Where an instance started at `started` takes `plan`'s backlog: its start, or the game's join.
    private func backlogStart(of plan: SimulatedDay.Game, in started: Date) -> Date {
        max(plan.join ?? .distantPast, started)
    }

    /// When each instance took `plan`'s backlog in more than one part (a `serve` game joined or
    /// caught up after a restart): after its first part, until the service's window for more
    /// parts after its last (``GameService/Options/defaultCatchUpWindow``, and a moment).
    private func catchUpsInParts(_ plan: SimulatedDay.Game) -> [(after: Date, until: Date)] {
        guard plan.path == .serve, plan.backlogBatches > 1 else { return [] }
        return instances.enumerated().compactMap { index, started in
            let joined = backlogStart(of: plan, in: started)
            let parts = Simulation.input(of: plan, from: started).map(\.at).filter { $0 >= joined && $0 < joined.addingTimeInterval(Self.backlogSpan) }
            guard parts.count > 1, let last = parts.max(), joined < nextStart(after: index) else { return nil }
            return (joined, last.addingTimeInterval(GameService.Options.defaultCatchUpWindow + moment))
        }
    }

    /// An instance's first moment with a game, or the moment's time into the day.
    private static func describe(_ at: Date, in mine: [PushRecord], instances: [Date], dayStart: Date) -> String {
        let index = instances.lastIndex { $0 <= at }
        let started = index.map { instances[$0] } ?? .distantPast
        let first = !mine.contains { $0.sentAt < at && $0.sentAt >= started }
        return first ? "instance \((index ?? 0) + 1)'s first moment" : "a moment at +\(Int(at.timeIntervalSince(dayStart))) s"
    }

    /// Every deadline an instance set (a held push, a catch-up's decision, a channel's linger) was
    /// acted on when it came due, within ``deadlineSlack``: on virtual time nothing makes the
    /// timer late but a timer that missed it or waited for another game. Deadlines that passed
    /// while no instance ran are the restart's, not counted; one that came due while the game's
    /// own delivery was under way (a slow sink's answer for a push ahead of it) counts from the
    /// delivery's end. Each deadline counts as a check.
    mutating func checkDeadlines(_ metrics: MetricsRecorder) {
        checks += metrics.observed(now: day.start).deadlineLateness.counts.reduce(0, +)
        guard let late = metrics.worstDeadline, late.seconds > Self.deadlineSlack else { return }
        violations.append(
            "game \(late.game): a deadline due at +\(Int(late.due.timeIntervalSince(day.start))) s was acted on "
                + "\((late.seconds * 10).rounded() / 10) s late (a push held past its time)")
    }

    /// How late a deadline may be acted on: 10 ms of virtual time, the moment's width.
    static let deadlineSlack: TimeInterval = 0.01

    /// An instance sends again at most one update of each game's lane that an instance before it
    /// delivered: the one in flight when that instance died. Before the next push goes, the
    /// delivery before it reaches the kernel (``Journal/readyForPush(_:)``), so a crash forgets at
    /// most the last. After a power cut since that delivery, the updates of the lane's last state
    /// delivered before the instance started (an update and its priority-5 copy), and no other: a
    /// delivery is synced with its game's next line that must be, or (live, as the simulated
    /// instances run) before its lane's next push when that shows another state decided before it
    /// (``Journal/syncDeliveriesBeforeTheNextPush(_:)``), so the cut forgets only deliveries of the
    /// state its lane sent last. (Starts and ends are kept until the sink confirms them,
    /// and may go again besides; the sender deduplicates by `apns-id`, so a repeat costs a send,
    /// not a screen.)
    mutating func checkRepeats() {
        guard deliveredAt.count == records.count, instances.count > 1 else { return }
        var first: [String: Int] = [:]
        // Each lane's updates as first delivered, with the instance that delivered them.
        var delivered: [String: [(instance: Int, record: PushRecord)]] = [:]
        var again: [String: (lane: String, since: Int, instance: Int, records: [String: PushRecord])] = [:]
        for (record, at) in zip(records, deliveredAt) where record.event == .update {
            let instance = instances.lastIndex { $0 <= at } ?? 0
            let lane = "game \(record.game) (\(record.platform.rawValue))"
            guard let earlier = first[record.key] else {
                first[record.key] = instance
                delivered[lane, default: []].append((instance, record))
                continue
            }
            if earlier < instance {
                let sender = "\(lane): instance \(instance + 1)"
                var entry = again[sender] ?? (lane, earlier, instance, [:])
                entry.since = min(entry.since, earlier)
                entry.records[record.key] = record
                again[sender] = entry
            }
        }
        checks += instances.count - 1
        for (sender, repeated) in again.sorted(by: { $0.key < $1.key }) {
            let cut = powerCuts.count == instances.count && powerCuts[(repeated.since + 1)...repeated.instance].contains(true)
            guard cut else {
                check(repeated.records.count <= 1, "\(sender) sent again \(repeated.records.count) updates an instance before it delivered (at most the one in flight at a crash)")
                continue
            }
            let last = delivered[repeated.lane]?.last { $0.instance < repeated.instance }?.record
            let older = repeated.records.values.filter { record in last.map { !record.showsSameState(as: $0) } ?? true }
            check(older.isEmpty, "\(sender) sent again \(older.count) update(s) of a state before the last one its lane delivered (after a power cut, at most that state's update and copy)")
        }
    }

    /// No `apns-id` names two bodies.
    mutating func checkIDs() {
        var bodies: [String: Data] = [:]
        for record in records {
            let key = record.key
            if let seen = bodies[key] {
                check(seen == record.payload, "apns-id \(key) names two bodies (game \(record.game) seq \(record.seq))")
            } else {
                bodies[key] = record.payload
                checks += 1
            }
        }
    }
}

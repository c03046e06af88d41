import Foundation
import ScoreFeedModel

/// Runs simulated live days (``SimulatedDay``) through the real live layer on virtual time: each
/// instance a ``GameService`` under ``LiveService`` on the system clock mode, its wall clock a
/// ``SimulatedClock``; `poll` games through ``LivePoller`` against a ``SimulatedCDN``, `serve`
/// games as input lines; pushes through a ``ResilientSink`` into a ``SimulatedSender``; crashes,
/// torn journals and lost state directories between instances. Then it checks the day's
/// invariants (``SimulationInvariants``). The same day gives the same records, byte for byte.
public enum Simulation {
    /// What one day gave.
    public struct Outcome: Sendable {
        public var day: Int
        public var seed: UInt64
        public var mode: PushRenderer.Mode
        /// Every lane's platform.
        public var platforms: [PushRenderer.Platform]
        /// The first lane's (the only one's, on one platform).
        public var platform: PushRenderer.Platform { platforms[0] }
        public var games: Int
        public var faults: [String: Int]
        /// Invariant checks made, and those that failed (one line each).
        public var checks: Int
        public var violations: [String]
        /// What the sender delivered, in order (emptied once handed on by
        /// ``Simulation/run(_:each:)``).
        public var records: [PushRecord]
        /// How many records the sender delivered.
        public var pushes: Int
        public var instances: Int
        /// Simulated seconds from the day's start to its end.
        public var simulatedSeconds: Double
        /// CDN answers by kind.
        public var answers: [String: Int]
        /// What the pollers told, in order, with the instance (from 1) that told it.
        public var reports: [Told]
        /// Channels the sender made, by game (broadcast mode).
        public var channelsMade: [String: Int]
        /// When each instance started.
        public var instanceStarts: [Date]
        /// The games whose checkpoint each instance found damaged.
        public var damagedCheckpoints: [[String]]
        /// Jobs the day's instances ran (``SimulationExecutor/run(on:until:jobs:shuffling:steps:atDiskStep:killed:_:)``).
        public var steps: Int
        /// Kills that landed inside a change to the disk (``SimulatedDay/Restart/atDiskStep``).
        public var killsInsideWrites = 0
        /// Devices that failed at a snapshot's rename (``SimulatedDay/Restart/failsTheDevice``).
        public var devicesFailed = 0
    }

    /// One thing a poller told (``LivePoller/Report``), and when.
    public struct Told: Sendable {
        public var instance: Int
        public var at: Date
        public var report: LivePoller.Report
    }

    /// Seconds past the day's start by which its last instance must have finished.
    public static let dayLimit: TimeInterval = 40 * 3600

    /// How far apart pushes may be and still count as one moment for the join rule: 10 ms, so a
    /// backlog `serve` reads in parts a millisecond apart is checked as the one catch-up it is.
    public static let defaultMoment: TimeInterval = 0.01

    /// How long an instance's drain waits, once its input has ended, for what is due and for
    /// the sender's and the disk's trouble to pass (`serve`'s default `--drain-timeout`).
    public static let drainTimeout: TimeInterval = 600

    /// Runs `day` with its state directories under `root` (removed after). Blocks the calling
    /// thread: call it from a thread of its own. `moment`: see ``defaultMoment``. `shuffled`: the
    /// tasks ready at one instant run in a seeded order of the day's (``SimulationExecutor``), not
    /// in the order they became ready.
    public static func run(_ day: SimulatedDay, stateRoot root: URL, moment: TimeInterval = defaultMoment, shuffled: Bool = true) -> Outcome {
        // (Its kills' moments as they came: a kill at a step of the disk comes at that step.)
        var day = day
        // A directory of its own: runs of the same day side by side never share one.
        let name = "scorefeed-day-\(day.seed)-\(day.index)-\(day.platformName)-\(day.mode == .token ? "token" : "broadcast")-\(UUID().uuidString)"
        let base = root.appendingPathComponent(name)
        defer { try? FileManager.default.removeItem(at: base) }
        var random = SeededRandom(seed: day.seed ^ UInt64(day.index) &* 0xA24B_AED4_963E_E407)
        var clock = SimulatedClock(day.start)
        let cdn = SimulatedCDN(day: day, clock: clock)
        let sender = SimulatedSender(faults: day.sink, seed: day.seed &+ UInt64(day.index), clock: clock)
        var directory = base.appendingPathComponent("state-0")
        var instances: [Instance] = []
        var violations: [String] = []
        let told = Reports(planned: day.diskFaultCodes)
        // Every instance's engines tell it how late they acted on their deadlines.
        let metrics = MetricsRecorder()
        var from = day.start
        var steps = 0
        var stops: [SimulatedDay.Restart?] = day.restarts.map { $0 } + [nil]
        // Runs put in before a planned stop (below).
        var runsAgain = 0
        var number = -1
        var killed: Date?
        // Whether the next instance starts on an empty directory: the stop that ended the last
        // one lost it (not the last stop scheduled before the next start: stops that fall while
        // no instance runs are skipped).
        var handedEmpty = false
        // Whether the stop that ended the last one was a power cut (``PowerCut``).
        var handedCut = false
        // What the disk holds for good of the directory the next instance starts on, when a kill
        // (not a power cut) or a clean stop left it: the kernel kept the rest, and a later power
        // cut may still lose it. Nil: everything there is on the disk (the day's first instance,
        // one after a power cut or on a lost directory).
        var durableBefore: (tracker: PowerCut, directory: URL)?
        // The game whose checkpoint the next instance finds damaged (``SimulatedDay/Restart/damagedCheckpoint``).
        var handedDamaged: Set<String> = []
        // The day's last instance finished on its own (not cut short or stuck).
        var finished = false
        // A run was put in for APNs' channel service alone (a channel request it never answered).
        var rerunForChannels = false
        // The day's last run stopped while the sender was down or the disk full (or APNs' channel
        // service was down too long within its drain, channel work owed): when its input
        // ended, when it stopped, and the records sent by then, by their ids (``PushRecord/key``: a
        // new one the run after it sends was owed; one sent again, an end whose delivery was not
        // confirmed, was not).
        var owed: (inputEnded: Date, stopped: Date, sent: Set<String>, open: Set<String>)?
        // When kills that waited for a write came inside it, and the planned stops that fell while
        // no instance ran (for a failure's line).
        var killedInsideWrites: Set<Date> = [], skipped: Set<Date> = []
        // The planned stops (by their place in the day's) whose device failed at a rename
        // (``SimulatedDay/Restart/failsTheDevice``).
        var failedDevices: Set<Int> = []
        // The instances (from 1) that stopped on their own, their input over and their drain
        // done, and another ran after them on their state directory: when each stopped.
        var cleanStops: [Int: Date] = [:]
        /// A signalled stop's downtime, as the checks read it: from its signal to `nextStart`
        /// (the instance exits, or is killed, after the signal).
        func signalledStopEnds(_ stop: SimulatedDay.Restart, nextStart: Date) {
            guard stop.signalled, let index = day.restarts.firstIndex(of: stop) else { return }
            day.restarts[index].downFor = nextStart.timeIntervalSince(stop.at)
        }
        while number + 1 < stops.count {
            number += 1
            let stop = stops[number]
            // The run after the day's last, once the sender is back (below).
            let rerun = number > day.restarts.count + runsAgain
            if let stop, stop.at <= from {
                skipped.insert(stop.at)
                continue
            }
            clock = SimulatedClock(from)
            cdn.use(clock)
            sender.serve(clock)
            let next = base.appendingPathComponent("state-\(number + 1)")
            let jitter = random.next()
            let started = from
            let instance = instances.count + 1
            // A signalled instance has its grace to exit; any other is killed at its stop.
            let limit = stop.map { $0.signalled ? $0.at.addingTimeInterval(SimulatedDay.Restart.signalGrace) : $0.at }
                ?? day.start.addingTimeInterval(dayLimit)
            let damagedHere = handedDamaged
            handedDamaged = []
            /// The next instance's state directory: this one's as it stands (torn or not, a game's
            /// checkpoint damaged or not), or an empty one when the machine was lost.
            // What is on the disk for good, told of each sync from the instance's start; a power
            // cut keeps only that.
            let durable = durableBefore.map { PowerCut(directory: directory, after: $0.tracker, in: $0.directory) } ?? PowerCut(directory: directory)
            let powerCut = stop?.powerCut == true ? durable : nil
            func handOver(_ stop: SimulatedDay.Restart, tearing: UInt64?, cut: PowerCut? = nil) {
                try? FileManager.default.createDirectory(at: next, withIntermediateDirectories: true)
                guard !stop.lostState else { return }
                copy(directory, to: next, tearing: tearing, cut: cut)
                if stop.damagedCheckpoint, let game = damage(next, of: day.games.map(\.game.id), choosing: jitter) { handedDamaged = [game] }
            }
            let kill = { [directory] in
                told.killed(instance)
                durable.stop()
                sender.cutOff()
                if let stop { handOver(stop, tearing: stop.tornJournal ? jitter : nil, cut: powerCut) }
                // Killed: nothing it writes from now on lands anywhere (its shutdown still runs,
                // as the work must end, but finds no directory and encodes no snapshot).
                try? FileManager.default.removeItem(at: directory)
            }
            // A kill inside a change to the disk: from the stop's moment, at its chosen step.
            // It waits no longer than the next instance may start before the next planned stop.
            let diskKill = stop.flatMap { stop in
                stop.atDiskStep.map { step in
                    let next = day.restarts.lazy.map(\.at).filter { $0 > stop.at }.min()
                    let wait = stop.failsTheDevice ? DiskStepKill.defaultWithinForARename : DiskStepKill.defaultWithin
                    let gap = next.map { $0.timeIntervalSince(stop.at) - stop.downFor - 1 } ?? wait
                    return DiskStepKill(
                        from: stop.at, step: step, within: max(0, min(wait, gap)), game: stop.writesOfGame,
                        failsTheDevice: stop.failsTheDevice, clock: clock, kill: kill)
                }
            }
            let ending = SimulationExecutor.run(
                on: clock, until: limit, jobs: random.below(40), shuffling: shuffled ? jitter ^ 0x5DEE_CE66_D1CE_5EED : nil, steps: &steps,
                atDiskStep: diskKill, killed: kill
            ) { [clock, directory, day] in
                await runInstance(
                    day, started: started, clock: clock, state: directory, cdn: cdn, sender: sender, seed: jitter, metrics: metrics,
                    diskStep: diskKill.map { diskKill in { @Sendable path in diskKill.diskStep(path) } },
                    deviceFailed: diskKill.flatMap { diskKill in diskKill.failsTheDevice ? { @Sendable in diskKill.deviceFailed } : nil },
                    durable: { @Sendable path, change in durable.record(path, change) },
                    report: { report in told.add(Told(instance: instance, at: clock.now, report: report)) },
                    restoredCheck: { lost in told.restored(lost.map { "instance \(instance): \($0)" }) },
                    problems: { problems in told.hostErrors(problems, instance: instance) },
                    inputEnded: { told.inputEnded(instance, at: clock.now) },
                    linesRead: { games, at in told.read(games, at: at) }, signal: stop.flatMap { $0.signalled ? $0 : nil })
            }
            if let firedAt = diskKill?.firedAt { killedInsideWrites.insert(firedAt) }
            if let stop, diskKill?.deviceFailed == true, let index = day.restarts.firstIndex(of: stop) { failedDevices.insert(index) }
            let stopped: Date
            if case .timedOut(_, let at) = ending { stopped = at } else { stopped = clock.now }
            instances.append(Instance(
                started: started, stopped: max(started, stopped), lostStateBefore: handedEmpty, lostGamesBefore: damagedHere,
                killedBefore: killed, powerCutBefore: handedCut))
            switch ending {
            case .finished:
                guard let stop else {
                    finished = true
                    from = clock.now
                    // The sender was down, or the disk full, when the day's last run stopped
                    // (its drain gave up: `poll --today` exits 75): what it could not send (a
                    // final) goes out when the service runs again on its state directory once the
                    // sender is back and the disk has room, as an operator's next run would (a
                    // final the full disk kept from the journal is read from the feed again). So
                    // does a channel delete that APNs' channel service, down past the drain's
                    // timeout, never answered, and a create it failed: that game's pushes (a
                    // game joined after its final, all of it) wait for its channel (seed 21, day
                    // 20: a final never sent). Pushes that need no channel work do not wait for the
                    // channel service (an Android lane's, an iOS lane's on a channel still open):
                    // the run once the sender and the disk are back waits it out in its drain, or
                    // one more run once the channel service is back does what it left (seed 24,
                    // day 29, broadcast, ios,android: the Android final waited 7 min past the
                    // disk's trouble for the channel service).
                    // The channel service may be back before the drain ends and still have cost it
                    // the time its work needed: a create answered near the drain's end leaves a
                    // linger that outlasts it (seed 1, day 7 on real games, broadcast: a game
                    // whose damaged checkpoint had it joined again after its final). Only an
                    // outage whose end left the work too little of the drain: a retry's wait and
                    // the linger.
                    let channelsOwed = !sender.openChannels.isEmpty || !sender.createsFailed.isEmpty
                    let inputEnded = told.inputEnd(of: instance) ?? started
                    let workNeeded = SimulationInvariants.channelRetryTail + SimulatedSender.expectedLinger
                    let channelsDown = channelsOwed
                        ? day.sink.channelOutages.filter {
                            $0.lowerBound <= from && $0.upperBound.addingTimeInterval(workNeeded) > inputEnded.addingTimeInterval(drainTimeout)
                        }.map(\.upperBound).max().map { max($0, from) } : nil
                    let pushesBack = rerun ? nil : day.troublesOver(at: from)
                    if let back = pushesBack ?? (rerunForChannels ? nil : channelsDown) {
                        if !rerun { owed = (inputEnded, from, Set(sender.records.map(\.key)), sender.openChannels) }
                        cleanStops[instance] = from
                        rerunForChannels = pushesBack == nil
                        stops.append(nil)
                        from = back.addingTimeInterval(1)
                        killed = nil
                        handedEmpty = false
                        handedCut = false
                        durableBefore = (durable, directory)
                        continue
                    }
                    break
                }
                // Done before its planned end while the sender was down or the disk full (its
                // drain gave up: exit 75): the service runs again on its state directory once they
                // are back, as an operator's next run would, until the planned stop (seed 8, day
                // 468 of 500 on Android: the final waited 17 min past the disk's trouble for it).
                if let back = day.troublesOver(at: clock.now), back.addingTimeInterval(1) < stop.at {
                    cleanStops[instance] = clock.now
                    stops.insert(stop, at: number + 1)
                    runsAgain += 1
                    from = back.addingTimeInterval(1)
                    killed = nil
                    handedEmpty = false
                    handedCut = false
                    durableBefore = (durable, directory)
                    continue
                }
                // Done before its planned end: the next instance still starts then (a day's
                // `poll --today` run again), on the state this one left. One asked to stop too,
                // when its sender answers at once: on a slow sender's day a request in flight at
                // the signal is cut short, its answer never read, and the next run sends it again
                // under its `apns-id` (seed 1, day 11, an end on a sender that answers in up to
                // 5 s, signalled 3 s before its exit).
                if !stop.lostState, !stop.damagedCheckpoint, !stop.signalled || day.sink.slowest == 0 {
                    cleanStops[instance] = clock.now
                }
                handOver(stop, tearing: nil)
                // (A signalled one exits after its stop: the next starts once it has, which the
                // checks read as the stop's downtime.)
                from = max(stop.at.addingTimeInterval(stop.downFor), clock.now)
                signalledStopEnds(stop, nextStart: from)
                killed = stop.at
                handedEmpty = stop.lostState
                handedCut = false
                durableBefore = stop.lostState ? nil : (durable, directory)
                directory = next
                continue
            case .timedOut(_, let at):
                if stop == nil { violations.append("the day did not finish within \(Int(dayLimit / 3600)) h of its start") }
                // A kill that waited for a step of the disk came when it came: the checks know it then.
                // A signalled one killed at the end of its grace: the checks read its signal and the next start.
                if let stop, at != stop.at, !stop.signalled, let index = day.restarts.firstIndex(of: stop) { day.restarts[index].at = at }
                from = at.addingTimeInterval(stop?.downFor ?? 0)
                if let stop { signalledStopEnds(stop, nextStart: from) }
                killed = stop.map { _ in at }
                handedEmpty = stop?.lostState ?? false
                handedCut = powerCut != nil
                durableBefore = powerCut != nil || stop?.lostState == true ? nil : (durable, directory)
                directory = next
                continue
            case .spinning(let at):
                sender.cutOff()
                violations.append("instance \(instance) spun at \(at.timeIntervalSince(day.start)) s: \(SimulationExecutor.maxJobsPerMoment) steps without time moving (a loop that never waits)")
            case .stuck(let at):
                let dying = diskKill?.firedAt.map { " (killed inside a write at \($0.timeIntervalSince(day.start)) s)" } ?? ""
                violations.append("instance \(instance) got stuck at \(at.timeIntervalSince(day.start)) s\(dying): every task waits for something that never comes")
            }
            break
        }
        // What the last instance's policies booked, read from its state directory (each game in
        // one snapshot since its clean exit): only when the day ended there.
        let booked = finished ? Self.booked(in: directory) : [:]
        // Each lane's records meet what its platform's alone would.
        var checks = 0
        let reads = told.readTimes
        for platform in day.platforms {
            let own = day.platforms.count == 1
                ? Array(sender.records.indices) : sender.records.indices.filter { sender.records[$0].platform == platform }
            var checker = SimulationInvariants(
                day: day.alone(platform), records: own.map { sender.records[$0] },
                deliveredAt: sender.deliveredAt.count == sender.records.count ? own.map { sender.deliveredAt[$0] } : [],
                otherLanes: sender.deliveredAt.count != sender.records.count || day.platforms.count == 1 ? []
                    : sender.records.indices.filter { sender.records[$0].platform != platform }.map { (sender.records[$0], sender.deliveredAt[$0]) },
                instances: instances.map(\.started), lostState: instances.map(\.lostStateBefore), lostGames: instances.map(\.lostGamesBefore),
                kills: instances.map(\.killedBefore), powerCuts: instances.map(\.powerCutBefore),
                openChannels: platform == day.platform ? sender.openChannels.subtracting(sender.deletesRefused) : [], strays: platform == day.platform ? sender.strays : [],
                tried: sender.tried.filter { $0.platform == platform }, moment: moment, booked: platform == .ios ? booked : [:],
                reads: reads, blipped: sender.blipped(on: platform), endRequests: cdn.endRequests, playByPlayNews: cdn.playByPlayNews,
                finalsKnown: cdn.finalsKnown)
            checker.checkAll()
            if platform == day.platform { checker.checkDeadlines(metrics) }
            checks += checker.checks
            violations += checker.violations.map { day.platforms.count == 1 ? $0 : "\(platform.rawValue): \($0)" }
        }
        // A drain waits out the sender's and the disk's trouble until its timeout (less the
        // longest wait between two tries: a try that would fall past it is not made): a run that
        // stopped sooner must have owed nothing.
        let longestTry = max(SimulatedSender.expectedBackoff.maximum, SimulationInvariants.expectedCheckpointRetry, SimulationInvariants.expectedChannelRetry)
        let unsent = owed.map { owed in sender.records.lazy.filter { !owed.sent.contains($0.key) }.count } ?? 0
        // (A channel left open that the run after it deleted was owed too.)
        let undeleted = owed.map { $0.open.subtracting(sender.openChannels).count } ?? 0
        // A delete also waits for its channel's linger after the end: one the drain cannot see
        // through stays in the checkpoint, and the drain may stop that much sooner.
        let allowance = max(unsent > 0 ? longestTry : 0, undeleted > 0 ? max(longestTry, SimulatedSender.expectedLinger) : 0)
        if let owed, unsent + undeleted > 0, owed.stopped.timeIntervalSince(owed.inputEnded) < drainTimeout - allowance - 1 {
            violations.append(
                "the day's last run stopped \(JSONText.number(owed.stopped.timeIntervalSince(owed.inputEnded))) s after its input ended, the sender or APNs' channel service down or the disk full, and the run after it sent \(unsent) new push(es) and deleted \(undeleted) channel(s): its drain gave up before its \(Int(drainTimeout)) s (less a try's longest wait, or a channel's linger, \(Int(allowance)) s)")
        }
        checks += owed == nil ? 0 : 1
        let repeated = deliveredAgain(after: cleanStops, instances: instances.map(\.started), sender: sender, day: day)
        violations += repeated.violations
        checks += repeated.checks
        let backedOff = sender.triedTooOften(backoff: SimulatedSender.expectedBackoff)
        let lingered = sender.deletedTooSoon(linger: SimulatedSender.expectedLinger)
        // A full disk holds the engines' sends and channel work.
        let disk = SimulationInvariants.diskTroubles(of: day)
        let retried = day.maxChannels == nil
            ? sender.channelsRetriedLate(tail: SimulationInvariants.channelRetryTail, troubles: disk) : (checks: 0, violations: [])
        let blips = day.maxChannels == nil
            ? sender.blipsRetriedLate(tail: SimulationInvariants.blipRetryTail, troubles: disk) : (checks: 0, violations: [])
        let pushBlips = sender.pushBlipsRetriedLate(tail: SimulationInvariants.blipRetryTail, troubles: disk)
        let olderStates = sender.olderStatesSent()
        let outageRetries = sender.retriedLateInOutages(backoff: SimulatedSender.expectedBackoff)
        let capped = day.maxChannels.map { sender.channelsOverCap($0, dayStart: day.start) } ?? (checks: 0, violations: [])
        let granted = grantedLate(day: day, sender: sender, instances: instances.map { $0.started..<$0.stopped }, reads: reads, cdn: cdn, disk: disk)
        violations += told.hostFailures + told.lost + cdn.tooSoon + cdn.olderValidators + backedOff.violations + lingered.violations + retried.violations + blips.violations
            + pushBlips.violations + capped.violations + olderStates.violations + outageRetries.violations + granted.violations
        checks += cdn.retryAftersChecked + cdn.validatorsChecked + backedOff.checks + lingered.checks + retried.checks + blips.checks + pushBlips.checks + capped.checks + olderStates.checks
            + outageRetries.checks + granted.checks
        if !violations.isEmpty {
            // What the day's instances went through, for whoever reads the failure.
            let restarts = day.restarts.enumerated().map { index, restart in
                let write = restart.atDiskStep.map { killedInsideWrites.contains(restart.at) ? " inside write \($0)" : " (write \($0) not reached)" }
                let when = skipped.contains(restart.at) ? " (no instance running)" : restart.failsTheDevice ? "" : write ?? ""
                return "+\(Int(restart.at.timeIntervalSince(day.start))) s\(when)\(restart.failsTheDevice ? failedDevices.contains(index) ? " device failed at a rename" : " (no rename reached)" : "")\(restart.powerCut ? " power cut" : "")\(restart.lostState ? " state lost" : "")\(restart.tornJournal ? " torn" : "")\(restart.damagedCheckpoint ? " checkpoint damaged" : "")\(restart.signalled ? " (SIGTERM, not a kill\(restart.heardNothing ? ", no input before it" : ""))" : "")"
            }
            let spans = { (ranges: [Range<Date>]) in
                ranges.map { "+\(Int($0.lowerBound.timeIntervalSince(day.start)))–\(Int($0.upperBound.timeIntervalSince(day.start))) s" }.joined(separator: ", ")
            }
            let down = spans(day.sink.failing), channelsDown = day.hasChannels ? spans(day.sink.channelOutages) : ""
            violations.append(
                "(instances started \(instances.count); kills \(restarts.isEmpty ? "none" : restarts.joined(separator: ", "))"
                    + "\(down.isEmpty ? "" : "; sender down \(down)")\(channelsDown.isEmpty ? "" : "; channel service down \(channelsDown)")"
                    + "\(day.sink.slowest > 0 ? "; sender's slowest answer \(Int(day.sink.slowest)) s" : ""))")
        }
        return Outcome(
            day: day.index, seed: day.seed, mode: day.mode, platforms: day.platforms, games: day.games.count,
            faults: day.faults, checks: checks + told.restoresChecked, violations: violations, records: sender.records,
            pushes: sender.records.count,
            instances: instances.count, simulatedSeconds: clock.now.timeIntervalSince(day.start), answers: cdn.answers,
            reports: told.all, channelsMade: sender.channelsMade, instanceStarts: instances.map(\.started),
            damagedCheckpoints: instances.map { $0.lostGamesBefore.sorted() }, steps: steps, killsInsideWrites: killedInsideWrites.count,
            devicesFailed: failedDevices.count)
    }

    /// A run that stopped on its own, its disk with room, has its deliveries journaled (its
    /// drain's last try writes what its retries did not): the run after it on its state
    /// directory sends none of them again. One it sends again was taken as never delivered: a
    /// wasted request, and a final's alert shown twice. Not a game whose channel was still open
    /// at the stop: its end is kept until the channel is deleted, and a restart sends it again
    /// for the devices that missed it. `stops`: each such instance (from 1) and when it stopped;
    /// `starts`: every instance's start.
    static func deliveredAgain(after stops: [Int: Date], instances starts: [Date], sender: SimulatedSender, day: SimulatedDay) -> (checks: Int, violations: [String]) {
        let (records, delivered) = (sender.records, sender.deliveredAt)
        guard delivered.count == records.count else { return (0, []) }
        var checks = 0
        var violations: [String] = []
        for (instance, stopped) in stops.sorted(by: { $0.key < $1.key }) where instance < starts.count {
            // The disk had room at the stop, and for the retry's slack before it.
            guard day.diskFault(at: stopped) == nil, day.diskFault(at: stopped.addingTimeInterval(-SimulationInvariants.checkpointRetrySlack)) == nil
            else { continue }
            let (start, next) = (starts[instance - 1], starts[instance])
            let after = instance + 1 < starts.count ? starts[instance + 1] : .distantFuture
            let sent = Set(records.indices.filter { delivered[$0] >= start && delivered[$0] <= stopped }.map { records[$0].key })
            checks += 1
            for index in records.indices where delivered[index] >= next && delivered[index] < after && sent.contains(records[index].key) {
                let record = records[index]
                guard !sender.hasChannelOpen(for: record.game, at: stopped) else { continue }
                violations.append(
                    "game \(record.game): instance \(instance + 1) sent \(record.event.rawValue) seq \(record.seq) again, delivered by instance \(instance), which stopped (on its own or asked to) at +\(Int(stopped.timeIntervalSince(day.start))) s with room on its disk (its delivery not journaled)")
            }
        }
        return (checks, violations)
    }

    /// The iOS lane's booked priority 10s of each game in `directory` (``SimulationInvariants/checkBooked()``).
    static func booked(in directory: URL) -> [String: SimulationInvariants.Booked] {
        guard let store = try? CheckpointStore(directory: directory), let entries = try? store.readAll() else { return [:] }
        var booked: [String: SimulationInvariants.Booked] = [:]
        for entry in entries {
            guard let session = try? GameSession.read(entry.data, journal: entry.journal, file: entry.file.path) else { continue }
            for lane in session.lanes where lane.platform == .ios {
                guard let coalescer = lane.policy as? Coalescer else { continue }
                booked[session.attributes.gameId] = .init(now: session.now, spent: coalescer.budget.spent + coalescer.beyond.spent)
            }
        }
        return booked
    }

    /// On a day with `--max-channels` whose creates APNs never refuses, games that waited for
    /// a channel while fewer than the cap were open (``SimulatedSender/channelsGrantedLate(cap:handed:instances:troubles:slack:grace:dayStart:)``):
    /// a game is handed to an instance by its `serve` lines (`reads`) or its poller's news. The
    /// sender's, the disk's and the channel service's troubles hold the work that frees a
    /// channel, each with the retries' longest wait after it. So does a create a blip failed: it
    /// is tried again after the sink's backoff, behind its game's sends to a slow sender, as
    /// ``SimulatedSender/blipsRetriedLate(tail:troubles:)`` holds it where no cap is set (seed
    /// 239, day 158, broadcast on ios,android, a sender answering in up to 27 s: a game joined
    /// after its final, its first create failed by a blip, tried again 47 s later, once its
    /// Android start and end had gone).
    static func grantedLate(
        day: SimulatedDay, sender: SimulatedSender, instances: [SimulatedSender.Span], reads: [String: [Date]], cdn: SimulatedCDN,
        disk: [Range<Date>]
    ) -> (checks: Int, violations: [String]) {
        guard let cap = day.maxChannels, day.hasChannels, day.sink.channelRefusals == 0 else { return (0, []) }
        let handed = reads.merging(cdn.playByPlayNews) { ($0 + $1).sorted() }
        let tail = SimulationInvariants.channelRetryTail
        let blips = sender.channelBlipped.map { $0..<$0.addingTimeInterval(SimulationInvariants.blipRetryTail + 5 * day.sink.slowest) }
        let troubles = (day.sink.failing(.ios) + day.sink.gameFailing.map(\.during) + day.sink.channelOutages + day.sink.deleteRefusals + disk)
            .map { $0.lowerBound..<$0.upperBound.addingTimeInterval(tail) } + blips
        return sender.channelsGrantedLate(
            cap: cap, handed: handed, instances: instances, troubles: troubles, slack: grantSlack + day.sink.slowest, grace: tail,
            dayStart: day.start)
    }

    /// How long a game may wait for its channel once fewer than the cap are open: a create goes
    /// as soon as the service hears of the delete that freed one.
    static let grantSlack: TimeInterval = 10

    private struct Instance {
        var started: Date
        /// When it stopped: its drain over, or killed.
        var stopped: Date
        var lostStateBefore: Bool
        /// Games whose checkpoint it found damaged.
        var lostGamesBefore: Set<String>
        /// When the instance before it was killed (nil for the first, and for the run once the
        /// sender is back).
        var killedBefore: Date?
        /// That kill was a power cut (``SimulatedDay/Restart/powerCut``).
        var powerCutBefore = false
    }

    /// The state directory as a crash left it: `from`'s files in `to`, cut back to what was
    /// synced when `cut` is given (a power cut), then one journal's last line torn (a prefix of it
    /// appended) when `tearing` is given.
    static func copy(_ from: URL, to: URL, tearing: UInt64?, cut powerCut: PowerCut? = nil) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: from.path))?.sorted() ?? []
        for file in files {
            try? FileManager.default.copyItem(at: from.appendingPathComponent(file), to: to.appendingPathComponent(file))
        }
        powerCut?.cut(to, of: from)
        guard let tearing else { return }
        let journals = ((try? FileManager.default.contentsOfDirectory(atPath: to.path))?.sorted() ?? []).filter { $0.hasSuffix(".journal") }
        guard !journals.isEmpty else { return }
        let url = to.appendingPathComponent(journals[Int(tearing % UInt64(journals.count))])
        guard let data = try? Data(contentsOf: url), data.count > 1 else { return }
        // The last line that is not empty (`split(separator:)`'s last), found without splitting all.
        let pieces = Journal.pieces(of: data)
        guard let lastRange = pieces.last(where: { !$0.isEmpty }) else { return }
        let last = data[lastRange]
        guard last.count > 1 else { return }
        let cut = 1 + Int((tearing / 7) % UInt64(last.count - 1))
        var torn = data
        torn.append(contentsOf: last.prefix(cut))
        try? torn.write(to: url)
    }

    /// Damages the checkpoint of one of `games` in `directory` (one that has one, chosen by
    /// `choosing`): only the first half of its snapshot's bytes is left, which no reader takes, or
    /// (one in two) the snapshot is whole but in a format this version does not read, as a newer
    /// version's after a rollback (its numbers still readable:
    /// ``GameSession/salvageNumbering(_:)``); when it has no snapshot yet, the second quarter of
    /// its journal's base is lost. Returns the game, or nil when none has a checkpoint there.
    static func damage(_ directory: URL, of games: [String], choosing: UInt64) -> String? {
        guard let store = try? CheckpointStore(directory: directory) else { return nil }
        func hasSnapshot(_ game: String) -> Bool { FileManager.default.fileExists(atPath: store.url(for: game).path) }
        let kept = games.filter { hasSnapshot($0) || CheckpointStore.size(of: store.journalURL(for: $0)) > 0 }
        guard !kept.isEmpty else { return nil }
        let game = kept[Int((choosing / 11) % UInt64(kept.count))]
        if hasSnapshot(game) {
            let url = store.url(for: game)
            guard let data = try? Data(contentsOf: url) else { return nil }
            // (The format as the restore reads it, then written as a version after this one's newest.)
            if (choosing / 13) % 2 == 1, let format = GameSession.format(of: data) ?? nil,
               let found = data.firstRange(of: Data("\"format\":\(format)".utf8)) {
                var newer = data
                newer.replaceSubrange(found, with: Data("\"format\":\(GameSession.checkpointFormat + 1)".utf8))
                try? newer.write(to: url)
            } else {
                try? data.prefix(data.count / 2).write(to: url)
            }
        } else {
            // A game with no snapshot yet: the second quarter of its journal's first line, its
            // base, is lost (the lines after it are whole).
            let url = store.journalURL(for: game)
            guard var data = try? Data(contentsOf: url) else { return nil }
            let first = (data.firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex) - data.startIndex
            data.replaceSubrange(first / 4..<first / 2, with: Data(repeating: UInt8(ascii: "#"), count: first / 2 - first / 4))
            try? data.write(to: url)
        }
        return game
    }

    /// One instance of the service: restores its state directory, then follows the day's games
    /// (pollers for `poll` games, the input lines of `serve` games) until they are over.
    static func runInstance(
        _ day: SimulatedDay, started: Date, clock: SimulatedClock, state: URL, cdn: SimulatedCDN, sender: SimulatedSender,
        seed: UInt64, metrics: MetricsRecorder, diskStep: CheckpointStore.DiskStep? = nil, deviceFailed: (@Sendable () -> Bool)? = nil,
        durable: CheckpointStore.Durable? = nil,
        report: @escaping @Sendable (LivePoller.Report) -> Void, restoredCheck: @Sendable (_ lost: String?) -> Void = { _ in },
        problems: @escaping @Sendable ([ScoreFeedError]) -> Void = { _ in },
        inputEnded: @escaping @Sendable () -> Void = {}, linesRead: @escaping @Sendable (_ games: Set<String>, _ at: Date) -> Void = { _, _ in },
        signal: SimulatedDay.Restart? = nil
    ) async {
        let random = Jitter(seed: seed)
        let sink = HandOffRecorder(inner: ResilientSink(sender, clock: clock, random: random.next), sender: sender)
        // Broadcast: a channel per game, kept the default linger after its end.
        var renderer = PushRenderer.Configuration(mode: day.mode)
        renderer.platform = day.platform
        renderer.start = day.startsActivities
        // Each lane has its policy's configuration: the day's least time between pushes is set on each.
        let otherLanes = day.platforms.dropFirst().map { _ in
            var lane = PlatformLane.Options.android(beside: renderer)
            lane.policy.minInterval = day.minInterval
            return lane
        }
        let service: GameService
        do {
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            // What the restore is about to read loses nothing of what each checkpoint holds.
            let saved = Self.checkpointsLost(in: state)
            for _ in 0..<(saved.checked - saved.lost.count) { restoredCheck(nil) }
            for lost in saved.lost { restoredCheck(lost) }
            // The directory's identity (its channels' owner) from the seed, not at random.
            let identity = state.appendingPathComponent(CheckpointStore.identityFileName)
            if !FileManager.default.fileExists(atPath: identity.path) {
                let id = UUID(uuid: withUnsafeBytes(of: (seed, ~seed)) { bytes in
                    (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], 0x40 | bytes[6] & 0x0F, bytes[7],
                     0x80 | bytes[8] & 0x3F, bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
                })
                try Data("\(id.uuidString)\n".utf8).write(to: identity)
            }
            var options = GameService.Options(
                clock: .system, coalescer: day.coalescer, renderer: renderer, stateDirectory: state,
                channels: .init(manage: day.hasChannels, maxChannels: day.maxChannels ?? ChannelManagement().maxChannels, deleteUnknown: true),
                metrics: metrics, wallClock: clock)
            options.otherLanes = otherLanes
            if !day.diskFaults.isEmpty || deviceFailed != nil {
                options.diskFault = { [clock] in deviceFailed?() == true ? EIO : day.diskFault(at: clock.now) }
            }
            options.diskStep = diskStep
            options.durable = durable
            service = try GameService(options: options, sink: sink)
            let durable = Self.durableInputs(in: state)
            for (game, restored) in try await service.restore().inputs {
                guard let held = durable[game] else { continue }
                restoredCheck(restored == held ? nil : "game \(game): the restart restored \(restored) of its inputs, its checkpoint holds \(held) whole")
            }
        } catch {
            return
        }
        let live = LiveService(service, drainTimeout: drainTimeout)
        // A stop asked for (SIGTERM) at `signal`'s moment.
        var stopRequests: (@Sendable () async -> Void)?
        if let asked = signal?.at { stopRequests = { try? await clock.sleep(until: asked) } }
        _ = await live.run(input: {
            // No input before the stop (``SimulatedDay/Restart/heardNothing``): it comes first.
            if let signal, signal.heardNothing {
                try? await clock.sleep(until: signal.at.addingTimeInterval(1))
                if Task.isCancelled { return }
            }
            await withTaskGroup(of: Void.self) { group in
                for plan in day.games where plan.path == .poll {
                    var poller = LivePoller(
                        gameId: plan.game.id, playByPlay: SimulatedCDN.playByPlay(plan.game.id),
                        boxscore: SimulatedCDN.boxscore(plan.game.id), interval: day.pollInterval,
                        notBefore: max(plan.tipOff.addingTimeInterval(-600), plan.join ?? .distantPast, started),
                        announced: plan.game.attributes, tipOff: plan.tipOffKnown ? plan.tipOff : nil)
                    poller.clock = clock
                    poller.random = random.next
                    group.addTask { [poller] in await poller.run(service: service, fetcher: cdn, report: report) }
                }
                let serve = day.games.filter { $0.path == .serve }
                if !serve.isEmpty { group.addTask { await feed(serve, to: service, from: started, clock: clock, read: linesRead, problems: problems) } }
            }
            inputEnded()
        }, stopRequests: stopRequests)
    }

    /// `serve`'s input: each game's lines when they appear, a game joined late (or an instance
    /// started late) getting what it missed at once, in its number of batches, and a stalled
    /// input's lines at once when it flushes (``input(of:from:)``).
    static func feed(
        _ games: [SimulatedDay.Game], to service: GameService, from started: Date, clock: SimulatedClock,
        read: @Sendable (_ games: Set<String>, _ at: Date) -> Void = { _, _ in }, problems: @Sendable ([ScoreFeedError]) -> Void = { _ in }
    ) async {
        // (A game's arrivals at one moment keep their order: its backlog's parts come first.)
        var arrivals: [(at: Date, order: Int, place: Int, line: Data)] = []
        for (index, plan) in games.enumerated() {
            let lines = plan.game.lines
            arrivals += input(of: plan, from: started).enumerated().map { place, arrival in
                let (at, places) = arrival
                return (at, index, place, places.count == 1 ? lines[places[0]].line : places.reduce(into: Data()) { $0.append(lines[$1].line) })
            }
        }
        arrivals.sort { ($0.at, $0.order, $0.place) < ($1.at, $1.order, $1.place) }
        var splitter = LineReader.Splitter(limit: 65_536)  // serve's default --max-line-bytes
        var index = 0
        while index < arrivals.count {
            try? await clock.sleep(until: arrivals[index].at)
            if Task.isCancelled { return }
            // What arrived by now (more than one moment's lines when the service was busy past
            // them: serve's reader hands what waits as one), split and parsed as serve's reader does.
            let now = max(clock.now, arrivals[index].at)
            var batch: [StreamLine] = []
            var readNow: Set<String> = []
            while index < arrivals.count, arrivals[index].at <= now {
                arrivals[index].line.withUnsafeBytes { buffer in splitter.feed(buffer) { batch.append(StreamLine($0, source: "simulated input")) } }
                readNow.insert(games[arrivals[index].order].game.id)
                index += 1
            }
            read(readNow, now)
            problems(await service.handle(batch: batch, source: "simulated input"))
        }
    }

    /// What `serve` reads of `plan`'s lines (by their places in the game's lines) in an instance
    /// started at `started`, and when: each line when it appears, what appeared before the
    /// instance started (or before the game was joined) at once, in the game's number of batches
    /// a millisecond apart, and what appeared in a stall of the input at its end, at once (a
    /// restart or a join within a stall takes what it held into its backlog).
    static func input(of plan: SimulatedDay.Game, from started: Date) -> [(at: Date, lines: [Int])] {
        let joined = max(plan.join ?? .distantPast, started)
        var input: [(at: Date, lines: [Int])] = []
        var backlog: [Int] = []
        var held = [[Int]](repeating: [], count: plan.stalls.count)
        for (number, (offset, _)) in plan.game.lines.enumerated() {
            // The header comes at tip-off, the events as they happen.
            let at = number == 0 ? plan.tipOff : plan.firstAction.addingTimeInterval(offset)
            if at <= joined {
                backlog.append(number)
            } else if let stall = plan.stalls.firstIndex(where: { $0.lowerBound <= at && at <= $0.upperBound }) {
                held[stall].append(number)
            } else {
                input.append((at, [number]))
            }
        }
        // A stall flushes its lines in the order they appeared (a real feed's times can fall
        // out of the lines' order), as live lines are read.
        // (Callers order what this returns by time.)
        let lines = plan.game.lines
        let flushed = zip(plan.stalls, held).filter { !$0.1.isEmpty }.map { stall, numbers in
            (stall.upperBound, numbers.sorted { (lines[$0].offset, $0) < (lines[$1].offset, $1) })
        }
        // The backlog's parts go a millisecond apart, and all of them before the game's next line:
        // one stream carries a game's backlog before its live lines (a live line read between two
        // parts would put a later period before an earlier one's events, which the service
        // rejects as out of order). The last part is the backlog's last line alone: what the
        // instance missed (its backlog's last lines) comes in two parts when it missed more than
        // one, and the first of them may follow parts it had heard before (a restarted serve's
        // input sent again from its start), which are no catch-up of their own.
        func split(_ lines: ArraySlice<Int>, in count: Int) -> [[Int]] {
            let size = max(1, (lines.count + count - 1) / count)
            return stride(from: lines.startIndex, to: lines.endIndex, by: size).map { Array(lines[$0..<min(lines.endIndex, $0 + size)]) }
        }
        let pieces = plan.backlogBatches > 1 && backlog.count > plan.backlogBatches
            ? split(backlog.dropLast(), in: plan.backlogBatches - 1) + [[backlog[backlog.count - 1]]]
            : split(backlog[...], in: plan.backlogBatches)
        let next = (input.map(\.at) + flushed.map(\.0)).min()
        let apart = next.map { min(1e-3, $0.timeIntervalSince(joined) / Double(max(1, pieces.count))) } ?? 1e-3
        let parts = pieces.enumerated().map { part, lines in (joined.addingTimeInterval(Double(part) * apart), lines) }
        return parts + input + flushed
    }

    /// What the pollers of a day told, from the tasks of one instance at a time.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var told: [Told] = []

        private var losses: [String] = []
        private var restores = 0

        func add(_ one: Told) {
            if case .problem(let problem) = one.report { hostErrors([problem], instance: one.instance) }
            lock.withLock { told.append(one) }
        }

        private var host: [String] = []
        private var killedInstances: Set<Int> = []
        /// The day's planned disk faults' errors, as the service words them
        /// (``ScoreFeedError/errnoText(_:)``, from ``SimulatedDay/diskFaultCodes``).
        private let planned: [String]

        init(planned: [Int32] = [ENOSPC]) {
            self.planned = planned.map(ScoreFeedError.errnoText)
        }

        /// Instance `instance` was killed: its directory is gone, and what it fails to write as it
        /// winds down is no host's failure.
        func killed(_ instance: Int) { lock.withLock { _ = killedInstances.insert(instance) } }

        /// Keeps what the service said of a checkpoint it could not write for a cause the day did
        /// not plan (an `errno` but those of its disk faults): the host's (a descriptor closed
        /// under it, a device's error).
        func hostErrors(_ problems: [ScoreFeedError], instance: Int) {
            let unplanned = problems.filter { problem in
                GameService.isCheckpointProblem(problem) && !planned.contains { problem.message.contains($0) }
            }
            guard !unplanned.isEmpty else { return }
            lock.withLock {
                guard !killedInstances.contains(instance) else { return }
                host += unplanned.map { "instance \(instance): a failure the day did not plan, from the host: \($0.message)" }
            }
        }

        /// The host's failures (``hostErrors(_:instance:)``): each is a violation, so a day broken by
        /// its machine says so rather than passing for the product's fault.
        var hostFailures: [String] { lock.withLock { host } }

        var all: [Told] { lock.withLock { told } }

        /// A game restored at a restart: what it lost of what its checkpoint held, if anything.
        func restored(_ lost: String?) {
            lock.withLock {
                restores += 1
                if let lost { losses.append(lost) }
            }
        }

        var lost: [String] { lock.withLock { losses } }
        var restoresChecked: Int { lock.withLock { restores } }

        private var ends: [Int: Date] = [:]

        /// Instance `instance`'s input (its pollers and its lines) ended at `date`; its drain
        /// begins.
        func inputEnded(_ instance: Int, at date: Date) { lock.withLock { ends[instance] = date } }

        func inputEnd(of instance: Int) -> Date? { lock.withLock { ends[instance] } }

        private var reads: [String: [Date]] = [:]

        /// `serve`'s input handed lines of `games` to the service at `date`.
        func read(_ games: Set<String>, at date: Date) { lock.withLock { for game in games { reads[game, default: []].append(date) } } }

        /// When `serve`'s input handed each game's lines to the service, by game, in order.
        var readTimes: [String: [Date]] { lock.withLock { reads } }
    }

    /// What each game's checkpoint in `directory` holds, read apart from ``Journal``: the inputs
    /// its snapshot counts as journaled, or more when the journal beside it goes on in whole,
    /// checksummed, numbered lines (a torn last line is not whole).
    static func durableInputs(in directory: URL) -> [String: Int] {
        var held: [String: Int] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files where file.hasPrefix("game-") && file.hasSuffix(".json") {
            let url = directory.appendingPathComponent(file)
            guard let data = try? Data(contentsOf: url), let (game, journaled) = gameAndJournaled(data) else { continue }
            var count = journaled
            let journal = (try? Data(contentsOf: CheckpointStore.journalURL(of: url))) ?? Data()
            var next: Int?
            // Every piece but the last ended in a newline.
            for line in Journal.pieces(of: journal).dropLast().map({ journal[$0] }) {
                // Split as bytes, not as a `Data` (read a byte at a time).
                let read = line.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> (first: Int, inputs: Int)? in
                    let fields = bytes.split(separator: UInt8(ascii: " "), maxSplits: 4, omittingEmptySubsequences: false)
                    guard fields.count == 5, let first = Int(String(decoding: fields[0], as: UTF8.self)),
                          next == nil || first == next,
                          UInt64(String(decoding: fields[1], as: UTF8.self), radix: 16)
                            == Journal.checksum(UnsafeRawBufferPointer(rebasing: bytes[(fields[0].count + fields[1].count + 2)...])),
                          let inputs = elements(of: Data(fields[4]))
                    else { return nil }
                    return (first, inputs)
                }
                guard let (first, inputs) = read else { break }
                next = first + inputs
                count = max(count, first + inputs - 1)
            }
            held[game] = count
        }
        return held
    }

    /// A snapshot's game id and its count of inputs journaled (0 when it has none: formats before
    /// 4); nil when it is not a snapshot with a game id.
    static func gameAndJournaled(_ snapshot: Data) -> (game: String, journaled: Int)? {
        let read = JSONScanner.reading(snapshot) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) -> (String?, Int) in
            var game: String?
            var journaled = 0
            if try scanner.beginObject() {
                repeat {
                    let key = try scanner.key()
                    if key.is("journaled") {
                        journaled = try scanner.int()
                    } else if key.is("attributes") {
                        game = try attributesGameId(&scanner)
                    } else {
                        try scanner.skipValue(depth: 1)
                    }
                } while try scanner.nextMember()
            }
            try scanner.end()
            return (game, journaled)
        }
        guard let read, let game = read.0 else { return nil }
        return (game, read.1)
    }

    /// The `gameId` of the snapshot's `attributes` object, which the scanner is at.
    private static func attributesGameId(_ scanner: inout JSONScanner) throws(JSONScanner.Declined) -> String? {
        var game: String?
        guard try scanner.beginObject() else { return nil }
        repeat {
            if try scanner.key().is("gameId") { game = try scanner.string() } else { try scanner.skipValue(depth: 2) }
        } while try scanner.nextMember()
        return game
    }

    /// How many elements the JSON array `bytes` holds; nil when it is not one array.
    static func elements(of bytes: Data) -> Int? {
        JSONScanner.reading(bytes) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) in
            var count = 0
            if try scanner.beginArray() {
                repeat {
                    try scanner.skipValue(depth: 2)
                    count += 1
                } while try scanner.nextElement()
            }
            try scanner.end()
            return count
        }
    }

    /// Seeded 0..<1 draws for jitter, shared by the tasks of one instance (they run one at a time).
    final class Jitter: @unchecked Sendable {
        private let lock = NSLock()
        private var random: SeededRandom

        init(seed: UInt64) { random = SeededRandom(seed: seed) }

        var next: @Sendable () -> Double { { [self] in lock.withLock { random.unit() } } }
    }
}

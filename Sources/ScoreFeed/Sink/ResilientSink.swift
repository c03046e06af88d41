import Foundation

/// Keeps a game going while the sink behind it (a ``WebhookSink``, your push sender) fails.
///
/// `send` never throws because of the inner sink. While the inner sink is failing, records wait
/// in a ``DeliveryQueue``: only the newest state per activity is kept (superseded updates are
/// skipped and counted, receivers see the gap in `seq`), `start` and `end` are never skipped,
/// and each activity's records go out in order. Different activities' go side by side, and so do
/// one activity's iOS and Android records (``DeliveryQueue/lane(of:)``): while the
/// inner sink works, a request it is slow to answer holds no other game's push (after a failover
/// every game's catch-up comes at once, and a broadcast update that waits a minute is past its
/// timestamp), up to ``Options/maxInFlight`` requests at once. Waiting records are retried,
/// after a growing backoff (the sink's, and each activity's own: one record the receiver cannot
/// take holds back only its own activity), by ``run()`` as soon as they are due (no other `send`
/// needed; without it, on the next `send`, which returns once those due were tried, side by side
/// with its own), and by ``flush()``, which a caller runs when its games are
/// over: it waits until everything is delivered or ``Options/giveUpAfter`` has passed, and then
/// throws an error naming what was not delivered. The activities due at once are taken in flight
/// together, before any of their attempts ends: one round, so after an outage the failure of a
/// record the receiver cannot take backs the sink off only once the others were tried.
///
/// The engine need not change: the wrapper is a ``PushSink`` like any other.
public actor ResilientSink: PushSink {
    /// How long to keep trying.
    public struct Options: Hashable, Sendable {
        /// Waits between attempts while the inner sink fails (it already retried on its own).
        public var backoff: Backoff
        /// ``ResilientSink/flush()`` gives up this many seconds after it starts.
        public var giveUpAfter: TimeInterval
        /// The most records sent at once, across activities: past it, an activity's next record
        /// waits for another's request to end (a sender's connections are few, and a request
        /// queued behind them spends its own time-out there).
        public var maxInFlight: Int

        public init(backoff: Backoff = Backoff(initial: 1, maximum: 60), giveUpAfter: TimeInterval = 600, maxInFlight: Int = 32) {
            self.backoff = backoff
            self.giveUpAfter = giveUpAfter
            self.maxInFlight = maxInFlight
        }
    }

    /// Changes worth telling an operator about.
    public enum Event: Hashable, Sendable {
        /// The inner sink started failing; records now wait (newest state per activity).
        case failing(ScoreFeedError)
        /// The inner sink delivered again after failing; `skipped` updates were superseded meanwhile.
        case recovered(skipped: Int)
        /// The receiver refused a record for good; it was dropped.
        case rejected(activity: String, seq: Int, ScoreFeedError)
    }

    /// Counts of what happened.
    public struct Statistics: Hashable, Sendable {
        /// Records the inner sink accepted.
        public var delivered = 0
        /// Updates never sent because a newer state of their activity superseded them.
        public var skipped = 0
        /// Records the receiver refused for good.
        public var rejected = 0
        /// Failed attempts (each after the inner sink's own retries).
        public var failures = 0
        /// Records still waiting.
        public var waiting = 0
    }

    private let inner: any PushSink
    private let options: Options
    private let clock: any EngineClock
    private let random: @Sendable () -> Double
    private let onEvent: @Sendable (Event) -> Void
    private var queue: DeliveryQueue
    private var delivered = 0
    private var failures = 0
    /// Activities whose records a drain is sending.
    private var draining: Set<String> = []
    /// Channel requests that failed in a row, and when the next may be tried.
    private var channelFailures = 0
    private var nextChannelAttempt: Date?
    /// Callers waiting for an activity's drain to end (each also gives up when cancelled).
    private var drainWaiters: [String: [OneShot]] = [:]
    /// Requests the inner sink has under way, and the drains waiting for one to end
    /// (``Options/maxInFlight``).
    private var sending = 0
    private var slotWaiters: [CheckedContinuation<Void, Never>] = []
    /// Signalled when a drain ends, for ``run()``: what waits may now be due at another time.
    private let drainEnded = WakeUp()
    /// Whether ``run()`` runs (one at a time).
    private var running = false

    /// - Parameters:
    ///   - inner: the sink that may fail.
    ///   - options: the waits between attempts and when ``flush()`` gives up.
    ///   - clock: decides when a retry is due and where ``flush()`` waits.
    ///   - random: 0..<1 for the backoff's jitter.
    ///   - onEvent: told when the inner sink starts failing, recovers, or refuses a record.
    public init(
        _ inner: any PushSink, options: Options = Options(), clock: any EngineClock = SystemClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.inner = inner
        self.options = options
        self.clock = clock
        self.random = random
        self.onEvent = onEvent
        self.queue = DeliveryQueue(backoff: options.backoff)
    }

    public var statistics: Statistics {
        Statistics(
            delivered: delivered, skipped: queue.skippedCount, rejected: queue.rejectedCount, failures: failures,
            waiting: queue.waiting.count)
    }

    /// Updates skipped per activity.
    public var skippedByActivity: [String: Int] { queue.skipped }

    /// Queues `record` (superseding older waiting updates of its activity) and delivers what is
    /// due. Returns once it was tried, or at once when its activity's attempts are not due yet;
    /// never throws for the inner sink's failures. While ``run()`` runs, retries are its own: a
    /// send waits only for its own lane's attempt, never for a retry: it returns at once when its
    /// lane failed before or a drain already sends it (so a game's iOS pushes do not wait for its
    /// failing FCM lane's retries; a lane's first failure is still waited for, as a probe).
    public func send(_ record: PushRecord) async throws {
        _ = try await sendReportingSuperseded(record)
    }

    /// ``send(_:)``, returning the waiting updates of `record`'s activity it superseded that were
    /// never tried (one tried and failed may have reached the receiver).
    public func sendReportingSuperseded(_ record: PushRecord) async throws -> [PushRecord] {
        let untried = queue.enqueueReturningUntried(record)
        let lane = DeliveryQueue.lane(of: record)
        guard running else {
            await drainAll { $0 == lane }
            return untried
        }
        // ``run()`` retries what failed as soon as it is due: a caller handing a game's lanes in
        // turn is not held by the slow failures of one of them.
        if draining.contains(lane) || queue.hasFailed(activity: lane) {
            drainEnded.signal()
            return untried
        }
        await drainAll(retryingOthers: false) { $0 == lane }
        return untried
    }

    /// Tries what waits as soon as it is due (the sink's backoff and the activity's own over), not
    /// only on the next `send`: after an outage, a quiet game's last update (a period's end, or
    /// its final while no other game sends) would otherwise wait for some game's next push. It
    /// starts each due activity's drain and goes on (it waits for no drain, its own or another
    /// caller's, until it is cancelled); a drain's end, a delivery that ends the failing, or a
    /// send it leaves to it, wakes it to look again. Returns when the task is cancelled (``LiveService`` does so once
    /// its shutdown delivered what it could), its own attempts under way cut short, or at once
    /// when another run is under way or the clock is a ``ManualClock``, whose sleep moves time.
    public func run() async {
        guard !running, !(clock is ManualClock) else { return }
        running = true
        defer { running = false }
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let now = clock.now
                var next: Date?
                for activity in queue.activities where !draining.contains(activity) {
                    if queue.isDue(activity: activity, now: now) {
                        draining.insert(activity)
                        let first = beginAtOnce(activity)
                        group.addTask { await self.drain(activity, begun: first) }
                        continue
                    }
                    // Not yet due, or due but waiting for a probe's attempt (whose drain's end
                    // wakes this).
                    let due = queue.due(activity: activity)
                    if due > now { next = min(next ?? due, due) }
                }
                if let next { await drainEnded.sleep(on: clock, until: next) } else { await drainEnded.wait() }
            }
        }
    }

    /// Passes the refusal on; a failure to do so is not the game's problem.
    public func refused(_ refusal: PushRefusal) async throws {
        try? await inner.refused(refusal)
    }

    /// The records of `game` still waiting, counted without trying them: for a summary once the
    /// run is over, which must not hold up the exit with more attempts (each up to the inner
    /// sink's own retries and time-outs) after a stop's grace ran out.
    public func waiting(game: String) -> Int {
        queue.waiting.lazy.filter { $0.game == game }.count
    }

    /// The records of `game` still waiting (after trying them again, when an attempt is due; other
    /// games' are left to their own calls, so while the sink fails, an activity of `game` that
    /// failed before waits for another game's that has not, sent by that game's calls, ``run()``
    /// or a flush). While ``run()`` runs, a lane of the game that failed before is counted, not
    /// tried or waited for: its retries are the run's, and the game asks again later.
    public func pending(game: String) async -> Int {
        let mine = Set(queue.waiting.lazy.filter { $0.game == game }.map(DeliveryQueue.lane(of:)))
        await drainAll(retryingOthers: false) { mine.contains($0) && !(running && queue.hasFailed(activity: $0)) }
        return waiting(game: game)
    }

    /// Passes a channel request to the inner sink, which must answer it now (a create's channel
    /// id is needed before the game's broadcasts can go). When the endpoint failed, channel
    /// requests back off like pushes, across games (the endpoint's protection, not a channel
    /// rule: when a delete may go is the game's to decide, from ``pending(game:)``); meanwhile
    /// they fail at once, and the game tries again later.
    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        if let next = nextChannelAttempt, clock.now < next {
            throw ScoreFeedError(.sinkUnavailable, "channel requests wait \(JSONText.number(next.timeIntervalSince(clock.now).rounded(.up))) s more after a failure")
        }
        do {
            let answer = try await inner.manage(request)
            channelFailures = 0
            nextChannelAttempt = nil
            return answer
        } catch {
            channelFailures += 1
            nextChannelAttempt = clock.now.addingTimeInterval(options.backoff.delay(afterFailure: channelFailures, random: random()))
            throw error
        }
    }

    /// ``flush()``, at the end of a run.
    public func finish() async throws {
        try await flush()
    }

    /// Delivers everything waiting, waiting out the backoff between attempts, for at most
    /// ``Options/giveUpAfter`` seconds. Throws `sink-unavailable` naming the records left (an
    /// `end` among them is called out), or when the receiver refused an `end`.
    public func flush() async throws {
        let giveUp = clock.now.addingTimeInterval(options.giveUpAfter)
        while true {
            // Cancelled (a signal while finishing): what waits stays for the next run. A send cut
            // short leaves its record due at once, and a sleep to a time already past returns
            // without looking, so this asks on every round.
            try Task.checkCancellation()
            await drainAll { _ in true }
            guard let next = queue.nextDue, next <= giveUp else { break }
            try await clock.sleep(until: next)
        }
        // Cancelled in the middle of the drain: its sends gave their records back, which is no
        // failure of the sink.
        if !queue.isEmpty { try Task.checkCancellation() }
        let refusedEnds = queue.refusedEnds
        guard queue.isEmpty, refusedEnds.isEmpty else {
            var parts: [String] = []
            if !queue.isEmpty {
                let ends = queue.waiting.filter { $0.event == .end }.map(\.activity)
                parts.append(
                    "\(queue.waiting.count) record\(queue.waiting.count == 1 ? "" : "s") undelivered after \(JSONText.number(options.giveUpAfter)) s"
                        + (ends.isEmpty ? "" : ", including the end of \(ends.joined(separator: ", "))"))
            }
            if !refusedEnds.isEmpty {
                parts.append("the receiver refused the end of \(refusedEnds.joined(separator: ", "))")
            }
            throw ScoreFeedError(.sinkUnavailable, parts.joined(separator: "; "))
        }
    }

    /// Sends the waiting records of the activities with records waiting while attempts are due,
    /// the activities side by side: those `joining` names are sent, or waited for when a drain
    /// already sends them (their caller needs them tried); the others (with `retryingOthers`: what
    /// waits after a failure) only when no drain sends them yet. Each activity is taken before
    /// anything is awaited, so a call arriving meanwhile that joins it waits for its drain.
    private func drainAll(retryingOthers: Bool = true, joining: (String) -> Bool) async {
        var run: [(activity: String, begun: PushRecord?)] = [], join: [String] = []
        for activity in queue.activities {
            if draining.contains(activity) {
                if joining(activity) { join.append(activity) }
            } else if retryingOthers || joining(activity) {
                draining.insert(activity)
                run.append((activity, beginAtOnce(activity)))
            }
        }
        switch (run.count, join.count) {
        case (0, 0): return
        case (1, 0): await drain(run[0].activity, begun: run[0].begun)
        case (0, 1): await waitForDrain(join[0])
        default:
            await withDiscardingTaskGroup { group in
                for (activity, begun) in run { group.addTask { await self.drain(activity, begun: begun) } }
                for activity in join { group.addTask { await self.waitForDrain(activity) } }
            }
        }
    }

    /// Takes `activity`'s oldest waiting record in flight now, with a slot, when an attempt of it
    /// is due and a slot is free (nil: its drain looks again itself). Every activity due at one
    /// look is so begun before any of their attempts ends: they go side by side, one round
    /// (``DeliveryQueue``), also where a sink answers without suspending. Begun in turn, the first
    /// attempt's failure (after an outage, the record of one activity the receiver cannot take)
    /// would back off the sink before the others were tried, and hold every game back for a
    /// record of one (again at every retry it went first).
    private func beginAtOnce(_ activity: String) -> PushRecord? {
        guard sending < max(1, options.maxInFlight), queue.isDue(activity: activity, now: clock.now),
              let record = queue.begin(activity: activity)
        else { return nil }
        sending += 1
        return record
    }

    /// Returns once the drain sending `activity` has finished, or the task is cancelled (a stop
    /// that cuts a flush short does not wait for ``run()``'s attempt under way).
    private func waitForDrain(_ activity: String) async {
        guard draining.contains(activity) else { return }
        let shot = OneShot()
        drainWaiters[activity, default: []].append(shot)
        await shot.wait()
    }

    /// Sends `activity`'s waiting records, in order, while attempts are due, then lets go of the
    /// activity (taken by ``drainAll(retryingOthers:joining:)``) and wakes who waited for it.
    /// `begun`: its first record, already in flight with a slot (``beginAtOnce(_:)``), is tried
    /// first, whatever another activity's attempt did to the sink's backoff meanwhile.
    private func drain(_ activity: String, begun: PushRecord? = nil) async {
        defer {
            draining.remove(activity)
            for waiter in drainWaiters.removeValue(forKey: activity) ?? [] { waiter.fire() }
            // What waits may be due at another time now (a probe's attempt is over); nothing to
            // look at when nothing waits, as after every delivery while the sink works.
            if !queue.isEmpty { drainEnded.signal() }
        }
        if let begun {
            // Cut short before it went (a stop): it waits again, as after an attempt cut short.
            guard !Task.isCancelled else {
                queue.abandoned(activity: activity)
                giveBackSlot()
                return
            }
            let goesOn = await attempt(begun, of: activity)
            giveBackSlot()
            guard goesOn else { return }
        }
        while !Task.isCancelled, queue.isDue(activity: activity, now: clock.now), queue.isWaiting(activity: activity) {
            await takeSlot()
            guard queue.isDue(activity: activity, now: clock.now), let record = queue.begin(activity: activity) else {
                giveBackSlot()
                return
            }
            let goesOn = await attempt(record, of: activity)
            giveBackSlot()
            guard goesOn else { return }
        }
    }

    /// Sends `record`, `activity`'s in flight, and settles it; false when the drain stops (the
    /// sink failed, or the task was cancelled).
    private func attempt(_ record: PushRecord, of activity: String) async -> Bool {
        do {
            try await inner.send(record)
            delivered += 1
            if queue.delivered(activity: activity) {
                onEvent(.recovered(skipped: queue.skippedCount))
                // Every activity's backoff from the sink is over: ``run()`` need not wait for this
                // drain's end to send them.
                drainEnded.signal()
            }
            return true
        } catch let error as ScoreFeedError where error.code == .sinkRejected {
            queue.rejectedInFlight(activity: activity)
            onEvent(.rejected(activity: record.activity, seq: record.seq, error))
            return true
        } catch is CancellationError where Task.isCancelled {
            // Cut short (a stop): not the sink's failure. A sink that throws this uncancelled
            // fails like any other, or the record would be tried again at once, again and again.
            queue.abandoned(activity: activity)
            return false
        } catch {
            let wasFailing = queue.isFailing
            queue.failed(activity: activity, now: clock.now, random: random())
            failures += 1
            if !wasFailing, queue.isFailing {
                onEvent(.failing(error as? ScoreFeedError ?? ScoreFeedError(.sinkUnavailable, "\(error)")))
            }
            return false
        }
    }

    /// Waits until fewer than ``Options/maxInFlight`` requests are under way, and counts one more.
    private func takeSlot() async {
        if sending < max(1, options.maxInFlight) {
            sending += 1
            return
        }
        // The slot is handed over by ``giveBackSlot()``, counted as it was.
        await withCheckedContinuation { slotWaiters.append($0) }
    }

    /// A request ended: its slot goes to the drain that waited longest, or is free.
    private func giveBackSlot() {
        if slotWaiters.isEmpty {
            sending -= 1
        } else {
            slotWaiters.removeFirst().resume()
        }
    }
}

import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel
import Synchronization

@Suite("Resilient delivery: newest state per activity while the sink fails, end never skipped")
struct ResilientSinkTests {
    /// `count` records of one activity: updates with the home score rising, then (optionally) the end.
    static func records(_ activity: String, count: Int, start: Bool = false, end: Bool = true) -> [PushRecord] {
        var renderer = PushRenderer(attributes: Make.attributes, configuration: .init(activity: activity, start: start))
        var state = Make.live
        var records: [PushRecord] = []
        for index in 0..<count {
            let last = end && index == count - 1
            state.homeScore += 2
            if last { state.phase = .final }
            let push = last ? Push(event: .end, priority: 10, alert: .final, reason: "final") : Push(event: .update, priority: 5, reason: "score")
            for output in renderer.outputs(
                for: push, state: state, diff: Diff(), coalesced: 1, sentAt: Make.start.addingTimeInterval(Double(index)),
                sourceTime: nil)
            {
                if case .push(let record) = output { records.append(record) }
            }
        }
        return records
    }

    /// `records` as the same game's Android notification's (its own lane in the sender's queue).
    static func onAndroid(_ records: [PushRecord]) -> [PushRecord] {
        records.map { record in
            var record = record
            record.platform = .android
            return record
        }
    }

    /// A sink that is up or down on command and remembers what it delivered.
    actor SwitchableSink: PushSink {
        var up = true
        var rejectSeqs: Set<Int> = []
        private(set) var delivered: [PushRecord] = []
        private(set) var attempts = 0

        func set(up: Bool) { self.up = up }
        func reject(_ seqs: Set<Int>) { rejectSeqs = seqs }

        func send(_ record: PushRecord) async throws {
            attempts += 1
            if rejectSeqs.contains(record.seq) { throw ScoreFeedError(.sinkRejected, "HTTP 422") }
            guard up else { throw ScoreFeedError(.sinkUnavailable, "connection refused") }
            delivered.append(record)
        }
    }

    @Test func deliversInOrderWhileHealthy() async throws {
        let inner = SwitchableSink()
        let sink = ResilientSink(inner, clock: ManualClock(Make.start))
        let records = Self.records("A", count: 5)
        for record in records { try await sink.send(record) }
        #expect(await inner.delivered.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(await sink.statistics.delivered == 5)
        #expect(await sink.statistics.skipped == 0)
        try await sink.flush()
    }

    @Test func keepsOnlyTheNewestStateWhileFailingAndSendsItWhenBack() async throws {
        let inner = SwitchableSink()
        let clock = ManualClock(Make.start)
        let events = EventLog()
        let sink = ResilientSink(
            inner, options: .init(backoff: Backoff(initial: 10, jitter: 0)), clock: clock, onEvent: { events.append($0) })
        let records = Self.records("A", count: 8)
        try await sink.send(records[0])
        await inner.set(up: false)
        for record in records[1...4] { try await sink.send(record) }       // seq 2 fails, 3…5 wait
        #expect(await sink.statistics.waiting == 1, "only the newest state waits")
        #expect(await inner.attempts == 2, "no attempt before the backoff is due")
        await inner.set(up: true)
        try await sink.send(records[5])                                    // not due yet: waits
        #expect(await inner.delivered.map(\.seq) == [1])
        clock.advance(by: 10)
        try await sink.send(records[6])                                    // due: newest goes out
        try await sink.send(records[7])
        #expect(await inner.delivered.map(\.seq) == [1, 7, 8], "receivers see a gap in seq, never renumbered")
        let statistics = await sink.statistics
        #expect(statistics.skipped == 5)
        #expect(statistics.failures == 1)
        #expect(await sink.skippedByActivity == ["A": 5])
        #expect(events.all.contains { if case .failing = $0 { true } else { false } })
        #expect(events.all.contains(.recovered(skipped: 5)))
    }

    @Test func endAndStartAreNeverSkipped() async throws {
        let inner = SwitchableSink()
        let clock = ManualClock(Make.start)
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 5, jitter: 0)), clock: clock)
        await inner.set(up: false)
        let records = Self.records("A", count: 6, start: true)
        #expect(records.first?.event == .start)
        for record in records { try await sink.send(record) }
        await inner.set(up: true)
        try await sink.flush()
        let delivered = await inner.delivered
        #expect(delivered.map(\.event) == [.start, .end], "the end carries the newest state; updates before it are skipped")
        #expect(delivered.last?.state.phase == .final)
        #expect(await sink.statistics.skipped == records.count - 2)
    }

    @Test func interleavedActivitiesKeepTheirOwnOrder() async throws {
        let inner = SwitchableSink()
        let clock = ManualClock(Make.start)
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 1, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 6), b = Self.records("B", count: 6)
        for (index, pair) in zip(a, b).enumerated() {
            if index == 2 { await inner.set(up: false) }
            if index == 4 { await inner.set(up: true); clock.advance(by: 60) }
            try await sink.send(pair.0)
            try await sink.send(pair.1)
        }
        try await sink.flush()
        let delivered = await inner.delivered
        for activity in ["A", "B"] {
            let seqs = delivered.filter { $0.activity == activity }.map(\.seq)
            #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "\(activity): \(seqs)")
            #expect(seqs.last == 6, "\(activity) ends")
        }
    }

    /// Flushes `sink` and expects it to give up (`sink-unavailable`), naming the end of `game`.
    static func expectFlushGivesUp(
        _ sink: ResilientSink, namingTheEndOf game: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await sink.flush()
            Issue.record("flush should give up", sourceLocation: sourceLocation)
        } catch let error as ScoreFeedError {
            #expect(error.code == .sinkUnavailable, sourceLocation: sourceLocation)
            #expect(error.message.contains("end of \(game)"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("flush threw \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func flushGivesUpWithAnErrorNamingTheEnd() async throws {
        let inner = SwitchableSink()
        let clock = ManualClock(Make.start)
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 1, maximum: 30), giveUpAfter: 300), clock: clock)
        await inner.set(up: false)
        for record in Self.records("GAME9", count: 3) { try await sink.send(record) }
        await Self.expectFlushGivesUp(sink, namingTheEndOf: "GAME9")
        #expect(clock.now.timeIntervalSince(Make.start) <= 300 + 30, "bounded by giveUpAfter (virtual time)")
        #expect(await sink.statistics.waiting == 1)
        // Once the sink is back, a later flush delivers it.
        await inner.set(up: true)
        try await sink.flush()
        #expect(await inner.delivered.map(\.event) == [.end])
    }

    /// A sink that gives up when its task is cancelled, as the webhook does, and is down
    /// otherwise.
    struct CancellableDownSink: PushSink {
        func send(_ record: PushRecord) async throws {
            try Task.checkCancellation()
            throw ScoreFeedError(.sinkUnavailable, "connection refused")
        }
    }

    /// A flush cancelled (a signal while serve finishes) stops at once and keeps what waits; it
    /// never goes round sending the same record again and again until its give-up time (on the
    /// manual clock, which jumps: no wall time, so no time limit, as ``SimulatedClockTests``).
    @Test func aCancelledFlushStopsAndKeepsWhatWaits() async throws {
        let sink = ResilientSink(CancellableDownSink(), options: .init(giveUpAfter: 600), clock: ManualClock(Make.start))
        for record in Self.records("GAME7", count: 2) { try await sink.send(record) }
        let waiting = await sink.statistics.waiting
        #expect(waiting >= 1)
        let flushing = Task { try await sink.flush() }
        flushing.cancel()
        let result = await flushing.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await sink.statistics.waiting == waiting, "what waits is kept")
    }

    /// The summaries at a run's end count what waits without trying it again: after a stop's
    /// grace, `serve` printed them through ``ResilientSink/pending(game:)``, which made one more
    /// attempt for a game whose retry was due, each up to the webhook's own retries and time-outs
    /// (2.4 s more after the grace with a refused connection; tried). ``ResilientSink/pending(game:)``
    /// still tries, for the channel rules that ask it.
    @Test func waitingCountsWithoutTryingAgain() async throws {
        let inner = SwitchableSink()
        let clock = ManualClock(Make.start)
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 5, jitter: 0)), clock: clock)
        await inner.set(up: false)
        for record in Self.records("A", count: 3) + Self.records("B", count: 2) { try await sink.send(record) }
        let tried = await inner.attempts, game = Make.attributes.gameId
        let waiting = await sink.statistics.waiting
        clock.advance(by: 10)
        let counted = await sink.waiting(game: game)
        #expect(waiting > 0 && counted == waiting, "both activities' records are the game's")
        #expect(await sink.waiting(game: "another") == 0)
        #expect(await inner.attempts == tried, "counting makes no attempt, though one is due")
        #expect(await sink.pending(game: game) == waiting)
        #expect(await inner.attempts > tried, "pending tries what is due")
    }

    @Test func rejectedRecordsAreDroppedAndARejectedEndIsReported() async throws {
        let inner = SwitchableSink()
        await inner.reject([2, 4])
        let sink = ResilientSink(inner, clock: ManualClock(Make.start))
        let records = Self.records("A", count: 4)
        for record in records { try await sink.send(record) }
        #expect(await inner.delivered.map(\.seq) == [1, 3])
        #expect(await sink.statistics.rejected == 2)
        #expect(await sink.statistics.failures == 0, "a refused body is not an outage")
        await #expect(throws: ScoreFeedError.self) { try await sink.flush() }
    }

    @Test func queueRulesArePure() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        let records = Self.records("A", count: 4)
        queue.enqueue(records[0])
        let first = queue.begin(activity: "A")
        #expect(first?.seq == 1)
        #expect(queue.begin(activity: "A") == nil, "one record of an activity in flight at a time")
        #expect(queue.enqueue(records[1]).isEmpty, "the record in flight is never skipped")
        queue.failed(activity: "A", now: Make.start, random: 0)
        #expect(queue.waiting.map(\.seq) == [2], "the failed update is superseded by the newer one")
        #expect(queue.nextAttempt == Make.start.addingTimeInterval(2))
        #expect(!queue.isDue(now: Make.start.addingTimeInterval(1.9)))
        #expect(queue.isDue(now: Make.start.addingTimeInterval(2)))
        #expect(queue.enqueue(records[3]).map(\.seq) == [2])
        #expect(queue.waiting.map(\.event) == [.end])
        _ = queue.begin(activity: "A")
        queue.delivered(activity: "A")
        #expect(queue.isEmpty && !queue.isFailing && queue.nextAttempt == nil)
        #expect(queue.skipped == ["A": 2])
    }

    /// A priority 10 and its priority-5 copy, rendered as a game renders them (the copy has the
    /// priority 10's `sentAt` and state), and the next update; `rising`: a newer state.
    struct Hedged {
        var renderer = PushRenderer(attributes: Make.attributes, configuration: .init(activity: "A"))
        var state = Make.live

        mutating func records(_ push: Push, at offset: Double, rising: Bool = true) -> [PushRecord] {
            if rising { state.homeScore += 2 }
            return renderer.outputs(
                for: push, state: state, diff: Diff(), coalesced: 1, sentAt: Make.start.addingTimeInterval(offset), sourceTime: nil
            ).compactMap { if case .push(let record) = $0 { record } else { nil } }
        }

        mutating func pair(at offset: Double, rising: Bool = true) -> [PushRecord] {
            var hedged = Push(event: .update, priority: 10, reason: "score")
            hedged.priority5Copy = true
            return records(hedged, at: offset, rising: rising)
        }

        mutating func update(at offset: Double) -> PushRecord {
            records(Push(event: .update, priority: 5, reason: "score"), at: offset)[0]
        }
    }

    /// A priority 10 and its priority-5 copy wait together, as a game's outbox keeps them: the copy
    /// does not supersede the push it hedges (the device would get the state only late), and a
    /// newer state supersedes both.
    @Test func aPriority10StaysWithItsCopyUntilANewerState() {
        var make = Hedged()
        let pair = make.pair(at: 0)
        #expect(pair.map(\.priority) == [10, 5] && pair[1].reason == Push.copyReason)
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        #expect(queue.enqueue(pair[0]).isEmpty)
        #expect(queue.enqueue(pair[1]).isEmpty, "the copy supersedes nothing")
        #expect(queue.waiting.map(\.seq) == pair.map(\.seq))
        var again = queue
        #expect(again.enqueue(pair[1]).map(\.seq) == [pair[1].seq], "a copy handed again supersedes itself, not its priority 10")
        var untried = queue
        let newer = make.update(at: 1)
        #expect(queue.enqueue(newer).map(\.seq) == pair.map(\.seq), "a newer state supersedes both")
        #expect(queue.waiting.map(\.seq) == [newer.seq])
        #expect(untried.enqueueReturningUntried(newer).map(\.seq) == pair.map(\.seq), "neither was tried: the priority 10 is given back")
    }

    /// In an outage the priority 10 is tried first: failed, or failing while its copy comes, it
    /// still waits with its copy, and nothing is given back.
    @Test func aTriedPriority10WaitsWithItsCopy() {
        var make = Hedged()
        let pair = make.pair(at: 0)
        var failedFirst = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        failedFirst.enqueue(pair[0])
        #expect(failedFirst.begin(activity: "A")?.seq == pair[0].seq)
        failedFirst.failed(activity: "A", now: Make.start, random: 0)
        #expect(failedFirst.enqueueReturningUntried(pair[1]).isEmpty)
        #expect(failedFirst.waiting.map(\.seq) == pair.map(\.seq))
        var inFlight = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        inFlight.enqueue(pair[0])
        _ = inFlight.begin(activity: "A")
        #expect(inFlight.enqueueReturningUntried(pair[1]).isEmpty)
        inFlight.failed(activity: "A", now: Make.start, random: 0)
        #expect(inFlight.waiting.map(\.seq) == pair.map(\.seq))
        // A newer state: the tried priority 10 is dropped with its copy, and not given back.
        let newer = make.update(at: 1)
        #expect(inFlight.enqueueReturningUntried(newer).map(\.seq) == [pair[1].seq])
        #expect(inFlight.waiting.map(\.seq) == [newer.seq])
    }

    /// A copy keeps only its own priority 10 (the one made with it): an earlier priority 10 of
    /// the same state, failed while a second pair came, goes with the older records.
    @Test func aCopyKeepsOnlyItsOwnPriority10() {
        var make = Hedged()
        let first = make.pair(at: 0)
        let second = make.pair(at: 1, rising: false)
        #expect(first[0].state == second[1].state && first[0].sentAt != second[1].sentAt)
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        queue.enqueue(first[0])
        _ = queue.begin(activity: "A")
        for record in [first[1]] + second { queue.enqueue(record) }
        queue.failed(activity: "A", now: Make.start, random: 0)
        #expect(queue.waiting.map(\.seq) == second.map(\.seq), "\(queue.waiting.map(\.seq))")
    }

    /// The updates a newer state supersedes are told apart: one never tried left nothing at the
    /// receiver, one tried and failed may have reached it (a time-out tells nothing).
    @Test func onlyUntriedSupersededUpdatesAreReturned() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        let records = Self.records("A", count: 5)
        #expect(queue.enqueueReturningUntried(records[0]).isEmpty)
        _ = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start, random: 0)
        #expect(queue.enqueueReturningUntried(records[1]).isEmpty, "seq 1 was tried: it may have reached the receiver")
        #expect(queue.enqueueReturningUntried(records[2]).map(\.seq) == [2], "seq 2 was never tried")
        _ = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start, random: 0)
        #expect(queue.enqueueReturningUntried(records[3]).isEmpty, "seq 3 was tried")
        #expect(queue.enqueueReturningUntried(records[4]).map(\.seq) == [4], "an end supersedes the untried update before it")
        #expect(queue.skipped == ["A": 4])
        var again = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        again.enqueue(records[1])
        #expect(again.enqueueReturningUntried(records[1]).isEmpty, "a record handed again is not superseded by itself")
    }

    /// While the sink fails, `sendReportingSuperseded` returns the updates each newer state
    /// superseded before they were tried (what the engine gives back to the game's budget).
    @Test func aSendReportsTheUpdatesItSupersededUntried() async throws {
        let inner = SwitchableSink()
        let clock = ManualClock(Make.start)
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 10, jitter: 0)), clock: clock)
        let records = Self.records("A", count: 5)
        await inner.set(up: false)
        #expect(try await sink.sendReportingSuperseded(records[0]).isEmpty, "tried and failed")
        #expect(try await sink.sendReportingSuperseded(records[1]).isEmpty, "seq 1 was tried")
        #expect(try await sink.sendReportingSuperseded(records[2]).map(\.seq) == [2])
        await inner.set(up: true)
        clock.advance(by: 10)
        #expect(try await sink.sendReportingSuperseded(records[3]).map(\.seq) == [3], "seq 3 waited, never tried")
        #expect(try await sink.sendReportingSuperseded(records[4]).isEmpty)
        #expect(await inner.delivered.map(\.seq) == [4, 5])
        let fanOut = FanOutSink([RecordingSink(), ResilientSink(SwitchableSink(), clock: clock)])
        #expect(try await fanOut.sendReportingSuperseded(records[0]).isEmpty, "a healthy sink supersedes nothing")
        let down = (SwitchableSink(), SwitchableSink())
        await down.0.set(up: false)
        await down.1.set(up: false)
        let both = FanOutSink([ResilientSink(down.0, clock: clock), ResilientSink(down.1, clock: clock)])
        for record in records[0...1] { _ = try await both.sendReportingSuperseded(record) }
        #expect(try await both.sendReportingSuperseded(records[2]).map(\.seq) == [2], "each record once")
    }

    /// Each activity has its own record in flight; settling one takes that activity's record out
    /// of the queue, whatever waits before it.
    @Test func activitiesGoSideBySideInTheQueue() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        let a = Self.records("A", count: 2), b = Self.records("B", count: 2)
        for record in [a[0], b[0]] { queue.enqueue(record) }
        #expect(queue.activities == ["A", "B"])
        #expect(queue.begin(activity: "B")?.seq == 1)
        #expect(queue.begin(activity: "A")?.seq == 1, "A's goes while B's is in flight")
        for record in [a[1], b[1]] { #expect(queue.enqueue(record).isEmpty, "the records in flight are never skipped") }
        queue.delivered(activity: "B")
        #expect(queue.waiting.map { "\($0.activity)\($0.seq)" } == ["A1", "A2", "B2"])
        queue.failed(activity: "A", now: Make.start, random: 0)
        #expect(queue.waiting.map { "\($0.activity)\($0.seq)" } == ["A2", "B2"], "A's failed update is superseded")
        #expect(!queue.isDue(now: Make.start), "a failure backs off every activity")
    }

    /// One game's iOS Live Activity and its Android notification share the activity id but are two
    /// receivers: each has its own record in flight, and neither supersedes the other's. With one
    /// in flight per id, the records waiting after a failure went one lane after the other, an
    /// FCM request holding back the APNs one behind it.
    @Test func anActivitysIOSAndAndroidRecordsGoSideBySide() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        let ios = Self.records("A", count: 2, end: false)
        let android = Self.onAndroid(ios)
        let lane = DeliveryQueue.lane(of: android[0])
        #expect(DeliveryQueue.lane(of: ios[0]) == "A" && lane != "A")
        for record in [android[0], ios[0]] { queue.enqueue(record) }
        #expect(queue.activities == [lane, "A"])
        #expect(queue.begin(activity: lane)?.platform == .android)
        #expect(queue.begin(activity: "A")?.platform == .ios, "iOS's goes while Android's is in flight")
        queue.enqueue(ios[1])
        #expect(queue.enqueue(android[1]).isEmpty, "neither lane supersedes the other's")
        queue.delivered(activity: "A")
        #expect(queue.begin(activity: "A")?.seq == 2)
        #expect(queue.begin(activity: lane) == nil, "Android's next waits for its own in flight")
    }

    /// At most ``ResilientSink/Options/maxInFlight`` requests at once: with room for two, three
    /// games' records (10 s each, on virtual time) go two at once, the third when one ends.
    @Test func atMostMaxInFlightRequestsGoAtOnce() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, takes: ["A": 10, "B": 10, "C": 10])
        let sink = ResilientSink(inner, options: .init(maxInFlight: 2), clock: clock)
        let records = ["A", "B", "C"].map { Self.records($0, count: 1, end: false)[0] }
        let ending = SimulationExecutor.run(on: clock) {
            await withDiscardingTaskGroup { group in
                for record in records { group.addTask { try? await sink.send(record) } }
            }
            return await inner.delivered
        }
        guard case .finished(let delivered) = ending else { throw ScoreFeedError(.invalidValue, "the run did not finish: \(ending)") }
        #expect(delivered.map { $0.split(separator: "@").last.map(String.init) ?? "" }.sorted() == ["10", "10", "20"], "\(delivered)")
    }

    /// Attempts side by side that fail in one outage count as one failure (the backoff stays at
    /// its first step, not ten steps on after ten games' catch-ups), and a success that began
    /// before the outage's later failures were counted does not end the failing; one that began
    /// after does.
    @Test func failuresSideBySideCountOnce() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        for activity in ["A", "B", "C"] { queue.enqueue(Self.records(activity, count: 1, end: false)[0]) }
        let begun = ["A", "B", "C"].compactMap { queue.begin(activity: $0) }
        #expect(begun.count == 3)
        queue.failed(activity: "A", now: Make.start, random: 0)
        queue.failed(activity: "B", now: Make.start.addingTimeInterval(1), random: 0)
        #expect(queue.consecutiveFailures == 1 && queue.nextAttempt == Make.start.addingTimeInterval(2))
        let retry = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start.addingTimeInterval(2), random: 0)
        #expect(retry != nil && queue.consecutiveFailures == 2, "a failure of the next round counts")
        let ended = queue.delivered(activity: "C")
        #expect(!ended && queue.isFailing, "C's attempt began before the outage's second failure")
        #expect(queue.waiting.map(\.activity) == ["A", "B"])
        let again = queue.begin(activity: "B")
        let recovered = queue.delivered(activity: "B")
        #expect(again != nil && recovered, "an attempt begun after the failure ends it")
        #expect(!queue.isFailing && queue.nextAttempt == nil)
    }

    /// A success begun beside the first failure (in the round it was counted in) ends it: a
    /// receiver that answers one body's 500 sooner than another's 200 shows one record it cannot
    /// take, not an outage, and the other activities go on at once; the failing one waits on its
    /// own. Before, the others waited out the sink's backoff, and their records were superseded.
    @Test func aSuccessBesideTheFirstFailureEndsIt() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        for activity in ["A", "B"] { queue.enqueue(Self.records(activity, count: 1, end: false)[0]) }
        let begun = ["A", "B"].compactMap { queue.begin(activity: $0) }
        queue.failed(activity: "A", now: Make.start, random: 0)
        let recovered = queue.delivered(activity: "B")
        #expect(begun.count == 2 && recovered && !queue.isFailing)
        queue.enqueue(Self.records("B", count: 2, end: false)[1])
        #expect(queue.isDue(activity: "B", now: Make.start))
        #expect(!queue.isDue(activity: "A", now: Make.start.addingTimeInterval(1.9)) && queue.isDue(activity: "A", now: Make.start.addingTimeInterval(2)))
    }

    /// An activity whose records fail while the others' are delivered backs off on its own, its
    /// wait growing with each failure, until one of its records is delivered; after its first
    /// failure (which may be an outage's) it backs off no other activity. Before, each delivery of
    /// another activity ended the failing and let it be tried again at once.
    @Test func anActivityFailingAloneBacksOffOnItsOwn() throws {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, multiplier: 2, jitter: 0))
        let a = Self.records("A", count: 2, end: false), b = Self.records("B", count: 3, end: false)
        queue.enqueue(a[0])
        var now = Make.start
        for (index, wait) in [2.0, 4.0, 8.0].enumerated() {
            let tried = queue.begin(activity: "A")
            queue.failed(activity: "A", now: now, random: 0)
            // The first failure may be an outage's; once B was delivered since, A fails alone.
            #expect(queue.isFailing == (index == 0), "B backs off for A's first failure only")
            queue.enqueue(b[index])
            let other = queue.begin(activity: "B")
            queue.delivered(activity: "B")
            #expect(tried != nil && other != nil && !queue.isFailing)
            #expect(queue.isDue(now: now) && queue.isDue(activity: "B", now: now))
            #expect(!queue.isDue(activity: "A", now: now.addingTimeInterval(wait - 0.1)), "A waits \(wait) s")
            #expect(queue.nextDue == now.addingTimeInterval(wait))
            now = now.addingTimeInterval(wait)
            #expect(queue.isDue(activity: "A", now: now))
        }
        let last = queue.begin(activity: "A")
        queue.delivered(activity: "A")
        queue.enqueue(a[1])
        #expect(last != nil)
        #expect(queue.isDue(activity: "A", now: now), "delivered: its own wait is over")
    }

    /// Once seen failing alone, an activity's wait grows with each failure, with nothing else
    /// delivered in between (a quiet spell of the day). Before, it grew only when another
    /// activity's record went out between two of its failures: `simulate` (seed 1, day 23), one
    /// game's pushes failing for 816 s on a quiet evening, tried them 92 times, every 2 to 5 s.
    @Test func anActivityFailingAloneInAQuietSpellStillBacksOff() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, multiplier: 2, maximum: 60, jitter: 0))
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 1, end: false)[0]
        queue.enqueue(a)
        _ = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start, random: 0)
        queue.enqueue(b)
        _ = queue.begin(activity: "B")
        queue.delivered(activity: "B")
        var now = Make.start.addingTimeInterval(2)
        var waits: [TimeInterval] = []
        for _ in 0..<6 {
            let begun = queue.begin(activity: "A")
            #expect(begun != nil)
            queue.failed(activity: "A", now: now, random: 0)
            let due = queue.due(activity: "A")
            waits.append(due.timeIntervalSince(now))
            now = due
        }
        #expect(waits == [4, 8, 16, 32, 60, 60], "A's waits: \(waits)")
        #expect(!queue.isFailing, "alone: the sink backs off no other activity")
    }

    /// A sink that fails every record of one activity and delivers the others'.
    actor OneActivityFailingSink: PushSink {
        let failing: String
        private(set) var attempts: [String: Int] = [:]
        private(set) var delivered: [String] = []

        init(failing: String) { self.failing = failing }

        func send(_ record: PushRecord) async throws {
            attempts[record.activity, default: 0] += 1
            guard record.activity != failing else { throw ScoreFeedError(.sinkUnavailable, "HTTP 500") }
            delivered.append(record.activity)
        }
    }

    /// A minute of another activity's records, one a second, while every record of A fails: B's
    /// records all go, and A is tried again as its own backoff comes due (its wait doubling), not
    /// with each of B's sends. Before, A's retries went first and each failure backed off the
    /// whole sink further: 1 of B's 60 records went, 58 were superseded while they waited (tried).
    @Test func anActivityFailingAloneIsNotTriedWithEveryOtherSend() async throws {
        let inner = OneActivityFailingSink(failing: "A")
        let clock = ManualClock(Make.start)
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 1, multiplier: 2, maximum: 60, jitter: 0)), clock: clock)
        try await sink.send(Self.records("A", count: 1, end: false)[0])
        for record in Self.records("B", count: 60, end: false) {
            clock.advance(by: 1)
            try await sink.send(record)
        }
        let attempts = await inner.attempts
        #expect((5...7).contains(attempts["A"] ?? 0), "A at about 0, 2, 4, 8, 16 and 32 s: \(attempts)")
        let statistics = await sink.statistics, delivered = await inner.delivered.count
        #expect(delivered == 60, "\(statistics)")
        #expect(await sink.waiting(game: Make.attributes.gameId) == 1, "A's record still waits")
    }

    /// An activity seen failing alone stays alone while nothing else is delivered in between (a
    /// quiet moment of the day: its failure is still no sign of an outage), and while another
    /// activity's failures count for the sink (``anActivitySeenFailingAloneStaysAloneThroughAnOutage``).
    /// Before, its failure after a quiet spell backed off every game, and a record sent then waited
    /// for the next send (`simulate --seed 8`, day 31: another game's news 51 s late; tried).
    @Test func anActivitySeenFailingAloneStaysAlone() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 1, end: false)[0]
        let c = Self.records("C", count: 1, end: false)[0]
        queue.enqueue(a)
        var begun = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start, random: 0)
        queue.enqueue(b)
        _ = queue.begin(activity: "B")
        queue.delivered(activity: "B")
        let again = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start.addingTimeInterval(2), random: 0)
        #expect(begun != nil && again != nil && !queue.isFailing, "A failed after B was delivered: alone")
        begun = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start.addingTimeInterval(10), random: 0)
        #expect(begun != nil && !queue.isFailing, "nothing delivered since, but A was seen failing alone")
        queue.enqueue(c)
        begun = queue.begin(activity: "C")
        queue.failed(activity: "C", now: Make.start.addingTimeInterval(11), random: 0)
        #expect(begun != nil && queue.isFailing, "C fails too: the sink's")
        begun = queue.begin(activity: "A")
        queue.failed(activity: "A", now: Make.start.addingTimeInterval(20), random: 0)
        #expect(begun != nil && queue.consecutiveFailures == 1, "after another activity's failure, A's failures are still its own")
    }

    /// An activity seen failing alone (a body the receiver cannot take) stays alone through an
    /// outage of the whole sink: once the sink is back, its failure as the first retry is its own,
    /// and the others go at once. Before, the outage's first counted failure made A's failures the
    /// sink's again, and each time A's retry went first after the outage it backed off every game
    /// by up to a minute more (`simulate --seed 1 --day 357 --days 1 --mode token --platform
    /// android`: another game's news held 141 s after the sender was back, 490 s in all).
    @Test func anActivitySeenFailingAloneStaysAloneThroughAnOutage() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, multiplier: 2, jitter: 0))
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 2, end: false)
        let c = Self.records("C", count: 1, end: false)[0]
        func at(_ seconds: TimeInterval) -> Date { Make.start.addingTimeInterval(seconds) }
        // A fails, B is delivered, A fails again: A fails alone.
        queue.enqueue(a)
        _ = queue.begin(activity: "A")
        queue.failed(activity: "A", now: at(0), random: 0)
        queue.enqueue(b[0])
        _ = queue.begin(activity: "B")
        queue.delivered(activity: "B")
        _ = queue.begin(activity: "A")
        queue.failed(activity: "A", now: at(2), random: 0)
        #expect(!queue.isFailing, "A fails alone")
        // The sink goes down: B's and C's records fail, the sink's failures.
        queue.enqueue(b[1])
        queue.enqueue(c)
        _ = queue.begin(activity: "B")
        queue.failed(activity: "B", now: at(3), random: 0)
        _ = queue.begin(activity: "C")
        queue.failed(activity: "C", now: at(4), random: 0)
        #expect(queue.consecutiveFailures == 2 && queue.nextAttempt == at(8))
        // The sink is back at 8 s; A's retry goes first and fails (its own body).
        #expect(queue.isDue(activity: "A", now: at(8)))
        let retry = queue.begin(activity: "A")
        queue.failed(activity: "A", now: at(8), random: 0)
        #expect(retry != nil && queue.consecutiveFailures == 2, "A's failure is its own: \(queue.consecutiveFailures)")
        #expect(queue.isDue(activity: "B", now: at(8)) && queue.isDue(activity: "C", now: at(8)), "B and C go at once, not after another backoff")
        let other = queue.begin(activity: "B")
        let recovered = queue.delivered(activity: "B")
        #expect(other != nil && recovered && !queue.isFailing)
    }

    /// An activity that has not failed may try at once, even while the sink's backoff runs (it is
    /// the probe); once it failed, it waits like the others. Before, another game's first failure
    /// held its record until some later send carried it (`simulate --seed 1 --day 48 --mode token
    /// --platform ios` on the 1,000 day-runs, one game's pushes failing: another game's news 114 s
    /// late, its record superseded while it waited; tried).
    @Test func anActivityThatHasNotFailedProbesAtOnce() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, jitter: 0))
        for activity in ["A", "B", "C"] { queue.enqueue(Self.records(activity, count: 1, end: false)[0]) }
        let first = ["A", "B"].compactMap { queue.begin(activity: $0) }
        queue.failed(activity: "A", now: Make.start, random: 0)
        queue.failed(activity: "B", now: Make.start, random: 0)
        #expect(first.count == 2 && queue.isFailing && !queue.isDue(now: Make.start.addingTimeInterval(1)))
        #expect(queue.isDue(activity: "C", now: Make.start.addingTimeInterval(1)), "C has not failed: it probes")
        #expect(!queue.isDue(activity: "A", now: Make.start.addingTimeInterval(1)) && !queue.isDue(activity: "B", now: Make.start.addingTimeInterval(1)))
        let probe = queue.begin(activity: "C")
        queue.failed(activity: "C", now: Make.start.addingTimeInterval(1), random: 0)
        #expect(probe != nil && !queue.isDue(activity: "C", now: Make.start.addingTimeInterval(1.5)), "failed: it waits like the others")
    }

    /// An outage's failures (attempts begun while the sink was already failing) are the sink's,
    /// not an activity's own: once the sink is back, every activity is due at once.
    @Test func anOutageLeavesNoActivityWaitingOnItsOwn() {
        var queue = DeliveryQueue(backoff: Backoff(initial: 2, multiplier: 2, jitter: 0))
        for activity in ["A", "B"] { queue.enqueue(Self.records(activity, count: 1, end: false)[0]) }
        var now = Make.start
        for _ in 0..<4 {
            let begun = ["A", "B"].compactMap { queue.begin(activity: $0) }
            #expect(begun.count == 2)
            for activity in ["A", "B"] { queue.failed(activity: activity, now: now, random: 0) }
            now = queue.nextAttempt ?? now
        }
        #expect(queue.consecutiveFailures == 4 && now == Make.start.addingTimeInterval(2 + 4 + 8 + 16))
        let again = queue.begin(activity: "B")
        let recovered = queue.delivered(activity: "B")
        #expect(again != nil && recovered)
        #expect(queue.isDue(activity: "A", now: now), "the sink is back: A goes at once")
    }

    /// A sink that takes a set time per record of each activity, on a simulated clock, and
    /// remembers when it delivered each.
    actor TimedSink: PushSink {
        let clock: SimulatedClock
        let takes: [String: TimeInterval]
        let down: [String: TimeInterval]
        let failsSlowly: Bool
        private(set) var delivered: [String] = []

        /// Each request of a lane (``DeliveryQueue/lane(of:)``: an iOS record's is its activity)
        /// takes `takes` seconds; before `down` seconds into the run, its requests fail, at once
        /// or, with `failsSlowly`, once they took their time (a 503 from a slow sender).
        init(clock: SimulatedClock, takes: [String: TimeInterval] = [:], down: [String: TimeInterval] = [:], failsSlowly: Bool = false) {
            self.clock = clock
            self.takes = takes
            self.down = down
            self.failsSlowly = failsSlowly
        }

        func send(_ record: PushRecord) async throws {
            let lane = DeliveryQueue.lane(of: record)
            let isDown = down[lane].map { clock.now < Make.start.addingTimeInterval($0) } ?? false
            if isDown, !failsSlowly { throw ScoreFeedError(.sinkUnavailable, "connection refused") }
            try await clock.sleep(until: clock.now.addingTimeInterval(takes[lane] ?? 0))
            if isDown { throw ScoreFeedError(.sinkUnavailable, "503, slowly") }
            delivered.append("\(record.platform == .android ? "android:" : "")\(record.activity)\(record.seq)@\(Int(clock.now.timeIntervalSince(Make.start)))")
        }
    }

    /// Runs `sink.run()` beside `work` on virtual time until `work` returns (then cancels it),
    /// and returns what `inner` delivered.
    static func withRun(
        _ sink: ResilientSink, _ inner: TimedSink, on clock: SimulatedClock, _ work: @escaping @Sendable () async -> Void
    ) throws -> [String] {
        let ending = SimulationExecutor.run(on: clock) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sink.run() }
                group.addTask { await work() }
                await group.next()
                group.cancelAll()
            }
            return await inner.delivered
        }
        guard case .finished(let delivered) = ending else { throw ScoreFeedError(.invalidValue, "the run did not finish: \(ending)") }
        return delivered
    }

    /// `run()` tries what waits as soon as it is due, with no other send to carry it: a record
    /// sent while its receiver is down (for 5 s) goes at the first attempt after it is back (6 s,
    /// after waits of 2 and 4 s). Before, it waited for some game's next `send` or the run's end
    /// (a quiet game's last update after an outage: the period's end, or the final while no other
    /// game sends). A run cancelled before (a first service's) leaves the next one working.
    @Test func runTriesWhatWaitsWhenItIsDue() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, down: ["A": 5])
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, jitter: 0)), clock: clock)
        let record = Self.records("A", count: 1, end: false)[0]
        #expect(try Self.withRun(sink, inner, on: clock) {}.isEmpty)
        let delivered = try Self.withRun(sink, inner, on: clock) {
            try? await sink.send(record)
            try? await clock.sleep(until: Make.start.addingTimeInterval(60))
        }
        #expect(delivered == ["A1@6"])
    }

    /// A delivery that ends the failing wakes the run at once for what it made due: A's receiver
    /// is back at 90 s while the sink's backoff has its next attempt at 122 s; B's first push at
    /// 100 s goes and ends the failing, and A's goes right after it, not at 122 s.
    @Test func aDeliveryThatEndsTheFailingWakesTheRun() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, down: ["A": 90])
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, maximum: 60, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 1, end: false)[0]
        let delivered = try Self.withRun(sink, inner, on: clock) {
            try? await sink.send(a)
            try? await clock.sleep(until: Make.start.addingTimeInterval(100))
            try? await sink.send(b)
            try? await clock.sleep(until: Make.start.addingTimeInterval(200))
        }
        #expect(delivered == ["B1@100", "A1@100"])
    }

    /// A game's iOS push does not wait for its failing Android lane's slow answers (16 s each):
    /// handed in turn, as a game's engine hands its lanes' records, the Android record of a lane
    /// that failed before returns at once (the run retries it), and the iOS one goes at once; the
    /// game's `pending` counts the Android lane without waiting for its retry.
    /// Before, each iOS push waited for the Android retry under way: a broadcast update 16 s
    /// later, past its timestamp after a few (`simulate --seed 38 --day 2 --platform ios,android`).
    /// The Android records still go, in order, once FCM is back.
    @Test func anIOSPushWaitsForNoFailingAndroidRetry() throws {
        let clock = SimulatedClock(Make.start)
        let ios = Self.records("A", count: 3, end: false)
        let android = Self.onAndroid(ios)
        let lane = DeliveryQueue.lane(of: android[0])
        let inner = TimedSink(clock: clock, takes: ["A": 1, lane: 16], down: [lane: 100], failsSlowly: true)
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, jitter: 0)), clock: clock)
        let pending = Mutex<[String]>([])
        let delivered = try Self.withRun(sink, inner, on: clock) {
            // The first Android push is the probe: its slow failure is awaited.
            try? await sink.send(android[0])
            try? await sink.send(ios[0])
            for (index, at) in [(1, 20.0), (2, 50.0)] {
                try? await clock.sleep(until: Make.start.addingTimeInterval(at))
                // What the game's engine asks after a start, an end or a refusal: counted, not
                // waited for (the Android retry under way ends at 34 s).
                let count = await sink.pending(game: ios[0].game)
                pending.withLock { $0.append("\(count)@\(Int(clock.now.timeIntervalSince(Make.start)))") }
                try? await sink.send(android[index])
                try? await sink.send(ios[index])
            }
            try? await clock.sleep(until: Make.start.addingTimeInterval(400))
        }
        #expect(pending.withLock { $0 } == ["1@20", "1@50"])
        #expect(delivered.filter { !$0.hasPrefix("android:") } == ["A1@17", "A2@21", "A3@51"])
        #expect(delivered.filter { $0.hasPrefix("android:") }.map { $0.split(separator: "@")[0] } == ["android:A3"], "the newest state supersedes")
    }

    /// The run waits for no drain: while A's retry takes 100 s (a slow sender), B's, due at 12 s
    /// (its receiver back at 5 s), goes then, not after A's.
    @Test func aSlowRetryHoldsNoOtherRetry() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, takes: ["A": 100], down: ["A": 1, "B": 5])
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 1, end: false)[0]
        let delivered = try Self.withRun(sink, inner, on: clock) {
            try? await sink.send(a)
            try? await sink.send(b)
            try? await clock.sleep(until: Make.start.addingTimeInterval(300))
        }
        #expect(delivered == ["B1@12", "A1@104"])
    }

    /// The run sleeps until the soonest due activity, not the latest: B, failing alone since 0 s,
    /// waits 32 s after its fifth failure (at 30 s, next try at 62 s); A's receiver fails once at
    /// 31 s (C's delivery beside it shows A alone) and is back at 32 s, so A's record goes at its
    /// own retry, 33 s. Before (a mutation tried in session 61, which no test failed), the run
    /// slept until B's 62 s and A's news was half a minute late on a quiet evening.
    @Test func theRunWakesForTheSoonestDueActivity() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, down: ["A": 32, "B": 1000])
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, multiplier: 2, maximum: 60, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 1, end: false)[0]
        let c = Self.records("C", count: 2, end: false)
        let delivered = try Self.withRun(sink, inner, on: clock) {
            try? await sink.send(b)
            try? await sink.send(c[0])
            try? await clock.sleep(until: Make.start.addingTimeInterval(31))
            try? await sink.send(a)
            try? await sink.send(c[1])
            try? await clock.sleep(until: Make.start.addingTimeInterval(50))
        }
        #expect(delivered == ["C1@0", "C2@31", "A1@33"])
    }

    /// A delivery that ends the failing wakes the run before its drain ends: B's first push (100
    /// to 150 s) ends it, and A's (its receiver back at 90 s, held by the probe rule while B's
    /// went) goes at 150 s, not once B's end, the same drain's next record, is through at 200 s.
    @Test func aRecoveryWakesTheRunBeforeItsDrainEnds() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, takes: ["B": 50], down: ["A": 90])
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, maximum: 60, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 2)
        let delivered = try Self.withRun(sink, inner, on: clock) {
            try? await sink.send(a)
            try? await clock.sleep(until: Make.start.addingTimeInterval(100))
            await withDiscardingTaskGroup { group in
                group.addTask { try? await sink.send(b[0]) }
                group.addTask {
                    try? await clock.sleep(until: Make.start.addingTimeInterval(101))
                    try? await sink.send(b[1])
                }
            }
            try? await clock.sleep(until: Make.start.addingTimeInterval(400))
        }
        #expect(delivered == ["B1@150", "A1@150", "B2@200"])
    }

    /// A stop that cuts the final flush short (at 5 s) does not wait for the run's attempt under
    /// way (a slow sender's, 2 to 102 s): the flush returns at 5 s, and the record waits for the
    /// next run (the checkpoints keep it).
    @Test func aStopDuringTheFlushWaitsForNoRetryUnderWay() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, takes: ["A": 100], down: ["A": 1])
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 1, end: false)[0]
        let returned = Mutex<Date?>(nil)
        _ = try Self.withRun(sink, inner, on: clock) {
            try? await sink.send(a)
            try? await clock.sleep(until: Make.start.addingTimeInterval(3))
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await sink.flush() }
                group.addTask { try? await clock.sleep(until: Make.start.addingTimeInterval(5)) }
                await group.next()
                group.cancelAll()
            }
            returned.withLock { $0 = clock.now }
        }
        #expect(returned.withLock { $0 } == Make.start.addingTimeInterval(5))
    }

    /// A sink that throws `CancellationError` though nothing cancelled it (a time-out raced in a
    /// task group) and counts its attempts.
    final class CancellationThrowingSink: PushSink {
        let attempts = Atomic<Int>(0)
        func send(_ record: PushRecord) async throws {
            attempts.add(1, ordering: .relaxed)
            throw CancellationError()
        }
    }

    /// Such a `CancellationError` is a failure like any other: the record backs off (attempts at
    /// 0, 2 and 6 s in 10 s). Taken for a stop, it left the record due at once, and the run tried
    /// it again and again without time moving.
    @Test func aCancellationErrorUncancelledIsAFailure() throws {
        let clock = SimulatedClock(Make.start)
        let inner = CancellationThrowingSink()
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 1, end: false)[0]
        let ending = SimulationExecutor.run(on: clock) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sink.run() }
                group.addTask {
                    try? await sink.send(a)
                    try? await clock.sleep(until: Make.start.addingTimeInterval(10))
                }
                await group.next()
                group.cancelAll()
            }
            return inner.attempts.load(ordering: .relaxed)
        }
        guard case .finished(let attempts) = ending else { throw ScoreFeedError(.invalidValue, "the run did not finish: \(ending)") }
        #expect(attempts == 3)
    }

    /// A push sender slow for one game (100 s a request) and quick for another (1 s), on virtual
    /// time: the quick game's pushes go as they come, not behind the slow one's. One queue for
    /// every activity held them: after a failover every game's catch-up reached a slow sender at
    /// once, and broadcast updates at the back were delivered past their timestamps
    /// (`simulate --seed 2 --day 16 --days 1 --mode broadcast --platform ios,android`, 21 s).
    @Test func aSlowActivityHoldsNoOtherActivitysPush() throws {
        let clock = SimulatedClock(Make.start)
        let inner = TimedSink(clock: clock, takes: ["A": 100, "B": 1])
        let sink = ResilientSink(inner, clock: clock)
        let a = Self.records("A", count: 2), b = Self.records("B", count: 3)
        let ending = SimulationExecutor.run(on: clock) {
            await withDiscardingTaskGroup { group in
                group.addTask { for record in a { try? await sink.send(record) } }
                group.addTask { for record in b { try? await sink.send(record) } }
            }
            return await inner.delivered
        }
        guard case .finished(let delivered) = ending else { throw ScoreFeedError(.invalidValue, "the run did not finish: \(ending)") }
        #expect(delivered == ["B1@1", "B2@2", "B3@3", "A1@100", "A2@200"])
    }

    /// A sink that answers at once, without suspending, as the simulator's sender does: every
    /// request fails until `down` seconds into the run, and an activity's in `failing` until
    /// then (a body it cannot take) while it takes the others'. Remembers what it delivered, when.
    final class InstantSink: PushSink {
        let clock: SimulatedClock
        let down: TimeInterval
        let failing: [String: TimeInterval]
        private let log = Mutex<[String]>([])

        init(clock: SimulatedClock, down: TimeInterval, failing: [String: TimeInterval]) {
            self.clock = clock
            self.down = down
            self.failing = failing
        }

        func send(_ record: PushRecord) async throws {
            let now = clock.now.timeIntervalSince(Make.start)
            if now < down || now < failing[record.activity] ?? 0 { throw ScoreFeedError(.sinkUnavailable, "HTTP 503") }
            log.withLock { $0.append("\(record.activity)\(record.seq)@\(Int(now))") }
        }

        var delivered: [String] { log.withLock { $0 } }
    }

    /// After an outage (every push failing for 100 s), the activities due at one retry go side
    /// by side: B's record goes at the first retry once the sender is back (120 s), though A's,
    /// which the receiver cannot take until 1000 s, is tried first and fails. Tried in turn, A's
    /// failure (nothing delivered since the outage, so the sink's) backed the sink off again
    /// before B was tried, at every retry A went first: B waited past 400 s (`simulate --seed 1
    /// --day 726 --days 1 --mode token --platform ios`: every game's news 106 s after the sender
    /// was back, up to 544 s after the feed showed it).
    @Test func aRecordTheReceiverCannotTakeHoldsNoOtherAfterAnOutage() throws {
        let clock = SimulatedClock(Make.start)
        let inner = InstantSink(clock: clock, down: 100, failing: ["A": 1000])
        let sink = ResilientSink(inner, options: .init(backoff: Backoff(initial: 2, maximum: 60, jitter: 0)), clock: clock)
        let a = Self.records("A", count: 1, end: false)[0], b = Self.records("B", count: 1, end: false)[0]
        let ending = SimulationExecutor.run(on: clock) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sink.run() }
                group.addTask {
                    try? await sink.send(a)
                    try? await sink.send(b)
                    try? await clock.sleep(until: Make.start.addingTimeInterval(400))
                }
                await group.next()
                group.cancelAll()
            }
            return inner.delivered
        }
        guard case .finished(let delivered) = ending else { throw ScoreFeedError(.invalidValue, "the run did not finish: \(ending)") }
        #expect(delivered == ["B1@120"])
    }

    /// Collects a ``ResilientSink``'s events.
    final class EventLog: Sendable {
        private let events = Mutex<[ResilientSink.Event]>([])
        func append(_ event: ResilientSink.Event) { events.withLock { $0.append(event) } }
        var all: [ResilientSink.Event] { events.withLock { $0 } }
    }
}

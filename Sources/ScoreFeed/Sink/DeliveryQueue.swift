import Foundation

/// The pure core of ``ResilientSink``: the records waiting for a failing sink, which of them a
/// newer one supersedes, and when to try again. Handed the time; no I/O.
///
/// Rules:
/// - Records wait in arrival order, so each activity's stay in `seq` order. Each activity has at
///   most one record in flight; different activities' go side by side. An activity id names an
///   iOS Live Activity and the game's Android notification alike: two receivers, each with its
///   own record in flight (``lane(of:)``), so what waits after a failure goes lane beside lane.
/// - An `update` is skipped when a later `update` or `end` of the same activity on the same
///   platform is waiting: the newer one carries the whole state. Receivers then see gaps in `seq`; records are never
///   renumbered or changed: a record's `apns-id` covers its `seq` and its body, and goes with it.
///   A priority 10 whose priority-5 copy is the newest stays: the two go together (as a game's
///   outbox keeps them), so the copy never stands in for the push it hedges.
/// - `start` and `end` are never skipped. The record being sent is never skipped.
/// - After a failure the next attempt waits a ``Backoff`` delay that grows with consecutive
///   failures; a success resets it. Attempts side by side count as one round: their failures
///   count once, and a success that began before the last failure was counted does not reset it,
///   unless that failure was the first (one record failing beside others delivered).
/// - Every failure also backs off its own activity. An activity whose records fail while other
///   activities' are delivered fails alone: its own wait grows with each failure that follows
///   another activity's delivery, until one of its own records is delivered or refused, and such
///   a failure backs off no other activity, through an outage of the whole sink too (its first
///   retry once the sink is back fails again, and must not hold the others). An activity that has
///   not failed may always try: while the sink fails it is the probe, and goes first. So one
///   record that the receiver cannot take neither stalls every game nor is tried again with each
///   of their sends. In an outage nothing is delivered between an activity's failures, so its own
///   wait stops growing (unless it was seen failing alone), and a recovery is not held up.
public struct DeliveryQueue: Sendable {
    /// Records not yet delivered, oldest first.
    public private(set) var waiting: [PushRecord] = []
    /// Updates skipped per activity because a newer state superseded them.
    public private(set) var skipped: [String: Int] = [:]
    /// How many records the receiver refused for good (`sink-rejected`), dropped.
    public private(set) var rejectedCount = 0
    /// Activities whose `end` the receiver refused for good.
    public private(set) var refusedEnds: [String] = []
    /// Failures since the last delivery.
    public private(set) var consecutiveFailures = 0
    /// No attempt before this time (nil: now).
    public private(set) var nextAttempt: Date?
    /// A record handed out by ``begin(activity:)`` and not yet settled, and the round its attempt
    /// began in (a round ends when a failure is counted or a success ends the failing).
    private struct Attempt: Sendable {
        var record: PushRecord
        var round: Int
    }
    /// The attempts under way, by activity.
    private var inFlight: [String: Attempt] = [:]
    /// An activity's own failures (each that followed another activity's delivery counts one
    /// more), when its next attempt may start, the deliveries counted at its last failure, and
    /// whether it was seen failing alone (its later failures then stay its own, until one of its
    /// records goes: an outage in between does not make them the sink's again).
    private struct OwnBackoff: Sendable {
        var failures: Int
        var until: Date
        var deliveries: Int
        var alone: Bool
    }
    private var ownBackoff: [String: OwnBackoff] = [:]
    /// Waiting records that were tried (handed out by ``begin(activity:)``) and failed: a
    /// receiver may have had one (a time-out tells nothing), so a newer state that supersedes it
    /// does not make it one that never left.
    private var tried: Set<Tried> = []
    private struct Tried: Hashable, Sendable {
        var lane: String
        var seq: Int
    }
    /// Records delivered so far.
    private var deliveries = 0
    /// How many records of each activity wait (in flight included). Every activity with an own
    /// backoff has some, so the activities that have not failed are the ones beyond those.
    private var waitingPerActivity: [String: Int] = [:]
    private var round = 0
    public let backoff: Backoff

    public init(backoff: Backoff = Backoff(initial: 1, maximum: 60)) {
        self.backoff = backoff
    }

    public var isEmpty: Bool { waiting.isEmpty }

    /// The key the queue takes `record`'s activity by (every `activity` parameter below): the
    /// activity id for iOS, the id and the platform for another (one game's Live Activity and its
    /// Android notification share the id, and each goes in its own order), joined by a control
    /// character no id holds, so no other activity's id is the same key.
    public static func lane(of record: PushRecord) -> String {
        record.platform == .ios ? record.activity : "\(record.activity)\u{1F}\(record.platform.rawValue)"
    }

    /// Whether the sink is failing (a failure since the last delivery).
    public var isFailing: Bool { consecutiveFailures > 0 }

    /// All updates skipped so far.
    public var skippedCount: Int { skipped.values.reduce(0, +) }

    /// Adds `record` and returns the waiting updates it supersedes (now skipped).
    @discardableResult
    public mutating func enqueue(_ record: PushRecord) -> [PushRecord] {
        add(record).dropped
    }

    /// Adds `record` as ``enqueue(_:)`` does, and returns the updates it supersedes that were never
    /// tried: no receiver had them, so Apple never counted their priority. A copy of `record`
    /// itself (handed again after a failure elsewhere: it still goes) is not one of them.
    public mutating func enqueueReturningUntried(_ record: PushRecord) -> [PushRecord] {
        let itself = Self.tried(record)
        return add(record).untried.filter { Self.tried($0) != itself }
    }

    private mutating func add(_ record: PushRecord) -> (dropped: [PushRecord], untried: [PushRecord]) {
        waiting.append(record)
        waitingPerActivity[Self.lane(of: record), default: 0] += 1
        return coalesce(record)
    }

    private static func tried(_ record: PushRecord) -> Tried {
        Tried(lane: lane(of: record), seq: record.seq)
    }

    /// Whether an attempt may start at `now` (as far as the sink's failures go).
    public func isDue(now: Date) -> Bool {
        nextAttempt.map { now >= $0 } ?? true
    }

    /// Whether an attempt of `activity` may start at `now`. An activity that has not failed may
    /// always try: while the sink fails it is the probe (one attempt: if it fails, it waits like
    /// the others), so one game's failures never hold another game's first record back. One that
    /// failed waits for the sink's backoff and its own, and while the sink fails, also while an
    /// activity that has not failed has records waiting: that one tries the sink first, so one
    /// record the receiver cannot take is not mistaken for the sink down, again and again.
    public func isDue(activity: String, now: Date) -> Bool {
        guard let own = ownBackoff[activity] else { return true }
        guard isDue(now: now) else { return false }
        return now >= own.until && (!isFailing || waitingPerActivity.count <= ownBackoff.count)
    }

    /// Whether `activity`'s last attempt failed (it backs off on its own until one of its records
    /// is delivered or refused).
    public func hasFailed(activity: String) -> Bool {
        ownBackoff[activity] != nil
    }

    /// When the first waiting record may next be tried (nil: nothing waits): at once for an
    /// activity that has not failed, else the latest of the sink's backoff and the activity's own.
    public var nextDue: Date? {
        activities.lazy.map(due(activity:)).min()
    }

    /// When `activity` may next be tried as far as the backoffs go (`distantPast`: it has not
    /// failed). While the sink fails it may have to wait longer, for a probe
    /// (``isDue(activity:now:)``).
    public func due(activity: String) -> Date {
        ownBackoff[activity].map { max($0.until, nextAttempt ?? .distantPast) } ?? .distantPast
    }

    /// Whether a record of `activity` waits (or is in flight).
    public func isWaiting(activity: String) -> Bool {
        waitingPerActivity[activity] != nil
    }

    /// The activities with records waiting, in the order of their oldest.
    public var activities: [String] {
        // Mostly the one record just queued.
        if waiting.count < 2 { return waiting.map(Self.lane(of:)) }
        var seen = Set<String>()
        return waiting.lazy.map(Self.lane(of:)).filter { seen.insert($0).inserted }
    }

    /// The oldest waiting record of `activity`, now in flight; nil when none waits or one of the
    /// activity is in flight.
    public mutating func begin(activity: String) -> PushRecord? {
        guard inFlight[activity] == nil, let first = waiting.first(where: { Self.lane(of: $0) == activity }) else { return nil }
        inFlight[activity] = Attempt(record: first, round: round)
        tried.insert(Self.tried(first))
        return first
    }

    /// The in-flight record of `activity` was delivered: the sink is healthy again, unless the
    /// attempt began before the last failure was counted. Returns whether it ended the failing.
    @discardableResult
    public mutating func delivered(activity: String) -> Bool {
        guard let attempt = settle(activity) else { return false }
        ownBackoff[activity] = nil
        deliveries += 1
        // Begun in the round whose failure was counted: a success beside the first failure (one
        // record the receiver cannot take) ends it; beside later ones, it may be older than the
        // outage.
        guard isFailing, attempt.round == round || (consecutiveFailures == 1 && attempt.round == round - 1) else { return false }
        consecutiveFailures = 0
        nextAttempt = nil
        round += 1
        return true
    }

    /// The receiver refused the in-flight record of `activity` for good: it is dropped (the sink
    /// itself works).
    public mutating func rejectedInFlight(activity: String) {
        guard let record = settle(activity)?.record else { return }
        ownBackoff[activity] = nil
        rejectedCount += 1
        if record.event == .end { refusedEnds.append(record.activity) }
    }

    /// The in-flight record of `activity` failed at `now`: it waits again (unless a newer state
    /// superseded it meanwhile), its activity backs off, and so does the next attempt of any
    /// activity; unless other activities' records were delivered since this activity last failed
    /// (or it was seen failing alone before, even with an outage since), when it fails alone and
    /// only its own wait grows. Returns the records skipped because of it.
    @discardableResult
    public mutating func failed(activity: String, now: Date, random: Double) -> [PushRecord] {
        guard let attempt = inFlight.removeValue(forKey: activity) else { return [] }
        let own = ownBackoff[activity]
        let othersDelivered = own.map { $0.deliveries < deliveries } ?? false
        // Seen failing alone, it stays alone until one of its records goes (``delivered(activity:)``
        // or ``rejectedInFlight(activity:)`` forget its backoff), through an outage of the whole
        // sink too: once the sink is back, its failure as the first retry (a body the receiver
        // still cannot take) would otherwise back off every other activity again, for up to the
        // backoff's longest wait each time it goes first (`simulate --seed 1 --day 357`: another
        // game's news held 141 s after the sender was back).
        let alone = othersDelivered || (own?.alone ?? false)
        // Alone, every failure grows its own wait (none of the sink's counts it), whether or not
        // other records went out in between: a quiet day has few.
        let failures = (own?.failures ?? 0) + (alone || own == nil ? 1 : 0)
        ownBackoff[activity] = OwnBackoff(
            failures: failures, until: now.addingTimeInterval(backoff.delay(afterFailure: failures, random: random)), deliveries: deliveries,
            alone: alone)
        // Attempts that went side by side fail together once: one outage, one failure.
        if !alone, attempt.round == round {
            consecutiveFailures += 1
            nextAttempt = now.addingTimeInterval(backoff.delay(afterFailure: consecutiveFailures, random: random))
            round += 1
        }
        return coalesce(attempt.record).dropped
    }

    /// The in-flight attempt of `activity` was abandoned (cancelled) without counting as a failure.
    public mutating func abandoned(activity: String) {
        inFlight[activity] = nil
    }

    /// Takes `activity`'s in-flight record out of flight and out of the queue (it is its oldest).
    private mutating func settle(_ activity: String) -> Attempt? {
        guard let attempt = inFlight.removeValue(forKey: activity) else { return nil }
        if let index = waiting.firstIndex(where: { Self.lane(of: $0) == activity }) {
            waiting.remove(at: index)
            countOut(activity, 1)
        }
        tried.remove(Self.tried(attempt.record))
        return attempt
    }

    /// `count` records of `activity` left the queue.
    private mutating func countOut(_ activity: String, _ count: Int) {
        let left = (waitingPerActivity[activity] ?? 0) - count
        waitingPerActivity[activity] = left > 0 ? left : nil
    }

    /// Drops waiting updates of `latest`'s activity on its platform (its lane, ``lane(of:)``)
    /// followed by a later update or end of it, but the priority 10 that the newest copies (a
    /// priority-5 copy has its priority 10's `sentAt` and state); returns them, and those of them
    /// never tried.
    private mutating func coalesce(_ latest: PushRecord) -> (dropped: [PushRecord], untried: [PushRecord]) {
        let lane = Self.lane(of: latest), activity = latest.activity, platform = latest.platform
        func same(_ record: PushRecord) -> Bool { record.activity == activity && record.platform == platform }
        guard let newest = waiting.lastIndex(where: { same($0) && $0.event != .start }) else { return ([], []) }
        var dropped: [PushRecord] = []
        var kept: [PushRecord] = []
        kept.reserveCapacity(waiting.count)
        let latestWaiting = waiting[newest]
        for (index, record) in waiting.enumerated() {
            let isInFlight = inFlight[lane].map { $0.record.seq == record.seq } ?? false
            // The priority 10 that the newest copies stays with its copy.
            if index < newest, same(record), record.event == .update, !isInFlight, !latestWaiting.isPriority5Copy(of: record) {
                dropped.append(record)
            } else {
                kept.append(record)
            }
        }
        if !dropped.isEmpty {
            waiting = kept
            countOut(lane, dropped.count)
            skipped[activity, default: 0] += dropped.count
        }
        return (dropped, dropped.filter { tried.remove(Self.tried($0)) == nil })
    }
}

import Foundation

/// The push sender and APNs' channel service of a simulated day: keeps what it delivered, in
/// order, and fails, stalls or refuses as the day's ``SimulatedDay/SinkFaults`` say. A crashed
/// instance is cut off (``cutOff()``): nothing it still sends is delivered.
public final class SimulatedSender: PushSink, @unchecked Sendable {
    private let lock = NSLock()
    private let faults: SimulatedDay.SinkFaults
    private var random: SeededRandom
    private var clock: SimulatedClock
    private var live = true
    /// What it delivered, in order.
    public private(set) var records: [PushRecord] = []
    /// When it delivered each of ``records`` (the simulated clock's time).
    public private(set) var deliveredAt: [Date] = []
    /// Records it was handed and did not deliver (it failed them, or the request was cut short
    /// while it was slow): APNs may have had them, so their priority stays spent.
    public var tried: [PushRecord] { lock.withLock { triedRecords } }
    private var triedRecords: [PushRecord] = []
    /// The channels it made and has not deleted.
    public var openChannels: Set<String> { lock.withLock { channels.open } }
    private var channels = ChannelServiceStandIn()
    /// The games whose last channel create failed (APNs' channel service down, or a blip) and
    /// that no create has made a channel for since: their pushes wait for one.
    public var createsFailed: Set<String> { lock.withLock { unmade } }
    private var unmade: Set<String> = []
    /// The channels whose delete it refused for good (``SimulatedDay/SinkFaults/deleteRefusals``):
    /// they stay open at APNs, as the service that asked was told.
    public var deletesRefused: Set<String> { lock.withLock { refusedDeletes } }
    private var refusedDeletes: Set<String> = []
    /// Requests it failed or refused, by kind.
    public private(set) var failures: [String: Int] = [:]
    /// Channels it made, by game.
    public var channelsMade: [String: Int] { lock.withLock { made } }
    /// Broadcast pushes to a channel APNs did not have open when they came (never made, or
    /// deleted): no device gets them. Kept apart, as what they are, and delivered like the rest,
    /// so the records stay as they were and the checker names each.
    public var strays: [String] { lock.withLock { strayPushes } }
    private var strayPushes: [String] = []
    private var made: [String: Int] = [:]
    /// When requests failed, by what was tried (an activity's pushes, or a game's channel
    /// requests) and the instance that tried them.
    private var failedAt: [Tries: [Date]] = [:]
    private struct Tries: Hashable, Comparable {
        var game: String
        /// The activity's platform; nil for the game's channel requests.
        var platform: PushRenderer.Platform?
        var instance: Int

        static func < (a: Tries, b: Tries) -> Bool {
            (a.game, a.platform?.rawValue ?? "", a.instance) < (b.game, b.platform?.rawValue ?? "", b.instance)
        }
    }
    /// The instance sending now (each starts its sink's backoff afresh).
    private var instance = 0
    /// When each instance started serving.
    private var instanceStarts: [Date] = []
    /// The channel deletes APNs answered: the game, the channel and when.
    private var deletes: [(game: String, channel: String, at: Date)] = []
    /// Every channel APNs made or deleted, in order (``ChannelChange``).
    private var channelChanges: [ChannelChange] = []
    /// When each game's channel requests reached APNs' channel service (answered or failed), in
    /// order.
    private var channelRequests: [String: [Date]] = [:]
    /// The day's push blips not yet met (``SimulatedDay/SinkFaults/pushBlips``).
    private var pushBlipsLeft: [SimulatedDay.SinkFaults.PushBlip]
    /// When each lane's pushes (by game, platform and instance) were last delivered (when they
    /// last failed is ``failedAt``'s).
    private var pushDelivered: [Tries: Date] = [:]
    /// The pushes a blip failed: their lane, when, and when the lane was next handed a push.
    private var pushBlipped: [(lane: Tries, at: Date, next: Date?)] = []
    /// When a blip failed a push of each game on `platform`'s lane (``SimulatedDay/SinkFaults/pushBlips``).
    public func blipped(on platform: PushRenderer.Platform) -> [String: [Date]] {
        lock.withLock { Dictionary(grouping: pushBlipped.filter { $0.lane.platform == platform }, by: \.lane.game).mapValues { $0.map(\.at) } }
    }
    /// The day's channel blips not yet met (``SimulatedDay/SinkFaults/channelBlips``), in order.
    private var blipsLeft: [Date]
    /// Each record handed to the instance's sink (``HandOffRecorder``): the instance, when.
    private var handOffs: [(record: PushRecord, instance: Int, at: Date)] = []
    /// When each record's latest try in an instance began.
    private var tries: [InInstance: Date] = [:]
    /// A record's key, or a lane's, within one instance (a new instance's sink starts empty).
    private struct InInstance: Hashable {
        var instance: Int
        var key: String
    }
    /// Each delivery: the instance that made it and when its try began.
    private var deliveries: [(record: PushRecord, instance: Int, began: Date)] = []
    /// When this instance's last channel request was answered, and when one last failed.
    private var channelAnswered: Date?
    private var channelFailed: Date?
    /// The channel requests a blip failed: the game, and when.
    private var blipped: [(game: String, at: Date)] = []
    /// When a blip failed a channel request (``SimulatedDay/SinkFaults/channelBlips``).
    public var channelBlipped: [Date] { lock.withLock { blipped.map(\.at) } }

    public init(faults: SimulatedDay.SinkFaults, seed: UInt64, clock: SimulatedClock) {
        self.faults = faults
        channels.deduplicatesCreates = faults.deduplicatesCreates
        blipsLeft = faults.channelBlips.sorted()
        pushBlipsLeft = faults.pushBlips.sorted { $0.at < $1.at }
        random = SeededRandom(seed: seed ^ 0x5E4D)
        self.clock = clock
    }

    /// A new instance starts on `clock`; the one before it is gone.
    public func serve(_ clock: SimulatedClock) {
        lock.withLock {
            self.clock = clock
            live = true
            instance += 1
            instanceStarts.append(clock.now)
            (channelAnswered, channelFailed) = (nil, nil)
        }
    }

    /// The instance sending now was killed: nothing more of it arrives.
    public func cutOff() { lock.withLock { live = false } }

    private var now: Date { lock.withLock { clock.now } }

    public func send(_ record: PushRecord) async throws {
        // What a killed instance still sends goes nowhere, at once: it draws nothing from the
        // day's randomness, so the next instance's sender does not depend on how the killed one
        // wound down.
        let sending = lock.withLock { () -> Bool in
            guard live else { return false }
            tries[InInstance(instance: instance, key: record.key)] = clock.now
            // The try after a blip, for its check.
            for index in pushBlipped.indices where pushBlipped[index].next == nil && clock.now > pushBlipped[index].at
            && pushBlipped[index].lane == Tries(game: record.game, platform: record.platform, instance: instance) {
                pushBlipped[index].next = clock.now
            }
            return true
        }
        guard sending else { return }
        if faults.slowest > 0 {
            let clock = lock.withLock { self.clock }
            let wait = lock.withLock { random.double(in: 0...faults.slowest) }
            do {
                try await clock.sleep(until: clock.now.addingTimeInterval(wait))
            } catch {
                lock.withLock { if live { triedRecords.append(record) } }
                throw error
            }
        }
        let now = self.now
        if faults.failing.contains(where: { $0.contains(now) }) {
            throw failed(record, "send", ScoreFeedError(.io, "the push sender answered 503"))
        }
        if faults.platformFailing.contains(where: { $0.platform == record.platform && $0.during.contains(now) }) {
            throw failed(record, "send (one platform)", ScoreFeedError(.io, "the push sender answered 503 for \(record.platform.rawValue)"))
        }
        if faults.gameFailing.contains(where: { $0.game == record.game && $0.during.contains(now) }) {
            throw failed(record, "send (one game)", ScoreFeedError(.io, "the push sender answered 500 for game \(record.game)'s push"))
        }
        let blip = lock.withLock { () -> Bool in
            let lane = Tries(game: record.game, platform: record.platform, instance: instance)
            guard live, let index = pushBlipsLeft.firstIndex(where: { $0.game == record.game && $0.at <= now }) else { return false }
            if pushBlipsLeft[index].anyLane {
                // Not on a lane still failing (its own backoff rightly waits longer).
                if let failed = failedAt[lane]?.last, (pushDelivered[lane] ?? .distantPast) < failed { return false }
            } else {
                guard let failed = failedAt[lane]?.last, let delivered = pushDelivered[lane], delivered > failed else { return false }
            }
            // Nor while the sink may count itself failing: a failure since the last delivery of a
            // push begun after it may be an outage's to it (a push begun before it may be older
            // than the outage: ``DeliveryQueue/delivered(activity:)``), and the blip one more
            // (seed 33, day 336 of `--days 500 --platform ios`: a game failing alone through a
            // quiet spell, none delivered between its failures, had the sink's backoff at 32 s,
            // and the blip made it a minute, for every game that had failed, until another game's
            // push went; seed 163, day 314 of `--days 400 --per-day 1-3`: a blip 2 s after an
            // outage, whose last retries went side by side with a push delivered after them,
            // waited out the outage's backoff, 47 s).
            let current = instance
            let lastFailure = failedAt.lazy.filter { $0.key.instance == current && $0.key.platform != nil }.compactMap(\.value.last).max()
            if let lastFailure, !deliveries.contains(where: { $0.instance == current && $0.began > lastFailure }) { return false }
            pushBlipsLeft.remove(at: index)
            pushBlipped.append((lane, now, nil))
            return true
        }
        if blip { throw failed(record, "send (a blip)", ScoreFeedError(.io, "the push sender's connection dropped")) }
        lock.withLock {
            guard live else { return }
            pushDelivered[Tries(game: record.game, platform: record.platform, instance: instance)] = now
            if record.request.path.hasPrefix("/4/broadcasts/") {
                let channel = record.request[header: "apns-channel-id"] ?? "none"
                if !channels.open.contains(channel) {
                    strayPushes.append("game \(record.game): \(record.event.rawValue) seq \(record.seq) went to channel \(channel), which APNs did not have open")
                }
            }
            records.append(record)
            deliveredAt.append(now)
            deliveries.append((record, instance, tries[InInstance(instance: instance, key: record.key)] ?? now))
        }
    }

    /// `record` was handed to the running instance's sink now (``HandOffRecorder``).
    func handed(_ record: PushRecord) {
        lock.withLock {
            guard live else { return }
            handOffs.append((record, instance, clock.now))
        }
    }

    /// Updates delivered though a newer state of their lane (an update or end, not their own
    /// priority-5 copy) was handed to the same instance's sink before the try that delivered them
    /// began: the sink's queue keeps only a game's newest state of what waits (one that fails in
    /// flight included), so after an outage a lock screen does not run through old scores. Said as
    /// the checker says a violation; and how many deliveries were held to it (each a check).
    public func olderStatesSent() -> (checks: Int, violations: [String]) {
        lock.withLock {
            var byLane: [InInstance: [(record: PushRecord, at: Date)]] = [:]
            for handOff in handOffs where handOff.record.event != .start {
                byLane[InInstance(instance: handOff.instance, key: DeliveryQueue.lane(of: handOff.record)), default: []].append((handOff.record, handOff.at))
            }
            var checks = 0
            var violations: [String] = []
            for delivery in deliveries where delivery.record.event == .update {
                checks += 1
                let older = delivery.record
                guard let newer = byLane[InInstance(instance: delivery.instance, key: DeliveryQueue.lane(of: older))]?.first(where: {
                    $0.record.seq > older.seq && $0.at < delivery.began && !$0.record.isPriority5Copy(of: older)
                }) else { continue }
                violations.append(
                    "game \(older.game): update seq \(older.seq) (\(older.platform.rawValue)) was tried \(JSONText.number(delivery.began.timeIntervalSince(newer.at))) s after seq \(newer.record.seq) (\(newer.record.event.rawValue)), a newer state, was handed to the sender, and was delivered: the queue keeps only the newest state of what waits")
            }
            return (checks, violations)
        }
    }

    /// Tries that came later than `backoff` allows while the sender failed every push
    /// (``SimulatedDay/SinkFaults/failing``). The sink counts its failures since a delivery: a
    /// round of retries failed side by side once, and each activity's first try (a probe, which
    /// an activity that has not failed may always make) once; its next try comes within the wait
    /// that count earns at its longest (and `leeway`). A retry loop that sleeps past what is due,
    /// or a count that grows by a round's every failure, waits longer. By instance (one sink
    /// sends every platform's pushes; an activity's iOS and Android lanes are two).
    /// Only on days whose sender answers at once (a slow one spreads a round over its sends) and
    /// fails no game's or platform's pushes alone (an activity seen failing alone keeps its own,
    /// longer backoff). And once a delivery ends the outage, each activity that failed in it is
    /// tried again within `leeway` (the sink's backoff is over for all). Said as the checker says
    /// a violation; and how many waits were held to it (each a check).
    public func retriedLateInOutages(backoff: Backoff, leeway: TimeInterval = 1) -> (checks: Int, violations: [String]) {
        guard faults.slowest == 0, !faults.failing.isEmpty, faults.gameFailing.isEmpty, faults.platformFailing.isEmpty,
              faults.pushBlips.isEmpty
        else { return (0, []) }
        return lock.withLock {
            struct Activity: Hashable { var game: String, platform: PushRenderer.Platform }
            var tries: [Int: [(at: Date, activity: Activity, failed: Bool)]] = [:]
            for (lane, times) in failedAt {
                guard let platform = lane.platform else { continue }
                tries[lane.instance, default: []] += times.map { ($0, Activity(game: lane.game, platform: platform), true) }
            }
            for delivery in deliveries {
                tries[delivery.instance, default: []].append((delivery.began, Activity(game: delivery.record.game, platform: delivery.record.platform), false))
            }
            var checks = 0
            var violations: [String] = []
            for (instance, all) in tries.sorted(by: { $0.key < $1.key }) {
                let instants = Dictionary(grouping: all, by: \.at).sorted { $0.key < $1.key }
                var failures = 0
                var failing: Set<Activity> = []
                /// A delivery at instant `index` ends the outage for every activity: each one that
                /// failed in it goes again at once, not at the end of the wait its failures earned.
                func triedAgainAtOnce(after index: Int) {
                    let at = instants[index].key
                    for activity in failing.sorted(by: { ($0.game, $0.platform.rawValue) < ($1.game, $1.platform.rawValue) }) {
                        guard let next = instants[index...].first(where: { $0.value.contains { $0.activity == activity } })?.key else { continue }
                        checks += 1
                        guard next.timeIntervalSince(at) > leeway else { continue }
                        violations.append(
                            "pushes (instance \(instance)): game \(activity.game) (\(activity.platform.rawValue)) failed in an outage and was tried again \(JSONText.number(next.timeIntervalSince(at))) s after a delivery at +\(JSONText.number(at.timeIntervalSince(instanceStarts.first ?? at))) s of the day's first instance ended it (at most \(JSONText.number(leeway)) s)")
                    }
                }
                for (index, (at, attempts)) in instants.enumerated() {
                    guard attempts.allSatisfy(\.failed) else {
                        if failures > 0, !faults.failing.contains(where: { $0.contains(at) }) { triedAgainAtOnce(after: index) }
                        failures = 0
                        failing = []
                        continue
                    }
                    let probes = attempts.filter { !failing.contains($0.activity) }.count
                    failures += probes + (probes < attempts.count ? 1 : 0)
                    failing.formUnion(attempts.map(\.activity))
                    guard index + 1 < instants.count, faults.failing.contains(where: { $0.contains(at) }) else { continue }
                    checks += 1
                    let longest = backoff.delay(afterFailure: failures, random: 0)
                    let wait = instants[index + 1].key.timeIntervalSince(at)
                    guard wait > longest + leeway else { continue }
                    violations.append(
                        "pushes (instance \(instance)): after the sender's failure \(failures) since a delivery, at +\(JSONText.number(at.timeIntervalSince(instanceStarts.first ?? at))) s of the day's first instance, the next try came \(JSONText.number(wait)) s later, where the backoff waits \(JSONText.number(longest)) s at most")
                }
            }
            return (checks, violations)
        }
    }

    /// Counts a failed send of `record` by `kind`, keeps the record as tried, and returns `error`.
    private func failed(_ record: PushRecord, _ kind: String, _ error: ScoreFeedError) -> ScoreFeedError {
        lock.withLock {
            failures[kind, default: 0] += 1
            triedRecords.append(record)
            failedAt[Tries(game: record.game, platform: record.platform, instance: instance), default: []].append(clock.now)
        }
        return error
    }

    /// Lanes whose push, failed alone by a blip (``SimulatedDay/SinkFaults/pushBlips``: the lane's
    /// pushes failed before and were delivered since), was not tried again within `tail` (the
    /// sink's first wait and the activity's own, a second each; and a slow sender's sends ahead),
    /// said as the checker says a violation; and how many were held to it (each a check). Not
    /// where another trouble or an instance's start falls in the tail.
    public func pushBlipsRetriedLate(tail: TimeInterval, troubles: [Range<Date>] = []) -> (checks: Int, violations: [String]) {
        lock.withLock {
            retriedLate(pushBlipped.map { ($0.lane.game, $0.at, $0.next.map { [$0] } ?? []) }, tail: tail, troubles: troubles) { blip, after, most in
                "game \(blip.game): its push, failed alone by a blip, was tried again \(after) s later (at most \(most) s)"
            }
        }
    }

    /// Of `blips` (each a request a blip failed: its game, when, and when what it tried was tried
    /// at all), those not tried again within `tail` and five of a slow sender's slowest sends
    /// (the sends ahead of the request: a delete waits for the game's pushes), each said by
    /// `saying` (the blip, how many seconds after, the most); and how many were held to it. Not
    /// where another trouble (the sender's, or `others`: the disk's, whose engines send nothing
    /// while it is full) or an instance's start falls in the tail, or before the next try.
    /// Called under the lock.
    private func retriedLate(
        _ blips: [(game: String, at: Date, tries: [Date])], tail: TimeInterval, troubles others: [Range<Date>],
        saying: ((game: String, at: Date, tries: [Date]), String, Int) -> String
    ) -> (checks: Int, violations: [String]) {
        let tail = tail + 5 * faults.slowest
        var checks = 0
        var violations: [String] = []
        for blip in blips {
            let within = blip.at..<blip.at.addingTimeInterval(tail)
            let troubles = faults.channelOutages + faults.failing(nil) + faults.gameFailing.filter { $0.game == blip.game }.map(\.during) + others
            guard !troubles.contains(where: { $0.overlaps(within) }), !instanceStarts.contains(where: { within.contains($0) }),
                  let next = blip.tries.first(where: { $0 > blip.at }), !instanceStarts.contains(where: { $0 > blip.at && $0 <= next })
            else { continue }
            checks += 1
            guard next.timeIntervalSince(blip.at) > tail else { continue }
            violations.append(saying(blip, JSONText.number(next.timeIntervalSince(blip.at)), Int(tail)))
        }
        return (checks, violations)
    }

    /// Requests tried more often while they failed than `backoff` allows: in each window of
    /// failures (of every push, or of its game's; of APNs' channel service), an instance tries an
    /// activity's pushes, or a game's channel requests, at most once more than the waits of a
    /// backoff drawn at its shortest fit in the window, twice over (the sink's backoff and the
    /// activity's own may each start afresh once in it). Said as the checker says a violation;
    /// and how many windows were held to it (each a check).
    public func triedTooOften(backoff: Backoff) -> (checks: Int, violations: [String]) {
        let attempts = lock.withLock { failedAt }
        var checks = 0
        var violations: [String] = []
        for (tries, times) in attempts.sorted(by: { $0.key < $1.key }) {
            let windows = tries.platform == nil
                ? faults.channelOutages : faults.failing(tries.platform) + faults.gameFailing.filter { $0.game == tries.game }.map(\.during)
            for window in windows {
                let inWindow = times.filter { window.contains($0) }
                guard !inWindow.isEmpty else { continue }
                checks += 1
                let length = window.upperBound.timeIntervalSince(window.lowerBound)
                let allowed = 2 * Self.tries(in: length, backoff: backoff) + 1
                guard inWindow.count > allowed else { continue }
                let what = tries.platform.map { "activity \(tries.game) \($0.rawValue)'s pushes" } ?? "game \(tries.game)'s channel requests"
                let waits = zip(inWindow, inWindow.dropFirst()).prefix(12).map { JSONText.number($1.timeIntervalSince($0)) }
                violations.append(
                    "\(what) (instance \(tries.instance)) were tried \(inWindow.count) times in \(Int(length)) s of failures, where a backoff allows \(allowed) (the first waits: \(waits.joined(separator: ", ")) s)")
            }
        }
        return (checks, violations)
    }

    /// Channels deleted before `linger` had passed since their game's last end was delivered to
    /// them (within one instance, even for an end the sender delivered only after failing it; an
    /// end a restart sent again starts the linger afresh), said as the checker says a violation;
    /// and how many deletes were held to it (each a check). Devices that missed the end get it
    /// from the channel while it lingers.
    public func deletedTooSoon(linger: TimeInterval) -> (checks: Int, violations: [String]) {
        // The engine counts the linger from its own moment, up to a slow request's length (and
        // a second) before the sender's delivery.
        let leeway = faults.slowest + 1
        return lock.withLock {
            var checks = 0
            var violations: [String] = []
            for delete in deletes {
                // The last end it got before the delete (its priority-5 copy, or an end sent again).
                guard let last = records.indices.last(where: {
                    records[$0].event == .end && records[$0].request[header: "apns-channel-id"] == delete.channel && deliveredAt[$0] <= delete.at
                }) else { continue }
                let end = deliveredAt[last]
                if instanceStarts.contains(where: { $0 > end && $0 <= delete.at }) { continue }
                checks += 1
                if delete.at.addingTimeInterval(leeway) < end.addingTimeInterval(linger) {
                    violations.append(
                        "game \(delete.game): its channel was deleted \(JSONText.number(delete.at.timeIntervalSince(end))) s after its end was delivered, not \(Int(linger)) s")
                }
            }
            return (checks, violations)
        }
    }

    /// A channel APNs made or deleted: which, whether it was made (else deleted), the game its
    /// request named (nil: a reconciliation's delete of a channel no game owned) and the instance
    /// that asked, and when.
    public struct ChannelChange: Hashable, Sendable {
        public var channel: String
        public var opened: Bool
        public var game: String?
        public var instance: Int
        public var at: Date

        public init(channel: String, opened: Bool, game: String?, instance: Int, at: Date) {
            (self.channel, self.opened, self.game, self.instance, self.at) = (channel, opened, game, instance, at)
        }
    }

    /// Every channel APNs made or deleted, in order.
    var channelHistory: [ChannelChange] { lock.withLock { channelChanges } }

    /// Whether APNs had a channel made for `game` open at `date` (made by then, not deleted).
    public func hasChannelOpen(for game: String, at date: Date) -> Bool {
        lock.withLock {
            let made = Set(channelChanges.filter { $0.opened && $0.game == game && $0.at <= date }.map(\.channel))
            let deleted = Set(channelChanges.filter { !$0.opened && $0.at <= date }.map(\.channel))
            return !made.subtracting(deleted).isEmpty
        }
    }

    /// The most channels open at once at APNs among those ScoreFeed counts against its cap, over
    /// `changes` (in order), and the first moment it was reached (nil: none opened). A channel a
    /// reconciliation deleted as no game's (a create whose answer a kill lost, or one of an
    /// instance whose state directory was lost) is counted only while the instance that made it
    /// runs: the next one cannot know it until it lists APNs' channels, and deletes it then.
    public static func mostOpen(_ changes: [ChannelChange]) -> (most: Int, at: Date?) {
        let ownerless = Set(changes.filter { !$0.opened && $0.game == nil }.map(\.channel))
        var open: [String: Int] = [:]
        var most = (most: 0, at: nil as Date?)
        for change in changes {
            // A later instance's request: the ownerless channels of those before it are not its.
            open = open.filter { channel, instance in instance >= change.instance || !ownerless.contains(channel) }
            if change.opened { open[change.channel] = change.instance } else { open[change.channel] = nil }
            if open.count > most.most { most = (open.count, change.at) }
        }
        return most
    }

    /// On a day with `--max-channels` `cap`, whether more channels than the cap were ever open at
    /// once at APNs (``mostOpen(_:)``), said as the checker says a violation; and how many creates
    /// were held to it (each a check). The cap is what keeps ScoreFeed within APNs' own limit.
    public func channelsOverCap(_ cap: Int, dayStart: Date) -> (checks: Int, violations: [String]) {
        lock.withLock {
            let creates = channelChanges.filter(\.opened).count
            let most = Self.mostOpen(channelChanges)
            guard most.most > cap, let at = most.at else { return (creates, []) }
            return (creates, [
                "\(most.most) channels were open at once at APNs at +\(JSONText.number(at.timeIntervalSince(dayStart))) s, more than --max-channels allows (\(cap))"
            ])
        }
    }

    /// How long a channel lingers after its game's end is delivered
    /// (``PushRenderer/Configuration/defaultChannelLinger``, written out as
    /// ``expectedBackoff`` is).
    public static let expectedLinger: TimeInterval = 120

    /// The backoff a sender that fails is held to: doubling from 1 s to a minute, up to half of
    /// each wait taken off at random (``ResilientSink/Options``' default, written out: the check
    /// must not read the value it checks).
    public static let expectedBackoff = Backoff(initial: 1, multiplier: 2, maximum: 60, jitter: 0.5)

    /// How many tries fit in `seconds` when each wait after a failure is `backoff`'s shortest.
    static func tries(in seconds: TimeInterval, backoff: Backoff) -> Int {
        var tries = 1
        var elapsed: TimeInterval = 0
        while tries < 100_000 {
            elapsed += backoff.delay(afterFailure: tries, random: 1)
            guard elapsed <= seconds else { break }
            tries += 1
        }
        return tries
    }

    /// Games whose channel work, failed in an outage of APNs' channel service, was tried again
    /// later than `tail` after the outage's end (the sink's wait and the game's own backoff, each
    /// at its longest), said as the checker says a violation; and how many such retries were
    /// held to it (each a check). The tail runs from the end of another outage or of the
    /// sender's failing its pushes that begins before it is over (a delete waits for the pushes
    /// before it), or of `others` (the disk's: its engines send nothing while it is full). A game
    /// that never tries again, or tries only after an instance started again, is left to the
    /// checks of its pushes.
    public func channelsRetriedLate(tail: TimeInterval, troubles others: [Range<Date>] = []) -> (checks: Int, violations: [String]) {
        // A slow sender's sends ahead of the request add their time, as many as wait.
        guard faults.slowest == 0 else { return (0, []) }
        return lock.withLock {
            var checks = 0
            var violations: [String] = []
            for (game, times) in channelRequests.sorted(by: { $0.key < $1.key }) {
                // Another outage, or the sender failing, before a tail is over moves its start.
                let troubles = (faults.channelOutages + faults.failing(.ios) + faults.gameFailing.filter { $0.game == game }.map(\.during) + others)
                    .sorted { $0.lowerBound < $1.lowerBound }
                var seen: Set<Date> = []
                for outage in faults.channelOutages {
                    // (Two outages that overlap see one failure once.)
                    guard let failed = times.last(where: { outage.contains($0) }), seen.insert(failed).inserted,
                          let next = times.first(where: { $0 > failed })
                    else { continue }
                    // An instance started since may not know the work (a lost state directory):
                    // its next request waits on its own first answers, left to the other checks.
                    if instanceStarts.contains(where: { $0 > failed && $0 <= next }) { continue }
                    var from = outage.upperBound
                    for window in troubles where window.lowerBound <= from.addingTimeInterval(tail) && window.upperBound > failed {
                        from = max(from, window.upperBound)
                    }
                    checks += 1
                    guard next.timeIntervalSince(from) > tail else { continue }
                    violations.append(
                        "game \(game): its channel work, failed in APNs' channel outage, was tried again \(JSONText.number(next.timeIntervalSince(from))) s after the service was back (at most \(Int(tail)) s)")
                }
            }
            return (checks, violations)
        }
    }

    /// Games whose first channel create, failed alone by a blip (``SimulatedDay/SinkFaults/channelBlips``:
    /// its instance's sink had failures before and answers since), was not tried again within `tail`
    /// (the sink's first wait and the game's first retry, a second or two each; and a slow
    /// sender's sends ahead), said as the checker says a violation; and how many were held to it
    /// (each a check). Not where another trouble or an instance's start falls in the tail.
    public func blipsRetriedLate(tail: TimeInterval, troubles: [Range<Date>] = []) -> (checks: Int, violations: [String]) {
        lock.withLock {
            retriedLate(blipped.map { ($0.game, $0.at, channelRequests[$0.game] ?? []) }, tail: tail, troubles: troubles) { blip, after, most in
                "game \(blip.game): its first channel create, failed alone by a blip (answers since the failures before it), was tried again \(after) s later (at most \(most) s)"
            }
        }
    }

    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        let now = self.now
        if let game = request.game { lock.withLock { channelRequests[game, default: []].append(now) } }
        if faults.channelOutages.contains(where: { $0.contains(now) }) {
            lock.withLock {
                failures["channel outage", default: 0] += 1
                if let game = request.game { failedAt[Tries(game: game, platform: nil, instance: instance), default: []].append(now) }
                if request.action == .create, let game = request.game { unmade.insert(game) }
                channelFailed = now
            }
            throw ScoreFeedError(.io, "APNs' channel service did not answer")
        }
        // A blip waits for a game's first create in an instance whose channel requests failed
        // before and were answered since: its sink must have forgotten those failures. A first
        // create, more than the sink's longest wait and a game's longest retry after the last
        // failure: no backoff of the game's own has grown (a delete may have waited behind its
        // game's pushes; a create announced in the outage was refused by the sink itself, its
        // retries growing, until its first request reached APNs, at most that long after).
        let blip = lock.withLock { () -> Bool in
            guard live, request.action == .create, let game = request.game, let first = blipsLeft.first, first <= now,
                  !(channelRequests[game] ?? []).dropLast().contains(where: { $0 >= (instanceStarts.last ?? .distantPast) }),
                  let failed = channelFailed, let answered = channelAnswered, answered > failed,
                  now > failed.addingTimeInterval(SimulationInvariants.channelRetryTail + 1)
            else { return false }
            blipsLeft.removeFirst()
            failures["channel blip", default: 0] += 1
            blipped.append((game, now))
            unmade.insert(game)
            channelFailed = now
            return true
        }
        if blip { throw ScoreFeedError(.io, "APNs' channel service dropped the connection") }
        return lock.withLock { () -> ChannelAnswer? in
            guard live else { return nil }
            channelAnswered = now
            if request.action == .create, faults.channelRefusals > 0, random.chance(faults.channelRefusals) {
                failures["channel refused", default: 0] += 1
                return ChannelAnswer(status: 429, reason: "TooManyRequests")
            }
            if request.action == .delete, let channel = request.request[header: "apns-channel-id"], channels.open.contains(channel),
               faults.deleteRefusals.contains(where: { $0.contains(now) }) {
                failures["channel delete refused", default: 0] += 1
                refusedDeletes.insert(channel)
                return ChannelAnswer(status: 403, reason: "Forbidden")
            }
            let answer = channels.answer(request)
            if request.action == .delete, answer.status == 200, let channel = request.request[header: "apns-channel-id"] {
                if let game = request.game { deletes.append((game, channel, clock.now)) }
                channelChanges.append(ChannelChange(channel: channel, opened: false, game: request.game, instance: instance, at: clock.now))
            }
            if request.action == .create, answer.status == 200, let game = request.game {
                made[game, default: 0] += 1
                unmade.remove(game)
                if let channel = answer.channelID {
                    channelChanges.append(ChannelChange(channel: channel, opened: true, game: game, instance: instance, at: clock.now))
                }
            }
            return answer
        }
    }
}

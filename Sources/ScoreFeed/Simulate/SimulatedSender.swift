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
    /// When each activity's sends failed, by activity and instance (`game platform instance`).
    private var failedAt: [String: [Date]] = [:]
    /// The instance sending now (each starts its sink's backoff afresh).
    private var instance = 0

    public init(faults: SimulatedDay.SinkFaults, seed: UInt64, clock: SimulatedClock) {
        self.faults = faults
        random = SeededRandom(seed: seed ^ 0x5E4D)
        self.clock = clock
    }

    /// A new instance starts on `clock`; the one before it is gone.
    public func serve(_ clock: SimulatedClock) {
        lock.withLock {
            self.clock = clock
            live = true
            instance += 1
        }
    }

    /// The instance sending now was killed: nothing more of it arrives.
    public func cutOff() { lock.withLock { live = false } }

    private var now: Date { lock.withLock { clock.now } }

    public func send(_ record: PushRecord) async throws {
        // What a killed instance still sends goes nowhere, at once: it draws nothing from the
        // day's randomness, so the next instance's sender does not depend on how the killed one
        // wound down.
        guard lock.withLock({ live }) else { return }
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
        if faults.gameFailing.contains(where: { $0.game == record.game && $0.during.contains(now) }) {
            throw failed(record, "send (one game)", ScoreFeedError(.io, "the push sender answered 500 for game \(record.game)'s push"))
        }
        lock.withLock {
            guard live else { return }
            if record.request.path.hasPrefix("/4/broadcasts/") {
                let channel = record.request.headers["apns-channel-id"] ?? "none"
                if !channels.open.contains(channel) {
                    strayPushes.append("game \(record.game): \(record.event.rawValue) seq \(record.seq) went to channel \(channel), which APNs did not have open")
                }
            }
            records.append(record)
            deliveredAt.append(now)
        }
    }

    /// Counts a failed send of `record` by `kind`, keeps the record as tried, and returns `error`.
    private func failed(_ record: PushRecord, _ kind: String, _ error: ScoreFeedError) -> ScoreFeedError {
        lock.withLock {
            failures[kind, default: 0] += 1
            triedRecords.append(record)
            failedAt["\(record.game) \(record.platform.rawValue) \(instance)", default: []].append(clock.now)
        }
        return error
    }

    /// An activity's sends tried more often while the sender failed than `backoff` allows: in
    /// each window of failures (every push, or its game's), an instance tries an activity at most
    /// once more than the waits of a backoff drawn at its shortest fit in the window, twice over
    /// (the sink's backoff and the activity's own may each start afresh once in it), said as the
    /// checker says a violation; and how many windows were held to it (each a check).
    public func triedTooOften(backoff: Backoff) -> (checks: Int, violations: [String]) {
        let attempts = lock.withLock { failedAt }
        var checks = 0
        var violations: [String] = []
        for (key, times) in attempts.sorted(by: { $0.key < $1.key }) {
            let game = String(key.prefix { $0 != " " })
            let windows = faults.failing + faults.gameFailing.filter { $0.game == game }.map(\.during)
            for window in windows {
                let inWindow = times.filter { window.contains($0) }
                let tries = inWindow.count
                guard tries > 0 else { continue }
                checks += 1
                let allowed = 2 * Self.tries(in: window.upperBound.timeIntervalSince(window.lowerBound), backoff: backoff) + 1
                if tries > allowed {
                    violations.append("activity \(key.split(separator: " ").prefix(2).joined(separator: " ")) (instance \(key.split(separator: " ").last ?? "")): its pushes were tried \(tries) times in \(Int(window.upperBound.timeIntervalSince(window.lowerBound))) s of failures, where a backoff allows \(allowed) (the first waits: \(zip(inWindow, inWindow.dropFirst()).prefix(12).map { JSONText.number($1.timeIntervalSince($0)) }.joined(separator: ", ")) s)")
                }
            }
        }
        return (checks, violations)
    }

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

    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        let now = self.now
        if faults.channelOutages.contains(where: { $0.contains(now) }) {
            lock.withLock { failures["channel outage", default: 0] += 1 }
            throw ScoreFeedError(.io, "APNs' channel service did not answer")
        }
        return lock.withLock { () -> ChannelAnswer? in
            guard live else { return nil }
            if request.action == .create, faults.channelRefusals > 0, random.chance(faults.channelRefusals) {
                failures["channel refused", default: 0] += 1
                return ChannelAnswer(status: 429, reason: "TooManyRequests")
            }
            let answer = channels.answer(request)
            if request.action == .create, answer.status == 200, let game = request.game { made[game, default: 0] += 1 }
            return answer
        }
    }
}

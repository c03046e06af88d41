import Foundation
import ScoreFeedModel

/// Everything one game has applied, spent and sent, in one value: the applied events and the
/// scoreboard (the fold), and for each platform it pushes to (``lanes``: iOS, Android, or both)
/// the push policy, the renderer's numbering and the rendered pushes not yet handed to the sink
/// (the outbox), and in iOS broadcast mode the game's channel. Pure: each call is
/// handed `now` and says what to do by filling the outbox; ``MatchEngine`` and `serve` only drive
/// it, checkpoint it (its own `Codable` form is the snapshot, and the calls that changed it since
/// are the journal: ``Input``) and empty the outbox into the sink.
///
/// The rules of applying an event (identity, edits, the feed's running score) are
/// ``GameFold``'s; the session counts what the fold did in ``Statistics`` and hands each change
/// to the policy.
public struct GameSession: Sendable {
    public let attributes: GameAttributes
    /// The applied events and the scoreboard: the one record of what this game has seen.
    public internal(set) var fold: GameFold
    /// Each platform's decisions on the one fold, in the order their pushes are handed to the
    /// sink when several are due together: one lane, or iOS's then Android's.
    public internal(set) var lanes: [PlatformLane]
    /// Feed time of the newest event folded so far.
    public internal(set) var newestSourceTime: Date?
    /// When the newest copy of the game's feed that was handed over was written (its liveData
    /// `meta.time` from a poll, the moment its Eastern wall-clock time stands for; a checkpoint
    /// or journal from a ScoreFeed that kept it as read, as if UTC, is read back as the moment): a restarted poller refuses an older copy from a stale CDN edge by
    /// it (see ``NewestCopy/init(floor:)``), as the newest action number cannot tell one in a feed
    /// that numbers an early action highest.
    public internal(set) var newestCopy: Date?
    /// The game's moment when it last applied an event (accepted or edited): where a game called
    /// off stops its clock.
    public internal(set) var lastEventAt: Date?
    public internal(set) var statistics = Statistics()
    /// The latest time the session was handed: the game's clock when it is checkpointed.
    public internal(set) var now: Date
    /// The game's broadcast channel, in broadcast mode with a channel per game (see
    /// ``needsChannel``): its pushes leave only while it is open, stamped with its id.
    public internal(set) var channel = BroadcastChannel()
    /// The activity's `start` and the game's `end` (and its copy) as handed to the sink, kept
    /// until the sink holds none of the game's records (``confirmKept()``) or, for an end on a
    /// channel ScoreFeed made, until its delete: a sink that holds records in memory
    /// (``ResilientSink``, while its endpoint is down) may lose them in a crash, and a restart then
    /// sends them again, the same bytes. No later push makes up for either: without its start a
    /// device shows nothing of the game, without its end a stale score.
    public internal(set) var keptRecords: [PushRecord] = []

    /// Changes taken in since ``beginArrival()``, while an arrival is open (nil: none is): the
    /// policy decides once, at ``endArrival(now:)``. Checkpointed open only while a catch-up
    /// waits for the rest of its backlog (``settling``).
    public internal(set) var arrival: Int?
    /// The feed times the open arrival's changes span: a catch-up spans minutes, a live moment
    /// seconds.
    var arrivalSpan: ClosedRange<Date>?
    /// A catch-up whose decision waits for the rest of its backlog (see
    /// ``endArrival(now:settling:)``); nil when none waits.
    public internal(set) var settling: Settling?

    /// How long a catch-up's decision still waits.
    public struct Settling: Hashable, Sendable, Codable {
        /// When it is decided, unless another part of the backlog comes first.
        public var until: Date
        /// When it began to wait: it waits ``GameSession/settlingParts`` windows at most.
        public var since: Date
    }

    /// The most windows a catch-up's decision waits for its parts, counted from the first: a
    /// backlog that keeps coming is decided on what came by then, and the rest is a new moment.
    public static let settlingParts: Double = 10

    /// Whether the session records each call that changes it in ``unjournaled`` (an engine
    /// with a journal sets it); not part of the saved form.
    public var recordsInputs = false
    /// The calls that changed the session since the engine last journaled them (see ``Input``).
    public internal(set) var unjournaled: [Input] = []
    /// How many inputs the engine has taken for the journal since the game began: the number of
    /// the last one journaled, which a snapshot holds so a journal entry is never applied twice.
    public internal(set) var journaled = 0

    /// Counts of what the game has seen and done.
    public struct Statistics: Hashable, Sendable, Codable {
        public var accepted = 0
        public var duplicates = 0
        /// Events applied again with other content (the feed editing them).
        public var edits = 0
        public var rejected = 0
        /// Times the fold's score differed from the feed's running score and followed it.
        public var corrections = 0
        public var pushes = 0
        public var priority10 = 0
        public var priority5 = 0
        /// Pushes the renderer refused (over the APNs size limit even trimmed); never sent.
        public var refused = 0
        /// Updates dropped while the game had no channel to send on, or while its checkpoint
        /// could not be written, because a newer state waited behind them.
        public var superseded = 0
        /// Pushes handed to the sink (each once, as it leaves the outbox), by priority and event:
        /// what the sink was given, which `--metrics` reports.
        public var handed: [Handed: Int] = [:]
        /// Of the pushes handed to the sink, the priority 10s sent beyond the budget the policy
        /// assumes (their reason says ``Push/beyondBudget``).
        public var beyondBudget = 0
        /// Times the game came back after it was called off (its feed brought new events).
        public var reopened = 0
        /// Copies of the game's feed ignored as older than one already seen (a stale CDN edge's:
        /// see ``NewestCopy``).
        public var staleCopies = 0

        public init() {}

        /// A kind of push handed to the sink: its lane (``GameSession/lanes``), priority and event.
        public struct Handed: Hashable, Sendable {
            /// 0: the first lane (the only one, on one platform).
            public var lane: Int
            public var priority: Int
            public var event: Push.Event

            public init(lane: Int = 0, priority: Int, event: Push.Event) {
                self.lane = lane
                self.priority = priority
                self.event = event
            }

            /// How a checkpoint spells it, as a key: `"10 update"` for the first lane (as before
            /// lanes existed), `"lane 1 10 update"` for the next.
            var key: String { (lane == 0 ? "" : "lane \(lane) ") + "\(priority) \(event.rawValue)" }

            /// The kind a checkpoint's key names; nil for a key this version does not know.
            init?(key: String) {
                var parts = key.split(separator: " ")
                var lane = 0
                if parts.count == 4, parts[0] == "lane", let named = Int(parts[1]), named > 0 {
                    lane = named
                    parts.removeFirst(2)
                }
                guard parts.count == 2, let priority = Int(parts[0]), let event = Push.Event(rawValue: String(parts[1])) else { return nil }
                self.init(lane: lane, priority: priority, event: event)
            }
        }

        enum CodingKeys: String, CodingKey {
            case accepted, duplicates, edits, rejected, corrections, pushes, priority10, priority5, refused, superseded, handed,
                beyondBudget, reopened, staleCopies
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func count(_ key: CodingKeys) throws -> Int { try c.decodeIfPresent(Int.self, forKey: key) ?? 0 }
            accepted = try count(.accepted)
            duplicates = try count(.duplicates)
            edits = try count(.edits)
            rejected = try count(.rejected)
            corrections = try count(.corrections)
            pushes = try count(.pushes)
            priority10 = try count(.priority10)
            priority5 = try count(.priority5)
            refused = try count(.refused)
            superseded = try count(.superseded)
            let keyed = try c.decodeIfPresent([String: Int].self, forKey: .handed) ?? [:]
            handed = Dictionary(keyed.compactMap { key, count in Handed(key: key).map { ($0, count) } }, uniquingKeysWith: +)
            beyondBudget = try count(.beyondBudget)
            reopened = try count(.reopened)
            staleCopies = try count(.staleCopies)
        }

        /// The counts; ``handed`` and ``beyondBudget`` only when there are any, so a checkpoint
        /// that has none keeps the form earlier versions wrote.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            for (key, value) in [(CodingKeys.accepted, accepted), (.duplicates, duplicates), (.edits, edits), (.rejected, rejected),
                                 (.corrections, corrections), (.pushes, pushes), (.priority10, priority10), (.priority5, priority5),
                                 (.refused, refused), (.superseded, superseded)] {
                try c.encode(value, forKey: key)
            }
            if !handed.isEmpty {
                try c.encode(Dictionary(handed.map { ($0.key.key, $0.value) }, uniquingKeysWith: +), forKey: .handed)
            }
            if beyondBudget > 0 { try c.encode(beyondBudget, forKey: .beyondBudget) }
            if reopened > 0 { try c.encode(reopened, forKey: .reopened) }
            if staleCopies > 0 { try c.encode(staleCopies, forKey: .staleCopies) }
        }
    }

    public init(
        attributes: GameAttributes, policy: any PushPolicy = Coalescer(),
        renderer: PushRenderer.Configuration = .init(), initialState: GameState = GameState(),
        now: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.attributes = attributes
        lanes = [PlatformLane(attributes: attributes, policy: policy, renderer: renderer, state: initialState)]
        fold = GameFold(state: initialState)
        self.now = now
    }

    /// Pushes the game to one more platform too (`--platform ios,android`), from the same fold:
    /// a new game's, before its first input.
    public mutating func addLane(policy: any PushPolicy, renderer: PushRenderer.Configuration) {
        lanes.append(PlatformLane(attributes: attributes, policy: policy, renderer: renderer, state: fold.state))
    }

    /// The state after every event applied so far.
    public var state: GameState { fold.state }

    /// Whether the `end` has been decided and rendered: the game pushes nothing more. The policy
    /// owns it (its phase); the feed's own game end is ``GameFold/sawGameEnd``.
    public var hasEnded: Bool {
        // By index: iterating the lanes would copy each (its policy, renderer and outbox retained).
        lanes.count == 1 ? lanes[0].policy.hasEnded : lanes.indices.allSatisfy { lanes[$0].policy.hasEnded }
    }

    /// When the policy (or the channel's linger) next wants ``tick(now:)`` called.
    /// A linger already over is not a deadline: the delete is the engine's to send (it waits
    /// for the sink, and is retried, backing off, with the game's other channel work).
    public var deadline: Date? {
        // A catch-up waiting for its parts decides before anything else moves.
        if let settling { return settling.until }
        let due = policyDeadline
        guard let linger = channel.deadline, linger > now else { return due }
        return min(due ?? linger, linger)
    }

    /// The soonest moment a lane's policy wants ``tick(now:)``.
    var policyDeadline: Date? {
        if lanes.count == 1 { return lanes[0].policy.deadline }
        return lanes.lazy.compactMap(\.policy.deadline).min()
    }

    /// What ``receive(_:index:now:)`` would say of `event`, changing nothing.
    public func verdict(_ event: GameEvent, index: Int) -> EventValidator.Verdict {
        fold.verdict(event, index: index)
    }

    /// Validates `event` (found at `index` in its feed), folds it, follows the feed's score and
    /// lets the policy decide at `now`; pushes to send land in ``outbox``.
    @discardableResult
    public mutating func receive(_ event: GameEvent, index: Int, now: Date) -> EventValidator.Verdict {
        receive(event, index: index, judged: fold.verdict(event, index: index), now: now)
    }

    /// Receives `event` as ``verdict(_:index:)`` judged it, when only time has passed since (the
    /// feed-time path judges first, to move the clock only for an event the game takes).
    @discardableResult
    mutating func receive(
        _ event: GameEvent, index: Int, judged verdict: EventValidator.Verdict, now: Date
    ) -> EventValidator.Verdict {
        record(.receive(event, index: index, now: now))
        switch verdict {
        case .duplicate: statistics.duplicates += 1
        // A line the game cannot use moves nothing, not even its clock.
        case .reject: statistics.rejected += 1
        case .accept:
            advance(to: now)
            statistics.accepted += 1
            lastEventAt = self.now
        case .edit:
            advance(to: now)
            statistics.edits += 1
            lastEventAt = self.now
        }
        if verdict == .accept, hasEnded, state.phase.isCalledOff { reopen() }
        let shift = GameFold.clockShift(eventTime: event.time, newest: newestSourceTime, now: self.now)
        let step = fold.apply(event, judged: verdict, now: self.now, clockShift: shift)
        if step.corrected { statistics.corrections += 1 }
        if let change = step.change { observe(change) }
        return verdict
    }

    /// The feed says its running score is `score` now (a live poll's snapshot, or its boxscore):
    /// the scoreboard follows, and a change is a correction the policy sees at the game's current
    /// moment. The same score again changes nothing, so a poller may say it after every poll.
    /// In an arrival, the feed's score may have moved at any of its events (a basket waved off
    /// quarters before, in a join's first copy): the correction is dated at its oldest, so the
    /// policy takes it for the present (and a lead change to alert for) only in a live moment,
    /// never in a catch-up, whose fold before it may show a lead or tie the feed never had.
    public mutating func follow(_ score: FinalScore, now: Date) {
        record(.follow(score, now: now))
        let moment = max(self.now, now)
        guard let change = fold.follow(score, time: arrivalSpan?.lowerBound ?? newestSourceTime ?? moment, now: moment) else { return }
        advance(to: now)
        statistics.corrections += 1
        observe(change)
    }

    /// The game ends without a final, at `now`: `phase` is
    /// ``ScoreFeedModel/GamePhase/postponed`` (called off before it started) or
    /// ``ScoreFeedModel/GamePhase/suspended`` (its feed went silent while it was live: the score
    /// it had stays); `why` is said in the `end`'s reason. The policy sends the `end` as for a
    /// final (a channel ScoreFeed made is deleted after it). Nothing happens to a game that has
    /// ended already. If the feed comes back, its next event reopens the game (see `reopen()`).
    public mutating func callOff(_ phase: GamePhase, why: String, now: Date) {
        record(.callOff(phase, why: why, now: now))
        advance(to: now)
        if settling != nil { closeArrival() }
        guard !hasEnded,
              let change = fold.callOff(phase, why: why, time: newestSourceTime ?? self.now, clockAt: lastEventAt ?? self.now)
        else { return }
        observe(change)
    }

    /// A copy of the game's feed written at `written` is handed over (its events follow): kept
    /// when it is the newest so far (``newestCopy``).
    public mutating func noteCopy(written: Date) {
        guard newestCopy.map({ written > $0 }) ?? true else { return }
        record(.copyAt(written: written))
        newestCopy = written
    }

    /// A copy of the game's feed older than one already seen was ignored (nothing in it applied):
    /// counted, and nothing else.
    public mutating func ignoreStaleCopy() {
        record(.staleCopy)
        statistics.staleCopies += 1
    }

    /// A game called off whose feed brought a new event: it is followed again. Its activity ended
    /// on devices, so with push-to-start the next push starts a new one; the policy decides from
    /// the next change, with the budget it spent; a channel ScoreFeed made and deleted is made
    /// again.
    private mutating func reopen() {
        for lane in lanes.indices {
            lanes[lane].policy.reopen(now: now)
            let renderer = lanes[lane].renderer
            lanes[lane].renderer.resume(
                seq: renderer.seq, lastTimestamp: renderer.lastTimestamp, startPending: renderer.configuration.sendsStart)
        }
        fold.reopen()
        keptRecords = []
        statistics.reopened += 1
        // A channel still lingering goes on; one deleted (or once its delete is answered) is made
        // again; one whose delete APNs refused is taken back.
        channel.reopen()
        regainChannel()
    }

    /// A game that is live again whose channel ScoreFeed deleted gets a new one to create, whose
    /// create counts on from the old one's (a new `apns-request-id`); so does one that ended again
    /// before the delete was answered, whose channel lane still holds its pushes. One whose delete
    /// APNs refused for good goes on on that channel, which still exists (else its pushes, its
    /// final among them, would wait forever).
    mutating func regainChannel() {
        guard channel.origin == .scorefeed, let lane = channelLane, !lanes[lane].policy.hasEnded || lanes[lane].outboxHoldsAPush
        else { return }
        if channel.takeBack() { return }
        guard case .deleted = channel.phase else { return }
        var fresh = BroadcastChannel()
        fresh.creates = channel.creates
        fresh.owner = channel.owner
        channel = fresh
    }

    /// Lets the policy act on time passing (a held push coming due), and ends a channel's linger.
    /// A catch-up that waited for its parts long enough is decided.
    public mutating func tick(now: Date) {
        record(.tick(now: now))
        advance(to: now)
        if let settling {
            guard self.now >= settling.until else { return }
            let changes = arrival ?? 0
            closeArrival()
            // A restart's wait that no arrival joined: what the policy held is its own moment.
            if changes > 0 { return }
        }
        guard lanes.count > 1 else { return perform(lanes[0].policy.tick(now: self.now), lane: 0) }
        for lane in lanesToTick() { perform(lanes[lane].policy.tick(now: self.now), lane: lane) }
    }

    /// The lanes a tick at ``now`` is for: every lane, unless with several lanes it is for one
    /// lane's deadline alone (no linger over): then only the lanes whose deadline came. The
    /// others are ticked when they would be on their own (their deadline, a linger, a timer).
    private func lanesToTick() -> [Int] {
        let due = lanes.indices.filter { lane in
            guard let deadline = lanes[lane].policy.deadline else { return false }
            return deadline <= now
        }
        if due.isEmpty { return Array(lanes.indices) }
        if let linger = channel.deadline, linger <= now { return Array(lanes.indices) }
        return due
    }

    /// This game was restored by an instance starting at `now`. What the policy held that comes
    /// due within `window` waits that long for the game's first arrival, which is what the
    /// instance missed: the two are then one catch-up, decided once (one push and its
    /// priority-5 copy, or the `end`), where the held push would go out alone at once and the
    /// backlog right after it. With no arrival in time, the held push goes at the window's end.
    /// A catch-up that was waiting for its parts when the instance stopped waits again from
    /// `now`, as long as it was to wait and at least `window` (a poll's wait for a fresh copy is
    /// longer than a backlog's for its next part), for the same reason: decided alone at the start,
    /// it went out with an older score, and what the instance read right after it.
    public mutating func restart(now: Date, window: TimeInterval) {
        guard window > 0 else { return }
        var wait = window
        if let settling, (arrival ?? 0) > 0 {
            wait = max(window, settling.until.timeIntervalSince(settling.since))
            guard settling.until < now.addingTimeInterval(wait) else { return }
        } else {
            guard settling == nil, arrival == nil, let due = policyDeadline, due <= now.addingTimeInterval(window) else { return }
        }
        record(.restart(now: now, window: window))
        advance(to: now)
        settling = Settling(until: self.now.addingTimeInterval(wait), since: self.now)
    }

    /// The feed is over: sends whatever the policy still holds (a catch-up waiting for its parts
    /// is decided first).
    public mutating func finish(now: Date) {
        record(.finish(now: now))
        advance(to: now)
        if settling != nil { closeArrival() }
        for lane in lanes.indices { perform(lanes[lane].policy.finish(now: self.now), lane: lane) }
    }

    /// Opens an arrival: what reaches the game together (a poll's snapshot, the lines read in
    /// one go, a backlog, the answer after an outage) is one moment. Events and scores received
    /// until ``endArrival(now:)`` are folded without a decision; only the state after all of them
    /// can still be shown, so the past costs at most one push (and its priority-5 copy), or the
    /// `end` once.
    public mutating func beginArrival() {
        record(.beginArrival)
        arrival = arrival ?? 0
    }

    /// Closes the arrival: the policy decides once, at `now`, on the state after it.
    public mutating func endArrival(now: Date) {
        record(.endArrival(now: now))
        if keepsRestartWaiting() { return }
        if (arrival ?? 0) > 0 { advance(to: now) }
        closeArrival()
    }

    /// An arrival that changed nothing (a restarted `serve`'s input read again from its start)
    /// closes without ending a restart's wait (``restart(now:window:)``): what the instance
    /// missed is still to come. True when it did so.
    private mutating func keepsRestartWaiting() -> Bool {
        guard settling != nil, (arrival ?? 0) == 0 else { return false }
        arrival = nil
        arrivalSpan = nil
        return true
    }

    /// Closes the arrival as ``endArrival(now:)`` does, but as a catch-up that may still be
    /// coming in parts (a backlog after a join or a restart, which `serve` reads in the pieces its
    /// input delivers): its decision waits `window` seconds for the next part, which opens the
    /// same arrival again, and is made at ``tick(now:)`` once no part came in time (at most
    /// ``settlingParts`` windows after the first). A part that comes once the wait is over (before
    /// the timer woke the game) is decided at once with the waiting catch-up: one moment, one
    /// decision. A backlog in parts is then one moment, one push
    /// and its priority-5 copy at most, as a backlog in one piece is. Which arrivals are catch-ups
    /// is the caller's to say (``isCatchUp``, ``MatchEngine/take(arrival:score:end:written:settling:)``): the input
    /// records it, so a journal replays the same decisions.
    public mutating func endArrival(now: Date, settling window: TimeInterval) {
        record(.settleArrival(now: now, window: window))
        if keepsRestartWaiting() { return }
        guard (arrival ?? 0) > 0 else { return closeArrival() }
        advance(to: now)
        let since = settling?.since ?? self.now
        let last = since.addingTimeInterval(window * Self.settlingParts)
        guard window > 0, self.now < last, self.now < settling?.until ?? .distantFuture else { return closeArrival() }
        settling = Settling(until: min(self.now.addingTimeInterval(window), last), since: since)
    }

    /// Whether the open arrival is a catch-up by its own look: a catch-up already waiting for its
    /// parts, or changes spanning more than ``Coalescer/arrivalAlertWindow`` of feed time (a live
    /// moment spans seconds).
    public var isCatchUp: Bool {
        settling != nil || arrivalSpan.map { $0.upperBound.timeIntervalSince($0.lowerBound) > Coalescer.arrivalAlertWindow } ?? false
    }

    /// The policy decides on the open arrival, at the session's `now`.
    private mutating func closeArrival() {
        let changes = arrival ?? 0
        arrival = nil
        arrivalSpan = nil
        settling = nil
        guard changes > 0 else { return }
        for lane in lanes.indices { perform(lanes[lane].policy.decide(now: now), lane: lane) }
    }

    /// Numbers the pushes of a game whose earlier numbering is lost from after `seq` and
    /// `lastTimestamp`, so `seq` and `aps.timestamp` keep rising past the lost run's (its
    /// `apns-id`s cover the body, so none is used again for another one either way).
    public mutating func continueNumbering(after seq: Int, lastTimestamp: Int) {
        record(.continueNumbering(after: seq, lastTimestamp: lastTimestamp))
        // The lost file may be the other platform's (a file too broken to say whose it was):
        // its timestamp is taken in each lane's unit.
        for lane in lanes.indices {
            let renderer = lanes[lane].renderer
            let timestamp = PushRenderer.timestamp(lastTimestamp, for: renderer.configuration.platform)
            lanes[lane].renderer.resume(seq: seq, lastTimestamp: timestamp, startPending: renderer.startPending)
        }
    }

    /// Where the numbering stands, for a journal line (see ``continueNumbering(after:lastTimestamp:)``):
    /// the lane's own with one lane; with several, the highest `seq` and the latest timestamp in
    /// milliseconds, which every lane numbers on from.
    public var numbering: (seq: Int, lastTimestamp: Int) {
        if lanes.count == 1 { return (lanes[0].renderer.seq, lanes[0].renderer.lastTimestamp) }
        return (
            lanes.map(\.renderer.seq).max() ?? 0,
            lanes.map { PushRenderer.timestamp($0.renderer.lastTimestamp, for: .android) }.max() ?? 0)
    }

    /// Removes the oldest output from `lane`'s outbox once the sink has it (at `now`, the
    /// engine's clock: once the `end` and its copy are delivered, the channel's linger starts;
    /// ``endHeldBySink()`` puts it off while the sink still holds them).
    /// ``nextLaneOutput`` names the lane. False when the lane had nothing to remove.
    @discardableResult
    public mutating func delivered(lane: Int = 0, now: Date? = nil) -> Bool {
        guard lanes.indices.contains(lane), !lanes[lane].outbox.isEmpty else { return false }
        record(lane == 0 ? .delivered(now: now) : .deliveredOnLane(lane, now: now))
        let output = lanes[lane].outbox.removeFirst()
        if case .push(let record) = output {
            statistics.handed[Statistics.Handed(lane: lane, priority: record.priority, event: record.event), default: 0] += 1
            if record.priority == 10, Push.isBeyondBudget(record.reason) { statistics.beyondBudget += 1 }
        }
        if case .push(let record) = output, record.event != .update,
           !keptRecords.contains(where: { $0.seq == record.seq && $0.platform == record.platform }) {
            keptRecords.append(record)
        }
        // The lane's end and its priority-5 copy are both out: on the channel's lane, the
        // channel's linger starts. (Read in place: reading an array's element copies it whole.)
        if Self.inPlace(&lanes[lane], { $0.policy.hasEnded && !$0.outboxHoldsAPush }) {
            advance(to: now ?? self.now)
            if lanes.count == 1 || lane == channelLane { startLinger(lane: lane) }
        }
        return true
    }

    /// Whether a kept `start` or `end` waits for ``confirmKept()``: a start, or an end of a lane
    /// without a channel ScoreFeed made (that channel's delete clears the ends of its lane).
    public var keptRecordsWaitForTheSink: Bool {
        // (A closure, not the method itself: a method taken as a value copies the whole session.)
        keptRecords.contains { keptForTheSink($0) }
    }

    /// Whether the kept `record` waits for the sink rather than for a channel's delete (a start
    /// always does: no start goes on a channel's lane).
    func keptForTheSink(_ record: PushRecord) -> Bool {
        guard channel.origin == .scorefeed, let channelLane else { return true }
        return lanes.count > 1 && record.platform != lanes[channelLane].platform
    }

    /// The sink holds none of the game's records any more: the kept `start`s and `end`s waiting
    /// for it have left it, and a restart need not send them again.
    public mutating func confirmKept() {
        guard keptRecordsWaitForTheSink else { return }
        record(.endConfirmed)
        keptRecords.removeAll(where: keptForTheSink)
    }

    /// The sink superseded these records before it tried them (a newer state went instead while
    /// its endpoint was down): Apple never counted them, so each priority-10 update is given back
    /// to its platform's lane, and a later push (the final's end) may still go at priority 10.
    /// One the instance before may have handed to its own sink is not (``PlatformLane/mayHaveLeft``).
    public mutating func giveBack(_ records: [PushRecord]) {
        for record in records where record.priority == 10 && record.event == .update && record.game == attributes.gameId {
            guard let lane = lanes.firstIndex(where: { $0.platform == record.platform }), !lanes[lane].mayHaveLeft.contains(record.seq) else { continue }
            giveBack(lane: lane, sentAt: record.sentAt, beyondBudget: Push.isBeyondBudget(record.reason))
        }
    }

    mutating func giveBack(lane: Int, sentAt: Date, beyondBudget: Bool) {
        guard lanes.indices.contains(lane) else { return }
        record(.givenBack(lane: lane, sentAt: sentAt, beyondBudget: beyondBudget))
        lanes[lane].policy.refundPriority10(at: sentAt, beyondBudget: beyondBudget)
    }

    // MARK: - Internals

    mutating func record(_ input: @autoclosure () -> Input) {
        if recordsInputs { unjournaled.append(input()) }
    }

    mutating func advance(to time: Date) {
        if time > now { now = time }
    }

    /// Hands a change the fold made to each lane's policy and renders its decision.
    private mutating func observe(_ change: StateChange) {
        for lane in lanes.indices { lanes[lane].unsentEvents += 1 }
        if newestSourceTime.map({ change.event.time > $0 }) ?? true { newestSourceTime = change.event.time }
        if let changes = arrival {
            arrival = changes + 1
            let time = change.event.time
            arrivalSpan = arrivalSpan.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
            for lane in lanes.indices { lanes[lane].policy.absorb(change, now: now) }
        } else {
            for lane in lanes.indices { perform(lanes[lane].policy.observe(change, now: now), lane: lane) }
        }
    }

    private mutating func perform(_ decision: PushDecision, lane: Int) {
        guard case .push(var push) = decision else { return }
        let state = fold.state
        let diff = Diff(from: lanes[lane].lastPushed, to: state)
        // The record says what changed and why the policy sent it now.
        if !diff.isEmpty && push.event != .end { push.reason = diff.reason(saying: push.reason) }
        // The renderer may put a push-to-start first, or refuse a push that does not fit even
        // trimmed: the refusal goes to the sink as an error, not a request, and the game goes on.
        let outputs = lanes[lane].renderer.outputs(
            for: push, state: state, diff: diff, coalesced: lanes[lane].unsentEvents, sentAt: now, sourceTime: newestSourceTime)
        for output in outputs {
            switch output {
            case .push(let record):
                statistics.pushes += 1
                if record.priority == 10 { statistics.priority10 += 1 } else { statistics.priority5 += 1 }
                // The start stands for the update the policy decided: a priority 10 the policy
                // did not ask for is counted.
                // So is one before an end (the end goes as well).
                if record.event == .start, record.priority == 10, push.priority != 10 || push.event == .end {
                    lanes[lane].policy.countPriority10(at: now)
                }
                lanes[lane].lastPushed = state
                lanes[lane].unsentEvents = 0
            case .refused:
                statistics.refused += 1
            }
        }
        lanes[lane].outbox += outputs
        if lane == channelLane, isHolding { supersedeHeldUpdates(lane: lane) }
    }

    /// While nothing can leave the outbox (the game's checkpoint cannot be written: a full disk),
    /// only each lane's newest state waits, as while a game waits for its channel (a start and an
    /// `end` always stay): the older updates are dropped and their priority 10s given back at once
    /// (but those a restart found waiting: ``PlatformLane/mayHaveLeft``), so the decisions made
    /// meanwhile may spend them again. After twenty minutes of a full disk
    /// the outbox held the game's last twenty pushes, eight of them priority 10 (a simulated day,
    /// seed 2, day 147): sent in order once the disk had room, stale scores would flash by and
    /// spend the hour's budget Apple keeps. Records nothing when nothing would be dropped.
    public mutating func supersedeWaiting() {
        let older = lanes.indices.map { olderUpdates(lane: $0) }
        guard older.contains(where: { $0 != nil }) else { return }
        record(.supersedeWaiting)
        for (lane, older) in zip(lanes.indices, older) {
            if let older { supersedeUpdates(lane: lane, through: older) }
        }
    }

    /// The place of the last output of `lane`'s outbox that is a push of an older state than its
    /// newest (``PushRecord/showsSameState(as:)``: the size guard's trimming aside), when an
    /// update waits at or before it (one ``supersedeHeldUpdates(lane:)`` drops).
    private func olderUpdates(lane: Int) -> Int? {
        let outbox = lanes[lane].outbox
        guard let newest = outbox.reversed().lazy.compactMap({ if case .push(let record) = $0 { record } else { nil } }).first,
              let older = outbox.lastIndex(where: { if case .push(let record) = $0 { !record.showsSameState(as: newest) } else { false } }),
              outbox[...older].contains(where: { if case .push(let record) = $0 { record.event == .update } else { false } })
        else { return nil }
        return older
    }

    /// While the game has no channel (or nothing can leave the outbox), only the newest state
    /// waits: updates followed by a push of a newer state are dropped (an `end` never is; a
    /// priority 10 and its priority-5 copy of the newest state both stay). Receivers see the gap
    /// in `seq`. A dropped priority 10 this instance made never reached Apple: the policy gets it
    /// back (the final's end may then go at priority 10).
    private mutating func supersedeHeldUpdates(lane: Int) {
        guard let older = olderUpdates(lane: lane) else { return }
        supersedeUpdates(lane: lane, through: older)
    }

    /// Drops the updates of `lane`'s outbox up to `older` (``olderUpdates(lane:)``), giving back
    /// their priority 10s (not those an earlier instance may have sent: ``PlatformLane/mayHaveLeft``).
    private mutating func supersedeUpdates(lane: Int, through older: Int) {
        let outbox = lanes[lane].outbox
        var kept: [PushRenderer.Output] = []
        kept.reserveCapacity(outbox.count)
        for (index, output) in outbox.enumerated() {
            if index <= older, case .push(let record) = output, record.event == .update {
                statistics.superseded += 1
                if record.priority == 10, !lanes[lane].mayHaveLeft.contains(record.seq) {
                    lanes[lane].policy.refundPriority10(at: record.sentAt, beyondBudget: Push.isBeyondBudget(record.reason))
                }
            } else {
                kept.append(output)
            }
        }
        lanes[lane].outbox = kept
    }
}

import Foundation

/// What a ``GameService`` keeps across its games, as one value: the games' order, the wake-up
/// heap, the open batch and the games it touched, the channel board, the counters, and what was
/// found of checkpoints that could not be used. The actor owns the engines and carries out what
/// this value decides; everything here is decided without an await, handed `now` where time
/// counts, and tested as a plain value.
struct ServiceState: Sendable {
    /// Game ids in the order their headers (or checkpoints) came, for summaries.
    private(set) var order: [String] = []
    /// When each game is to be woken (system clock), earliest first; entries are never removed
    /// early: a wake-up that finds nothing due just schedules again.
    private var deadlines = DeadlineHeap()
    /// Each game's earliest deadline waiting in the heap: a later one needs no entry, as that
    /// entry's wake-up reads the engine and schedules again.
    private var scheduled: [String: Date] = [:]
    /// A batch of lines is open (with a state directory): the games it touches hold their pushes
    /// until it is made durable with one sync (group commit).
    private(set) var batchOpen = false
    /// The games the open batch touched, in order, and as a set.
    private var touched: [String] = []
    private var touchedSet: Set<String> = []
    /// The channels of all games (in broadcast mode with a channel per game).
    var board: ChannelBoard
    /// What the service has read.
    var counters = GameService.Counters()
    /// Games whose checkpoint could not be used, by the checkpoint's path: their budgets are
    /// unknown, and the numbering they had reached when it could be read.
    var lostCheckpoints: [String: GameService.LostNumbering] = [:]
    /// Games whose checkpoint write failure was already said.
    private var reportedFailures: Set<String> = []
    /// When each game's sink failure was last said (``GameService/sinkFailureToSay(_:_:)``).
    private var sinkFailureSaid: [String: Date] = [:]
    /// Input is being taken (a batch of lines, until its pushes are handed over).
    private(set) var takingInput = false
    /// Games whose deadline is a catch-up's wait for its next part, as their engines last said.
    private var waitingForParts: Set<String> = []
    /// Catch-ups whose wait ran out while input was being taken, and until when they wait now
    /// (`distantFuture`: until the input is taken).
    private var heldCatchUps: [String: Date] = [:]

    init(board: ChannelBoard) {
        self.board = board
    }

    /// Game `id` is followed from now on (its header, its checkpoint, a poller).
    mutating func add(_ id: String) {
        order.append(id)
    }

    // MARK: - Wake-ups

    /// Makes sure game `id` is woken at `deadline`: adds a heap entry unless one at or before it
    /// is already waiting. Returns whether it added one (the timer may sleep past it).
    mutating func schedule(_ id: String, _ deadline: Date) -> Bool {
        if let earlier = scheduled[id], earlier <= deadline { return false }
        deadlines.push(deadline, id)
        scheduled[id] = deadline
        return true
    }

    /// The next game whose wake-up is due at `now`, taken out of the heap (nil: none is due).
    mutating func popDue(_ now: Date) -> String? {
        guard let (due, id) = deadlines.popDue(now) else { return nil }
        if scheduled[id] == due { scheduled[id] = nil }
        return id
    }

    /// The earliest wake-up waiting, across games.
    var nextDeadline: Date? { deadlines.next }

    // MARK: - A catch-up in parts

    /// Whether game `id`'s deadline is a catch-up's wait for its next part (``GameSession/settling``).
    mutating func note(_ id: String, waitsForParts: Bool) {
        if waitsForParts {
            waitingForParts.insert(id)
        } else {
            waitingForParts.remove(id)
            heldCatchUps[id] = nil
        }
    }

    /// Input is being taken: see ``holdsCatchUp(_:now:)``.
    mutating func beginInput() {
        takingInput = true
    }

    /// The input is taken: every catch-up held meanwhile waits `window` more for its next part,
    /// which may have come while the service could not take it. Returns when each is woken.
    mutating func endInput(now: Date, window: TimeInterval) -> [(id: String, at: Date)] {
        takingInput = false
        let until = now.addingTimeInterval(window)
        let held = heldCatchUps.filter { $0.value == .distantFuture }.keys.sorted()
        for id in held { heldCatchUps[id] = until }
        return held.map { ($0, until) }
    }

    /// Whether game `id`, due at `now`, is not to be decided yet: a catch-up waiting for its next
    /// part whose wait ran out while the service was taking input (the part may be waiting to be
    /// read behind it: a slow sink holds the batch before it) waits until the input is taken and
    /// a window more (``endInput(now:window:)``): the wait is for input, not for the service. It
    /// is held once: at the end of that window it is decided, even while later input is taken.
    /// Returns nil when it is to be decided now, `distantFuture` while the input is taken, else
    /// when to wake it.
    mutating func holdsCatchUp(_ id: String, now: Date) -> Date? {
        guard waitingForParts.contains(id) else { return nil }
        if let until = heldCatchUps[id], until != .distantFuture {
            if now < until { return until }
            heldCatchUps[id] = nil
            return nil
        }
        guard takingInput else { return nil }
        heldCatchUps[id] = .distantFuture
        return .distantFuture
    }

    // MARK: - The batch

    /// Opens a batch; with `holding` false (no journal to sync) nothing is held.
    mutating func beginBatch(holding: Bool) {
        batchOpen = holding
    }

    /// Whether a call to game `id`'s engine is to hold its pushes: a batch is open. The game is
    /// then among those ``endBatch()`` returns, also when the batch ends while the call is in
    /// flight.
    mutating func holds(_ id: String) -> Bool {
        if batchOpen, touchedSet.insert(id).inserted { touched.append(id) }
        return batchOpen
    }

    /// Whether game `id` is among those the open batch touched (its pushes wait for the sync).
    func inBatch(_ id: String) -> Bool {
        batchOpen && touchedSet.contains(id)
    }

    /// Closes the open batch: the games it touched, in order, to be flushed once it is durable
    /// (nil: no batch was open).
    mutating func endBatch() -> [String]? {
        guard batchOpen else { return nil }
        batchOpen = false
        defer {
            touched = []
            touchedSet = []
        }
        return touched
    }

    // MARK: - Messages

    /// Whether game `id`'s checkpoint failure is to be said now: once per game.
    mutating func firstSaying(checkpointFailureOf id: String) -> Bool {
        reportedFailures.insert(id).inserted
    }

    /// Whether game `id`'s sink failure is to be said at `now`: not when it was said less than
    /// `silence` seconds before.
    mutating func saying(sinkFailureOf id: String, now: Date, silence: TimeInterval) -> Bool {
        if let said = sinkFailureSaid[id], now.timeIntervalSince(said) < silence { return false }
        sinkFailureSaid[id] = now
        return true
    }
}

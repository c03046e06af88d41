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
}

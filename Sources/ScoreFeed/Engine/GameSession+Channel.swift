import Foundation

extension GameSession {
    /// Broadcast mode with a channel per game: pushes leave only on the game's own channel.
    public var needsChannel: Bool {
        channelLane != nil
    }

    /// The message-storage policy the game's channel is made with: its lane's renderer's.
    public var channelStorage: Int {
        lanes[channelLane ?? 0].renderer.configuration.messageStorage
    }

    /// Whether pushes wait because the game has no channel to send on.
    public var isHolding: Bool {
        guard let lane = channelLane else { return false }
        return channel.sendableID == nil && lanes[lane].outboxHoldsAPush
    }

    /// Whether a push (not only refusals) waits in any lane's outbox.
    var outboxHoldsAPush: Bool {
        lanes.indices.contains { lanes[$0].outboxHoldsAPush }
    }

    /// Whether the channel's create or delete is to be sent (the delete once nothing that can
    /// go waits: a game back after its end renders pushes for the channel's lane that only a new
    /// channel, made once this one's delete is answered, can take).
    public var channelRequestDue: Bool {
        switch channel.phase {
        case .creating: return true
        case .deleting: return nextLaneOutput == nil
        default: return false
        }
    }

    /// The request to the channel-management service to send before anything else (its answer
    /// goes to ``channelAnswered(_:now:)``): the channel's create first, its delete once nothing
    /// else waits; nil when none is due now.
    public var nextChannelRequest: ChannelRequest? {
        channelRequestDue ? channel.request(game: attributes.gameId, bundleId: lanes[channelLane ?? 0].renderer.configuration.bundleId) : nil
    }

    /// The oldest output ready to go (see ``nextLaneOutput``, which also names its lane).
    public var nextOutput: PushRenderer.Output? {
        nextLaneOutput?.output
    }

    /// Sends on `id`, the channel your backend made (the game header's `"channel"`).
    public mutating func useChannel(_ id: String, storage: Int) {
        record(.useChannel(id, storage: storage))
        channel.use(id, storage: storage)
    }

    /// Goes on with `id`, the channel ScoreFeed made for the game before its checkpoint was lost
    /// (``BroadcastChannel/adopt(_:storage:created:)``).
    public mutating func adoptChannel(_ id: String, storage: Int, created: Date?) {
        record(.adoptChannel(id, storage: storage, created: created))
        channel.adopt(id, storage: storage, created: created)
    }

    /// Makes `identity` (the state directory's, or the run's) the owner of the channel the game
    /// is still to create: its create's `apns-request-id` is then this directory's own
    /// (``BroadcastChannel/owner``). Not journaled: ``GameService`` says it before the engine
    /// runs, and an engine's first commit in a run writes a whole snapshot, which holds it.
    public mutating func claimChannel(for identity: String) {
        channel.claim(for: identity)
    }

    /// Starts creating the game's channel (not for a game that ended with nothing left to send:
    /// no device would get anything on it).
    public mutating func createChannel(storage: Int) {
        record(.createChannel(storage: storage))
        let lane = channelLane ?? 0
        guard !lanes[lane].policy.hasEnded || lanes[lane].outboxHoldsAPush else { return }
        channel.create(storage: storage)
    }

    /// Whether the linger after the end is over at `now`: the delete may go once the sink holds
    /// none of the game's pushes (``beginDelete(now:)``).
    public func lingerIsOver(now: Date) -> Bool {
        channel.lingerIsOver(now: now)
    }

    /// Whether the channel ScoreFeed made waits for the sink to deliver the game's `end` before
    /// its linger starts: the end and its priority-5 copy have left the channel lane's outbox, and
    /// the sink still held them (``endHeldBySink()``). ``endDrained(now:)`` starts the linger.
    public var lingerWaitsForTheSink: Bool {
        guard channel.origin == .scorefeed, case .open = channel.phase, let lane = channelLane else { return false }
        return lanes[lane].policy.hasEnded && !lanes[lane].outboxHoldsAPush
    }

    /// The sink still holds the `end` just handed to it (its endpoint is down): the channel's
    /// linger, which counts from the end's delivery, waits for ``endDrained(now:)``. Devices must
    /// get the end before the channel goes.
    public mutating func endHeldBySink() {
        guard channel.isLingering else { return }
        record(.endHeld)
        channel.reopen()
    }

    /// The sink holds none of the game's pushes any more (at `now`): a channel whose `end` it
    /// held starts its linger.
    public mutating func endDrained(now: Date) {
        guard lingerWaitsForTheSink, let lane = channelLane else { return }
        record(.endDrained(now: now))
        advance(to: now)
        startLinger(lane: lane)
    }

    /// The channel's linger starts now, as long as `lane`'s renderer says (a channel ScoreFeed made).
    mutating func startLinger(lane: Int) {
        channel.endDelivered(now: now, linger: lanes[lane].renderer.configuration.channelLinger)
    }

    /// The sink holds none of the game's pushes: the delete goes next.
    public mutating func beginDelete(now: Date) {
        record(.beginDelete(now: now))
        channel.advance(now: now)
        if case .deleting = channel.phase { keptRecords = [] }
    }

    /// The game will have no channel, for `reason`; its pushes wait.
    public mutating func refuseChannel(_ reason: String) {
        record(.refuseChannel(reason))
        channel.refuse(reason)
    }

    /// APNs answered the channel's pending request (`now`: wall-clock time, for `created`).
    @discardableResult
    public mutating func channelAnswered(_ answer: ChannelAnswer, now: Date) -> BroadcastChannel.Outcome {
        record(.channelAnswered(answer, now: now))
        let outcome = channel.answered(answer, now: now)
        // A delete answered after the game came back (reopened while it was in flight).
        regainChannel()
        if case .refused(let reason) = outcome, let id = channel.sendableID { return .takenBack(id, reason: reason) }
        return outcome
    }
}

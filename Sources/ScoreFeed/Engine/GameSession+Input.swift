import Foundation
import ScoreFeedModel

extension GameSession {
    /// One call that changed the session, as the session recorded it: the game's journal is a
    /// list of these since its last snapshot. The session is pure, so applying them again to the
    /// snapshot, in order, under the same options, gives the same session, byte for byte: what
    /// makes an append of a few hundred bytes as durable as rewriting the whole snapshot.
    public enum Input: Hashable, Sendable, Codable {
        case receive(GameEvent, index: Int, now: Date)
        case follow(FinalScore, now: Date)
        case tick(now: Date)
        case finish(now: Date)
        case delivered(now: Date?)
        /// An output of another lane than the first was delivered (``GameSession/delivered(lane:now:)``).
        case deliveredOnLane(Int, now: Date?)
        case continueNumbering(after: Int, lastTimestamp: Int)
        case useChannel(String, storage: Int)
        case adoptChannel(String, storage: Int, created: Date?)
        case createChannel(storage: Int)
        case beginDelete(now: Date)
        case refuseChannel(String)
        case channelAnswered(ChannelAnswer, now: Date)
        case beginArrival
        case endArrival(now: Date)
        case settleArrival(now: Date, window: TimeInterval)
        case restart(now: Date, window: TimeInterval)
        case callOff(GamePhase, why: String, now: Date)
        case staleCopy
        /// A copy of the feed written at `written` (``GameSession/noteCopy(written:)``): the
        /// moment its `meta.time` stands for.
        case copyAt(written: Date)
        /// As ``copyAt(written:)``, as a ScoreFeed that did not read `meta.time` as a moment
        /// journaled it: Eastern wall-clock time read as if it were UTC, hours before the moment.
        /// Read back as the moment by daylight saving's rules (the hour the clocks go back as its
        /// first pass, the earlier: a floor that lets a copy in rather than refuse one).
        case copy(written: Date)
        case endConfirmed
        /// The sink still held the channel lane's `end` when it was handed over (``GameSession/endHeldBySink()``).
        case endHeld
        /// The sink delivered what it held of the game (``GameSession/endDrained(now:)``).
        case endDrained(now: Date)
        /// A priority-10 update of this lane, decided at `sentAt` (beyond the assumed budget or
        /// within it), was superseded in the sink before it was tried (``GameSession/giveBack(_:)``).
        case givenBack(lane: Int, sentAt: Date, beyondBudget: Bool)
        /// Nothing could leave the outbox (the checkpoint failing): only each lane's newest state
        /// waits (``GameSession/supersedeWaiting()``).
        case supersedeWaiting
    }

    /// Applies `input` as the call it records.
    public mutating func apply(_ input: Input) {
        switch input {
        case .receive(let event, let index, let now): receive(event, index: index, now: now)
        case .follow(let score, let now): follow(score, now: now)
        case .tick(let now): tick(now: now)
        case .finish(let now): finish(now: now)
        case .delivered(let now): delivered(now: now)
        case .deliveredOnLane(let lane, let now): delivered(lane: lane, now: now)
        case .continueNumbering(let seq, let lastTimestamp): continueNumbering(after: seq, lastTimestamp: lastTimestamp)
        case .useChannel(let id, let storage): useChannel(id, storage: storage)
        case .adoptChannel(let id, let storage, let created): adoptChannel(id, storage: storage, created: created)
        case .createChannel(let storage): createChannel(storage: storage)
        case .beginDelete(let now): beginDelete(now: now)
        case .refuseChannel(let reason): refuseChannel(reason)
        case .channelAnswered(let answer, let now): channelAnswered(answer, now: now)
        case .beginArrival: beginArrival()
        case .endArrival(let now): endArrival(now: now)
        case .settleArrival(let now, let window): endArrival(now: now, settling: window)
        case .restart(let now, let window): restart(now: now, window: window)
        case .callOff(let phase, let why, let now): callOff(phase, why: why, now: now)
        case .staleCopy: ignoreStaleCopy()
        case .copyAt(let written): noteCopy(written: written)
        case .copy(let wall): noteCopy(written: EasternTime.instant(wall: wall))
        case .endConfirmed: confirmKept()
        case .endHeld: endHeldBySink()
        case .endDrained(let now): endDrained(now: now)
        case .givenBack(let lane, let sentAt, let beyondBudget): giveBack(lane: lane, sentAt: sentAt, beyondBudget: beyondBudget)
        case .supersedeWaiting: supersedeWaiting()
        }
    }

    /// Hands over the inputs recorded since the last call, oldest first, for the journal.
    public mutating func takeUnjournaled() -> [Input] {
        defer {
            journaled += unjournaled.count
            unjournaled = []
        }
        return unjournaled
    }
}

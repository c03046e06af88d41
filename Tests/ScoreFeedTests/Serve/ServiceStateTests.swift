import Foundation
import Testing
@testable import ScoreFeed

/// What a ``GameService`` keeps across its games, as a plain value: timelines of wake-ups and
/// batches, no actor, no clock.
@Suite("ServiceState: the wake-ups, the batch and the messages of a service, as one value")
struct ServiceStateTests {
    static func state() -> ServiceState {
        ServiceState(board: ChannelBoard(perGame: false, management: .init()))
    }

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    /// A game needs one heap entry for its earliest deadline: a later one is left to that entry's
    /// wake-up, a sooner one is added (and the timer told). Due wake-ups come earliest first, once.
    @Test func wakeUpsComeEarliestFirstWithOneEntryPerEarliestDeadline() {
        var state = Self.state()
        let added = [("A", 10.0), ("A", 20), ("A", 10), ("B", 5), ("A", 3)].map { state.schedule($0.0, Self.at($0.1)) }
        #expect(added == [true, false, false, true, true], "a later deadline waits for the earlier entry's wake-up; a sooner one gets its own")
        #expect(state.nextDeadline == Self.at(3))
        let early = state.popDue(Self.at(2))
        #expect(early == nil)
        var due: [String] = []
        while let id = state.popDue(Self.at(10)) { due.append(id) }
        #expect(due == ["A", "B", "A"], "the entry at 10 wakes A too: it reads its engine and schedules again")
        #expect(state.nextDeadline == nil)
        let again = state.schedule("A", Self.at(20))
        #expect(again, "nothing waits for A any more")
    }

    /// A batch holds the pushes of the games it touches, each listed once in the order touched;
    /// a game it did not touch is not held by the timer; without a journal nothing is held.
    @Test func aBatchHoldsTheGamesItTouchesUntilItEnds() {
        var state = Self.state()
        let outside = (state.holds("A"), state.endBatch())
        #expect(!outside.0 && outside.1 == nil, "no batch open")
        state.beginBatch(holding: true)
        let held = ["B", "A", "B"].map { state.holds($0) }
        #expect(held == [true, true, true])
        #expect(state.inBatch("A") && !state.inBatch("C"), "a game the batch did not touch sends what comes due")
        let touched = state.endBatch()
        #expect(touched == ["B", "A"])
        let after = state.endBatch()
        #expect(!state.inBatch("A") && after == nil, "ended once")
        state.beginBatch(holding: false)
        let unheld = (state.holds("A"), state.endBatch())
        #expect(!unheld.0 && unheld.1 == nil, "no journal: nothing to sync, nothing held")
    }

    /// A game's sink failure is said at most once in the silence, each game's apart: a sink down
    /// for a while fails every line's send, and says it once a minute, not on every line.
    @Test func aGamesSinkFailureIsSaidAtMostOnceInTheSilence() {
        var state = Self.state()
        let said = [(1.0, "A"), (2, "A"), (3, "B"), (60.9, "A"), (61, "A"), (62, "B"), (63, "B"), (121, "A")].map { at, game in
            state.saying(sinkFailureOf: game, now: Self.at(at), silence: 60)
        }
        #expect(said == [true, false, true, false, true, false, true, true])
    }

    /// A game's checkpoint failure is said once, however many of its events meet it.
    /// A catch-up waiting for its next part whose wait runs out while the service takes input
    /// waits for the input to be taken and a window more (the part may be behind it); a game
    /// that waits for nothing, or a catch-up due while no input is taken, is decided at once.
    @Test func aCatchUpDueWhileInputIsTakenWaitsForIt() {
        var state = Self.state()
        state.note("A", waitsForParts: true)
        state.note("B", waitsForParts: false)
        #expect(state.holdsCatchUp("A", now: Self.at(1)) == nil, "no input taken: decided when due")
        state.beginInput()
        #expect(state.holdsCatchUp("B", now: Self.at(2)) == nil, "B waits for no part: its deadline is kept")
        #expect(state.holdsCatchUp("A", now: Self.at(2)) == .distantFuture, "A waits while the input is taken")
        #expect(state.holdsCatchUp("A", now: Self.at(20)) == .distantFuture)
        let woken = state.endInput(now: Self.at(21), window: 0.5)
        #expect(woken.map(\.id) == ["A"] && woken.map(\.at) == [Self.at(21.5)], "a window more, counted from the input's end")
        #expect(state.holdsCatchUp("A", now: Self.at(21.2)) == Self.at(21.5), "a wake-up before it finds it still waiting")
        #expect(state.holdsCatchUp("A", now: Self.at(21.5)) == nil, "then it is decided")
        #expect(state.holdsCatchUp("A", now: Self.at(22)) == nil, "once")
        // Held once: input taken again when its extra window runs out does not hold it again.
        state.beginInput()
        #expect(state.holdsCatchUp("A", now: Self.at(23)) == .distantFuture)
        #expect(state.endInput(now: Self.at(24), window: 0.5).map(\.id) == ["A"])
        state.beginInput()
        #expect(state.holdsCatchUp("A", now: Self.at(24.2)) == Self.at(24.5), "its window not yet over")
        #expect(state.holdsCatchUp("A", now: Self.at(24.5)) == nil, "decided, though input is being taken")
        #expect(state.endInput(now: Self.at(25), window: 0.5).isEmpty)
        // The next part came while it was held: the engine decided, and says it waits no more.
        state.beginInput()
        #expect(state.holdsCatchUp("A", now: Self.at(30)) == .distantFuture)
        state.note("A", waitsForParts: false)
        #expect(state.endInput(now: Self.at(31), window: 0.5).isEmpty, "nothing held any more")
        #expect(state.holdsCatchUp("A", now: Self.at(31)) == nil)
    }

    @Test func aCheckpointFailureIsSaidOncePerGame() {
        var state = Self.state()
        let said = ["A", "A", "B"].map { state.firstSaying(checkpointFailureOf: $0) }
        #expect(said == [true, false, true])
    }
}

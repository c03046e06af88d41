import Foundation
import Testing
@testable import ScoreFeed

/// `serve`'s reader thread leaves parsed batches for the engines in a handoff. On the system clock
/// a batch is one moment, so what waits when the engines come back from a slow sink is taken as
/// one batch: lines read while they were busy arrived together, and each game decides once on
/// them (two batches at one instant were two decisions: two priority-10 pushes at one moment).
@Suite("LineReader.Handoff: batches left by the reader, taken one by one or joined")
struct BatchHandoffTests {
    @Test("What waits is taken as one batch when joining, one batch at a time otherwise, in order")
    func waitingBatchesAreJoinedInOrder() async {
        for joined in [true, false] {
            let handoff = LineReader.Handoff<Int>(room: 4)
            #expect(handoff.put([1, 2]))
            #expect(handoff.put([3]))
            #expect(handoff.put([4, 5]))
            handoff.finish()
            var taken: [[Int]] = []
            while let batch = await handoff.take(joined: joined) { taken.append(batch) }
            #expect(taken == (joined ? [[1, 2, 3, 4, 5]] : [[1, 2], [3], [4, 5]]))
        }
    }

    @Test("A joined batch is at most one batch's bytes of input: what is past it is the next take")
    func aJoinedBatchIsBounded() async {
        let handoff = LineReader.Handoff<Int>(room: 4, joinedBytes: 10)
        #expect(handoff.put([1], bytes: 6) && handoff.put([2], bytes: 4) && handoff.put([3], bytes: 1))
        handoff.finish()
        #expect(await handoff.take(joined: true) == [1, 2])
        #expect(await handoff.take(joined: true) == [3])
        #expect(await handoff.take(joined: true) == nil)
    }

    @Test("A batch left while the engines wait goes straight to them; the end follows the last batch")
    func aWaitingTakerGetsTheNextBatch() async {
        let handoff = LineReader.Handoff<Int>(room: 4)
        async let first = handoff.take(joined: true)
        // The reader's thread: it leaves a batch whether or not the take is already waiting.
        Thread.detachNewThread { handoff.put([7, 8]) }
        #expect(await first == [7, 8])
        handoff.put([9])
        handoff.finish()
        #expect(await handoff.take(joined: true) == [9])
        #expect(await handoff.take(joined: true) == nil)
        #expect(await handoff.take(joined: false) == nil)
    }

    @Test("A cancelled take ends the reading: the reader's next batch is refused, even one waiting for room")
    func cancellingStopsTheReader() async {
        let handoff = LineReader.Handoff<Int>(room: 1)
        #expect(handoff.put([1]))
        #expect(await handoff.take(joined: false) == [1])
        let waiting = Task { await handoff.take(joined: false) }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(handoff.isStopped)
        #expect(!handoff.put([2]))
        #expect(await handoff.take(joined: true) == nil)
    }

    @Test("Letting go of the iterator before the end stops the reader's thread instead of leaving it blocked")
    func droppingTheIteratorStopsTheReader() async {
        let handoff = LineReader.Handoff<Int>(room: 1)
        let batches = LineReader.Batches(handoff: handoff, joined: false)
        #expect(handoff.put([1]))
        do {
            var iterator = batches.makeAsyncIterator()
            #expect(await iterator.next() == [1])
        }
        #expect(handoff.isStopped)
        #expect(!handoff.put([2]))
    }
}

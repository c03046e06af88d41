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

    /// The bytes of lines in each batch a reader hands over from a file of `lines` 100-byte lines
    /// (a backlog: every read finds more waiting), until every line is handed.
    static func batchBytes(_ reader: (String) -> LineReader, lines: Int) async throws -> [Int] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ramp-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(String(repeating: String(repeating: "x", count: 99) + "\n", count: lines).utf8).write(to: file)
        var sizes: [Int] = []
        // A followed file never ends by itself: the batches are taken until every line is in,
        // then the iterator is let go (which stops the reader).
        for await batch in reader(file.path).batches(found: { found -> Int in
            if case .line(let bytes, _) = found { bytes.count + 1 } else { 0 }
        }) {
            sizes.append(batch.reduce(0, +))
            if sizes.reduce(0, +) >= lines * 100 { break }
        }
        return sizes
    }

    @Test("On feed time without a state directory a backlog's batches ramp up: the first small, each at most twice the last, to a batch's most")
    func aBacklogsBatchesRampUp() async throws {
        let most = LineReader.batchBytes, first = LineReader.rampFrom
        let ramped = try await Self.batchBytes({ LineReader(source: .follow($0), firstBatchBytes: first) }, lines: 40_000)
        #expect(ramped.reduce(0, +) == 4_000_000)
        // Each batch ends at the first whole line past its most (a read is 64 KB: a batch's most
        // is a multiple of it), all but the last, which holds what is left.
        for (k, size) in ramped.dropLast().enumerated() {
            let wanted = min(most, first << k)
            #expect(abs(size - wanted) < 100, "batch \(k): \(size) bytes, not about \(wanted)")
        }
        #expect(ramped.count == 7, "\(ramped)")
        // Without a ramp the first batch is a whole batch's most.
        let whole = try await Self.batchBytes({ LineReader(source: .follow($0)) }, lines: 40_000)
        #expect(abs(whole[0] - most) < 100, "\(whole)")
        #expect(whole.count == 4)
    }

    @Test("The ramp doubles after a full batch and starts again after one that is not full (a live line, the end of a write)",
          arguments: [
            // (batched, of its most, the next most), with a first of 64 KB and a most of 1 MB
            (65_536, 65_536, 131_072), (70_000, 65_536, 131_072), (524_288, 524_288, 1_048_576),
            (1_048_576, 1_048_576, 1_048_576), (1_100_000, 1_048_576, 1_048_576),
            (220, 1_048_576, 65_536), (65_535, 65_536, 65_536), (100_000, 131_072, 65_536),
          ])
    func theRampStartsAgainAfterABatchThatIsNotFull(batched: Int, gathers: Int, next: Int) {
        #expect(LineReader.nextMost(after: batched, of: gathers, first: 65_536, most: 1 << 20) == next)
        // Without a ramp (the first batch's most is a batch's most) every batch may gather it all.
        #expect(LineReader.nextMost(after: batched, of: 1 << 20, first: 1 << 20, most: 1 << 20) == 1 << 20)
    }
}

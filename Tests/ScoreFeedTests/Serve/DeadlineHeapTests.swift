import Foundation
import Testing
@testable import ScoreFeed

/// The wake-up heap against a sorted list: seeded runs of pushes and pops of what is due, with
/// many equal deadlines (games woken in the same instant) and heaps of every small size. The
/// simulator's default run caught a heap that sifts against the wrong entry on 1 (up) and 29
/// (down) of 240 day-runs (sessions 91 and 81): a late wake-up needs a heap of several games in
/// the wrong order at the wrong moment.
@Suite("DeadlineHeap: the earliest wake-up first")
struct DeadlineHeapTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func popsWhatIsDueInDeadlineOrder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var heap = DeadlineHeap()
        var reference: [(deadline: Date, game: String)] = []
        var now = Date(timeIntervalSince1970: 1_000_000)
        var pushes = 0
        for step in 0..<4_000 {
            if Int.random(in: 0..<3, using: &random) < 2 {
                // Whole seconds over a short span: equal deadlines are common.
                let deadline = now.addingTimeInterval(Double(Int.random(in: 0..<40, using: &random)))
                let game = "G\(pushes)"
                pushes += 1
                heap.push(deadline, game)
                reference.append((deadline, game))
            } else {
                now = now.addingTimeInterval(Double(Int.random(in: 0..<5, using: &random)))
                var popped: [Date] = []
                while let entry = heap.popDue(now) {
                    #expect(entry.deadline <= now)
                    popped.append(entry.deadline)
                }
                let due = reference.filter { $0.deadline <= now }.map(\.deadline).sorted()
                reference.removeAll { $0.deadline <= now }
                #expect(popped == due, "step \(step): popped \(popped.count) due, in order")
            }
            #expect(heap.next == reference.map(\.deadline).min(), "step \(step)")
        }
        // Drained at the end, each entry once, the earliest first.
        var drained: [String] = []
        var last = Date.distantPast
        while let entry = heap.popDue(.distantFuture) {
            #expect(entry.deadline >= last)
            last = entry.deadline
            drained.append(entry.game)
        }
        #expect(drained.sorted() == reference.map(\.game).sorted())
        #expect(heap.next == nil)
    }
}

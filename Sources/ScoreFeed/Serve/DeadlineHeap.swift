import Foundation

/// A min-heap of (deadline, game): which game's policy wants waking next, in O(log n) per
/// change even with thousands of games. Entries may go stale; the caller re-checks on pop.
struct DeadlineHeap: Sendable {
    private var items: [(deadline: Date, game: String)] = []

    var next: Date? { items.first?.deadline }

    mutating func push(_ deadline: Date, _ game: String) {
        items.append((deadline, game))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].deadline < items[parent].deadline else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the earliest entry due at `now`, if any.
    mutating func popDue(_ now: Date) -> (deadline: Date, game: String)? {
        guard let first = items.first, first.deadline <= now else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < items.count && items[l].deadline < items[smallest].deadline { smallest = l }
                if r < items.count && items[r].deadline < items[smallest].deadline { smallest = r }
                if smallest == i { break }
                items.swapAt(i, smallest)
                i = smallest
            }
        }
        return first
    }
}

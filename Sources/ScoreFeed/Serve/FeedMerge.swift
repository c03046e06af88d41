import Foundation

/// The events of several games as one feed, ordered by feed time (`event.time`), the way they
/// would arrive live: each game's events stay in their own order (the feed's, contract 5), and
/// of two games whose next events share a time, the one listed first goes first.
///
/// A k-way merge on each game's next event: O(log k) per event with k games. A game whose times
/// go backwards is not reordered; its later events simply wait for its earlier ones.
public struct FeedMerge: Sequence, IteratorProtocol {
    private let games: [[GameEvent]]
    /// The index of each game's next event.
    private var cursors: [Int]
    /// Games that have events left, a min-heap on (next event's time, game index).
    private var heap: [Int] = []

    /// `games[g]` is game `g`'s events in its feed order.
    public init(_ games: [[GameEvent]]) {
        self.games = games
        cursors = Array(repeating: 0, count: games.count)
        for game in games.indices where !games[game].isEmpty { push(game) }
    }

    /// The next event of the merged feed and the index of its game, or nil when all are written.
    public mutating func next() -> (game: Int, event: GameEvent)? {
        guard let game = heap.first else { return nil }
        let event = games[game][cursors[game]]
        cursors[game] += 1
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        if cursors[game] < games[game].count { push(game) }
        return (game, event)
    }

    /// Whether game `a`'s next event goes before game `b`'s.
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let timeA = games[a][cursors[a]].time, timeB = games[b][cursors[b]].time
        return timeA != timeB ? timeA < timeB : a < b
    }

    private mutating func push(_ game: Int) {
        heap.append(game)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard precedes(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let left = 2 * i + 1, right = left + 1
            var first = i
            if left < heap.count, precedes(heap[left], heap[first]) { first = left }
            if right < heap.count, precedes(heap[right], heap[first]) { first = right }
            if first == i { return }
            heap.swapAt(i, first)
            i = first
        }
    }
}

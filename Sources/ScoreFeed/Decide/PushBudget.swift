import Foundation

/// The activity's priority-10 budget: at most `limit` priority-10 pushes in any rolling hour.
/// Pure value type; the coalescer asks it before spending and tells it when it spent.
public struct PushBudget: Hashable, Sendable, Codable {
    public var limit: Int
    public var window: TimeInterval
    /// Send times of the priority-10 pushes still inside the window, oldest first.
    public private(set) var spent: [Date] = []

    public init(limit: Int, window: TimeInterval = 3600) {
        self.limit = max(0, limit)
        self.window = window
    }

    /// Priority-10 pushes sent in the hour up to `now`.
    public func used(at now: Date) -> Int {
        let from = now.addingTimeInterval(-window)
        return spent.reduce(0) { $0 + ($1 > from ? 1 : 0) }
    }

    /// How many more priority-10 pushes fit now while `keeping` stay unused.
    public func available(at now: Date, keeping reserve: Int = 0) -> Int {
        max(0, limit - reserve - used(at: now))
    }

    /// Records a priority-10 push at `now`.
    public mutating func spend(at now: Date) {
        let from = now.addingTimeInterval(-window)
        spent.removeAll { $0 <= from }
        spent.append(now)
    }

    /// Gives back the priority-10 push booked at `at` (one that never reached Apple); false when
    /// none was booked then.
    @discardableResult
    public mutating func refund(at: Date) -> Bool {
        guard let index = spent.lastIndex(of: at) else { return false }
        spent.remove(at: index)
        return true
    }
}

import Foundation
import Synchronization

/// A moment read and moved without a lock: the clocks' time, which every engine call reads.
/// Stored as the bits of its seconds since the reference date.
struct AtomicDate: ~Copyable, Sendable {
    private let bits: Atomic<UInt64>

    init(_ date: Date) {
        bits = Atomic(date.timeIntervalSinceReferenceDate.bitPattern)
    }

    var value: Date {
        Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits.load(ordering: .acquiring)))
    }

    /// Moves the moment to `date` when it is later (never back).
    func advance(to date: Date) {
        let new = date.timeIntervalSinceReferenceDate
        var old = bits.load(ordering: .relaxed)
        while new > Double(bitPattern: old) {
            let (exchanged, found) = bits.compareExchange(
                expected: old, desired: new.bitPattern, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
            if exchanged { return }
            old = found
        }
    }
}

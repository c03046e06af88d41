import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `fdatasync` of several files that must all be durable before anything goes on (a batch's
/// journals: group commit), side by side when the disk makes each one wait: a batch that touched
/// many games then waits about as long as for one sync, not for one per game after another.
enum ParallelSync {
    /// The most syncs under way at once (the calling thread's among them).
    static let maxSideBySide = 16

    /// Syncs the data of each descriptor; returns each one's `errno`, 0 where it succeeded, in
    /// the order given. The first is synced alone. When it took at least `sideBySideAfter` (a disk
    /// that writes before it answers, not a page cache that answers at once), the rest are synced
    /// side by side, on threads of their own: a blocking call must not hold the pool's threads.
    /// Else they follow one after another, which costs a page cache no thread.
    /// `spawn` makes the threads (``spawn(_:)``; a test's may refuse them).
    static func dataSync(
        _ descriptors: [Int32], sideBySideAfter threshold: Duration, spawn: (@escaping @Sendable () -> Void) -> Bool = spawn
    ) -> [Int32] {
        guard let first = descriptors.first else { return [] }
        let clock = ContinuousClock()
        let start = clock.now
        let firstResult = sync(first)
        guard descriptors.count > 1 else { return [firstResult] }
        let work = Work(descriptors, first: firstResult)
        if clock.now - start < threshold {
            work.run()
        } else {
            let group = DispatchGroup()
            for _ in 1..<min(descriptors.count - 1, maxSideBySide) {
                group.enter()
                // No thread to be had: the threads there are (this one at least) take the rest.
                guard spawn({ work.run(); group.leave() }) else {
                    group.leave()
                    break
                }
            }
            work.run()
            group.wait()
        }
        return work.results()
    }

    /// Runs `body` on a new thread of its own (detached, with a small stack: it makes one call);
    /// false, running nothing, when no thread could be made (a process at its limit).
    static func spawn(_ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        _ = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_attr_setstacksize(&attributes, 256 * 1_024)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let created = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        #else
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { context in
            if let context { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
            return nil
        }, context)
        #endif
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// What a spawned thread runs, handed to it through its one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) {
            self.run = run
        }
    }

    /// `fdatasync(descriptor)`'s `errno`, 0 when it succeeded.
    static func sync(_ descriptor: Int32) -> Int32 {
        fdatasync(descriptor) == 0 ? 0 : errno
    }

    /// The descriptors still to sync, taken one at a time by every thread that runs, and what
    /// each sync gave (each slot written by the one thread that took its descriptor).
    private final class Work: @unchecked Sendable {
        let descriptors: [Int32]
        let next = Atomic<Int>(1)
        private let codes: UnsafeMutableBufferPointer<Int32>

        init(_ descriptors: [Int32], first: Int32) {
            self.descriptors = descriptors
            codes = .allocate(capacity: descriptors.count)
            codes.initialize(repeating: 0)
            codes[0] = first
        }

        deinit {
            codes.deallocate()
        }

        /// Syncs descriptors until none is left to take.
        func run() {
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < descriptors.count else { return }
                codes[index] = ParallelSync.sync(descriptors[index])
            }
        }

        /// What each sync gave, once every thread that ran is done.
        func results() -> [Int32] {
            Array(codes)
        }
    }
}

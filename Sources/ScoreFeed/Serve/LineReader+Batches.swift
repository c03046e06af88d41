import Foundation

extension LineReader {
    /// The batches a reader hands over, in order. At most four wait to be
    /// taken; taking one lets the reader's thread hand the next (it blocks meanwhile, it does not
    /// poll). When the reader joins what waits (``LineReader/joinsWaiting``), one step takes every
    /// batch waiting as one, up to one batch's most bytes: what arrived while the engines were busy
    /// is one moment.
    public struct Batches<Line: Sendable>: AsyncSequence, Sendable {
        let handoff: Handoff<Line>
        let joined: Bool

        public struct AsyncIterator: AsyncIteratorProtocol {
            let handoff: Handoff<Line>
            let joined: Bool
            /// Stops the reader when the consumer lets go of the iterator without reading to the end.
            let release: Release

            public mutating func next() async -> [Line]? {
                await handoff.take(joined: joined)
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(handoff: handoff, joined: joined, release: Release(handoff.stop))
        }
    }

    /// Calls `action` when it is released.
    final class Release: Sendable {
        let action: @Sendable () -> Void
        init(_ action: @escaping @Sendable () -> Void) { self.action = action }
        deinit { action() }
    }

    /// Where the reader's thread leaves batches for the engines' task: at most `room` wait; the
    /// thread blocks for room, the task suspends for a batch. A joined take is at most
    /// `joinedBytes` of input (one batch's most), so what the engines hold stays bounded.
    final class Handoff<Line: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private let room: Int
        private let joinedBytes: Int
        /// The batches left, with the bytes of input each was read from.
        private var waiting: [(lines: [Line], bytes: Int)] = []
        private var taker: CheckedContinuation<[Line]?, Never>?
        private var finished = false
        private var stopped = false

        init(room: Int, joinedBytes: Int = .max) {
            self.room = room
            self.joinedBytes = joinedBytes
        }

        /// Whether the engines' side stopped taking (cancelled, or the iterator let go).
        var isStopped: Bool { condition.withLock { stopped } }

        /// Leaves `batch` (read from `bytes` of input) for the engines, waiting for room first.
        /// False once the taker stopped.
        @discardableResult
        func put(_ batch: [Line], bytes: Int = 0) -> Bool {
            condition.lock()
            while waiting.count >= room && !stopped { condition.wait() }
            guard !stopped else {
                condition.unlock()
                return false
            }
            if let taker {
                self.taker = nil
                condition.unlock()
                taker.resume(returning: batch)
                return true
            }
            waiting.append((batch, bytes))
            condition.unlock()
            return true
        }

        /// No batch comes after those left.
        func finish() {
            condition.lock()
            finished = true
            let taker = self.taker
            self.taker = nil
            condition.unlock()
            taker?.resume(returning: nil)
        }

        /// The taker is gone: the reader's next ``put(_:)`` returns false, a waiting take nil.
        @Sendable func stop() {
            condition.lock()
            stopped = true
            let taker = self.taker
            self.taker = nil
            condition.broadcast()
            condition.unlock()
            taker?.resume(returning: nil)
        }

        /// The next batch (`joined`: every batch waiting, as one, within `joinedBytes`), or nil once
        /// the reader finished and every batch was taken, or the task is cancelled.
        func take(joined: Bool) async -> [Line]? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<[Line]?, Never>) in
                    condition.lock()
                    if !waiting.isEmpty {
                        var batch = waiting[0].lines
                        var (taken, bytes) = (1, waiting[0].bytes)
                        while joined, taken < waiting.count, bytes + waiting[taken].bytes <= joinedBytes {
                            batch += waiting[taken].lines
                            bytes += waiting[taken].bytes
                            taken += 1
                        }
                        waiting.removeFirst(taken)
                        condition.broadcast()
                        condition.unlock()
                        continuation.resume(returning: batch)
                    } else if finished || stopped {
                        condition.unlock()
                        continuation.resume(returning: nil)
                    } else {
                        taker = continuation
                        condition.unlock()
                    }
                }
            } onCancel: {
                stop()
            }
        }
    }
}

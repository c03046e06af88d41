import Foundation

extension LineReader {
    /// The batches a reader hands over, in order. At most four wait to be
    /// taken; taking one lets the reader's thread hand the next (it blocks meanwhile, it does
    /// not poll).
    public struct Batches<Line: Sendable>: AsyncSequence, Sendable {
        let stream: AsyncStream<[Line]>
        let room: DispatchSemaphore

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<[Line]>.AsyncIterator
            let room: DispatchSemaphore

            public mutating func next() async -> [Line]? {
                let batch = await base.next()
                if batch != nil { room.signal() }
                return batch
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator(), room: room)
        }
    }
}

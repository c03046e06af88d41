import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream (standard input, or a file being appended to) into numbered lines on a
/// thread of its own, so a slow producer never blocks the engines. A line longer than the
/// limit is skipped and reported instead of growing memory without bound.
public struct LineReader: Sendable {
    /// One item of the stream.
    public enum Item: Sendable {
        case line(Data, number: Int)
        /// Line `number` had more than the limit's bytes (`length` so far) and was skipped.
        case oversized(number: Int, length: Int)
    }

    public enum Source: Sendable {
        case standardInput
        /// A file read from its start and then followed as it grows.
        case follow(String)
    }

    public var source: Source
    public var maxLineBytes: Int

    public init(source: Source, maxLineBytes: Int = 65_536) {
        self.source = source
        self.maxLineBytes = maxLineBytes
    }

    /// The most bytes one batch gathers from reads that find data waiting.
    static let batchBytes = 1 << 20

    /// Whether `fd` has data to read now.
    static func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// The lines, in batches of what the reads found waiting (up to a megabyte when the
    /// producer is ahead; one line when it is live), ending when standard input ends (a followed file never
    /// ends by itself). A batch is what `serve` makes durable with one sync.
    public func batches() -> AsyncStream<[Item]> {
        batches { $0 }
    }

    /// ``batches()`` with each item turned into `T` on the reader's thread (serve parses its
    /// lines there, beside the engines, on a core of its own).
    public func batches<T: Sendable>(_ transform: @escaping @Sendable (Item) -> T) -> AsyncStream<[T]> {
        let source = self.source, limit = maxLineBytes
        return AsyncStream(bufferingPolicy: .bufferingOldest(4)) { continuation in
            let stop = StopFlag()
            continuation.onTermination = { _ in stop.set() }
            Thread.detachNewThread {
                var fd: Int32 = STDIN_FILENO
                if case .follow(let path) = source {
                    fd = open(path, O_RDONLY)
                    if fd < 0 {
                        continuation.finish()
                        return
                    }
                }
                // A full buffer (the engines behind) turns a batch away: it is offered again
                // until taken, the last one too, so no line is ever lost.
                func hand(_ items: [T]) {
                    while case .dropped = continuation.yield(items), !stop.isSet { usleep(1000) }
                }
                var splitter = Splitter(limit: limit)
                var buffer = [UInt8](repeating: 0, count: 65_536)
                var items: [T] = []
                var batched = 0
                while !stop.isSet {
                    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 {
                        if case .follow = source, n == 0 {
                            if !items.isEmpty {
                                hand(items)
                                items = []
                                batched = 0
                            }
                            usleep(50_000)
                            continue
                        }
                        break
                    }
                    for item in splitter.feed(buffer[0..<n]) { items.append(transform(item)) }
                    batched += n
                    // What is already there joins the batch (up to a megabyte): a backlog is made
                    // durable in a few syncs, a live feed's line goes at once.
                    if batched < Self.batchBytes, Self.readable(fd) { continue }
                    guard !items.isEmpty else { continue }
                    hand(items)
                    items = []
                    batched = 0
                }
                if let last = splitter.finish() { items.append(transform(last)) }
                if !items.isEmpty { hand(items) }
                if case .follow = source { close(fd) }
                continuation.finish()
            }
        }
    }

    /// Turns chunks of bytes into lines, pure and testable.
    public struct Splitter: Sendable {
        let limit: Int
        private var current: [UInt8] = []
        private var number = 0
        private var overflowed = 0

        public init(limit: Int) {
            self.limit = limit
        }

        public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Item] {
            var items: [Item] = []
            var start = bytes.startIndex
            while start < bytes.endIndex {
                guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                    append(bytes[start...])
                    break
                }
                append(bytes[start..<newline])
                items.append(take())
                start = newline + 1
            }
            return items
        }

        /// The last line when the input ends without a newline.
        public mutating func finish() -> Item? {
            current.isEmpty && overflowed == 0 ? nil : take()
        }

        private mutating func append(_ bytes: ArraySlice<UInt8>) {
            if overflowed > 0 || current.count + bytes.count > limit {
                overflowed += current.count + bytes.count
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(contentsOf: bytes)
            }
        }

        private mutating func take() -> Item {
            number += 1
            defer {
                current.removeAll(keepingCapacity: true)
                overflowed = 0
            }
            if overflowed > 0 { return .oversized(number: number, length: overflowed) }
            return .line(Data(current[..<(current.last == 0x0D ? current.count - 1 : current.count)]), number: number)
        }
    }
}

/// A flag set from one thread and read from another.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

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
    public enum Source: Sendable {
        case standardInput
        /// A file read from its start and then followed as it grows.
        case follow(String)
    }

    public var source: Source
    public var maxLineBytes: Int
    /// The most bytes one batch gathers from reads that find data waiting.
    public var batchBytes: Int

    /// Milliseconds a batch of a backlog (`backlogBytes` read so far) waits for more when a read
    /// finds nothing more waiting: a producer writing a backlog may be a moment behind the reader
    /// (a pipe holds 64 KB), and what it writes in one go is one moment. A live line or a few
    /// never make a batch that large, so they never wait. 0: no wait.
    public var grace: Int32

    /// Whether the engines take every batch waiting as one (`serve` on the system clock, where a
    /// batch is one moment): lines read while the engines were busy arrived together.
    public var joinsWaiting: Bool

    /// The most bytes a backlog's first batch gathers (give or take the last read); each full
    /// batch after it may gather twice as much, up to `batchBytes`, and a batch that is not full
    /// starts again from this. A backlog's first lines then reach the engines while the rest is
    /// parsed, instead of after a whole batch: the engines start at once and do not wait for the
    /// reader again (they take longer over a batch than the reader). Only where a batch is
    /// neither one moment nor one sync: `batchBytes` (no ramp) otherwise.
    public var firstBatchBytes: Int

    public init(
        source: Source, maxLineBytes: Int = 65_536, batchBytes: Int = LineReader.batchBytes, grace: Int32 = 0,
        joinsWaiting: Bool = false, firstBatchBytes: Int? = nil
    ) {
        self.source = source
        self.maxLineBytes = maxLineBytes
        self.batchBytes = batchBytes
        self.grace = grace
        self.joinsWaiting = joinsWaiting
        self.firstBatchBytes = max(1, min(firstBatchBytes ?? batchBytes, batchBytes))
    }

    /// The most bytes one batch gathers by default: a backlog is made durable in a few syncs,
    /// and the engines start on it while the rest is read.
    public static let batchBytes = 1 << 20
    /// The most bytes one batch gathers when a batch is one moment (`serve` on the system clock):
    /// a backlog of this much reaches each game as one arrival, one decision.
    public static let arrivalBytes = 64 << 20
    /// The first batch's most bytes where batches ramp up (``firstBatchBytes``): about 300 lines.
    public static let rampFrom = 65_536
    /// A batch this large is a backlog's: it waits ``grace`` for the rest.
    static let backlogBytes = 16_384
    /// The most batches parsed ahead of the engines (waiting in the stream's buffer).
    static let batchesAhead = 4

    /// The most bytes the batch after one of `batched` bytes (of its most, `gathers`) gathers:
    /// twice as much after a full batch, up to `most`; `first` again after one that was not full.
    static func nextMost(after batched: Int, of gathers: Int, first: Int, most: Int) -> Int {
        batched >= gathers ? min(most, 2 * gathers) : first
    }

    /// Whether `fd` has data to read now.
    static func readable(_ fd: Int32, waiting milliseconds: Int32 = 0) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// The lines, in batches of what the reads found waiting (up to `batchBytes` when the
    /// producer is ahead; one line when it is live), parsed on the reader's thread, beside the
    /// engines, on a core of its own: what `serve` reads. Each line is parsed from the read buffer
    /// itself (no copy of it is made). The stream ends when standard input ends (a followed file
    /// never ends by itself). A batch is what `serve` makes durable with one sync.
    public func parsedBatches(source: String?) -> Batches<StreamLine> {
        batches(found: { StreamLine($0, source: source) })
    }

    /// The batches, each line turned into `T` while its bytes are still in the read buffer.
    func batches<T: Sendable>(found transform: @escaping @Sendable (Found) -> T) -> Batches<T> {
        let source = self.source, limit = maxLineBytes, most = batchBytes, grace = self.grace, first = firstBatchBytes
        // Room for the batches parsed ahead: the reader waits for a batch to be taken (no polling).
        let handoff = Handoff<T>(room: Self.batchesAhead, joinedBytes: most)
        Thread.detachNewThread {
            var fd: Int32 = STDIN_FILENO
            if case .follow(let path) = source {
                fd = open(path, O_RDONLY)
                if fd < 0 {
                    handoff.finish()
                    return
                }
            }
            var splitter = Splitter(limit: limit)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
            defer { buffer.deallocate() }
            var items: [T] = []
            // The engines behind: the reader waits until they take a batch, so no line is ever
            // lost and no more than ``batchesAhead`` batches wait. Each batch is given the room
            // the last one took and an eighth more, so a backlog's batches are seldom grown (and
            // copied).
            var batched = 0
            // This batch's most bytes: the first batch's, doubled after each full batch, up to
            // `most`; a batch that is not full (a live line, the end of what was written) starts
            // the ramp again, so the next backlog's first batch is small too.
            var gathers = first
            func handItems() {
                handoff.put(items, bytes: batched)
                let next = Self.nextMost(after: batched, of: gathers, first: first, most: most)
                // Room for twice the lines when the next batch may be twice as large.
                let room = next > gathers ? 2 * items.count : items.count + items.count / 8
                items = []
                items.reserveCapacity(room)
                gathers = next
                batched = 0
            }
            while !handoff.isStopped {
                let n = read(fd, buffer.baseAddress, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    if case .follow = source, n == 0 {
                        if !items.isEmpty { handItems() }
                        usleep(50_000)
                        continue
                    }
                    break
                }
                splitter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { items.append(transform($0)) }
                batched += n
                // What is already there joins the batch (up to a megabyte): a backlog is made
                // durable in a few syncs, a live feed's line goes at once.
                if batched < gathers, Self.readable(fd) || (grace > 0 && batched >= Self.backlogBytes && Self.readable(fd, waiting: grace)) {
                    continue
                }
                guard !items.isEmpty else { continue }
                handItems()
            }
            splitter.finish { items.append(transform($0)) }
            if !items.isEmpty { handoff.put(items, bytes: batched) }
            if case .follow = source { close(fd) }
            handoff.finish()
        }
        return Batches(handoff: handoff, joined: joinsWaiting)
    }

    /// A line as the splitter finds it, before anything is copied: its bytes (without the
    /// newline, and without a carriage return before it) are valid only during the call that
    /// receives them.
    public enum Found {
        case line(UnsafeRawBufferPointer, number: Int)
        /// Line `number` had more than the limit's bytes (`length` so far) and was skipped.
        case oversized(number: Int, length: Int)
    }

    /// Turns chunks of bytes into lines, pure and testable.
    public struct Splitter: Sendable {
        let limit: Int
        /// The start of a line whose end is in a later chunk (empty when the last chunk ended
        /// with a newline, or while the line is past the limit).
        private var current: [UInt8] = []
        private var number = 0
        /// The bytes of the current line so far, once they are past the limit (0 before).
        private var overflowed = 0

        public init(limit: Int) {
            self.limit = limit
        }

        /// Calls `each` with every line that `bytes` completes, in order. A line that lies
        /// whole in `bytes` is handed in place; one begun in an earlier chunk from the kept start.
        public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ each: (Found) -> Void) {
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count {
                guard let newline = ByteSearch.firstOffset(of: 0x0A, in: bytes, from: start) else {
                    append(UnsafeRawBufferPointer(start: base + start, count: bytes.count - start))
                    return
                }
                let line = UnsafeRawBufferPointer(start: base + start, count: newline - start)
                if current.isEmpty && overflowed == 0 {
                    number += 1
                    each(line.count > limit ? .oversized(number: number, length: line.count) : .line(Self.trimmed(line), number: number))
                } else {
                    append(line)
                    take(each)
                }
                start = newline + 1
            }
        }

        /// Calls `each` with the last line when the input ends without a newline.
        public mutating func finish(_ each: (Found) -> Void) {
            guard !current.isEmpty || overflowed > 0 else { return }
            take(each)
        }

        private mutating func append(_ bytes: UnsafeRawBufferPointer) {
            if overflowed > 0 || current.count + bytes.count > limit {
                overflowed += current.count + bytes.count
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(contentsOf: bytes)
            }
        }

        private mutating func take(_ each: (Found) -> Void) {
            number += 1
            defer {
                current.removeAll(keepingCapacity: true)
                overflowed = 0
            }
            if overflowed > 0 {
                each(.oversized(number: number, length: overflowed))
            } else {
                let number = number
                current.withUnsafeBytes { each(.line(Self.trimmed($0), number: number)) }
            }
        }

        /// The line without the carriage return of a CRLF ending.
        private static func trimmed(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
        }
    }
}

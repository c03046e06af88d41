import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Journal {
    /// What a journal file holds: its inputs in order with the number of the first, and whether
    /// a torn or unreadable tail was dropped.
    public struct Reading: Sendable {
        public var first: Int?
        /// The game as the journal's first line holds it, when that line is a base
        /// (``Journal/begin(_:first:seq:lastTimestamp:to:)``): every input before ``first`` in it.
        public var base: Data?
        public var inputs: [GameSession.Input] = []
        /// Lines dropped at the end (a torn write, or anything after one).
        public var droppedLines = 0
        /// The bytes of the lines read, their newlines with them: where the dropped tail starts.
        public var wholeBytes = 0
        /// The bytes read in all, the dropped tail's with them.
        public var bytes = 0
        /// The number of the first whole line whose checksum holds but whose inputs this version
        /// cannot read (written by a newer ScoreFeed, rolled back): not a torn write, and what
        /// follows it would be lost unsaid. Nil when there is none.
        public var unreadableLine: Int?
        /// The renderer's `seq` and last timestamp after the last whole line.
        public var seq: Int?
        public var lastTimestamp: Int?
    }

    /// ``read(_:)`` of a journal's bytes, nil when there are none (no journal, or an empty one).
    public static func reading(of journal: Data?) -> Reading? {
        journal.flatMap { $0.isEmpty ? nil : read($0) }
    }

    /// The game a journal's first line holds when that line is a whole base: ``read(_:)``'s
    /// ``Reading/base``, without reading the lines after it (a check of the base alone).
    public static func base(of journal: Data?) -> Data? {
        // A first line not ended by a newline is a torn one.
        guard let journal, let end = journal.withUnsafeBytes({ ByteSearch.firstOffset(of: 0x0A, in: $0) }) else { return nil }
        return parse(journal[journal.startIndex..<journal.startIndex + end])?.base
    }

    /// Reads a journal file's bytes: every whole line whose checksum holds and whose numbering
    /// follows on; the rest, from the first line that does not, is dropped.
    public static func read(_ data: Data) -> Reading {
        var reading = Reading()
        reading.bytes = data.count
        let ranges = pieces(of: data)
        let lines = ranges.map { data[$0] }
        // The last piece is what follows the last newline: empty, or a torn line.
        var next: Int?
        for (index, line) in lines.enumerated() {
            let isLast = index == lines.count - 1
            if isLast && line.isEmpty { break }
            // A base stands only first.
            let parsed = isLast ? nil : parse(line).flatMap { $0.base == nil || index == 0 ? $0 : nil }
            guard let entry = parsed, next == nil || entry.first == next else {
                reading.droppedLines = lines.count - index - (lines.last?.isEmpty == true ? 1 : 0)
                if !isLast, parsed == nil, isWhole(line) { reading.unreadableLine = index + 1 }
                break
            }
            if reading.first == nil { reading.first = entry.first }
            if let base = entry.base { reading.base = base }
            reading.inputs += entry.inputs
            reading.seq = entry.seq
            reading.lastTimestamp = entry.lastTimestamp
            reading.wholeBytes = ranges[index].upperBound + 1 - data.startIndex
            next = entry.first + entry.inputs.count
        }
        return reading
    }

    /// The highest numbering (the renderer's `seq` and last timestamp) of any whole line of
    /// `data` (its checksum holds), wherever it stands: what a journal whose first line is
    /// damaged still shows. Every push's `seq` is in a line synced before the push went.
    public static func highestNumbering(_ data: Data) -> (seq: Int, lastTimestamp: Int)? {
        var highest: (seq: Int, lastTimestamp: Int)?
        for range in pieces(of: data) {
            guard let (_, body) = checksummed(data[range]), let (seq, lastTimestamp, _) = numbering(body),
                  seq >= highest?.seq ?? Int.min
            else { continue }
            highest = (seq, max(lastTimestamp, highest?.lastTimestamp ?? Int.min))
        }
        return highest
    }

    /// The ranges of `data` between newlines, as `split(separator: 0x0A,
    /// omittingEmptySubsequences: false)` gives them (the last is what follows the last newline),
    /// found with ``ByteSearch`` (`memchr`): the generic split took a twentieth of a simulated day.
    static func pieces(of data: Data) -> [Range<Int>] {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> [Range<Int>] in
            var pieces: [Range<Int>] = []
            var start = 0
            while let end = ByteSearch.firstOffset(of: 0x0A, in: buffer, from: start) {
                pieces.append(data.startIndex + start..<data.startIndex + end)
                start = end + 1
            }
            pieces.append(data.startIndex + start..<data.startIndex + buffer.count)
            return pieces
        }
    }

    /// Whether `line` was written whole: its checksum holds and its first field is a number.
    /// The checksum covers the part after the head, so a power cut's lost page (zeros) glued
    /// onto the whole line after it is not taken for one.
    private static func isWhole(_ line: Data.SubSequence) -> Bool {
        guard let (first, _) = checksummed(line) else { return false }
        return Int(String(decoding: first, as: UTF8.self)) != nil
    }

    /// A whole line's first field (its first input's number) and its checksummed part; nil when
    /// its checksum does not hold.
    private static func checksummed(_ line: Data.SubSequence) -> (first: Data.SubSequence, body: Data.SubSequence)? {
        guard let head = threeFields(line), let sum = UInt64(String(decoding: head.1, as: UTF8.self), radix: 16), checksum(head.2) == sum
        else { return nil }
        return (head.0, head.2)
    }

    /// A checksummed part's numbering (the renderer's `seq` and last timestamp) and what follows it.
    private static func numbering(_ body: Data.SubSequence) -> (seq: Int, lastTimestamp: Int, rest: Data.SubSequence)? {
        guard let fields = threeFields(body), let seq = Int(String(decoding: fields.0, as: UTF8.self)),
              let lastTimestamp = Int(String(decoding: fields.1, as: UTF8.self))
        else { return nil }
        return (seq, lastTimestamp, fields.2)
    }

    /// `line` cut at its first two spaces, as `split(separator: 0x20, maxSplits: 2,
    /// omittingEmptySubsequences: false)` cuts it, nil when it has fewer than two. Found with
    /// ``ByteSearch``: the generic split reads a `Data` a byte at a time, twice per line of a restore.
    private static func threeFields(_ line: Data.SubSequence) -> (Data.SubSequence, Data.SubSequence, Data.SubSequence)? {
        let spaces = line.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> (Int, Int)? in
            guard let first = ByteSearch.firstOffset(of: 0x20, in: buffer),
                  let second = ByteSearch.firstOffset(of: 0x20, in: buffer, from: first + 1)
            else { return nil }
            return (first, second)
        }
        guard let (first, second) = spaces else { return nil }
        let start = line.startIndex
        return (line[start..<start + first], line[start + first + 1..<start + second], line[start + second + 1..<line.endIndex])
    }

    private static func parse(
        _ line: Data.SubSequence
    ) -> (first: Int, seq: Int, lastTimestamp: Int, inputs: [GameSession.Input], base: Data?)? {
        guard let (firstText, body) = checksummed(line), let first = Int(String(decoding: firstText, as: UTF8.self)),
              let (seq, lastTimestamp, rest) = numbering(body)
        else { return nil }
        if let base = base(rest) { return (first, seq, lastTimestamp, [], base) }
        guard let inputs = inputs(rest) else { return nil }
        return (first, seq, lastTimestamp, inputs, nil)
    }

    /// The game a base line holds (`{"base":<session>}`), nil for any other line.
    private static func base(_ json: Data.SubSequence) -> Data? {
        let open = Array(#"{"base":"#.utf8)
        guard json.count > open.count + 1, json.starts(with: open), json.last == UInt8(ascii: "}") else { return nil }
        return Data(json[(json.startIndex + open.count)..<(json.endIndex - 1)])
    }

    /// A line's inputs: read by the byte reader, or by `JSONDecoder` where it declines.
    private static func inputs(_ json: Data.SubSequence) -> [GameSession.Input]? {
        json.withUnsafeBytes { bytes in
            JSONScanner.reading(bytes) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) in try scanner.inputs() }
        } ?? (try? JSONDecoder().decode([GameSession.Input].self, from: Data(json)))
    }
}

import Foundation
import Testing
@testable import ScoreFeed

/// `serve`'s reader hands each line to the parser where it lies in the read buffer: the splitter
/// must cut a stream into the same lines, numbers and oversized reports however the reads chunk
/// it, as a plain reference split does (lines end at `\n`; one `\r` before it is dropped; a line
/// of more than the limit's bytes is reported with its length; a last line without a newline counts).
@Suite("LineReader.Splitter: the same lines in place, however the stream is chunked")
struct LineSplitterTests {
    /// The lines of `stream` as the reference reads them.
    static func reference(_ stream: [UInt8], limit: Int) -> [String] {
        var pieces = stream.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if pieces.last?.isEmpty == true { pieces.removeLast() }
        return pieces.enumerated().map { index, line in
            if line.count > limit { return "\(index + 1): oversized \(line.count)" }
            return "\(index + 1): \(line.last == 0x0D ? Array(line.dropLast()) : line)"
        }
    }

    /// The lines as the splitter finds them in place, `stream` fed in chunks of the given sizes.
    static func inPlace(_ stream: [UInt8], limit: Int, chunks: [Int]) -> [String] {
        var splitter = LineReader.Splitter(limit: limit)
        var lines: [String] = []
        func note(_ found: LineReader.Found) {
            switch found {
            case .line(let bytes, let number): lines.append("\(number): \(Array(bytes))")
            case .oversized(let number, let length): lines.append("\(number): oversized \(length)")
            }
        }
        var start = 0, next = 0
        while start < stream.count {
            let end = min(stream.count, start + chunks[next % chunks.count])
            next += 1
            stream[start..<end].withUnsafeBytes { splitter.feed($0, note) }
            start = end
        }
        splitter.finish(note)
        return lines
    }

    /// The same through the copying API (``LineReader/Item``).
    static func copied(_ stream: [UInt8], limit: Int, chunk: Int) -> [String] {
        var splitter = LineReader.Splitter(limit: limit)
        var items: [LineReader.Item] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + chunk)
            items += splitter.feed(stream[start..<end])
            start = end
        }
        items += splitter.finish().map { [$0] } ?? []
        return items.map { item in
            switch item {
            case .line(let data, let number): "\(number): \(Array(data))"
            case .oversized(let number, let length): "\(number): oversized \(length)"
            }
        }
    }

    @Test(arguments: [1, 5, 10, 64, 200])
    func randomStreamsInRandomChunks(limit: Int) {
        var random = SeededRandom(seed: UInt64(limit))
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x0D, 0x0D, 0x7B, 0x22, 0x61, 0x62, 0x00, 0xFF]
        for round in 0..<300 {
            let length = Int(random.next() % 700)
            var stream = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            // Long runs without a newline, around the limit.
            if round % 3 == 0 { stream += Array(repeating: 0x61, count: limit - 1 + Int(random.next() % 3)) + [0x0D, 0x0A] }
            if round % 5 == 0 { stream += Array(repeating: 0x62, count: Int(random.next() % UInt64(2 * limit + 2))) }
            let expected = Self.reference(stream, limit: limit)
            let chunks = (0..<4).map { _ in 1 + Int(random.next() % 300) }
            #expect(Self.inPlace(stream, limit: limit, chunks: chunks) == expected, "round \(round), chunks \(chunks)")
            #expect(Self.copied(stream, limit: limit, chunk: chunks[0]) == expected, "round \(round), chunk \(chunks[0])")
        }
    }

    @Test func edges() {
        let cases: [(String, Int)] = [
            ("", 10), ("\n", 10), ("\n\n", 10), ("\r\n", 10), ("\r", 10), ("abc", 10), ("abc\r", 10),
            ("0123456789\n", 10), ("0123456789A\n", 10), ("012345678\r\n", 10), ("0123456789\r\n", 10),
            ("a\r\r\nb", 10), ("\r\rx\n", 1), ("x\n\ny", 1), ("xy\nz", 1),
        ]
        for (text, limit) in cases {
            let stream = Array(text.utf8)
            let expected = Self.reference(stream, limit: limit)
            for chunk in 1...max(1, stream.count) {
                #expect(Self.inPlace(stream, limit: limit, chunks: [chunk]) == expected, "\(text.debugDescription) in chunks of \(chunk)")
                #expect(Self.copied(stream, limit: limit, chunk: chunk) == expected, "\(text.debugDescription) in chunks of \(chunk)")
            }
        }
    }

    /// The word test the byte reader skips plain string bytes with, against a byte by byte one:
    /// every byte value at every place of a word of plain bytes, and seeded random words. The
    /// reader stops at the lowest byte the test flags: it must be the first byte that is not
    /// plain (a borrow may flag plain bytes above it, never below).
    @Test func plainWordsAreExactlyThoseOfPlainBytes() {
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x80 && byte != 0x22 && byte != 0x5C }
        func bytes(of word: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) } }
        func check(_ word: UInt64, _ context: String) {
            let first = bytes(of: word).firstIndex { !plain($0) }
            #expect((JSONScanner.notPlain(word) == 0) == (first == nil), "\(context)")
            let flags = JSONScanner.notPlain(word)
            #expect((flags == 0 ? nil : flags.trailingZeroBitCount / 8) == first, "the first not plain, \(context)")
        }
        let base: UInt64 = 0x6161_6161_6161_6161
        for place in 0..<8 {
            for value in 0...255 as ClosedRange<UInt64> {
                let word = base & ~(0xFF << (8 * UInt64(place))) | value << (8 * UInt64(place))
                check(word, "byte \(value) at \(place)")
            }
        }
        var random = SeededRandom(seed: 3)
        let choices: [UInt64] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF, 0x61]
        for _ in 0..<20_000 {
            let word = (0..<8).reduce(UInt64(0)) { word, place in word | choices[Int(random.next() % UInt64(choices.count))] << (8 * UInt64(place)) }
            check(word, "word \(String(word, radix: 16))")
        }
    }

    /// The direct reader's shortcuts agree with the general checks they stand for.
    @Test func shortcutsAgreeWithTheGeneralChecks() {
        for (id, _) in GameIDTests.adversarial + [("a", true), (String(repeating: "a", count: 64), true), ("G~1", true)] {
            let shortcut = Array(id.utf8).withUnsafeBufferPointer { GameID.isValidASCII($0) }
            // The shortcut takes only valid ids, and every valid id of printable ASCII.
            #expect(!shortcut || GameID.problem(with: id) == nil, "\(GameID.quoted(id))")
            #expect(shortcut == (GameID.problem(with: id) == nil && id.utf8.allSatisfy { (0x20...0x7E).contains($0) }), "\(GameID.quoted(id))")
        }
        for type in RawEvent.EventType.allCases {
            for name in [type.rawValue, type.rawValue.uppercased(), type.rawValue + "s", String(type.rawValue.dropLast())] {
                let byBytes = Array(name.utf8).withUnsafeBufferPointer { RawEvent.EventType(bytes: $0) }
                #expect(byBytes == RawEvent.EventType(rawValue: name), "\(name)")
            }
        }
    }
}

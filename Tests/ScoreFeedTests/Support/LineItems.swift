import Foundation
@testable import ScoreFeed

/// Lines copied out of the splitter, for tests that hand a service lines one at a time or look
/// at what the splitter found (`serve` itself parses each line in place, ``LineReader/Found``).
extension LineReader {
    enum Item: Sendable {
        case line(Data, number: Int)
        /// Line `number` had more than the limit's bytes (`length` so far) and was skipped.
        case oversized(number: Int, length: Int)

        /// The line copied out of the reader's buffer.
        init(_ found: LineReader.Found) {
            switch found {
            case .line(let bytes, let number): self = .line(Data(bytes), number: number)
            case .oversized(let number, let length): self = .oversized(number: number, length: length)
            }
        }
    }
}

extension LineReader.Splitter {
    /// The lines that `bytes` completes, each copied.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [LineReader.Item] {
        var items: [LineReader.Item] = []
        bytes.withUnsafeBytes { feed($0) { items.append(LineReader.Item($0)) } }
        return items
    }

    /// The last line when the input ends without a newline.
    mutating func finish() -> LineReader.Item? {
        var last: LineReader.Item?
        finish { last = LineReader.Item($0) }
        return last
    }
}

extension StreamLine {
    /// Parses `item` (from `source`, for messages).
    init(_ item: LineReader.Item, source: String?) {
        switch item {
        case .oversized(let number, let length):
            self.init(LineReader.Found.oversized(number: number, length: length), source: source)
        case .line(let data, let number):
            self.init(data, number: number, source: source)
        }
    }
}

extension GameService {
    /// Handles one line of the input, as `serve` does once it has parsed it.
    func handle(_ item: LineReader.Item, source: String? = nil) async -> ScoreFeedError? {
        await handle(StreamLine(item, source: source), source: source)
    }

    /// The shutdown `serve` and `poll` run at the end of their input (``LiveService``): held
    /// pushes come due, channels settle, the sink finishes, every game is compacted.
    func shutDown(waitingAtMost limit: TimeInterval = 600) async {
        _ = await LiveService(self, drainTimeout: limit).run(input: {})
    }
}

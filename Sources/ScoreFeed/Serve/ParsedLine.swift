import Foundation

/// One line of `serve`'s input, parsed: what ``GameService`` applies. Parsing is pure, so
/// `serve` does it on the reader's thread while the engines work on the last batch.
public struct ParsedLine: Sendable {
    /// The 1-based line number, for messages.
    public var number: Int
    /// The header or event; nil for an empty line; the error for a line that is too long or
    /// does not parse.
    public var content: Result<StreamLine?, ScoreFeedError>

    public init(number: Int, content: Result<StreamLine?, ScoreFeedError>) {
        self.number = number
        self.content = content
    }

    /// Parses line `number` (its bytes without the newline), from `source`, for messages: a line
    /// an embedder has in hand, not from a ``LineReader``.
    public init(_ line: Data, number: Int, source: String?) {
        self = line.withUnsafeBytes { ParsedLine(LineReader.Found.line($0, number: number), source: source) }
    }

    /// Parses a line the reader found, from its bytes in place (from `source`, for messages).
    public init(_ found: LineReader.Found, source: String?) {
        switch found {
        case .oversized(let number, let length):
            self.number = number
            content = .failure(
                ScoreFeedError(.invalidValue, "line of \(length)+ bytes exceeds the limit; skipped", at: .init(file: source, line: number)))
        case .line(let bytes, let number):
            self.number = number
            if bytes.isEmpty {
                content = .success(nil)
            } else {
                do throws(ScoreFeedError) {
                    content = .success(try StreamLine.parse(bytes, number: number, source: source))
                } catch {
                    content = .failure(error)
                }
            }
        }
    }
}

import Foundation

/// A JSON document written once with string marks where values change, cut at the marks (each
/// with its quotes): filling it is a concatenation, not a serialization of the whole document.
/// The test CDNs answer thousands of copies of one game so.
struct MarkedJSON: Sendable {
    /// The bytes between the marks, one more than the marks.
    private let parts: [Data]
    /// Which mark (its place in the marks given) each cut stood for, in the document's order.
    private let order: [Int]

    /// `object` written by `JSONSerialization`, each of `marks` somewhere in it as a string value
    /// exactly once.
    init(_ object: Any, marks: [String]) throws {
        var rest = Substring(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        var parts: [Data] = [], order: [Int] = []
        while case let (mark, range)? = marks.indices.compactMap({ mark in rest.range(of: "\"\(marks[mark])\"").map { (mark, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound }) {
            parts.append(Data(rest[..<range.lowerBound].utf8))
            order.append(mark)
            rest = rest[range.upperBound...]
        }
        parts.append(Data(rest.utf8))
        guard order.sorted() == Array(marks.indices) else {
            throw CocoaError(.coderInvalidValue, userInfo: [NSDebugDescriptionErrorKey: "each mark once in the document: \(marks)"])
        }
        self.parts = parts
        self.order = order
    }

    /// The document with `values[i]` (JSON as it is to stand) in place of the i-th mark.
    func filled(_ values: [Data]) -> Data {
        var out = Data(capacity: parts.reduce(0) { $0 + $1.count } + values.reduce(0) { $0 + $1.count })
        out.append(parts[0])
        for (cut, mark) in order.enumerated() {
            out.append(values[mark])
            out.append(parts[cut + 1])
        }
        return out
    }
}

import Foundation

/// Reads a game's snapshot (what a state directory holds of it) as Foundation's `JSONDecoder`
/// reads it with its default strategies, at a fraction of its cost: one pass of ``JSONScanner``
/// lays the document out as a flat list of values, then the types' own `init(from:)` read
/// from it, finding keys by their bytes.
///
/// Like ``JSONScanner`` it *declines* what it does not read exactly as `JSONDecoder` does: a
/// duplicate, escaped or non-ASCII key, a number with an exponent that reads as 0, an integer
/// with a point, an exponent or over 18 digits, a number without one of over 32 bytes, a `Float`, a `Decimal`, a 128-bit integer, a wrong type, a missing key, a
/// super-decoder, an `Int`-keyed dictionary with two spellings of one number, nesting deeper
/// than ``JSONScanner/maxDepth``. Any decline, and any error thrown inside the read, even one a
/// type's `init(from:)` catches, makes the whole read nil, and the caller reads the same bytes
/// with `JSONDecoder`: so a checkpoint reads to the same value either way, and a damaged one
/// gets today's message. The decoder handed to `init(from:)` must not be kept past it.
/// Restarts read every game's snapshot, and the simulator reads each one twice per restart.
struct CheckpointDecoder {
    /// The reader does not take this input; `JSONDecoder` reads it instead.
    struct Declined: Error {}

    /// `data` decoded as `type`, or nil when the reader declines it.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        data.withUnsafeBytes { raw -> T? in
            guard raw.count < Int(Int32.max) else { return nil }
            var layout = Layout(bytes: raw.bindMemory(to: UInt8.self))
            var scanner = JSONScanner(layout.bytes)
            do {
                try layout.lay(&scanner, depth: 0, key: nil)
                try scanner.end()
            } catch {
                return nil
            }
            let document = Document(layout)
            guard let value = try? document.value(T.self, at: 0), !document.declined else { return nil }
            return value
        }
    }

    /// One value of the document. A container's members follow it, each with the members of its
    /// own, up to ``after``.
    struct Node {
        enum Kind { case null, bool, number, string, object, array }

        var kind: Kind
        /// A bool's value; whether a string has escapes; whether a number has an exponent.
        var flag = false
        /// A number's or string's bytes (a string's between its quotes).
        var start: Int32 = 0
        var end: Int32 = 0
        /// Members or elements of a container.
        var count: Int32 = 0
        /// The node after this value and everything in it.
        var after: Int32 = 0
        /// The key of an object's member, its bytes (ASCII from 0x20, no escapes).
        var keyStart: Int32 = 0
        var keyCount: Int32 = 0
    }

    /// The document's nodes as they are laid out, one pass of the scanner.
    struct Layout {
        let bytes: UnsafeBufferPointer<UInt8>
        var nodes: [Node] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            nodes.reserveCapacity(bytes.count / 12 + 8)
        }

        /// Lays out the value at the scanner's place and everything in it.
        mutating func lay(_ scanner: inout JSONScanner, depth: Int, key: JSONScanner.Key?) throws(JSONScanner.Declined) {
            let me = nodes.count
            var node = Node(kind: .null)
            if let key, let base = bytes.baseAddress {
                node.keyStart = Int32(key.start - base)
                node.keyCount = Int32(key.count)
            }
            nodes.append(node)
            scanner.skipWhitespace()
            switch scanner.peek() {
            case UInt8(ascii: "\""):
                let text = try scanner.stringText()
                node.kind = .string
                node.start = Int32(text.start)
                node.end = Int32(text.end)
                node.flag = text.escaped
            case UInt8(ascii: "{"):
                guard depth < JSONScanner.maxDepth else { throw JSONScanner.Declined() }
                node.kind = .object
                if try scanner.beginObject() {
                    repeat {
                        let key = try scanner.key()
                        try lay(&scanner, depth: depth + 1, key: key)
                        node.count += 1
                    } while try scanner.nextMember()
                }
            case UInt8(ascii: "["):
                guard depth < JSONScanner.maxDepth else { throw JSONScanner.Declined() }
                node.kind = .array
                if try scanner.beginArray() {
                    repeat {
                        try lay(&scanner, depth: depth + 1, key: nil)
                        node.count += 1
                    } while try scanner.nextElement()
                }
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                node.kind = .bool
                node.flag = try scanner.bool()
            case UInt8(ascii: "n"):
                guard scanner.null() else { throw JSONScanner.Declined() }
            default:
                let text = try scanner.numberText()
                node.kind = .number
                node.start = Int32(text.start)
                node.end = Int32(text.end)
                node.flag = text.exponent
            }
            node.after = Int32(nodes.count)
            nodes[me] = node
        }
    }

    /// The document's bytes and nodes, shared by the containers that read it (only while its
    /// bytes are borrowed, inside ``decode(_:from:)``). The nodes are constant: reading them
    /// costs no exclusivity check.
    final class Document {
        let bytes: UnsafeBufferPointer<UInt8>
        let nodes: [Node]
        /// Set by any decline, even one a type catches.
        var declined = false

        init(_ layout: Layout) {
            bytes = layout.bytes
            nodes = layout.nodes
        }

        /// Notes a decline and returns it to throw.
        func decline() -> Declined {
            declined = true
            return Declined()
        }

        /// The value of node `index` as `type`: the types `JSONDecoder` reads itself first, then
        /// the type's own `init(from:)`. Any error it throws counts as a decline, even one a type
        /// around it catches: only a read without one is kept.
        func value<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
            if T.self == String.self { return unsafeBitCast(try string(at: index), to: T.self) }
            if T.self == Int.self { return unsafeBitCast(try int(at: index), to: T.self) }
            if T.self == Double.self { return unsafeBitCast(try double(at: index), to: T.self) }
            if T.self == Bool.self { return unsafeBitCast(try bool(at: index), to: T.self) }
            if T.self == Data.self {
                guard let data = Data(base64Encoded: try string(at: index)) else { throw decline() }
                return unsafeBitCast(data, to: T.self)
            }
            if T.self == URL.self {
                guard let url = URL(string: try string(at: index)) else { throw decline() }
                return unsafeBitCast(url, to: T.self)
            }
            if T.self == Decimal.self || T.self == Float.self { throw decline() }
            do {
                return try T(from: Reader(document: self, node: index))
            } catch {
                declined = true
                throw error
            }
        }

        func isNull(at index: Int) -> Bool { nodes[index].kind == .null }

        func bool(at index: Int) throws(Declined) -> Bool {
            let node = nodes[index]
            guard node.kind == .bool else { throw decline() }
            return node.flag
        }

        func string(at index: Int) throws(Declined) -> String {
            let node = nodes[index]
            guard node.kind == .string else { throw decline() }
            let scanner = JSONScanner(bytes)
            return scanner.string(JSONScanner.StringText(start: Int(node.start), end: Int(node.end), escaped: node.flag))
        }

        /// A scanner at the first byte of number node `index`; declined when it is not a number.
        private func scanner(atNumber index: Int) throws(Declined) -> JSONScanner {
            guard nodes[index].kind == .number else { throw decline() }
            var scanner = JSONScanner(bytes)
            scanner.index = Int(nodes[index].start)
            return scanner
        }

        /// An integer spelled as one, of at most 18 digits (``JSONScanner/int()``).
        func int(at index: Int) throws(Declined) -> Int {
            var scanner = try scanner(atNumber: index)
            do {
                return try scanner.int()
            } catch {
                throw decline()
            }
        }

        /// ``int(at:)`` that fits `T`.
        func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int) throws(Declined) -> T {
            guard let value = T(exactly: try int(at: index)) else { throw decline() }
            return value
        }

        /// A number, correctly rounded as `JSONDecoder` rounds it: without an exponent by
        /// ``JSONScanner/double()`` (at most 32 bytes), with one by the standard library's
        /// conversion when that gives a finite number other than 0. `JSONDecoder` refuses some
        /// spellings of 0 with an exponent (`0e1`) and an underflow, which the conversion reads
        /// as 0: those are declined.
        func double(at index: Int) throws(Declined) -> Double {
            var scanner = try scanner(atNumber: index)
            let node = nodes[index]
            guard node.flag else {
                do {
                    return try scanner.double()
                } catch {
                    throw decline()
                }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)]), as: UTF8.self)
            guard let value = Double(text), value.isFinite, value != 0 else { throw decline() }
            return value
        }

        /// The members (or elements) of container `index`, their nodes in order.
        func members(of index: Int) -> Members { Members(document: self, member: index + 1, left: Int(nodes[index].count)) }

        /// The nodes of a container's members, each found from the last by its ``Node/after``.
        struct Members: Sequence, IteratorProtocol {
            let document: Document
            /// The next member's node.
            var member: Int
            var left: Int

            mutating func next() -> Int? {
                guard left > 0 else { return nil }
                let current = member
                member = Int(document.nodes[current].after)
                left -= 1
                return current
            }
        }

        /// Whether member `index`'s key is `name`'s bytes.
        func key(of index: Int, is name: UnsafeBufferPointer<UInt8>) -> Bool {
            let node = nodes[index]
            guard Int(node.keyCount) == name.count else { return false }
            guard let base = bytes.baseAddress, let other = name.baseAddress else { return name.isEmpty }
            return memcmp(base + Int(node.keyStart), other, name.count) == 0
        }

        /// Member `index`'s key.
        func keyText(of index: Int) -> String {
            let node = nodes[index]
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(node.keyStart)..<Int(node.keyStart + node.keyCount)]), as: UTF8.self)
        }
    }
}

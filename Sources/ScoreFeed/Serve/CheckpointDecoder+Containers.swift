import Foundation

extension CheckpointDecoder {
    /// The `Decoder` a type's `init(from:)` is handed: one node of the document. Coding paths
    /// are not kept (they only word errors, and any error hands the read to `JSONDecoder`).
    struct Reader: Decoder {
        let document: Document
        let node: Int
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(try Keyed<Key>(document: document, object: node))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try Unkeyed(document: document, array: node)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(document: document, node: node)
        }
    }

    /// An object's members, found by their keys' bytes: one after another in a small object, by
    /// a table in a large one (a dictionary's).
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let document: Document
        /// The object's node; its members follow it, each up to its ``Node/after``.
        let object: Int
        /// By key, in an object of more than ``smallObject`` members.
        let table: [String: Int]?
        var codingPath: [any CodingKey] { [] }

        /// Members up to which a key is looked for one by one.
        static var smallObject: Int { 24 }

        init(document: Document, object: Int) throws {
            let node = document.nodes[object]
            guard node.kind == .object else { throw document.decline() }
            self.document = document
            self.object = object
            // A key given twice is declined: which one `JSONDecoder` keeps is its own business.
            if node.count > Self.smallObject {
                var table: [String: Int] = [:]
                table.reserveCapacity(Int(node.count))
                for member in document.members(of: object) {
                    guard table.updateValue(member, forKey: document.keyText(of: member)) == nil else { throw document.decline() }
                }
                self.table = table
            } else {
                table = nil
                var rest = document.members(of: object)
                while let member = rest.next() {
                    let key = document.nodes[member]
                    let bytes = UnsafeBufferPointer(rebasing: document.bytes[Int(key.keyStart)..<Int(key.keyStart + key.keyCount)])
                    for other in rest where document.key(of: other, is: bytes) { throw document.decline() }
                }
            }
        }

        /// The keys, in the document's order. Two that name one number (`"1"` and `"01"` read as
        /// an `Int`-keyed dictionary's) decline the read: `JSONDecoder` keeps either.
        var allKeys: [Key] {
            let keys = document.members(of: object).compactMap { Key(stringValue: document.keyText(of: $0)) }
            guard keys.count > 1, keys[0].intValue != nil else { return keys }
            var numbers = Set<Int>()
            for key in keys {
                if let number = key.intValue, !numbers.insert(number).inserted { document.declined = true }
            }
            return keys
        }

        func contains(_ key: Key) -> Bool { find(key) != nil }

        /// The node of `key`'s member. In a small object keys are matched by their bytes, which
        /// for the ASCII keys a document may have is `JSONDecoder`'s match (Swift's `==`); a name
        /// that is not ASCII could equal one of them otherwise (`\u{212A}` is `K`), and is
        /// declined when unmatched. A large object's table matches as Swift does.
        private func find(_ key: Key) -> Int? {
            if let table { return table[key.stringValue] }
            var name = key.stringValue
            return name.withUTF8 { bytes in
                if let member = document.members(of: object).first(where: { document.key(of: $0, is: bytes) }) { return member }
                if bytes.contains(where: { $0 >= 0x80 }) { document.declined = true }
                return nil
            }
        }

        /// The node of `key`'s member, declined when there is none (`JSONDecoder`'s `keyNotFound`).
        private func member(_ key: Key) throws -> Int {
            guard let node = find(key) else { throw document.decline() }
            return node
        }

        func decodeNil(forKey key: Key) throws -> Bool { document.isNull(at: try member(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try document.bool(at: try member(key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try document.string(at: try member(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try document.double(at: try member(key)) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw document.decline() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try document.int(at: try member(key)) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try document.integer(type, at: try member(key)) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try document.integer(type, at: try member(key)) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try document.integer(type, at: try member(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try document.integer(type, at: try member(key)) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try document.integer(type, at: try member(key)) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try document.integer(type, at: try member(key)) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try document.integer(type, at: try member(key)) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try document.integer(type, at: try member(key)) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try document.integer(type, at: try member(key)) }
        func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { throw document.decline() }
        func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { throw document.decline() }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try document.value(type, at: try member(key))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(try Keyed<NestedKey>(document: document, object: try member(key)))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Unkeyed(document: document, array: try member(key))
        }

        func superDecoder() throws -> any Decoder { throw document.decline() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw document.decline() }
    }

    /// An array's elements, one after another.
    struct Unkeyed: UnkeyedDecodingContainer {
        let document: Document
        var codingPath: [any CodingKey] { [] }
        /// The array's elements.
        private let total: Int
        var count: Int? { total }
        private(set) var currentIndex = 0
        /// The node of the element at ``currentIndex``.
        private var element: Int

        init(document: Document, array: Int) throws {
            let node = document.nodes[array]
            guard node.kind == .array else { throw document.decline() }
            self.document = document
            total = Int(node.count)
            element = array + 1
        }

        var isAtEnd: Bool { currentIndex >= total }

        /// The current element's node, and the next one made current; declined past the end.
        private mutating func next() throws -> Int {
            guard !isAtEnd else { throw document.decline() }
            let node = element
            element = Int(document.nodes[node].after)
            currentIndex += 1
            return node
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw document.decline() }
            guard document.isNull(at: element) else { return false }
            _ = try next()
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try document.bool(at: try next()) }
        mutating func decode(_ type: String.Type) throws -> String { try document.string(at: try next()) }
        mutating func decode(_ type: Double.Type) throws -> Double { try document.double(at: try next()) }
        mutating func decode(_ type: Float.Type) throws -> Float { throw document.decline() }
        mutating func decode(_ type: Int.Type) throws -> Int { try document.int(at: try next()) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try document.integer(type, at: try next()) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(type, at: try next()) }
        mutating func decode(_ type: Int128.Type) throws -> Int128 { throw document.decline() }
        mutating func decode(_ type: UInt128.Type) throws -> UInt128 { throw document.decline() }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try document.value(type, at: try next()) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(try Keyed<NestedKey>(document: document, object: try next()))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try Unkeyed(document: document, array: try next())
        }

        mutating func superDecoder() throws -> any Decoder { throw document.decline() }
    }

    /// One value.
    struct Single: SingleValueDecodingContainer {
        let document: Document
        let node: Int
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { document.isNull(at: node) }
        func decode(_ type: Bool.Type) throws -> Bool { try document.bool(at: node) }
        func decode(_ type: String.Type) throws -> String { try document.string(at: node) }
        func decode(_ type: Double.Type) throws -> Double { try document.double(at: node) }
        func decode(_ type: Float.Type) throws -> Float { throw document.decline() }
        func decode(_ type: Int.Type) throws -> Int { try document.int(at: node) }
        func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(type, at: node) }
        func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(type, at: node) }
        func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(type, at: node) }
        func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(type, at: node) }
        func decode(_ type: UInt.Type) throws -> UInt { try document.integer(type, at: node) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(type, at: node) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(type, at: node) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(type, at: node) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(type, at: node) }
        func decode(_ type: Int128.Type) throws -> Int128 { throw document.decline() }
        func decode(_ type: UInt128.Type) throws -> UInt128 { throw document.decline() }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try document.value(type, at: node) }
    }
}

import Foundation

extension CheckpointEncoder {
    /// The `Encoder` a value's `encode(to:)` is handed: its containers fill `slot`.
    struct Writer: Encoder {
        let slot: Slot
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object: Object
            if case .object(let existing)? = slot.value { object = existing } else {
                object = Object()
                slot.value = .object(object)
            }
            return KeyedEncodingContainer(Keyed(object: object, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array: Array
            if case .array(let existing)? = slot.value { array = existing } else {
                array = Array()
                slot.value = .array(array)
            }
            return Unkeyed(array: array, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(slot: slot, codingPath: codingPath)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: Object
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: key.stringValue) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), for: key.stringValue) }
        mutating func encode(_ value: String, forKey key: Key) throws { object.set(.string(value), for: key.stringValue) }
        mutating func encode(_ value: Double, forKey key: Key) throws { object.set(.double(value), for: key.stringValue) }
        mutating func encode(_ value: Float, forKey key: Key) throws { object.set(.float(value), for: key.stringValue) }
        mutating func encode(_ value: Int, forKey key: Key) throws { object.set(.int(value), for: key.stringValue) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(.int(Int(value)), for: key.stringValue) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(.int(Int(value)), for: key.stringValue) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(.int(Int(value)), for: key.stringValue) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.int(Int(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(.unsigned(UInt64(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(.int(Int(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(.int(Int(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(.int(Int(value)), for: key.stringValue) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(.unsigned(value), for: key.stringValue) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            object.set(try CheckpointEncoder.value(of: value, at: codingPath + [key]), for: key.stringValue)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            // Asked again for the same key, the same object (as `JSONEncoder` keeps it).
            let nested: Object
            if case .object(let existing) = object.value(for: key.stringValue) { nested = existing } else { nested = Object() }
            object.set(.object(nested), for: key.stringValue)
            return KeyedEncodingContainer(Keyed<NestedKey>(object: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            // Asked again for the same key, the same array.
            let nested: Array
            if case .array(let existing) = object.value(for: key.stringValue) { nested = existing } else { nested = Array() }
            object.set(.array(nested), for: key.stringValue)
            return Unkeyed(array: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

        /// An encoder whose value goes under `name` once it is written.
        private func superEncoder(named name: String) -> any Encoder {
            let slot = Slot()
            object.set(.later(slot), for: name)
            return Writer(slot: slot, codingPath: codingPath)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: Array
        let codingPath: [any CodingKey]
        var count: Int { array.values.count }

        mutating func encodeNil() throws { array.values.append(.null) }
        mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
        mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
        mutating func encode(_ value: Double) throws { array.values.append(.double(value)) }
        mutating func encode(_ value: Float) throws { array.values.append(.float(value)) }
        mutating func encode(_ value: Int) throws { array.values.append(.int(value)) }
        mutating func encode(_ value: Int8) throws { array.values.append(.int(Int(value))) }
        mutating func encode(_ value: Int16) throws { array.values.append(.int(Int(value))) }
        mutating func encode(_ value: Int32) throws { array.values.append(.int(Int(value))) }
        mutating func encode(_ value: Int64) throws { array.values.append(.int(Int(value))) }
        mutating func encode(_ value: UInt) throws { array.values.append(.unsigned(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { array.values.append(.int(Int(value))) }
        mutating func encode(_ value: UInt16) throws { array.values.append(.int(Int(value))) }
        mutating func encode(_ value: UInt32) throws { array.values.append(.int(Int(value))) }
        mutating func encode(_ value: UInt64) throws { array.values.append(.unsigned(value)) }
        mutating func encode(_ value: some Encodable) throws {
            array.values.append(try CheckpointEncoder.value(of: value, at: codingPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = Object()
            array.values.append(.object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(object: nested, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = Array()
            array.values.append(.array(nested))
            return Unkeyed(array: nested, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            let slot = Slot()
            array.values.append(.later(slot))
            return Writer(slot: slot, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { slot.value = .null }
        mutating func encode(_ value: Bool) throws { slot.value = .bool(value) }
        mutating func encode(_ value: String) throws { slot.value = .string(value) }
        mutating func encode(_ value: Double) throws { slot.value = .double(value) }
        mutating func encode(_ value: Float) throws { slot.value = .float(value) }
        mutating func encode(_ value: Int) throws { slot.value = .int(value) }
        mutating func encode(_ value: Int8) throws { slot.value = .int(Int(value)) }
        mutating func encode(_ value: Int16) throws { slot.value = .int(Int(value)) }
        mutating func encode(_ value: Int32) throws { slot.value = .int(Int(value)) }
        mutating func encode(_ value: Int64) throws { slot.value = .int(Int(value)) }
        mutating func encode(_ value: UInt) throws { slot.value = .unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { slot.value = .int(Int(value)) }
        mutating func encode(_ value: UInt16) throws { slot.value = .int(Int(value)) }
        mutating func encode(_ value: UInt32) throws { slot.value = .int(Int(value)) }
        mutating func encode(_ value: UInt64) throws { slot.value = .unsigned(value) }
        mutating func encode(_ value: some Encodable) throws {
            slot.value = try CheckpointEncoder.value(of: value, at: codingPath)
        }
    }
}

import Foundation
import ScoreFeedModel

/// Writes a game's snapshot (what a state directory holds of it) as Foundation's `JSONEncoder`
/// with `.sortedKeys` writes it on Linux, byte for byte, at a fraction of its cost: the values' own `encode(to:)` fill a light tree of
/// plain values, then one pass writes it with ``JSONBytes``. Checkpoints written by either read
/// the same (`CheckpointEncoderTests` holds the two to the same bytes).
///
/// Spelled as `JSONEncoder` spells them with its default strategies: keys in the order of their
/// UTF-8 bytes (swift-foundation's `.sortedKeys` on Linux; Apple's Foundation orders digits as
/// numbers, so there its bytes differ, and read the same), `/` escaped, dates as seconds since
/// 2001 (`Date`'s own encoding), `Data` in Base64, a `URL` as its absolute string, a non-finite
/// number refused, a `Decimal` as its description.
struct CheckpointEncoder {
    /// `value` as JSON text.
    static func encode(_ value: some Encodable) throws -> Data {
        let root = try Self.value(of: value, at: [], top: true)
        var out = JSONBytes(capacity: 1024)
        try write(root, into: &out)
        return out.data()
    }

    /// One value of the tree. Objects and arrays are boxes, as a container handed out by an
    /// `Encoder` may be filled after it is handed.
    enum Value {
        case null
        case bool(Bool)
        case int(Int)
        case unsigned(UInt64)
        case double(Double)
        /// A `Float`, spelled as itself, not as the `Double` it widens to (as `JSONEncoder` does).
        case float(Float)
        /// A number already spelled (a `Decimal`, its `description`, as `JSONEncoder` spells it).
        case number(String)
        case string(String)
        case object(Object)
        case array(Array)
        /// What a super-encoder handed out writes, once it has.
        case later(Slot)
        /// A value spelled by hand (``JSONBytes``' model writers, the validator's own), as its
        /// `Codable` spells it here: a game's states, attributes, clocks, validator and each lane's
        /// coalescer, the most frequent or largest values of a snapshot, and the enums whose
        /// `Codable` costs the most to run (`JSONBytes+Checkpoint.swift`), without a tree of their
        /// keys.
        case spelled(Data)
    }

    final class Object {
        var keys: [String] = []
        var values: [Value] = []

        /// The value last set for `key`.
        func value(for key: String) -> Value? {
            keys.lastIndex(of: key).map { values[$0] }
        }

        func set(_ value: Value, for key: String) {
            // A key written twice keeps its last value, as in `JSONEncoder`.
            if let index = keys.lastIndex(of: key) { values[index] = value } else {
                keys.append(key)
                values.append(value)
            }
        }
    }

    final class Array {
        var values: [Value] = []
    }

    /// Where one value goes while its `encode(to:)` runs: empty until it asks for a container.
    final class Slot {
        var value: Value?
    }

    /// `value` encoded: the types `JSONEncoder` spells itself first, then the value's own encoding.
    /// The types are told apart by their metatypes, not by casts: a cast of a value of any other
    /// type looks up its conformances (a scan of every image's, the first time per type).
    static func value<T: Encodable>(of value: T, at path: [any CodingKey], top: Bool = false) throws -> Value {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
        if T.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Data.self { return .string(unsafeBitCast(value, to: Data.self).base64EncodedString()) }
        if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
        if T.self == Decimal.self { return .number(unsafeBitCast(value, to: Decimal.self).description) }
        if T.self == GameState.self {
            return try spelled(value) { out, value throws(JSONBytes.NonFinite) in try out.write(unsafeBitCast(value, to: GameState.self), escapingSlashes: true) }
        }
        if T.self == GameClock.self {
            return try spelled(value) { out, value throws(JSONBytes.NonFinite) in try out.write(unsafeBitCast(value, to: GameClock.self)) }
        }
        if T.self == Diff.Value.self {
            return try spelled(value) { out, value throws(JSONBytes.NonFinite) in try out.checkpoint(unsafeBitCast(value, to: Diff.Value.self)) }
        }
        if T.self == BroadcastChannel.Phase.self {
            return try spelled(value) { out, value throws(JSONBytes.NonFinite) in try out.checkpoint(unsafeBitCast(value, to: BroadcastChannel.Phase.self)) }
        }
        if T.self == PushRenderer.Mode.self {
            return try spelled(value) { out, value in out.checkpoint(unsafeBitCast(value, to: PushRenderer.Mode.self)) }
        }
        if T.self == Coalescer.self {
            return try spelled(value) { out, value throws(JSONBytes.NonFinite) in try unsafeBitCast(value, to: Coalescer.self).appendCheckpoint(to: &out) }
        }
        if T.self == EventValidator.self {
            return try spelled(value) { out, value in unsafeBitCast(value, to: EventValidator.self).appendCheckpoint(to: &out) }
        }
        if T.self == GameAttributes.self {
            return try spelled(value) { out, value in out.write(unsafeBitCast(value, to: GameAttributes.self), escapingSlashes: true) }
        }
        if T.self == Team.self {
            return try spelled(value) { out, value in out.write(unsafeBitCast(value, to: Team.self), escapingSlashes: true) }
        }
        let slot = Slot()
        try value.encode(to: Writer(slot: slot, codingPath: path))
        // A value that asked for no container is written as an empty object, as `JSONEncoder`
        // does; at the top, it is an error there.
        if top, slot.value == nil {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        return slot.value ?? .object(Object())
    }

    /// `value` spelled by `write`; a number JSON cannot spell is the encoder's error.
    private static func spelled<T>(
        _ value: T, _ write: (inout JSONBytes, T) throws(JSONBytes.NonFinite) -> Void
    ) throws -> Value {
        var out = JSONBytes(capacity: 256)
        do {
            try write(&out, value)
        } catch {
            throw EncodingError.invalidValue(error.value, .init(codingPath: [], debugDescription: "\(error)"))
        }
        return .spelled(out.data())
    }

    /// Whether `key` comes before `other` in the order of their UTF-8 bytes (`JSONEncoder`'s
    /// `.sortedKeys` on Linux), compared as bytes.
    static func precedes(_ key: String, _ other: String) -> Bool {
        var key = key, other = other
        return key.withUTF8 { a in
            other.withUTF8 { b in
                let common = min(a.count, b.count)
                if common > 0, let x = a.baseAddress, let y = b.baseAddress {
                    let order = memcmp(x, y, common)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
    }

    static func write(_ value: Value, into out: inout JSONBytes) throws {
        switch value {
        case .null: out.raw("null")
        case .bool(let bool): out.bool(bool)
        case .int(let int): out.int(int)
        case .unsigned(let unsigned): out.unsigned(UInt(unsigned))
        case .double(let double):
            do {
                try out.double(double)
            } catch {
                throw EncodingError.invalidValue(double, .init(codingPath: [], debugDescription: "\(error)"))
            }
        case .float(let float):
            do {
                try out.float(float)
            } catch {
                throw EncodingError.invalidValue(float, .init(codingPath: [], debugDescription: "\(error)"))
            }
        case .number(let text): out.raw(text: text)
        case .spelled(let bytes): out.raw(bytes)
        case .later(let slot): try write(slot.value ?? .object(Object()), into: &out)
        case .string(let string): out.string(string, escapingSlashes: true)
        case .object(let object):
            out.byte(UInt8(ascii: "{"))
            let order = object.keys.indices.sorted { precedes(object.keys[$0], object.keys[$1]) }
            for (place, index) in order.enumerated() {
                if place > 0 { out.byte(UInt8(ascii: ",")) }
                out.string(object.keys[index], escapingSlashes: true)
                out.byte(UInt8(ascii: ":"))
                try write(object.values[index], into: &out)
            }
            out.byte(UInt8(ascii: "}"))
        case .array(let array):
            out.byte(UInt8(ascii: "["))
            for (place, element) in array.values.enumerated() {
                if place > 0 { out.byte(UInt8(ascii: ",")) }
                try write(element, into: &out)
            }
            out.byte(UInt8(ascii: "]"))
        }
    }
}

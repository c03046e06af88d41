import Foundation

/// Reading the fields of real feeds without letting one odd value sink a whole action: a number
/// sent as a string, a string sent as a number, `null`, or anything else, become `nil` (or the
/// converted value) instead of a decoding error. The mapping decides what a missing value means.
extension KeyedDecodingContainer {
    /// The value as text: strings as they are, integers and finite numbers spelled out.
    func lenientString(_ key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text }
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return String(number) }
        if let number = try? decodeIfPresent(Double.self, forKey: key), number.isFinite { return String(number) }
        return nil
    }

    /// The value as an integer: integers, integral numbers in range, and strings holding one.
    func lenientInt(_ key: Key) -> Int? {
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return number }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return LenientNumber.int(number) }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return LenientNumber.int(text) }
        return nil
    }

    /// The value as a finite number: numbers, and strings holding one.
    func lenientDouble(_ key: Key) -> Double? {
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return number.isFinite ? number : nil }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return LenientNumber.double(text) }
        return nil
    }
}

/// Conversions that never trap: out-of-range, fractional or non-finite numbers give `nil`.
enum LenientNumber {
    static func int(_ value: Double) -> Int? {
        guard value.isFinite, value == value.rounded(), abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }

    static func int(_ text: String) -> Int? {
        if let value = Int(text) { return value }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let value = Int(trimmed) { return value }
        return Double(trimmed).flatMap(int)
    }

    static func double(_ text: String) -> Double? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else { return nil }
        return value
    }
}

/// One JSON value where a feed mixes types in a row (stats.nba.com's `rowSet` arrays): scalars
/// are kept, arrays and objects become ``other``.
enum JSONScalar: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            self = .other
        }
    }

    /// The next element of `container`, trying the expected kind first: every failed attempt
    /// costs a thrown error, and a `rowSet` has thousands of values.
    static func next(from container: inout any UnkeyedDecodingContainer, number: Bool) throws -> JSONScalar {
        if try container.decodeNil() { return .null }
        if number {
            if let value = try? container.decode(Int.self) { return .int(value) }
        } else if let value = try? container.decode(String.self) {
            return .string(value)
        }
        return try container.decode(JSONScalar.self)
    }

    /// Strings as they are; integers spelled out.
    var string: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        default: nil
        }
    }

    /// Integers, integral numbers and strings that hold an integer.
    var int: Int? {
        switch self {
        case .int(let value): value
        case .number(let value): LenientNumber.int(value)
        case .string(let value): LenientNumber.int(value)
        default: nil
        }
    }
}

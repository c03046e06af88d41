import Foundation
@testable import ScoreFeed

/// A reference for the size guard's sizes, written apart from ``PayloadSerialization``'s scanner:
/// parses JSON text into a tree (numbers keep their text, strings are decoded) and writes it back
/// as Python's `json.dumps` does (`separators`, `ensure_ascii`) or as Foundation's `JSONEncoder`
/// does by default (compact, `/` escaped). The tests compare its byte counts with the scanner's.
indirect enum PythonJSON {
    case object([(String, PythonJSON)])
    case array([PythonJSON])
    case string(String)
    case number(String)
    case literal(String)

    struct Malformed: Error {}

    /// Parses `data` (UTF-8 JSON text).
    static func parse(_ data: Data) throws -> PythonJSON {
        var parser = Parser(scalars: Array(String(decoding: data, as: UTF8.self).unicodeScalars))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.at == parser.scalars.count else { throw Malformed() }
        return value
    }

    /// `json.dumps(value, ensure_ascii=ascii)` with `", "`/`": "` (spaced) or `","`/`":"`;
    /// with `slashes`, `/` as `\/` and floats as `JSONEncoder` spells them instead.
    func dumps(spaced: Bool, ascii: Bool, slashes: Bool = false) -> String {
        let comma = spaced ? ", " : ",", colon = spaced ? ": " : ":"
        switch self {
        case .object(let members):
            return "{" + members.map { Self.quote($0.0, ascii: ascii, slashes: slashes) + colon + $0.1.dumps(spaced: spaced, ascii: ascii, slashes: slashes) }
                .joined(separator: comma) + "}"
        case .array(let items):
            return "[" + items.map { $0.dumps(spaced: spaced, ascii: ascii, slashes: slashes) }.joined(separator: comma) + "]"
        case .string(let text):
            return Self.quote(text, ascii: ascii, slashes: slashes)
        case .number(let token):
            guard token.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
                // Python reads an integer; "-0" is 0.
                return token.hasPrefix("-") && token.dropFirst().allSatisfy({ $0 == "0" }) ? "0" : token
            }
            let value = Double(token)!
            return slashes ? PayloadSerialization.encoderSpelling(value) : PayloadSerialization.pythonRepr(value)
        case .literal(let word):
            return word
        }
    }

    /// A JSON string as Python writes it (`ensure_ascii`), or as `JSONEncoder` with `slashes`.
    static func quote(_ text: String, ascii: Bool, slashes: Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x2F where slashes: out += "\\/"
            case 0..<0x20: out += String(format: "\\u%04x", scalar.value)
            case 0x20..<0x7F: out.unicodeScalars.append(scalar)
            default:
                guard ascii else {
                    out.unicodeScalars.append(scalar)
                    continue
                }
                for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
            }
        }
        return out + "\""
    }

    private struct Parser {
        var scalars: [Unicode.Scalar]
        var at = 0

        mutating func skipSpace() {
            while at < scalars.count, [" ", "\n", "\r", "\t"].contains(scalars[at]) { at += 1 }
        }

        mutating func value() throws -> PythonJSON {
            skipSpace()
            guard at < scalars.count else { throw Malformed() }
            switch scalars[at] {
            case "{":
                at += 1
                var members: [(String, PythonJSON)] = []
                skipSpace()
                if scalars[at] == "}" { at += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw Malformed() }
                    skipSpace()
                    guard scalars[at] == ":" else { throw Malformed() }
                    at += 1
                    members.append((key, try value()))
                    skipSpace()
                    if scalars[at] == "," { at += 1; continue }
                    guard scalars[at] == "}" else { throw Malformed() }
                    at += 1
                    return .object(members)
                }
            case "[":
                at += 1
                var items: [PythonJSON] = []
                skipSpace()
                if scalars[at] == "]" { at += 1; return .array(items) }
                while true {
                    items.append(try value())
                    skipSpace()
                    if scalars[at] == "," { at += 1; continue }
                    guard scalars[at] == "]" else { throw Malformed() }
                    at += 1
                    return .array(items)
                }
            case "\"":
                at += 1
                var text = String.UnicodeScalarView()
                while scalars[at] != "\"" {
                    if scalars[at] == "\\" {
                        let escaped = scalars[at + 1]
                        at += 2
                        switch escaped {
                        case "b": text.append("\u{8}")
                        case "f": text.append("\u{C}")
                        case "n": text.append("\n")
                        case "r": text.append("\r")
                        case "t": text.append("\t")
                        case "u":
                            var unit = UInt32(String(String.UnicodeScalarView(scalars[at..<(at + 4)])), radix: 16)!
                            at += 4
                            if (0xD800...0xDBFF).contains(unit), scalars[at] == "\\", scalars[at + 1] == "u" {
                                let low = UInt32(String(String.UnicodeScalarView(scalars[(at + 2)..<(at + 6)])), radix: 16)!
                                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                                at += 6
                            }
                            text.append(Unicode.Scalar(unit)!)
                        default: text.append(escaped)
                        }
                    } else {
                        text.append(scalars[at])
                        at += 1
                    }
                }
                at += 1
                return .string(String(text))
            case "t", "f", "n":
                let word = scalars[at] == "t" ? "true" : scalars[at] == "f" ? "false" : "null"
                at += word.unicodeScalars.count
                return .literal(word)
            default:
                let start = at
                while at < scalars.count, "-+.eE0123456789".unicodeScalars.contains(scalars[at]) { at += 1 }
                guard at > start else { throw Malformed() }
                return .number(String(String.UnicodeScalarView(scalars[start..<at])))
            }
        }
    }
}

extension PythonJSON {
    /// The sizes of `payload` in the four covered serializations, by this reference.
    static func sizes(of payload: Data) throws -> PayloadSerialization.Sizes {
        let tree = try parse(payload)
        return .init(
            compact: payload.count,
            escapedSlashes: tree.dumps(spaced: false, ascii: false, slashes: true).utf8.count,
            spaced: tree.dumps(spaced: true, ascii: false).utf8.count,
            spacedASCII: tree.dumps(spaced: true, ascii: true).utf8.count)
    }
}

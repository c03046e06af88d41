import Foundation

/// The rule a game id must follow wherever one comes in (a header's `gameId`, an event's `game`,
/// `poll --games`, today's scoreboard, a checkpoint read back), and the file name it is stored
/// under. A game id names files and appears in every message about its game, so it is short and
/// printable: 1 to 64 bytes of UTF-8, no control character (general category Cc) or line or
/// paragraph separator (Zl, Zp), no whitespace at either end.
public enum GameID {
    /// The longest id, in UTF-8 bytes.
    public static let maximumBytes = 64

    /// The rule in words, for messages and help.
    public static let rule = "game ids are 1 to 64 bytes of UTF-8 with no control character and no whitespace at either end"

    /// What is wrong with `id` (a phrase that follows "game id …"), nil when it is valid.
    public static func problem(with id: String) -> String? {
        let bytes = id.utf8.count
        if bytes == 0 { return "is empty" }
        if bytes > maximumBytes { return "\(quoted(id)) is \(bytes) bytes long; at most \(maximumBytes) are allowed" }
        // Printable ASCII (every id the NBA and ScoreFeed make, checked on every event line):
        // no control character, and the space is its only whitespace.
        let printable = id.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 &- 0x20 < 0x5F } }
            ?? id.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        if printable {
            return id.utf8.first == 0x20 || id.utf8.last == 0x20 ? "\(quoted(id)) begins or ends with whitespace" : nil
        }
        for scalar in id.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                return "\(quoted(id)) contains the control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
            default: continue
            }
        }
        if let first = id.unicodeScalars.first, let last = id.unicodeScalars.last,
           first.properties.isWhitespace || last.properties.isWhitespace {
            return "\(quoted(id)) begins or ends with whitespace"
        }
        return nil
    }

    /// Whether `bytes` (UTF-8) are a valid id of printable ASCII, read without making a string:
    /// what every id the NBA and ScoreFeed make is, and ``problem(with:)`` finds nothing wrong
    /// with. False for any other id, valid or not, which ``problem(with:)`` then judges.
    static func isValidASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        (1...maximumBytes).contains(bytes.count) && bytes.first != 0x20 && bytes.last != 0x20
            && bytes.allSatisfy { $0 &- 0x20 < 0x5F }
    }

    /// Throws an ``ScoreFeedError/Code/invalidValue`` error at `location` when `id` is not valid;
    /// `what` names where the id came from (`game header: "gameId"`), `consequence` what
    /// happens for it (`the game is not started`).
    public static func check(
        _ id: String, _ what: String, at location: ScoreFeedError.Location = .init(), consequence: String? = nil
    ) throws(ScoreFeedError) {
        if let problem = problem(with: id) {
            throw ScoreFeedError(
                .invalidValue,
                "\(what) \(problem) (\(rule))" + (consequence.map { "; \($0)" } ?? ""),
                at: location)
        }
    }

    /// `text` in quotes for a message: at most 24 characters, control characters shown as `\u{…}`,
    /// cut with "…" so an error line never repeats unbounded input.
    public static func quoted(_ text: String, limit: Int = 24) -> String {
        var shown = ""
        for (index, character) in text.enumerated() {
            if index == limit {
                shown += "…"
                break
            }
            for scalar in character.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator, .format:
                    shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default:
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"\(shown)\""
    }

    /// The id as part of a file name: every UTF-8 byte outside `A–Z 0–9 - _` written as `%XX`
    /// (uppercase hex). One-to-one and reversible (``decodeFileStem(_:)``), free of `/`, `.` and
    /// NUL, and safe on a case-insensitive file system: the names use no lowercase letter, so
    /// two ids never differ only by case there (`g1` is `%671`, `G1` is `G1`). Ids of uppercase
    /// letters, digits, `-` and `_` (the NBA's, ScoreFeed's generated ones) keep the name they
    /// had before this encoding. A 64-byte id makes at most a 192-byte stem.
    public static func fileStem(_ id: String) -> String {
        var stem = ""
        stem.reserveCapacity(id.utf8.count)
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                stem.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                stem += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return stem
    }

    /// The id a ``fileStem(_:)`` was made from; nil when `stem` is not one.
    public static func decodeFileStem(_ stem: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = stem.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16),
                      String(decoding: [high, low], as: UTF8.self) == String(value, radix: 16, uppercase: true).leftPadded(to: 2)
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        let id = String(decoding: bytes, as: UTF8.self)
        return fileStem(id) == stem ? id : nil
    }

    /// The file stem the versions before this encoding used (each Unicode letter or digit kept,
    /// anything else `%` and its scalar's hex, of any length): not one-to-one, read only to find
    /// and rename a checkpoint written under it.
    public static func legacyFileStem(_ id: String) -> String {
        id.unicodeScalars.map { scalar -> String in
            CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_"
                ? String(scalar) : "%" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
    }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

import Foundation

/// Every error ScoreFeed reports: what went wrong (``Code`` and message) and where.
public struct ScoreFeedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem, stable for programs to match on.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The bytes are not JSON (truncated, empty, binary).
        public static let malformedJSON = Code(rawValue: "malformed-json")
        /// Valid JSON, but not a format ScoreFeed reads.
        public static let unknownFormat = Code(rawValue: "unknown-format")
        /// A required field is missing.
        public static let missingField = Code(rawValue: "missing-field")
        /// A field has the wrong type or an impossible value.
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// An event `type` ScoreFeed does not know.
        public static let unknownEventType = Code(rawValue: "unknown-event-type")
        /// A scoring play without the team that scored.
        public static let missingTeam = Code(rawValue: "missing-team")
        /// Points outside 1–3 (2–3 for field goals).
        public static let pointsOutOfRange = Code(rawValue: "points-out-of-range")
        /// A period lower than one already seen.
        public static let periodBackwards = Code(rawValue: "period-backwards")
        /// A game clock outside the period's length.
        public static let clockOutOfRange = Code(rawValue: "clock-out-of-range")
        /// A sequence number already applied; the event is ignored.
        public static let duplicateSequence = Code(rawValue: "duplicate-sequence")
        /// An event after the game ended.
        public static let afterGameEnd = Code(rawValue: "after-game-end")
        /// A file could not be read or written.
        public static let io = Code(rawValue: "io")
        /// A rendered payload exceeds the APNs limit.
        public static let payloadTooLarge = Code(rawValue: "payload-too-large")
        /// The command line is wrong.
        public static let usage = Code(rawValue: "usage")
    }

    /// Where in the input the problem is; every part is optional because not every input has it.
    public struct Location: Hashable, Sendable, CustomStringConvertible {
        public var file: String?
        /// 1-based line in the file, when known.
        public var line: Int?
        /// 0-based position of the event in the feed's event list.
        public var eventIndex: Int?
        /// The event's feed sequence number.
        public var sequence: Int?

        public init(file: String? = nil, line: Int? = nil, eventIndex: Int? = nil, sequence: Int? = nil) {
            self.file = file
            self.line = line
            self.eventIndex = eventIndex
            self.sequence = sequence
        }

        public var description: String {
            var parts: [String] = []
            if let file { parts.append(file) }
            if let line { parts.append("line \(line)") }
            if let eventIndex { parts.append("event #\(eventIndex)") }
            if let sequence { parts.append("seq \(sequence)") }
            return parts.joined(separator: ", ")
        }
    }

    public var code: Code
    public var message: String
    public var location: Location

    public init(_ code: Code, _ message: String, at location: Location = Location()) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// The HTTP status a failed request's message names (`HTTP 404`, as ``LiveFetcher`` and the
    /// senders write it: "HTTP " and three digits, anywhere in the message); nil when it names
    /// none. How a poller treats a failure (a 404 before tip-off, a block) and how metrics count
    /// it both read it here.
    public var httpStatus: Int? {
        var rest = message.utf8[...]
        while let at = rest.firstIndex(of: UInt8(ascii: "H")) {
            rest = rest[at...]
            if rest.starts(with: "HTTP ".utf8) {
                let digits = rest.dropFirst(5).prefix(4)
                let number = digits.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                if number.count == 3 { return number.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
            }
            rest = rest.dropFirst()
        }
        return nil
    }

    /// `file, event #12, seq 40: points-out-of-range: …`
    public var description: String {
        let place = location.description
        return (place.isEmpty ? "" : place + ": ") + "\(code): \(message)"
    }
}

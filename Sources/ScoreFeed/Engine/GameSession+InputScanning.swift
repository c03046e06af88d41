import Foundation
import ScoreFeedModel

/// The journal's inputs read by the byte reader, in the spelling ``GameSession/Input``'s
/// `appendJSON` writes (their `Codable` form): a restart replays a game's journal without
/// `JSONDecoder`. Anything else (a rare kind, a key it does not know, a number it cannot read
/// exactly) is declined, and the line is read by `JSONDecoder` as before.
extension JSONScanner {
    /// A JSON array of inputs.
    mutating func inputs() throws(Declined) -> [GameSession.Input] {
        var inputs: [GameSession.Input] = []
        if try beginArray() {
            repeat {
                inputs.append(try input(depth: 2))
            } while try nextElement()
        }
        try end()
        return inputs
    }

    /// One input: an object with one member, the case's name, holding its labelled values.
    mutating func input(depth: Int) throws(Declined) -> GameSession.Input {
        guard try beginObject() else { throw Declined() }
        let name = try key()
        let input: GameSession.Input
        if name.is("receive") {
            var event: GameEvent?, index: Int?, now: Date?
            try members { (key, scanner) throws(Declined) in
                if key.is("_0") {
                    try scanner.fresh(event)
                    event = try scanner.gameEvent(depth: depth + 2)
                } else if key.is("index") {
                    try scanner.fresh(index)
                    index = try scanner.int()
                } else if key.is("now") {
                    try scanner.fresh(now)
                    now = try scanner.date()
                } else {
                    throw Declined()
                }
            }
            guard let event, let index, let now else { throw Declined() }
            input = .receive(event, index: index, now: now)
        } else if name.is("tick") {
            input = .tick(now: try onlyNow())
        } else if name.is("finish") {
            input = .finish(now: try onlyNow())
        } else if name.is("delivered") {
            input = .delivered(now: try optionalNow())
        } else if name.is("deliveredOnLane") {
            var lane: Int?, now: Date?
            try members { (key, scanner) throws(Declined) in
                if key.is("_0") {
                    try scanner.fresh(lane)
                    lane = try scanner.int()
                } else if key.is("now") {
                    try scanner.fresh(now)
                    now = try scanner.date()
                } else {
                    throw Declined()
                }
            }
            guard let lane else { throw Declined() }
            input = .deliveredOnLane(lane, now: now)
        } else if name.is("beginArrival") {
            try members { (_, _) throws(Declined) in throw Declined() }
            input = .beginArrival
        } else if name.is("staleCopy") {
            try members { (_, _) throws(Declined) in throw Declined() }
            input = .staleCopy
        } else if name.is("endConfirmed") {
            try members { (_, _) throws(Declined) in throw Declined() }
            input = .endConfirmed
        } else if name.is("copyAt") || name.is("copy") {
            var written: Date?
            try members { (key, scanner) throws(Declined) in
                guard key.is("written") else { throw Declined() }
                try scanner.fresh(written)
                written = try scanner.date()
            }
            guard let written else { throw Declined() }
            input = name.is("copyAt") ? .copyAt(written: written) : .copy(written: written)
        } else if name.is("endArrival") {
            input = .endArrival(now: try onlyNow())
        } else if name.is("settleArrival") || name.is("restart") {
            var now: Date?, window: Double?
            try members { (key, scanner) throws(Declined) in
                if key.is("now") {
                    try scanner.fresh(now)
                    now = try scanner.date()
                } else if key.is("window") {
                    try scanner.fresh(window)
                    window = try scanner.double()
                } else {
                    throw Declined()
                }
            }
            guard let now, let window else { throw Declined() }
            input = name.is("restart") ? .restart(now: now, window: window) : .settleArrival(now: now, window: window)
        } else if name.is("follow") {
            var score: FinalScore?, now: Date?
            try members { (key, scanner) throws(Declined) in
                if key.is("_0") {
                    try scanner.fresh(score)
                    score = try scanner.finalScore(depth: depth + 2)
                } else if key.is("now") {
                    try scanner.fresh(now)
                    now = try scanner.date()
                } else {
                    throw Declined()
                }
            }
            guard let score, let now else { throw Declined() }
            input = .follow(score, now: now)
        } else {
            throw Declined()
        }
        // One member only: a second case name is JSONDecoder's to refuse.
        guard try !nextMember() else { throw Declined() }
        return input
    }

    /// A ``GameEvent`` as its `Codable` form spells it (optional fields absent or `null`).
    mutating func gameEvent(depth: Int) throws(Declined) -> GameEvent {
        var seq: Int?, time: Date?, period: Int?, clock: Double?, kind: GameEvent.Kind?
        var team: TeamSide?, player: String?, description: String?, feedScore: FinalScore?
        var seen: UInt16 = 0
        /// Declines a field read before (bit `bit` of `seen`).
        func once(_ bit: UInt16) throws(Declined) {
            guard seen & bit == 0 else { throw Declined() }
            seen |= bit
        }
        try members { (key, scanner) throws(Declined) in
            if key.is("seq") {
                try once(1)
                seq = try scanner.int()
            } else if key.is("time") {
                try once(2)
                time = try scanner.date()
            } else if key.is("period") {
                try once(4)
                period = try scanner.int()
            } else if key.is("clock") {
                try once(8)
                clock = try scanner.double()
            } else if key.is("kind") {
                try once(16)
                kind = try scanner.eventKind()
            } else if key.is("team") {
                try once(32)
                if let side = try scanner.optionalString() {
                    guard let known = TeamSide(rawValue: side) else { throw Declined() }
                    team = known
                }
            } else if key.is("player") {
                try once(64)
                player = try scanner.optionalString()
            } else if key.is("description") {
                try once(128)
                description = try scanner.optionalString()
            } else if key.is("feedScore") {
                try once(256)
                if !scanner.null() { feedScore = try scanner.finalScore(depth: depth + 1) }
            } else {
                throw Declined()
            }
        }
        guard let seq, let time, let period, let clock, let kind else { throw Declined() }
        return GameEvent(
            seq: seq, time: time, period: period, clock: clock, kind: kind, team: team, player: player,
            description: description, feedScore: feedScore)
    }

    /// A ``GameEvent/Kind``: `{"case":{labels…}}`.
    mutating func eventKind() throws(Declined) -> GameEvent.Kind {
        guard try beginObject() else { throw Declined() }
        let name = try key()
        var ints: [Int?] = [nil, nil, nil]
        var bools: [Bool?] = [nil, nil]
        var texts: [String?] = [nil, nil]
        /// Reads the case's members: each label its slot, read once.
        func read(_ labels: [(StaticString, Slot)]) throws(Declined) {
            try members { (key, scanner) throws(Declined) in
                guard let slot = labels.first(where: { key.is($0.0) })?.1 else { throw Declined() }
                switch slot {
                case .int(let at):
                    try scanner.fresh(ints[at])
                    ints[at] = try scanner.int()
                case .bool(let at):
                    try scanner.fresh(bools[at])
                    bools[at] = try scanner.bool()
                case .text(let at):
                    try scanner.fresh(texts[at])
                    texts[at] = try scanner.string()
                }
            }
        }
        let kind: GameEvent.Kind
        if let valueless = Self.valuelessKinds.first(where: { name.is(named: $0.typeName) }) {
            try read([])
            kind = valueless
        } else if name.is("fieldGoal") {
            try read([("points", .int(0)), ("made", .bool(0))])
            guard let points = ints[0], let made = bools[0] else { throw Declined() }
            kind = .fieldGoal(points: points, made: made)
        } else if name.is("freeThrow") {
            try read([("attempt", .int(0)), ("of", .int(1)), ("made", .bool(0)), ("points", .int(2))])
            guard let attempt = ints[0], let of = ints[1], let made = bools[0], let points = ints[2] else { throw Declined() }
            kind = .freeThrow(attempt: attempt, of: of, made: made, points: points)
        } else if name.is("rebound") {
            try read([("offensive", .bool(0))])
            guard let offensive = bools[0] else { throw Declined() }
            kind = .rebound(offensive: offensive)
        } else if name.is("turnover") {
            try read([("kind", .text(0))])
            kind = .turnover(kind: texts[0])
        } else if name.is("violation") {
            try read([("kind", .text(0))])
            kind = .violation(kind: texts[0])
        } else if name.is("foul") {
            try read([("_0", .text(0))])
            guard let raw = texts[0], let foul = GameEvent.FoulKind(rawValue: raw) else { throw Declined() }
            kind = .foul(foul)
        } else if name.is("timeout") {
            try read([("_0", .text(0))])
            guard let raw = texts[0], let timeout = GameEvent.TimeoutKind(rawValue: raw) else { throw Declined() }
            kind = .timeout(timeout)
        } else if name.is("substitution") {
            try read([("out", .text(0))])
            kind = .substitution(out: texts[0])
        } else if name.is("replay") {
            try read([("challenge", .bool(0)), ("ruling", .text(0))])
            guard let challenge = bools[0] else { throw Declined() }
            kind = .replay(ruling: texts[0], challenge: challenge)
        } else if name.is("correction") {
            try read([("points", .int(0))])
            guard let points = ints[0] else { throw Declined() }
            kind = .correction(points: points)
        } else if name.is("other") {
            try read([("type", .text(0))])
            guard let type = texts[0] else { throw Declined() }
            kind = .other(type: type)
        } else {
            throw Declined()
        }
        guard try !nextMember() else { throw Declined() }
        return kind
    }

    /// The kinds without values, spelled by their case name (``GameEvent/Kind/typeName``).
    private static let valuelessKinds: [GameEvent.Kind] = [.periodStart, .periodEnd, .jumpBall, .steal, .block, .gameEnd]

    /// Where a kind's labelled value goes.
    private enum Slot {
        case int(Int), bool(Int), text(Int)
    }

    /// A `Date` as `Codable` spells it by default: seconds since 2001.
    mutating func date() throws(Declined) -> Date {
        Date(timeIntervalSinceReferenceDate: try double())
    }

    /// The members of an object, each handed to `read` with its key; `{}` has none.
    private mutating func members(_ read: (Key, inout JSONScanner) throws(Declined) -> Void) throws(Declined) {
        if try beginObject() {
            repeat {
                let key = try key()
                try read(key, &self)
            } while try nextMember()
        }
    }

    /// `{"now":…}`, the value of the cases that carry only `now`.
    private mutating func onlyNow() throws(Declined) -> Date {
        guard let now = try optionalNow() else { throw Declined() }
        return now
    }

    /// `{"now":…}` or `{}` (a delivery with no time).
    private mutating func optionalNow() throws(Declined) -> Date? {
        var now: Date?
        try members { (key, scanner) throws(Declined) in
            guard key.is("now") else { throw Declined() }
            try scanner.fresh(now)
            now = try scanner.date()
        }
        return now
    }
}

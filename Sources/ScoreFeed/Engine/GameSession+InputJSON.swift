import Foundation
import ScoreFeedModel

extension GameSession.Input {
    /// Appends this input as JSON, spelled exactly as its `Codable` form decodes (the journal's
    /// hot path: an event applied, a push delivered, a tick, an arrival's bounds, the feed's
    /// score followed), without a `JSONEncoder`. Numbers
    /// are written so they read back to the same bits. False, writing nothing, for the rare
    /// kinds left to the `Codable` form (and for a number that is not finite).
    func appendJSON(to out: inout JSONBytes) -> Bool {
        switch self {
        case .receive(let event, let index, let now):
            guard event.time.timeIntervalSinceReferenceDate.isFinite, event.clock.isFinite, now.timeIntervalSinceReferenceDate.isFinite
            else { return false }
            out.raw(#"{"receive":{"_0":"#)
            event.appendJSON(to: &out)
            out.raw(#","index":"#)
            out.int(index)
            out.raw(#","now":"#)
            out.date(now)
            out.raw("}}")
        case .tick(let now), .finish(let now), .delivered(.some(let now)), .endArrival(let now):
            guard now.timeIntervalSinceReferenceDate.isFinite else { return false }
            out.raw(caseName)
            out.raw(#"":{"now":"#)
            out.date(now)
            out.raw("}}")
        case .delivered(.none):
            out.raw(#"{"delivered":{}}"#)
        case .deliveredOnLane(let lane, let now):
            guard now?.timeIntervalSinceReferenceDate.isFinite ?? true else { return false }
            out.raw(#"{"deliveredOnLane":{"_0":"#)
            out.int(lane)
            if let now {
                out.raw(#","now":"#)
                out.date(now)
            }
            out.raw("}}")
        case .beginArrival:
            out.raw(#"{"beginArrival":{}}"#)
        case .staleCopy:
            out.raw(#"{"staleCopy":{}}"#)
        case .endConfirmed:
            out.raw(#"{"endConfirmed":{}}"#)
        case .copy(let written), .copyAt(let written):
            guard written.timeIntervalSinceReferenceDate.isFinite else { return false }
            out.raw(caseName)
            out.raw(#"":{"written":"#)
            out.date(written)
            out.raw("}}")
        case .settleArrival(let now, let window), .restart(let now, let window):
            guard now.timeIntervalSinceReferenceDate.isFinite, window.isFinite else { return false }
            out.raw(caseName)
            out.raw(#"":{"now":"#)
            out.date(now)
            out.raw(#","window":"#)
            try? out.double(window)
            out.raw("}}")
        case .follow(let score, let now):
            guard now.timeIntervalSinceReferenceDate.isFinite else { return false }
            out.raw(#"{"follow":{"_0":{"home":"#)
            out.int(score.home)
            out.raw(#","away":"#)
            out.int(score.away)
            out.raw(#"},"now":"#)
            out.date(now)
            out.raw("}}")
        default:
            return false
        }
        return true
    }

    /// `{"` and the case's name, for the cases whose members begin with `now` or `written`.
    private var caseName: StaticString {
        switch self {
        case .tick: #"{"tick"#
        case .finish: #"{"finish"#
        case .endArrival: #"{"endArrival"#
        case .settleArrival: #"{"settleArrival"#
        case .restart: #"{"restart"#
        case .copyAt: #"{"copyAt"#
        case .copy: #"{"copy"#
        default: #"{"delivered"#
        }
    }
}

extension GameEvent {
    /// This event in its `Codable` spelling (its time and clock finite).
    func appendJSON(to out: inout JSONBytes) {
        out.raw(#"{"seq":"#)
        out.int(seq)
        out.raw(#","time":"#)
        out.date(time)
        out.raw(#","period":"#)
        out.int(period)
        out.raw(#","clock":"#)
        try? out.double(clock)
        out.raw(#","kind":"#)
        kind.appendJSON(to: &out)
        if let team {
            out.raw(#","team":"#)
            out.string(team.rawValue)
        }
        if let player {
            out.raw(#","player":"#)
            out.string(player)
        }
        if let description {
            out.raw(#","description":"#)
            out.string(description)
        }
        if let feedScore {
            out.raw(#","feedScore":{"home":"#)
            out.int(feedScore.home)
            out.raw(#","away":"#)
            out.int(feedScore.away)
            out.byte(UInt8(ascii: "}"))
        }
        out.byte(UInt8(ascii: "}"))
    }
}

extension GameEvent.Kind {
    /// This kind in its `Codable` spelling: `{"case":{labels…}}`.
    func appendJSON(to out: inout JSONBytes) {
        func open(_ name: StaticString) {
            out.raw(#"{""#)
            out.raw(name)
            out.raw(#"":{"#)
        }
        func optional(_ label: StaticString, _ value: String?) {
            guard let value else { return }
            out.raw(label)
            out.string(value)
        }
        switch self {
        case .periodStart, .periodEnd, .jumpBall, .steal, .block, .gameEnd:
            open(caseLabel)
        case .fieldGoal(let points, let made):
            open("fieldGoal")
            out.raw(#""points":"#); out.int(points)
            out.raw(#","made":"#); out.bool(made)
        case .freeThrow(let attempt, let of, let made, let points):
            open("freeThrow")
            out.raw(#""attempt":"#); out.int(attempt)
            out.raw(#","of":"#); out.int(of)
            out.raw(#","made":"#); out.bool(made)
            out.raw(#","points":"#); out.int(points)
        case .rebound(let offensive):
            open("rebound")
            out.raw(#""offensive":"#); out.bool(offensive)
        case .turnover(let kind):
            open("turnover"); optional(#""kind":"#, kind)
        case .violation(let kind):
            open("violation"); optional(#""kind":"#, kind)
        case .foul(let kind):
            open("foul"); out.raw(#""_0":"#); out.string(kind.rawValue)
        case .timeout(let kind):
            open("timeout"); out.raw(#""_0":"#); out.string(kind.rawValue)
        case .substitution(let player):
            open("substitution"); optional(#""out":"#, player)
        case .replay(let ruling, let challenge):
            open("replay")
            out.raw(#""challenge":"#); out.bool(challenge)
            optional(#","ruling":"#, ruling)
        case .correction(let points):
            open("correction"); out.raw(#""points":"#); out.int(points)
        case .other(let type):
            open("other"); out.raw(#""type":"#); out.string(type)
        }
        out.raw("}}")
    }

    /// The case's name, for the cases without values.
    private var caseLabel: StaticString {
        switch self {
        case .periodStart: "periodStart"
        case .periodEnd: "periodEnd"
        case .jumpBall: "jumpBall"
        case .steal: "steal"
        case .block: "block"
        default: "gameEnd"
        }
    }
}

extension JSONBytes {
    /// A date as `Codable` writes it by default: seconds since 2001, read back to the same bits
    /// (the callers check it is finite).
    mutating func date(_ date: Date) {
        try? double(date.timeIntervalSinceReferenceDate)
    }
}

import Foundation
import ScoreFeedModel

/// The shared model types spelled by hand, exactly as a `JSONEncoder` with `.sortedKeys` and
/// the default (`.deferredToDate`) date strategy spells their synthesized `Codable`: property
/// names as keys in UTF-8 order, optionals left out when nil, enums with associated values as
/// `{"case":{"label":…}}`, dates as seconds since 2001-01-01. What a device's default
/// `JSONDecoder` reads back into the same values (tested against the encoder).
extension JSONBytes {
    /// A ``GameState`` (the `content-state` of every push); with `escapingSlashes`, as a
    /// checkpoint spells it (``CheckpointEncoder``).
    mutating func write(_ state: GameState, escapingSlashes: Bool = false) throws(NonFinite) {
        key("{\"awayFouls", state.awayFouls)
        raw(",\"awayInBonus\":"); bool(state.awayInBonus)
        key(",\"awayScore", state.awayScore)
        key(",\"awayTimeouts", state.awayTimeouts)
        raw(",\"clock\":"); try write(state.clock)
        key(",\"homeFouls", state.homeFouls)
        raw(",\"homeInBonus\":"); bool(state.homeInBonus)
        key(",\"homeScore", state.homeScore)
        key(",\"homeTimeouts", state.homeTimeouts)
        if let lastPlay = state.lastPlay { raw(",\"lastPlay\":"); string(lastPlay, escapingSlashes: escapingSlashes) }
        if let lastScorer = state.lastScorer { raw(",\"lastScorer\":"); side(lastScorer) }
        key(",\"period", state.period)
        raw(",\"phase\":\"")
        switch state.phase {
        case .pregame: raw("pregame")
        case .live: raw("live")
        case .endOfPeriod: raw("endOfPeriod")
        case .halftime: raw("halftime")
        case .final: raw("final")
        case .postponed: raw("postponed")
        case .suspended: raw("suspended")
        }
        byte(UInt8(ascii: "\""))
        if let possession = state.possession { raw(",\"possession\":"); side(possession) }
        byte(UInt8(ascii: "}"))
    }

    /// A ``GameClock``: `{"stopped":{"seconds":…}}` or `{"running":{"endsAt":…}}`.
    mutating func write(_ clock: GameClock) throws(NonFinite) {
        switch clock {
        case .stopped(let seconds):
            raw("{\"stopped\":{\"seconds\":")
            try double(seconds)
        case .running(let endsAt):
            raw("{\"running\":{\"endsAt\":")
            try double(endsAt.timeIntervalSinceReferenceDate)
        }
        raw("}}")
    }

    /// ``GameAttributes`` (the `attributes` of a push-to-start); with `escapingSlashes`, as a
    /// checkpoint spells them.
    mutating func write(_ attributes: GameAttributes, escapingSlashes: Bool = false) {
        raw("{\"away\":"); write(attributes.away, escapingSlashes: escapingSlashes)
        raw(",\"gameId\":"); string(attributes.gameId, escapingSlashes: escapingSlashes)
        raw(",\"home\":"); write(attributes.home, escapingSlashes: escapingSlashes)
        raw(",\"league\":"); string(attributes.league, escapingSlashes: escapingSlashes)
        byte(UInt8(ascii: "}"))
    }

    mutating func write(_ team: Team, escapingSlashes: Bool = false) {
        raw("{\"city\":"); string(team.city, escapingSlashes: escapingSlashes)
        raw(",\"id\":"); string(team.id, escapingSlashes: escapingSlashes)
        raw(",\"name\":"); string(team.name, escapingSlashes: escapingSlashes)
        raw(",\"primaryColor\":"); string(team.primaryColor, escapingSlashes: escapingSlashes)
        raw(",\"tricode\":"); string(team.tricode, escapingSlashes: escapingSlashes)
        byte(UInt8(ascii: "}"))
    }

    private mutating func side(_ side: TeamSide) {
        switch side {
        case .home: raw("\"home\"")
        case .away: raw("\"away\"")
        }
    }

    /// `prefix` (punctuation and the key's opening quote and name), the closing `":`, an integer.
    private mutating func key(_ prefix: StaticString, _ value: Int) {
        raw(prefix)
        raw("\":")
        int(value)
    }
}

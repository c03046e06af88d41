extension JSONBytes {
    /// An event line's object: `event`'s fields that are set and `game`, in sorted key order, as
    /// `JSONEncoder` with sorted keys and unescaped slashes writes them (its time finite).
    mutating func write(_ event: RawEvent, game: String) {
        var first = true
        func key(_ name: StaticString) {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            byte(UInt8(ascii: "\""))
            raw(name)
            raw("\":")
        }
        byte(UInt8(ascii: "{"))
        if let value = event.attempt { key("attempt"); int(value) }
        if let value = event.challenge { key("challenge"); bool(value) }
        if let value = event.clock { key("clock"); string(value) }
        if let value = event.description { key("description"); string(value) }
        key("game"); string(game)
        if let value = event.kind { key("kind"); string(value) }
        if let value = event.made { key("made"); bool(value) }
        if let value = event.of { key("of"); int(value) }
        if let value = event.offensive { key("offensive"); bool(value) }
        if let value = event.out { key("out"); string(value) }
        if let value = event.period { key("period"); int(value) }
        if let value = event.player { key("player"); string(value) }
        if let value = event.points { key("points"); int(value) }
        if let value = event.ruling { key("ruling"); string(value) }
        if let value = event.score {
            key("score")
            raw("{\"away\":")
            int(value.away)
            raw(",\"home\":")
            int(value.home)
            byte(UInt8(ascii: "}"))
        }
        if let value = event.seq { key("seq"); int(value) }
        if let value = event.team { key("team"); string(value) }
        if let value = event.time { key("time"); try? double(value) }
        if let value = event.type { key("type"); string(value) }
        byte(UInt8(ascii: "}"))
    }
}

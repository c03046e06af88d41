import Foundation

extension LiveDataFormat.Root {
    /// The document read by the byte reader (``JSONScanner``), or nil when it declines it and
    /// `JSONDecoder` must read it. It takes the usual spelling of each field (a string where the
    /// feed sends text, a number where it sends one, `null`) and declines any other (a number
    /// sent as a string, a repeated key), which the lenient `Decodable` path then reads as ever:
    /// the result is the same either way, and a poll's whole play-by-play is read without
    /// `JSONDecoder`, which took three quarters of a simulated day's time.
    static func scanning(_ data: Data) -> Self? {
        var memo: LiveDataFormat.ActionsMemo?
        return scanning(data, memo: &memo)
    }

    /// ``scanning(_:)`` of a copy of the document read before with `memo`: actions whose bytes
    /// repeat the last copy's (a poll's next copy mostly does) are taken from it after one
    /// comparison of the bytes instead of being read again. `memo` is left with this copy's.
    static func scanning(_ data: Data, memo: inout LiveDataFormat.ActionsMemo?) -> Self? {
        // Taken, not copied: the slots and bytes reused grow in place.
        var before = memo
        memo = nil
        var after: LiveDataFormat.ActionsMemo?
        let root = JSONScanner.reading(data) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) in
            let root = try scan(&scanner, before: &before, after: &after)
            try scanner.end()
            return root
        }
        memo = root == nil ? nil : after
        return root
    }

    /// When a copy says it was written (`meta.time`, read as ``written`` is), read from the
    /// members before `game` only: a poller refuses an older copy by it without reading its
    /// actions. Nil when `meta` does not come before `game`, comes twice before it, or the byte
    /// reader declines what it reads (the whole copy is then read, as before).
    static func written(_ data: Data) -> Date? {
        JSONScanner.reading(data) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) -> Date? in
            guard try scanner.beginObject() else { return nil }
            var seen: UInt32 = 0
            var time: String?
            repeat {
                let key = try scanner.key()
                if key.is("game") { break }
                if key.is("meta") {
                    try mark(&seen, 1)
                    time = try meta(&scanner)
                } else {
                    try scanner.skipValue(depth: 1)
                }
            } while try scanner.nextMember()
            return time.flatMap(ISOTime.seconds).map(Date.init(timeIntervalSince1970:))
        } ?? nil
    }

    private static func scan(
        _ scanner: inout JSONScanner, before: inout LiveDataFormat.ActionsMemo?, after: inout LiveDataFormat.ActionsMemo?
    ) throws(JSONScanner.Declined) -> Self {
        var root = Self()
        var seen: UInt32 = 0
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if key.is("game") {
                    try mark(&seen, 1)
                    if !scanner.null() { root.game = try game(&scanner, before: &before, after: &after) }
                } else if key.is("meta") {
                    try mark(&seen, 2)
                    if !scanner.null() {
                        root.written = try meta(&scanner).flatMap(ISOTime.seconds).map(Date.init(timeIntervalSince1970:))
                    }
                } else {
                    try scanner.skipValue(depth: 1)
                }
            } while try scanner.nextMember()
        }
        return root
    }

    /// `meta.time`. Each field takes its usual kind or `null` (`optionalString`, `optionalInt`,
    /// `optionalDouble`); any other kind is declined.
    private static func meta(_ scanner: inout JSONScanner) throws(JSONScanner.Declined) -> String? {
        var time: String?
        var seen: UInt32 = 0
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if key.is("time") {
                    try mark(&seen, 1)
                    time = try scanner.optionalString()
                } else {
                    try scanner.skipValue(depth: 2)
                }
            } while try scanner.nextMember()
        }
        return time
    }

    private static func game(
        _ scanner: inout JSONScanner, before: inout LiveDataFormat.ActionsMemo?, after: inout LiveDataFormat.ActionsMemo?
    ) throws(JSONScanner.Declined) -> Game {
        var game = Game()
        var seen: UInt32 = 0
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if key.is("actions") {
                    try mark(&seen, 1)
                    if !scanner.null() {
                        var actions: [NBAActionSlot] = []
                        if try scanner.beginArray() {
                            let first = scanner.index
                            var last = first
                            var more = true
                            // The last copy's actions, when this one starts with the same bytes: the
                            // same bytes read from the start of an element are the same elements.
                            // Taken out of `before` (released), so they grow without a copy.
                            var memo = LiveDataFormat.ActionsMemo(bytes: [], slots: [])
                            if var taken = before.take(), !taken.slots.isEmpty, scanner.follows(taken.bytes) {
                                scanner.index += taken.bytes.count
                                last = scanner.index
                                taken.reused = taken.slots.count
                                swap(&actions, &taken.slots)
                                memo = taken
                                more = try scanner.nextElement()
                            }
                            let read = last
                            actions.reserveCapacity(max(700, actions.count + 64))
                            while more {
                                actions.append(NBAActionSlot(action: try action(&scanner)))
                                last = scanner.index
                                more = try scanner.nextElement()
                            }
                            if memo.reused == 0 { memo.bytes = Array(scanner.bytes[first..<last]) } else { memo.bytes += scanner.bytes[read..<last] }
                            memo.slots = actions
                            after = memo
                        }
                        game.actions = actions
                    }
                } else if key.is("gameId") {
                    try mark(&seen, 2)
                    game.gameId = try scanner.optionalString()
                } else if key.is("gameTimeUTC") {
                    try mark(&seen, 4)
                    game.gameTimeUTC = try scanner.optionalString()
                } else if key.is("gameStatus") {
                    try mark(&seen, 8)
                    game.gameStatus = try scanner.optionalInt()
                } else if key.is("gameStatusText") {
                    try mark(&seen, 16)
                    game.gameStatusText = try scanner.optionalString()
                } else if key.is("homeTeam") {
                    try mark(&seen, 32)
                    game.homeTeam = try team(&scanner)
                } else if key.is("awayTeam") {
                    try mark(&seen, 64)
                    game.awayTeam = try team(&scanner)
                } else {
                    try scanner.skipValue(depth: 2)
                }
            } while try scanner.nextMember()
        }
        return game
    }

    private static func team(_ scanner: inout JSONScanner) throws(JSONScanner.Declined) -> Team? {
        if scanner.null() { return nil }
        var team = Team()
        var seen: UInt32 = 0
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if key.is("teamId") {
                    try mark(&seen, 1)
                    team.teamId = try scanner.optionalInt()
                } else if key.is("teamName") {
                    try mark(&seen, 2)
                    team.teamName = try scanner.optionalString()
                } else if key.is("teamCity") {
                    try mark(&seen, 4)
                    team.teamCity = try scanner.optionalString()
                } else if key.is("teamTricode") {
                    try mark(&seen, 8)
                    team.teamTricode = try scanner.optionalString()
                } else if key.is("score") {
                    try mark(&seen, 16)
                    team.score = try scanner.optionalInt()
                } else {
                    try scanner.skipValue(depth: 3)
                }
            } while try scanner.nextMember()
        }
        return team
    }

    /// One action, its fields read as ``NBAAction``'s `Decodable` reads them.
    private static func action(_ scanner: inout JSONScanner) throws(JSONScanner.Declined) -> NBAAction {
        var a = NBAAction()
        var seen: UInt32 = 0
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                // Most keys are ones no field reads (x, y, qualifiers, personIdsFilter, …).
                switch key.count {
                case 5 where key.is("clock"): try mark(&seen, 1 << 0); a.clock = try scanner.optionalString()
                case 6 where key.is("period"): try mark(&seen, 1 << 1); a.period = try scanner.optionalInt()
                case 6 where key.is("teamId"): try mark(&seen, 1 << 2); a.teamId = try scanner.optionalInt()
                case 5 where key.is("value"): try mark(&seen, 1 << 3); a.value = try scanner.optionalString()
                case 7 where key.is("subType"): try mark(&seen, 1 << 4); a.subType = try scanner.optionalString()
                case 8 where key.is("personId"): try mark(&seen, 1 << 5); a.personId = try scanner.optionalInt()
                case 8 where key.is("actionId"): try mark(&seen, 1 << 6); a.actionId = try scanner.optionalInt()
                case 8 where key.is("location"): try mark(&seen, 1 << 7); a.location = try scanner.optionalString()
                case 9 where key.is("scoreHome"): try mark(&seen, 1 << 8); a.scoreHome = try scanner.optionalString().flatMap(LenientNumber.int)
                case 9 where key.is("scoreAway"): try mark(&seen, 1 << 9); a.scoreAway = try scanner.optionalString().flatMap(LenientNumber.int)
                case 9 where key.is("shotValue"): try mark(&seen, 1 << 10); a.shotValue = try scanner.optionalInt()
                case 10 where key.is("timeActual"): try mark(&seen, 1 << 11); a.timeActual = try scanner.optionalString()
                case 10 where key.is("actionType"): try mark(&seen, 1 << 12); a.actionType = try scanner.optionalString()
                case 10 where key.is("descriptor"): try mark(&seen, 1 << 13); a.descriptor = try scanner.optionalString()
                case 10 where key.is("playerName"): try mark(&seen, 1 << 14); a.playerName = try scanner.optionalString()
                case 10 where key.is("shotResult"): try mark(&seen, 1 << 15); a.shotResult = try scanner.optionalString()
                case 11 where key.is("orderNumber"): try mark(&seen, 1 << 16); a.orderNumber = try scanner.optionalDouble()
                case 11 where key.is("teamTricode"): try mark(&seen, 1 << 17); a.teamTricode = try scanner.optionalString()
                case 11 where key.is("playerNameI"): try mark(&seen, 1 << 18); a.playerNameI = try scanner.optionalString()
                case 11 where key.is("description"): try mark(&seen, 1 << 19); a.description = try scanner.optionalString()
                case 12 where key.is("actionNumber"): try mark(&seen, 1 << 20); a.actionNumber = try scanner.optionalInt()
                default: try scanner.skipValue(depth: 4)
                }
            } while try scanner.nextMember()
        }
        return a
    }

    /// Declines a key seen before in the same object (`JSONDecoder` decides which one counts).
    @inline(__always)
    private static func mark(_ seen: inout UInt32, _ bit: UInt32) throws(JSONScanner.Declined) {
        guard seen & bit == 0 else { throw JSONScanner.Declined() }
        seen |= bit
    }
}

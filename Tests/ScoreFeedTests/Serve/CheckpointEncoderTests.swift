import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// Snapshots are written by ``CheckpointEncoder``, not `JSONEncoder`: the two must give the same
/// bytes, so a snapshot reads as it always did and an unchanged game writes an unchanged file.
/// `JSONEncoder` with `.sortedKeys` is the reference here, on Linux: Apple's Foundation sorts keys
/// in an order of its own, so there the bytes differ (and read the same).
#if os(Linux)
@Suite("Checkpoint encoder: JSONEncoder's bytes")
struct CheckpointEncoderTests {
    static func reference(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    static func expectSame(_ value: some Encodable, _ context: String) throws {
        let mine = try CheckpointEncoder.encode(value), theirs = try reference(value)
        #expect(mine == theirs, "\(context): \(String(decoding: mine.prefix(300), as: UTF8.self)) against \(String(decoding: theirs.prefix(300), as: UTF8.self))")
    }

    /// Every fixture and real game, and generated ones: the game's snapshot every 40 events and
    /// at its end, in token mode with push-to-start and in broadcast mode, with an Android lane
    /// beside the iOS one or not, pushes left in the outbox on every other event, a restart's
    /// catch-up window open half way.
    @Test(arguments: [
        (PushRenderer.Configuration(start: true), false), (PushRenderer.Configuration(bundleId: "com.example.app", mode: .broadcastPerGame), false),
        (PushRenderer.Configuration(start: true), true), (PushRenderer.Configuration(bundleId: "com.example.app", mode: .broadcastPerGame), true),
    ])
    func everyGamesSnapshotIsJSONEncodersBytes(_ renderer: PushRenderer.Configuration, android: Bool) throws {
        var compared = 0
        try Make.snapshotSessions(renderer, android: android) { session, context in
            try Self.expectSame(session, context)
            compared += 1
        }
        #expect(compared > 100)
    }

    /// The coalescer is spelled by hand (``Coalescer/appendCheckpoint(to:)``): every optional
    /// present and absent, every phase, a configuration with a threshold and without, a run under
    /// way, awkward numbers.
    @Test func everyCoalescerIsJSONEncodersBytes() throws {
        let at = Date(timeIntervalSinceReferenceDate: 758_777_287.125)
        var configurations: [Coalescer.Configuration] = [.standard, .frequentUpdates, .android]
        var tuned = Coalescer.Configuration(budget: 7)
        tuned.threshold = 0.1 + 0.2
        tuned.priority5Delay = 1e-7
        tuned.alerts = AlertRules(final: true, overtime: false, lateLeadChange: true)
        configurations.append(tuned)
        let waits = [Coalescer.Waits(), Coalescer.Waits(settleUntil: at, interval: at.addingTimeInterval(0.001))]
        let phases: [Coalescer.Phase] = [.takingOver, .ended] + waits.flatMap { waits in
            [.idle(waits), .ending(waits), .pending(Coalescer.Unsent(significance: .score, alert: .leadChange), waits),
             .pending(Coalescer.Unsent(), waits)]
        }
        var compared = 0
        for (index, configuration) in configurations.enumerated() {
            for phase in phases {
                var coalescer = Coalescer(configuration: configuration)
                coalescer.phase = phase
                if index % 2 == 1 {
                    coalescer.arrival = Coalescer.Arrival(newest: at, criticalAt: index == 3 ? at.addingTimeInterval(-2.5) : nil, isFirst: true)
                    coalescer.pacedAt = at
                    coalescer.lastPushAt = at.addingTimeInterval(1 / 3)
                    coalescer.paced = 2 / 3
                    coalescer.recent = [Coalescer.SentPush(at: at, priority: 10, homeScore: 101, awayScore: 99)]
                    coalescer.budget.spend(at: at)
                    coalescer.budget.spend(at: at.addingTimeInterval(61.5))
                }
                if index >= 2 {
                    var after = GameState()
                    after.homeScore = 3
                    let basket = GameEvent(seq: 1, time: at, period: 4, clock: 95.5, kind: .fieldGoal(points: 3, made: true), team: .home)
                    _ = coalescer.situation.observe(basket, before: GameState(), after: after)
                }
                try Self.expectSame(coalescer, "configuration \(index), \(phase)")
                compared += 1
            }
        }
        #expect(compared == configurations.count * phases.count)
    }

    /// Text that needs escaping, numbers at their edges, dates, `Data`, optionals and every kind
    /// of container, by a value that encodes itself by hand.
    @Test func awkwardValuesAreSpelledAsJSONEncoderSpellsThem() throws {
        try Self.expectSame(Awkward(), "awkward")
        for text in ["a/b", "quote \" backslash \\ tab \t nul \u{0} \u{1F} del \u{7F}", "é 😀 \u{2028}", ""] {
            try Self.expectSame([text: text], "text \(text)")
        }
        for number in [0.1, 1e16, 1e15, -0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 720, 12.5, -2.5e-7, 758777287.125] {
            try Self.expectSame(["n": number], "number \(number)")
            try Self.expectSame(Date(timeIntervalSinceReferenceDate: number), "date \(number)")
        }
        try Self.expectSame([Int.min, Int.max, 0, -1], "integers")
        try Self.expectSame(["b": 2, "a": 1, "B": 3, "10 end": 4, "5 end": 5, "é": 6, "_": 7], "key order")
        #expect(throws: (any Error).self) { try CheckpointEncoder.encode(["n": Double.nan]) }
        #expect(throws: (any Error).self) { try CheckpointEncoder.encode(["f": Float.infinity]) }
        try Self.expectSame(Twice(), "a nested container asked for twice")
        try Self.expectSame(["d": Decimal(string: "1.10")!, "e": Decimal(string: "-12345678901234567890.5")!], "decimals")
        #expect(throws: (any Error).self) { try Self.reference(Nothing()) }
        #expect(throws: (any Error).self, "a top-level value that writes nothing") { try CheckpointEncoder.encode(Nothing()) }
        try Self.expectSame([Nothing()], "a value that writes nothing, in an array")
    }

    /// The values spelled by hand (a game's states, attributes, teams and clocks) are spelled as
    /// their synthesized `Codable` is, alone and inside others: text that needs escaping (a `/`
    /// escaped), every phase, side and clock, optionals left out.
    @Test func theHandSpelledValuesAreJSONEncodersBytes() throws {
        let texts = ["R. Westbrook FT 2/2", "quote \" backslash \\ tab \t nul \u{0} del \u{7F}", "é 😀 \u{2028}", ""]
        let clocks: [GameClock] = [.stopped(seconds: 0), .stopped(seconds: 11.5), .running(endsAt: Date(timeIntervalSinceReferenceDate: 758777287.125))]
        var states: [GameState] = [GameState()]
        for (index, text) in texts.enumerated() {
            let phase = GamePhase.allCases[index % GamePhase.allCases.count]
            states.append(GameState(
                homeScore: 100 + index, awayScore: 99, period: 4 + index, phase: phase, clock: clocks[index % clocks.count],
                possession: index % 2 == 0 ? .home : nil, homeFouls: index, awayFouls: 5, homeInBonus: true, awayInBonus: index % 2 == 1,
                homeTimeouts: 0, awayTimeouts: 7, lastPlay: text, lastScorer: index % 3 == 0 ? nil : .away))
        }
        for phase in GamePhase.allCases { states.append(GameState(phase: phase, lastScorer: .home)) }
        for (index, state) in states.enumerated() {
            try Self.expectSame(state, "state \(index)")
            try Self.expectSame(["s": [state]], "state \(index) in containers")
        }
        for clock in clocks { try Self.expectSame(["c": clock], "clock \(clock)") }
        for text in texts {
            let team = Team(id: "1/2", tricode: "A/B", name: text, city: text, primaryColor: "#00/2B5C")
            let attributes = GameAttributes(gameId: "G/\(text)", league: text, home: team, away: Team(id: "2", tricode: "C", name: "N", city: "C", primaryColor: "#000000"))
            try Self.expectSame(team, "team \(text)")
            try Self.expectSame(attributes, "attributes \(text)")
            try Self.expectSame(["a": [attributes]], "attributes \(text) in containers")
        }
        // A property added to one of these types must be added to its spelling too (an optional
        // one would otherwise be left out of every checkpoint without a test noticing).
        #expect(Mirror(reflecting: GameState()).children.count == 14, "GameState's properties: JSONBytes.write(_: GameState)")
        #expect(Mirror(reflecting: texts.map { Team(id: $0, tricode: $0, name: $0, city: $0, primaryColor: $0) }[0]).children.count == 5, "Team's properties: JSONBytes.write(_: Team)")
        #expect(Mirror(reflecting: GameAttributes(gameId: "G", home: Team(id: "1", tricode: "A", name: "A", city: "A", primaryColor: "#0"), away: Team(id: "2", tricode: "B", name: "B", city: "B", primaryColor: "#0"))).children.count == 4, "GameAttributes' properties: JSONBytes.write(_: GameAttributes)")
        #expect(Mirror(reflecting: EventValidator()).children.count == 3, "EventValidator's properties: its encode(to:) and appendCheckpoint(to:)")
        #expect(throws: (any Error).self) { try CheckpointEncoder.encode(GameState(clock: .stopped(seconds: .nan))) }
        #expect(throws: (any Error).self) { try CheckpointEncoder.encode(["c": GameClock.running(endsAt: Date(timeIntervalSinceReferenceDate: .infinity))]) }
    }

    /// The validator, spelled by hand, is spelled as its `encode(to:)`: empty, and after edits
    /// (earlier digests kept), a duplicate and a deletion of a game's events.
    @Test func theValidatorSpelledByHandIsJSONEncodersBytes() throws {
        let game = GameGenerator(seed: 7).generate()
        var fold = GameFold()
        try Self.expectSame(fold.validator, "an empty validator")
        for (index, event) in game.events.prefix(60).enumerated() { fold.apply(event, index: index, now: event.time) }
        for seq in [3, 10, 10, 25] {
            guard var edited = game.events.first(where: { $0.seq == seq }) else { continue }
            edited.description = (edited.description ?? "") + " (edited/again)"
            edited.clock = max(0, edited.clock - 1)
            fold.apply(edited, index: 60, now: edited.time)
        }
        if let duplicate = game.events.dropFirst(40).first { fold.apply(duplicate, index: 61, now: duplicate.time) }
        // An entry with an earlier digest has more than its four fields.
        #expect(fold.validator.appliedText.split(separator: " ").contains { $0.split(separator: ":").count > 4 })
        try Self.expectSame(fold.validator, "after edits and a duplicate")
        try Self.expectSame(["v": [fold.validator]], "in containers")
    }

    /// The enums spelled by hand (a diff's values, a channel's phases, a renderer's modes) are
    /// spelled as their synthesized `Codable` is: every case, optionals present and left out,
    /// text that needs escaping, alone and inside containers.
    @Test func theEnumsSpelledByHandAreJSONEncodersBytes() throws {
        let until = Date(timeIntervalSinceReferenceDate: 758777287.125)
        let values: [Diff.Value] = [
            .int(0), .int(-3), .int(Int.max), .bool(true), .bool(false), .text("R. Westbrook FT 2/2"), .text("quote \" \u{1} é"),
            .clock(.stopped(seconds: 11.5)), .clock(.running(endsAt: until)), .null,
        ]
        for value in values {
            try Self.expectSame(value, "diff value \(value)")
            try Self.expectSame(["v": [value]], "diff value \(value) in containers")
        }
        let phases: [BroadcastChannel.Phase] = [
            .none, .creating, .open(id: "dHN/MQ=="), .lingering(id: "a/b", until: until), .deleting(id: "x"), .deleted(id: "y"),
            .refused(reason: "APNs refused the create: HTTP 400 \"bad/thing\"", id: nil), .refused(reason: "r", id: "z/1"),
        ]
        for phase in phases {
            try Self.expectSame(phase, "phase \(phase)")
            try Self.expectSame(["p": [phase]], "phase \(phase) in containers")
        }
        for mode in [PushRenderer.Mode.token, .broadcast(channelId: nil), .broadcast(channelId: "dHN/MQ==")] {
            try Self.expectSame(mode, "mode \(mode)")
            try Self.expectSame(["m": [mode]], "mode \(mode) in containers")
        }
        #expect(throws: (any Error).self) { try CheckpointEncoder.encode(Diff.Value.clock(.stopped(seconds: .infinity))) }
        #expect(throws: (any Error).self) { try CheckpointEncoder.encode(BroadcastChannel.Phase.lingering(id: "a", until: Date(timeIntervalSinceReferenceDate: .nan))) }
    }

    /// Keys are ordered by their UTF-8 bytes, compared as bytes.
    @Test(arguments: [("a", "b", true), ("b", "a", false), ("a", "a", false), ("", "a", true), ("a", "", false), ("", "", false),
                      ("ab", "abc", true), ("B", "a", true), ("10 end", "5 end", true), ("é", "z", false), ("z", "é", true), ("_", "a", true)])
    func keysAreOrderedByTheirBytes(_ key: String, _ other: String, _ precedes: Bool) {
        #expect(CheckpointEncoder.precedes(key, other) == precedes)
        #expect(CheckpointEncoder.precedes(key, other) == key.utf8.lexicographicallyPrecedes(other.utf8))
    }

    /// Writes nothing at all.
    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Asks for the same nested container twice: both writes land in one object.
    struct Twice: Encodable {
        enum Key: String, CodingKey { case inner, a, b }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            var first = c.nestedContainer(keyedBy: Key.self, forKey: .inner)
            try first.encode(1, forKey: .a)
            var second = c.nestedContainer(keyedBy: Key.self, forKey: .inner)
            try second.encode(2, forKey: .b)
            var list = c.nestedUnkeyedContainer(forKey: .a)
            try list.encode(1)
            var again = c.nestedUnkeyedContainer(forKey: .a)
            try again.encode(2)
        }
    }

    struct Awkward: Encodable {
        enum Key: String, CodingKey { case z, a, nested, list, data, optional, missing, unsigned, float, super_, date, empty }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode("first", forKey: .z)
            try c.encode(["set", "twice"], forKey: .z)
            try c.encode("last", forKey: .z)
            try c.encode(true, forKey: .a)
            var nested = c.nestedContainer(keyedBy: Key.self, forKey: .nested)
            try nested.encode(Int8(-8), forKey: .z)
            try nested.encodeNil(forKey: .a)
            var list = c.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try list.encode("two")
            try list.encodeNil()
            var inner = list.nestedContainer(keyedBy: Key.self)
            try inner.encode(UInt16(7), forKey: .a)
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode(2.5)
            try c.encode(Data([0, 1, 2, 250, 255]), forKey: .data)
            try c.encodeIfPresent(Optional<Int>.some(3), forKey: .optional)
            try c.encodeIfPresent(Optional<Int>.none, forKey: .missing)
            try c.encode(UInt64.max, forKey: .unsigned)
            try c.encode(Float(1.1), forKey: .float)
            try c.encode(Date(timeIntervalSinceReferenceDate: 758777287.5), forKey: .date)
            try c.encode([String: Int](), forKey: .empty)
            let sup = c.superEncoder(forKey: .super_)
            var single = sup.singleValueContainer()
            try single.encode("from super")
        }
    }
}
#endif

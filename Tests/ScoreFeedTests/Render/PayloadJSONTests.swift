import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The renderer writes payloads by hand (``JSONBytes``) instead of with `JSONEncoder`. These
/// tests hold it to the contract: every payload decodes with a default `JSONDecoder` into the
/// same `ContentState`, and is byte for byte what `JSONEncoder` with `.sortedKeys` (and
/// `.withoutEscapingSlashes`, as the renderer always used) gives for the same payload.
@Suite("Hand-written payload JSON")
struct PayloadJSONTests {
    /// The encoder the renderer used before; the hand-written bytes must equal its output.
    static func referenceEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The payload as a device reads it: only `content-state` is typed.
    struct DevicePayload: Decodable {
        struct APS: Decodable {
            var contentState: GameState
            enum CodingKeys: String, CodingKey { case contentState = "content-state" }
        }
        var aps: APS
    }

    /// A `Codable` mirror of ``APNsPayload`` (which is only `Encodable`), to read a payload back
    /// and re-encode it with Foundation.
    struct MirrorPayload: Codable {
        struct APS: Codable {
            var timestamp: Int
            var event: String
            var contentState: GameState
            var staleDate: Int?
            var dismissalDate: Int?
            var relevanceScore: Double?
            var alert: Alert?
            var attributesType: String?
            var attributes: GameAttributes?
            var inputPushToken: Int?

            enum CodingKeys: String, CodingKey {
                case timestamp, event, alert, attributes
                case contentState = "content-state"
                case staleDate = "stale-date"
                case dismissalDate = "dismissal-date"
                case relevanceScore = "relevance-score"
                case attributesType = "attributes-type"
                case inputPushToken = "input-push-token"
            }
        }
        struct Alert: Codable {
            var title: String
            var body: String
            var sound: String?
        }
        var aps: APS
    }

    /// Checks one record's payload against the contract.
    func check(_ record: PushRecord, _ context: String) throws {
        let decoded = try JSONDecoder().decode(DevicePayload.self, from: record.payload)
        #expect(decoded.aps.contentState == record.state, "content-state decodes to the record's state: \(context)")
        let mirror = try JSONDecoder().decode(MirrorPayload.self, from: record.payload)
        let reencoded = try Self.referenceEncoder().encode(mirror)
        #expect(
            reencoded == record.payload,
            "JSONEncoder gives the same bytes: \(context)\n\(String(decoding: record.payload, as: UTF8.self))\n\(String(decoding: reencoded, as: UTF8.self))")
    }

    static let modes: [(String, PushRenderer.Configuration)] = [
        ("token", .init(bundleId: "com.acme.scores")),
        ("token with push-to-start", .init(bundleId: "com.acme.scores", start: true)),
        ("broadcast", .init(bundleId: "com.acme.scores", mode: .broadcast(channelId: "dHN0LXNyY2gtY2hubA=="))),
    ]

    /// The records of fixture `file` replayed in each of `modes`, by mode (each holds some).
    static func replayed(
        _ file: String, in modes: [(String, PushRenderer.Configuration)]
    ) async throws -> [(mode: String, configuration: PushRenderer.Configuration, records: [PushRecord])] {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        var replayed: [(mode: String, configuration: PushRenderer.Configuration, records: [PushRecord])] = []
        for (name, configuration) in modes {
            let sink = RecordingSink()
            _ = try await Replay(renderer: configuration).run(document, sink: sink)
            let records = await sink.records
            #expect(!records.isEmpty, "\(file) \(name)")
            replayed.append((name, configuration, records))
        }
        return replayed
    }

    @Test(arguments: Make.fixtureFiles())
    func everyPushOfEveryFixtureReplay(file: String) async throws {
        for (name, _, records) in try await Self.replayed(file, in: Self.modes) {
            for record in records { try check(record, "\(file) \(name) seq \(record.seq)") }
        }
    }

    @Test func trimmedPayloadsToo() throws {
        // The size guard re-encodes while it trims: the trimmed payload follows the contract too.
        var attributes = Make.attributes
        attributes.home.name = String(repeating: "Mavericks/\"é😀\" ", count: 120)
        var renderer = PushRenderer(attributes: attributes, configuration: .init(start: true, payloadLimit: 1500))
        var state = Make.live
        state.lastPlay = String(repeating: "L. Dončić 3PT \\ step-back\n", count: 200)
        // The start (which carries the present state), then an update.
        let outputs = (0..<2).flatMap { _ in
            renderer.outputs(
                for: Push(event: .update, priority: 10, alert: .leadChange, reason: "test"), state: state, diff: Diff(),
                coalesced: 1, sentAt: Make.start, sourceTime: Make.start)
        }
        let records = outputs.compactMap { output -> PushRecord? in
            if case .push(let record) = output { return record } else { return nil }
        }
        #expect(records.map(\.event) == [.start, .update])
        for record in records {
            #expect(!record.trimmed.isEmpty)
            #expect(record.payload.count <= 1500)
            try check(record, "trimmed \(record.event)")
        }
    }

    @Test(arguments: 0..<8)
    func randomizedPayloadsEqualJSONEncoder(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 11)
        for round in 0..<250 {
            let aps = Self.randomAPS(&random)
            let written = try aps.payloadJSON()
            let reference = try Self.referenceEncoder().encode(APNsPayload(aps: aps))
            #expect(
                written == reference,
                "seed \(seed) round \(round):\n\(String(decoding: written, as: UTF8.self))\n\(String(decoding: reference, as: UTF8.self))")
            let decoded = try JSONDecoder().decode(DevicePayload.self, from: written)
            #expect(decoded.aps.contentState == aps.contentState, "seed \(seed) round \(round)")
        }
    }

    @Test func nonFiniteNumbersAreAnErrorAsInJSONEncoder() throws {
        var random = SeededRandom(seed: 1)
        var aps = Self.randomAPS(&random)
        aps.contentState.clock = .stopped(seconds: .nan)
        #expect(throws: JSONBytes.NonFinite.self) { try aps.payloadJSON() }
        #expect(throws: (any Error).self) { try Self.referenceEncoder().encode(APNsPayload(aps: aps)) }
    }

    @Test func diffClockValuesAreSpelledAsJSONEncoderDoes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var random = SeededRandom(seed: 99)
        for _ in 0..<200 {
            let clock = Self.randomClock(&random)
            let reference = String(decoding: try encoder.encode(clock), as: UTF8.self)
            var spelled = JSONBytes(capacity: 40)
            spelled.diffValue(.clock(clock))
            #expect(spelled.string() == reference)
        }
    }

    /// Strings are copied eight bytes at a time while the eight are plain, a string's last eight
    /// read at once, the rest byte by byte: each character that JSON escapes (and some it must
    /// not), at every place of texts from one byte to three words and more, in both spellings of
    /// `/`, comes out as `JSONEncoder` writes it, after other text in the buffer or first in it.
    @Test(arguments: [false, true])
    func eachEscapeAtEachPlaceIsSpelledAsJSONEncoderDoes(escapingSlashes: Bool) throws {
        let encoder = JSONEncoder()
        if !escapingSlashes { encoder.outputFormatting = [.withoutEscapingSlashes] }
        let specials = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + ["\"", "\\", "/", "\u{7F}", "é", "😀", " ", "~"]
        for special in specials {
            for length in 0...26 {
                for place in 0...length {
                    let text = String(repeating: "a", count: place) + special + String(repeating: "b", count: length - place)
                    let reference = String(decoding: try encoder.encode(text), as: UTF8.self)
                    var spelled = JSONBytes(capacity: 1)
                    spelled.string(text, escapingSlashes: escapingSlashes)
                    #expect(spelled.string() == reference, "\(Array(special.unicodeScalars)) at \(place) of \(length + 1)")
                    var after = JSONBytes(capacity: 64)
                    after.raw(text: "[1,")
                    after.string(text, escapingSlashes: escapingSlashes)
                    #expect(after.string() == "[1," + reference, "\(Array(special.unicodeScalars)) at \(place) of \(length + 1), after text")
                }
            }
        }
        // Plain texts of every length, and one of many escapes in a row (the room made grows).
        for length in 0...40 {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(0x41 + $0 % 26))) })
            var spelled = JSONBytes(capacity: 1)
            spelled.string(text, escapingSlashes: escapingSlashes)
            #expect(spelled.string() == String(decoding: try encoder.encode(text), as: UTF8.self))
        }
        let escapes = String(repeating: "\u{1}\"", count: 40)
        var spelled = JSONBytes(capacity: 1)
        spelled.string(escapes, escapingSlashes: escapingSlashes)
        #expect(spelled.string() == String(decoding: try encoder.encode(escapes), as: UTF8.self))
    }

    @Test func requestIDsAreUnchanged() {
        // Values from the first implementation: retried requests keep their apns-id across versions
        // (the same UUIDs, written lower-case since ids follow Apple's canonical form).
        let known: [(String, Int, String)] = [
            ("TEST1", 1, "028F65A9-477A-85BC-8351-950CCAFAC104"),
            ("0022300061", 17, "00E8FD48-56DD-8666-9130-5641A1829003"),
            ("G1", 123456, "617EF7DF-2121-8D0A-BB93-AF4067F43D58"),
            ("é€😀 x", -5, "B203D5FF-4B10-8B46-9C55-356A4E2E1A06"),
            ("", 0, "DCB0B6FE-0D13-889E-8162-493C39E6EB5C"),
            ("SF00000007", Int.max, "ABFA45B0-13BE-849C-9A0F-1A655DE1F99D"),
        ]
        for (activity, seq, uuid) in known {
            #expect(RequestID.uuid(activity: activity, seq: seq) == uuid.lowercased())
        }
    }

    /// Doubles of at most three decimals are spelled without their description, and must still
    /// be spelled as `JSONEncoder` spells them: every such value at every scale a feed uses (and
    /// past it, where the shortcut gives way), negative, and doubles near them that have more.
    @Test func doublesAreSpelledAsJSONEncoderDoes() throws {
        var random = SeededRandom(seed: 52)
        // The longest texts too (the digits of the rest are written into a buffer of 32 bytes).
        var values: [Double] = [
            0.001, 0.5, 0.1, 0.2 + 0.1, 1.25, 11.3, 99.999, 632450473.3, 3_999_999_999_999.9, 4e12 + 0.5, 1e15 + 0.5,
            -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude, .greatestFiniteMagnitude, -2.2250738585072014e-308, 1e-7,
            1.234_567_890_123_456_8e17, 631_234_567.300_000_1,
        ]
        for _ in 0..<20_000 {
            let places = Double([10, 100, 1000, 10_000][Int(random.next() % 4)])
            let whole = Double(random.next() % [1_000, 1_000_000_000, 4_000_000_000_000, 9_000_000_000_000_000][Int(random.next() % 4)])
            let value = whole / places
            values += [value, -value, value.nextUp, value.nextDown, Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)]
        }
        let encoder = JSONEncoder()
        for value in values {
            var bytes = JSONBytes()
            try bytes.double(value)
            let expected = String(decoding: try encoder.encode([value]), as: UTF8.self).dropFirst().dropLast()
            #expect(bytes.string() == expected, "\(value)")
        }
    }

    /// A record's times (seconds, to the millisecond) are spelled as ``JSONText/number(_:)``
    /// spells them, whole or not, rounding to a whole second or not.
    @Test func recordTimesAreSpelledAsJSONTextDoes() {
        var random = SeededRandom(seed: 53)
        var values: [Double] = [0.0004, 0.0005, 1.9996, 5.0001, 1_733_085_660.25, -2.5, 1e15 + 0.5, .nan, .infinity]
        for _ in 0..<20_000 {
            let value = Double(random.next() % 2_000_000_000_000) / Double([1, 7, 1000, 64, 3][Int(random.next() % 5)])
            values += [value, value.nextUp, -value]
        }
        for value in values {
            var bytes = JSONBytes()
            bytes.number(value)
            #expect(bytes.string() == JSONText.number(value), "\(value)")
        }
    }

    /// Integers are spelled as `String(_:)` spells them: at every length, at each power of ten
    /// and beside it, and at the ends.
    @Test func integersAreSpelledAsStringDoes() {
        var values: [Int] = [0, 1, 9, 10, 11, 19, 20, 42, 99, 100, 101, 999, 1_000, 1_480_558_407, .max, .min, .min + 1, -1, -10, -99, -100]
        var power = 1
        for _ in 1...18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1), 2 * power + 3, 9 * power + 9]
        }
        for value in values {
            var bytes = JSONBytes()
            bytes.int(value)
            #expect(bytes.string() == String(value), "\(value)")
        }
        for value in [UInt.max, UInt.max - 1, UInt(Int.max) + 1, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999] {
            var bytes = JSONBytes()
            bytes.unsigned(value)
            #expect(bytes.string() == String(value), "\(value)")
        }
    }

    /// Checksums are spelled as `String(_:radix: 16)` spells them.
    @Test(arguments: [UInt64(0), 1, 9, 10, 15, 16, 0xabc, 0x8ee8_ed49_26d3_0851, .max])
    func hexIsSpelledAsStringDoes(_ value: UInt64) {
        var bytes = JSONBytes()
        bytes.hex(value)
        #expect(bytes.string() == String(value, radix: 16))
    }

    // MARK: - Random payloads

    static func pick<T>(_ options: [T], _ random: inout SeededRandom) -> T {
        options[Int(random.next() % UInt64(options.count))]
    }

    static func chance(_ random: inout SeededRandom) -> Bool { random.next() % 2 == 0 }

    /// Text with what JSON must escape, what it must not (slashes, DEL, non-ASCII) and plain words.
    static func randomText(_ random: inout SeededRandom) -> String {
        let pieces = [
            "L. Dončić", " 3PT", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1F}", "\u{7F}",
            "😀", "🇺🇸", "é", "e\u{301}", "\u{2028}", "\u{FEFF}", "Ω", "漢字", "", " ", "A", "and-one",
        ]
        var text = ""
        for _ in 0..<Int(random.next() % 8) { text += pick(pieces, &random) }
        return text
    }

    static func randomDouble(_ random: inout SeededRandom) -> Double {
        switch random.next() % 8 {
        case 0: return Double(random.next() % 721)
        case 1: return Double(random.next() % 7200) / 10
        case 2: return Double(random.next() % 1_000_000_000) / 1000
        case 3: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
        case 4: return pick([0, -0.0, 1e15, 1e16, 999_999_999_999_999, 1e-7, 0.1, .leastNonzeroMagnitude, -1.5, 1e21], &random)
        case 5: return 760_000_000 + Double(random.next() % 100_000_000) / 64
        case 6: return -Double(random.next() % 100_000) / 7
        default: return Double(random.next() % 3_000_000_000) + 0.5
        }
    }

    static func randomClock(_ random: inout SeededRandom) -> GameClock {
        chance(&random)
            ? .stopped(seconds: randomDouble(&random))
            : .running(endsAt: Date(timeIntervalSinceReferenceDate: randomDouble(&random)))
    }

    static func randomInt(_ random: inout SeededRandom) -> Int {
        switch random.next() % 4 {
        case 0: return Int(random.next() % 10)
        case 1: return Int(random.next() % 200)
        case 2: return -Int(random.next() % 1000)
        default: return Int(truncatingIfNeeded: random.next())
        }
    }

    static func randomState(_ random: inout SeededRandom) -> GameState {
        let sides: [TeamSide?] = [nil, .home, .away]
        return GameState(
            homeScore: randomInt(&random), awayScore: randomInt(&random), period: randomInt(&random),
            phase: pick(GamePhase.allCases, &random), clock: randomClock(&random), possession: pick(sides, &random),
            homeFouls: randomInt(&random), awayFouls: randomInt(&random), homeInBonus: chance(&random),
            awayInBonus: chance(&random), homeTimeouts: randomInt(&random), awayTimeouts: randomInt(&random),
            lastPlay: chance(&random) ? randomText(&random) : nil, lastScorer: pick(sides, &random))
    }

    static func randomTeam(_ random: inout SeededRandom) -> Team {
        Team(
            id: randomText(&random), tricode: randomText(&random), name: randomText(&random),
            city: randomText(&random), primaryColor: randomText(&random))
    }

    static func randomAPS(_ random: inout SeededRandom) -> APNsPayload.APS {
        var aps = APNsPayload.APS(
            timestamp: randomInt(&random), event: pick(["update", "end", "start", randomText(&random)], &random),
            contentState: randomState(&random))
        if chance(&random) { aps.staleDate = randomInt(&random) }
        if chance(&random) { aps.dismissalDate = randomInt(&random) }
        if chance(&random) { aps.relevanceScore = randomDouble(&random) }
        if chance(&random) {
            aps.alert = .init(
                title: randomText(&random), body: randomText(&random), sound: chance(&random) ? randomText(&random) : nil)
        }
        if chance(&random) { aps.attributesType = randomText(&random) }
        if chance(&random) { aps.inputPushToken = chance(&random) ? 1 : randomInt(&random) }
        if chance(&random) {
            aps.attributes = GameAttributes(
                gameId: randomText(&random), league: randomText(&random), home: randomTeam(&random),
                away: randomTeam(&random))
        }
        return aps
    }
}

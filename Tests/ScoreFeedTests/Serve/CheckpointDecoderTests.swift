import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// Snapshots are read by ``CheckpointDecoder`` first, `JSONDecoder` when it declines: what it
/// reads must be what `JSONDecoder` reads, and what it cannot read exactly it must decline.
@Suite("Checkpoint decoder: JSONDecoder's values")
struct CheckpointDecoderTests {
    /// Every fixture and real game, and generated ones, in token mode with push-to-start and in
    /// broadcast mode with an Android lane: the snapshot every 40 events and at the end reads to
    /// the session `JSONDecoder` reads (the two written again give the same bytes), and is not
    /// declined.
    @Test(arguments: [
        (PushRenderer.Configuration(start: true), false), (PushRenderer.Configuration(bundleId: "com.example.app", mode: .broadcastPerGame), true),
    ])
    func everyGamesSnapshotReadsAsJSONDecoderReadsIt(_ renderer: PushRenderer.Configuration, android: Bool) throws {
        var compared = 0
        try Make.snapshotSessions(renderer, android: android) { session, context in
            let saved = try session.encoded()
            let theirs = try JSONDecoder().decode(GameSession.self, from: saved)
            let mine = try #require(CheckpointDecoder.decode(GameSession.self, from: saved), "\(context): declined")
            #expect(try CheckpointEncoder.encode(mine) == CheckpointEncoder.encode(theirs), "\(context)")
            #expect(try CheckpointEncoder.encode(mine) == saved, "\(context): written again")
            compared += 1
        }
        #expect(compared > 50)
    }

    /// Text with escapes, numbers at their edges, dates, `Data`, URLs, optionals left out or
    /// `null`, nested containers, dictionaries small and large, by `String` and by `Int`.
    @Test func awkwardValuesReadAsJSONDecoderReadsThem() throws {
        let texts = ["a/b", "quote \" backslash \\ tab \t nul \u{0} \u{1F} del \u{7F}", "é 😀 \u{2028}", ""]
        let value = Awkward(
            texts: texts, numbers: [0.1, 1e16, 1e15, -0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 720, 12.5, -2.5e-7, 758777287.125],
            integers: [-999_999_999_999_999_999, 999_999_999_999_999_999, 0, -1], small: [Int8.min, Int8.max], unsigned: [0, UInt32.max],
            when: Date(timeIntervalSinceReferenceDate: 758777287.125), bytes: Data([0, 1, 2, 254, 255]), url: URL(string: "https://cdn.example/a?b=c")!,
            missing: nil, present: "here", nested: [[1, 2], [], [3]],
            large: Dictionary(uniqueKeysWithValues: (0..<100).map { ("key \($0)", $0) }), byNumber: [1: "one", -2: "minus two", 30: "thirty"],
            flags: [true, false])
        for data in [try JSONEncoder().encode(value), try CheckpointEncoder.encode(value)] {
            let theirs = try JSONDecoder().decode(Awkward.self, from: data)
            #expect(CheckpointDecoder.decode(Awkward.self, from: data) == theirs)
        }
        // Spelled by hand: white space, a `null` member, exponents and escapes JSON allows.
        let spelled = Data(#" { "texts" : [ "\u00e9\n\/" ] , "numbers": [1E2, -0, 2.5e-3], "integers": [ -0, 12 ], "small": [], "unsigned": [7], "when": 1e3, "bytes": "AAE=", "url": "a/b", "missing": null, "nested": [], "large": {}, "byNumber": {"7": "seven"}, "flags": [] } "#.utf8)
        let theirs = try JSONDecoder().decode(Awkward.self, from: spelled)
        #expect(CheckpointDecoder.decode(Awkward.self, from: spelled) == theirs)
        #expect(theirs.texts == ["é\n/"] && theirs.present == nil)
    }

    /// What it cannot read exactly as `JSONDecoder` does, it declines: the caller reads those
    /// bytes with `JSONDecoder`, which accepts or refuses them with its own message.
    @Test(arguments: [
        (#"{"a": 1, "a": 2}"#, "a key given twice"),
        (#"{"a": 1.0}"#, "an integer with a point"),
        (#"{"a": 1e2}"#, "an integer with an exponent"),
        (#"{"a": 9223372036854775807}"#, "an integer of 19 digits (read by JSONDecoder)"),
        (#"{"a": "1"}"#, "a number sent as text"),
        (#"{"\u0061": 1}"#, "an escaped key"),
        (#"{"é": 1, "a": 1}"#, "a key that is not ASCII"),
        (#"{}"#, "a missing key"),
        (#"{"a": null}"#, "null for a value"),
        (#"{"a": 1} x"#, "bytes after the value"),
        (#"{"a": 1"#, "a torn document"),
        (#"{"a": 1,}"#, "a trailing comma"),
    ])
    func whatItCannotReadExactlyIsDeclined(_ json: String, _ what: String) {
        #expect(CheckpointDecoder.decode(Plain.self, from: Data(json.utf8)) == nil, "\(what)")
    }

    /// A decline that a type catches (and reads on without) still hands the whole read to
    /// `JSONDecoder`: a type's fallback never decides what the reader alone would have.
    @Test func aDeclineATypeCatchesStillDeclinesTheRead() throws {
        let data = Data(#"{"a": 1.5, "b": 2}"#.utf8)
        #expect(CheckpointDecoder.decode(Forgiving.self, from: data) == nil)
        #expect(CheckpointDecoder.decode(Forgiving.self, from: Data(#"{"a": 1, "b": 2}"#.utf8)) == Forgiving(a: 1, b: 2))
        #expect(try JSONDecoder().decode(Forgiving.self, from: data) == Forgiving(a: nil, b: 2))
        #expect(CheckpointDecoder.decode(Forgiving.self, from: Data(#"{"a": 1, "b": 2.5}"#.utf8)) == nil, "a float")
    }

    /// The state fuzz target's committed seeds (a game's snapshot and journal), their snapshots
    /// and journals' bases with one byte changed at a hundred places: each reads as `JSONDecoder`
    /// reads it or is declined (the fuzz target traps on any other reading).
    @Test func changedSnapshotsReadAsJSONDecoderReadsThemOrAreDeclined() throws {
        let saved = try Make.stateSeeds().flatMap { [$0.snapshot, Journal.base(of: $0.journal) ?? Data()] }.filter { !$0.isEmpty }
        #expect(!saved.isEmpty)
        var read = 0, declined = 0
        for original in saved {
            for at in stride(from: 0, to: original.count, by: max(1, original.count / 100)) {
                for byte in [UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "e"), UInt8(ascii: " "), 0xC3] {
                    var data = original
                    data[data.startIndex + at] = byte
                    guard let mine = CheckpointDecoder.decode(GameSession.self, from: data) else {
                        declined += 1
                        continue
                    }
                    let theirs = try #require(try? JSONDecoder().decode(GameSession.self, from: data), "byte \(at) made \(byte): JSONDecoder refuses it")
                    #expect(try CheckpointEncoder.encode(mine) == CheckpointEncoder.encode(theirs), "byte \(at) made \(byte)")
                    read += 1
                }
            }
        }
        #expect(read > 0 && declined > 0)
    }

    /// Numbers at the reader's edges: twenty digits (which a sum of digits would wrap) and
    /// exponents read as `JSONDecoder` reads them; an exponent that reads as 0 is declined
    /// (`JSONDecoder` refuses `0e1` and an underflow); so is a 128-bit integer a type asks for and
    /// catches, and an `Int`-keyed dictionary that spells one number twice.
    @Test func numbersAtTheEdgesReadAsJSONDecoderReadsThemOrAreDeclined() throws {
        struct Number: Decodable, Equatable { var d: Double }
        for text in ["18446744073709551616", "-18446744073709551617", "99999999999999999999", "12345678901234567890.5", "9007199254740993",
                     "1e2", "2.5E-3", "1E+16", "5e-324", "-1.7976931348623157e308"] {
            let data = Data(#"{"d": \#(text)}"#.utf8)
            let theirs = try JSONDecoder().decode(Number.self, from: data)
            #expect(CheckpointDecoder.decode(Number.self, from: data)?.d.bitPattern == theirs.d.bitPattern, "\(text)")
        }
        for text in ["0e1", "0E5", "-0.0e1", "1e-400", "1e400"] {
            #expect(CheckpointDecoder.decode(Number.self, from: Data(#"{"d": \#(text)}"#.utf8)) == nil, "\(text)")
        }
        struct Wide: Decodable {
            var a: Int128?
            enum Key: String, CodingKey { case a }
            init(from decoder: any Decoder) throws { a = try? decoder.container(keyedBy: Key.self).decode(Int128.self, forKey: .a) }
        }
        #expect(try JSONDecoder().decode(Wide.self, from: Data(#"{"a": 5}"#.utf8)).a == 5)
        #expect(CheckpointDecoder.decode(Wide.self, from: Data(#"{"a": 5}"#.utf8)) == nil)
        #expect(CheckpointDecoder.decode([Int: Int].self, from: Data(#"{"1": 1, "2": 2}"#.utf8)) == [1: 1, 2: 2])
        #expect(CheckpointDecoder.decode([Int: Int].self, from: Data(#"{"1": 1, "01": 2}"#.utf8)) == nil)
    }

    /// A key asked for by a name that is not ASCII is `JSONDecoder`'s to match (Swift compares
    /// names by canonical equivalence: the Kelvin sign is a K).
    @Test func aNameThatIsNotASCIIIsLeftToJSONDecoder() throws {
        let data = Data(#"{"K": 1}"#.utf8)
        #expect(try JSONDecoder().decode(Kelvin.self, from: data).value == 1)
        #expect(CheckpointDecoder.decode(Kelvin.self, from: data) == nil)
        #expect(CheckpointDecoder.decode(Plain.self, from: Data(#"{"a": 1}"#.utf8)) == Plain(a: 1))
    }

    /// A damaged snapshot still gets `JSONDecoder`'s message, with where it went wrong.
    @Test func aDamagedSnapshotGetsJSONDecodersMessage() throws {
        let game = GameGenerator(seed: 3).generate()
        var session = GameSession(attributes: game.attributes, renderer: PushRenderer.Configuration(), now: game.events[0].time)
        for (index, event) in game.events.prefix(30).enumerated() { session.receive(event, index: index, now: event.time) }
        let saved = String(decoding: try session.encoded(), as: UTF8.self)
        let damaged = Data(saved.replacingOccurrences(of: #""period":"#, with: #""period":"x","old":"#).utf8)
        #expect(CheckpointDecoder.decode(GameSession.self, from: damaged) == nil)
        let error = #expect(throws: ScoreFeedError.self) { try GameSession.decode(damaged, file: "game.json") }
        #expect(error?.message.contains("period") == true, "\(String(describing: error))")
        #expect(try GameSession.decode(Data(saved.utf8), file: "game.json").attributes == game.attributes)
    }

    struct Awkward: Codable, Equatable {
        var texts: [String]
        var numbers: [Double]
        var integers: [Int]
        var small: [Int8]
        var unsigned: [UInt32]
        var when: Date
        var bytes: Data
        var url: URL
        var missing: String?
        var present: String?
        var nested: [[Int]]
        var large: [String: Int]
        var byNumber: [Int: String]
        var flags: [Bool]
    }

    struct Plain: Decodable, Equatable {
        var a: Int
    }

    /// Reads its value under the Kelvin sign's name.
    struct Kelvin: Decodable, Equatable {
        var value: Int
        enum Key: String, CodingKey { case value = "\u{212A}" }

        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .value)
        }
    }

    /// Reads `a` if it can, and goes on without it.
    struct Forgiving: Decodable, Equatable {
        var a: Int?
        var b: Int
        enum Key: String, CodingKey { case a, b }

        init(a: Int?, b: Int) {
            self.a = a
            self.b = b
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            a = try? c.decode(Int.self, forKey: .a)
            b = try c.decode(Int.self, forKey: .b)
        }
    }
}

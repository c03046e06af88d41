import Foundation
import Testing
@testable import ScoreFeed

/// The byte search finds candidates with `memchr` by a byte of the needle that JSON does not
/// repeat every few bytes: it must find what a plain scan finds, wherever it starts.
@Suite("byte search")
struct ByteSearchTests {
    /// A plain scan: where `needle` first starts in `text` at or after `from`.
    static func plainOffset(_ needle: [UInt8], _ text: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, from >= 0, text.count - from >= needle.count else { return nil }
        return (from...(text.count - needle.count)).first { Array(text[$0..<($0 + needle.count)]) == needle }
    }

    static func offset(_ needle: [UInt8], _ text: [UInt8], from: Int) -> Int? {
        text.withUnsafeBytes { text in needle.withUnsafeBytes { ByteSearch.firstOffset(of: $0, in: text, from: from) } }
    }

    @Test(arguments: [
        (#""a":1"#, #"{"a":1}"#, 0, 1),
        (#""a":1"#, #"{"a":1}"#, 2, nil),
        (#"":""#, #"{"":"","":""}"#, 2, 2),
        (#"":""#, #"{"":"","":""}"#, 3, 8),
        ("a", "a", 0, 0),
        ("ab", "a", 0, nil),
        ("", "abc", 0, nil),
        (#""score":10"#, #"{"score":1,"score":10}"#, 0, 11),
        ("ba", "bbba", 0, 2),
        ("é", "café", 0, 3),
    ] as [(String, String, Int, Int?)])
    func findsWhatAPlainScanFinds(_ needle: String, _ text: String, _ from: Int, _ expected: Int?) {
        #expect(Self.offset(Array(needle.utf8), Array(text.utf8), from: from) == expected)
        #expect(Self.plainOffset(Array(needle.utf8), Array(text.utf8), from: from) == expected)
    }

    /// Seeded texts and needles of JSON's bytes (most of them its punctuation): the search and a
    /// plain scan agree from every start.
    @Test func agreesWithAPlainScanOnJSONishText() {
        var random = SeededRandom(seed: 0xB17E)
        let alphabet = Array(#"""{}:,[] a1\"#.utf8)
        for _ in 0..<400 {
            let text = (0..<random.int(in: 0...60)).map { _ in alphabet[random.below(alphabet.count)] }
            let needle = (0..<random.int(in: 1...5)).map { _ in alphabet[random.below(alphabet.count)] }
            for from in 0...text.count {
                #expect(Self.offset(needle, text, from: from) == Self.plainOffset(needle, text, from: from),
                        "\(String(decoding: needle, as: UTF8.self)) in \(String(decoding: text, as: UTF8.self)) from \(from)")
            }
        }
    }

    /// `"key":value` holds where a comma or a brace ends it, not where it is a longer value's start.
    @Test(arguments: [
        (#"{"homeScore":10}"#, "homeScore", "10", true),
        (#"{"homeScore":101}"#, "homeScore", "10", false),
        (#"{"homeScore":101,"homeScore":10,"x":1}"#, "homeScore", "10", true),
        (#"{"homeScore":10"#, "homeScore", "10", false),
    ])
    func aPairHoldsWhereItEnds(_ payload: String, _ key: String, _ value: String, _ held: Bool) {
        #expect(SimulationInvariants.holds(key, value, in: Data(payload.utf8)) == held)
    }

    /// The pair is found wherever its whole text stands followed by `,` or `}`, as a search for
    /// the pair made as one string finds it: random payloads of JSON's punctuation and a few
    /// letters, keys and values drawn from the same, with a plain quote and an escaped one.
    @Test func aPairHoldsExactlyWhereItsTextStands() {
        var random = SeededRandom(seed: 11)
        let alphabet = Array(#"""{}:,[] ab1\"#.utf8)
        func draw(_ count: ClosedRange<Int>) -> String {
            String(decoding: (0..<random.int(in: count)).map { _ in alphabet[random.below(alphabet.count)] }, as: UTF8.self)
        }
        var found = 0
        for round in 0..<4_000 {
            let quote = round % 2 == 0 ? "\"" : "\\\""
            let key = draw(1...2), value = draw(0...2)
            let pair = Array((quote + key + quote + ":" + value).utf8)
            // One payload in two holds the pair somewhere, maybe at its very end.
            var payload = Array(draw(0...40).utf8)
            if round % 4 < 2 {
                let end = round % 4 == 0 ? UInt8(ascii: ",") : UInt8(ascii: "}")
                payload.insert(contentsOf: pair + [end], at: random.int(in: 0...payload.count))
            }
            let expected = payload.count > pair.count && (0..<(payload.count - pair.count)).contains { at in
                Array(payload[at..<at + pair.count]) == pair
                    && (payload[at + pair.count] == UInt8(ascii: ",") || payload[at + pair.count] == UInt8(ascii: "}"))
            }
            if expected { found += 1 }
            #expect(SimulationInvariants.holds(key, value, in: Data(payload), quote: quote) == expected,
                    "\(key) \(value) in \(String(decoding: payload, as: UTF8.self))")
        }
        #expect(found > 1_000)
    }
}

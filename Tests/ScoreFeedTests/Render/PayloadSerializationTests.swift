import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The sizes the size guard holds to the limit (issue 31 item 3): each covered serialization's
/// size is computed exactly, checked here against hand-counted payloads, against an independent
/// Python-equivalent writer (``PythonJSON``), against Foundation's `JSONEncoder`, and, where
/// python3 is on the PATH, against Python's own `json.dumps`.
@Suite("Payload serializations: exact sizes")
struct PayloadSerializationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var json: String
        var compact, slashes, spaced, ascii: Int
        var testDescription: String { json }
    }

    /// Counted by hand (and by `python3 -c 'json.dumps(…)'`).
    static let cases: [Case] = [
        Case(json: #"{"a":"é"}"#, compact: 10, slashes: 10, spaced: 11, ascii: 15),
        Case(json: "{\"a\":[1,2.5,-0,true,null],\"b\":\"🏀/\\\"\\n\\u0001\u{7F}\"}", compact: 49, slashes: 49, spaced: 55, ascii: 68),
        Case(json: #"{"k":"\ud83c\udfc0\u00e9\/"}"#, compact: 28, slashes: 16, spaced: 16, ascii: 28),
        Case(json: #"{"x":1e16,"y":9.007199254740994e+15,"z":1E-5,"w":720}"#, compact: 53, slashes: 55, spaced: 59, ascii: 59),
        Case(json: #"{ "a" : [ ] , "b" : { } }"#, compact: 25, slashes: 15, spaced: 18, ascii: 18),
    ]

    @Test(arguments: cases)
    func sizesAreCountedExactly(_ c: Case) throws {
        let sizes = try PayloadSerialization.sizes(of: Data(c.json.utf8))
        #expect(sizes == .init(compact: c.compact, escapedSlashes: c.slashes, spaced: c.spaced, spacedASCII: c.ascii))
        #expect(try PythonJSON.sizes(of: Data(c.json.utf8)) == sizes, "the reference writer agrees")
    }

    /// The size guard leaves a payload of at most `limit / largestGrowth` bytes unmeasured: no
    /// serialization may grow a payload more, and a string of raw DEL characters comes close.
    @Test(arguments: cases.map(\.json) + [
        "{\"a\":\"" + String(repeating: "\u{7F}", count: 200) + "\"}", "[" + Array(repeating: "1e15", count: 30).joined(separator: ",") + "]",
        "{\"a\":\"" + String(repeating: "é", count: 40) + "\"}", "[" + Array(repeating: "{\"a\":0}", count: 30).joined(separator: ",") + "]",
        #"{"k":"\ud83c\udfc0\u00e9\/"}"#, "{\"a\":\"" + String(repeating: "🏀\u{1}/", count: 20) + "\"}",
    ])
    func noSerializationGrowsAPayloadMoreThanTheGuardAssumes(_ json: String) throws {
        let payload = Data(json.utf8)
        let largest = try PayloadSerialization.sizes(of: payload).largest.bytes
        #expect(largest <= payload.count * PayloadSerialization.largestGrowth)
        if json.hasPrefix("{\"a\":\"\u{7F}") { #expect(Double(largest) > 5.5 * Double(payload.count), "the bound is close to the worst case") }
    }

    @Test(arguments: ["", "{", #"{"a":"#, #"{"a":"\x"}"#, "[1,2,x]", #""unterminated"#])
    func textThatIsNotJSONIsAnError(_ text: String) {
        #expect(throws: ScoreFeedError.self) { try PayloadSerialization.sizes(of: Data(text.utf8)) }
    }

    /// Python's `repr(float)`, as `python3 -c 'print(repr(x))'` prints it.
    @Test(arguments: [
        (720.0, "720.0"), (12.5, "12.5"), (0.1, "0.1"), (1e16, "1e+16"), (9007199254740994.0, "9007199254740994.0"),
        (1e15, "1000000000000000.0"), (0.0001, "0.0001"), (0.00001, "1e-05"), (0.00012345, "0.00012345"),
        (751234567.123, "751234567.123"), (1.7976931348623157e308, "1.7976931348623157e+308"), (.leastNonzeroMagnitude, "5e-324"),
        (-2.5e-7, "-2.5e-07"), (123e20, "1.23e+22"), (-0.0, "-0.0"), (3.3333333333333335, "3.3333333333333335"),
    ])
    func pythonReprOfFloats(_ value: Double, _ spelled: String) {
        #expect(PayloadSerialization.pythonRepr(value) == spelled)
    }

    /// Every payload of every fixture (the long-names one included), token with push-to-start and
    /// broadcast: the sizes agree with the reference writer, the compact size is the payload's,
    /// the `\/` size is what Foundation's `JSONEncoder` writes by default, and each is within the limit.
    @Test(arguments: Make.fixtureFiles())
    func everyFixturePayloadInEverySerializationIsWithinTheLimit(file: String) async throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        for configuration in [PushRenderer.Configuration(start: true), .init(mode: .broadcast(channelId: "dGVzdA=="))] {
            let sink = RecordingSink()
            _ = try await Replay(renderer: configuration).run(document, sink: sink)
            for record in await sink.records {
                let sizes = try PayloadSerialization.sizes(of: record.payload)
                #expect(try PythonJSON.sizes(of: record.payload) == sizes, "\(file) seq \(record.seq)")
                let mirror = try JSONDecoder().decode(PayloadJSONTests.MirrorPayload.self, from: record.payload)
                #expect(try JSONEncoder().encode(mirror).count == sizes.escapedSlashes, "JSONEncoder's default: \(file) seq \(record.seq)")
                for serialization in PayloadSerialization.allCases {
                    #expect(sizes[serialization] <= configuration.payloadLimit, "\(file) seq \(record.seq): \(serialization)")
                }
            }
        }
    }
}

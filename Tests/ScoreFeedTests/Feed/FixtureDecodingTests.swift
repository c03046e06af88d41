import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("Decoding fixture files: bad input is an error, never a crash")
struct FixtureDecodingTests {
    static let header = """
        "game":{"gameId":"G","league":"NBA",
        "home":{"id":"1","tricode":"HOM","name":"Homes","city":"Here","primaryColor":"#000000"},
        "away":{"id":"2","tricode":"AWY","name":"Aways","city":"There","primaryColor":"#FFFFFF"}}
        """

    static func fixture(_ events: String) -> Data {
        Data("{\"format\":\"scorefeed-fixture/1\",\(header),\"events\":[\(events)]}".utf8)
    }

    static let good = #"{"seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}"#

    @Test func decodesAGoodEvent() throws {
        let document = try FixtureFormat.decode(Self.fixture(Self.good), file: "g.json")
        #expect(document.events.count == 1)
        #expect(document.events[0].kind == .periodStart)
        #expect(document.events[0].clock == 720)
        #expect(document.rejected.isEmpty)
        #expect(document.attributes.home.tricode == "HOM")
        #expect(document.file == "g.json")
    }

    /// Whole-file failures: (name, bytes, expected code).
    static let brokenFiles: [(String, Data, ScoreFeedError.Code)] = [
        ("empty file", Data(), .malformedJSON),
        ("truncated", Data(fixture(good).prefix(60)), .malformedJSON),
        ("binary garbage", Data([0xFF, 0x00, 0xFE, 0x7B, 0x22]), .malformedJSON),
        ("top level is an array", Data("[1,2,3]".utf8), .invalidValue),
        ("no events", Data("{\(header)}".utf8), .missingField),
        ("no game", Data("{\"events\":[]}".utf8), .missingField),
        ("other format", Data("{\"format\":\"nope/2\",\(header),\"events\":[]}".utf8), .unknownFormat),
        ("events is a string", Data("{\(header),\"events\":\"x\"}".utf8), .invalidValue),
    ]

    @Test(arguments: brokenFiles)
    func brokenFile(name: String, data: Data, code: ScoreFeedError.Code) {
        #expect(throws: ScoreFeedError.self) { try FixtureFormat.decode(data, file: "bad.json") }
        do {
            _ = try FixtureFormat.decode(data, file: "bad.json")
        } catch {
            #expect(error.code == code, "\(name): \(error)")
            #expect(error.location.file == "bad.json")
        }
    }

    /// Per-event failures: the event is rejected with its index and seq; the others decode.
    static let badEvents: [(String, String, ScoreFeedError.Code)] = [
        ("wrong type for points", #"{"seq":2,"time":1739240010,"period":1,"clock":"11:50","type":"fieldGoal","team":"home","points":"two","made":true}"#, .invalidValue),
        ("unknown type", #"{"seq":2,"time":1739240010,"period":1,"clock":"11:50","type":"dunkContest"}"#, .unknownEventType),
        ("missing seq", #"{"time":1739240010,"period":1,"clock":"11:50","type":"block"}"#, .missingField),
        ("missing clock", #"{"seq":2,"time":1739240010,"period":1,"type":"block"}"#, .missingField),
        ("bad clock", #"{"seq":2,"time":1739240010,"period":1,"clock":"eleven","type":"block"}"#, .invalidValue),
        ("bad team", #"{"seq":2,"time":1739240010,"period":1,"clock":"11:50","type":"block","team":"visitors"}"#, .invalidValue),
        ("huge seq", #"{"seq":1e300,"time":1739240010,"period":1,"clock":"11:50","type":"block"}"#, .invalidValue),
        ("huge integer seq", #"{"seq":123456789012345678901234567890,"time":1739240010,"period":1,"clock":"11:50","type":"block"}"#, .invalidValue),
        ("huge time", #"{"seq":2,"time":1e300,"period":1,"clock":"11:50","type":"block"}"#, .invalidValue),
        ("negative time", #"{"seq":2,"time":-5,"period":1,"clock":"11:50","type":"block"}"#, .invalidValue),
        ("fieldGoal without made", #"{"seq":2,"time":1739240010,"period":1,"clock":"11:50","type":"fieldGoal","team":"home","points":2}"#, .missingField),
        ("unknown foul kind", #"{"seq":2,"time":1739240010,"period":1,"clock":"11:50","type":"foul","team":"home","kind":"rude"}"#, .invalidValue),
        ("event is a number", "42", .invalidValue),
        ("event is null", "null", .missingField),
        ("null field", #"{"seq":2,"time":null,"period":1,"clock":"11:50","type":"block"}"#, .missingField),
    ]

    @Test(arguments: badEvents)
    func badEvent(name: String, json: String, code: ScoreFeedError.Code) throws {
        let document = try FixtureFormat.decode(Self.fixture(Self.good + "," + json + "," + Self.good.replacingOccurrences(of: "\"seq\":1", with: "\"seq\":3")), file: "f.json")
        #expect(document.events.map(\.seq) == [1, 3], "\(name): the good events around it still decode")
        #expect(document.positions == [0, 2])
        #expect(document.rejected.count == 1)
        let error = try #require(document.rejected.first)
        #expect(error.code == code, "\(name): \(error)")
        #expect(error.location.eventIndex == 1)
        #expect(error.location.file == "f.json")
        if name == "wrong type for points" || name == "unknown type" {
            #expect(error.location.sequence == 2)
        }
        #expect(error.description.contains("f.json, event #1"))
    }

    @Test func roundTripsThroughTheEncoder() throws {
        let events = [
            Make.event(1, .periodStart, period: 1, clock: 720),
            Make.event(2, .fieldGoal(points: 3, made: true), team: .away, clock: 700.5, player: "D. Fox"),
            Make.event(3, .freeThrow(attempt: 1, of: 2, made: false, points: 1), team: .home),
            Make.event(4, .foul(.looseBall), team: .home),
            Make.event(5, .timeout(.challenge), team: .away),
            Make.event(6, .replay(ruling: "overturned", challenge: true), team: .away),
            Make.event(7, .substitution(out: "X. Y"), team: .home, player: "Z. W"),
            Make.event(8, .correction(points: -2), team: .away),
            Make.event(9, .gameEnd, period: 4, clock: 0),
        ]
        let data = FixtureFormat.encode(attributes: Make.attributes, events: events, finalScore: FinalScore(home: 0, away: 1))
        let document = try FixtureFormat.decode(data)
        #expect(document.events == events)
        #expect(document.finalScore == FinalScore(home: 0, away: 1))
        #expect(document.attributes == Make.attributes)
    }
}

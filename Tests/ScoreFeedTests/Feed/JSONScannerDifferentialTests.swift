import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The byte reader (``JSONScanner``) against `JSONDecoder`, the reference: on every fixture,
/// every real game in `../shared`, generated games, the committed fuzz corpus, a table of
/// hostile lines and seeded mutations of good ones, both readers give the same events, or the
/// same error (code, message, location). And the byte reader reads the good input itself:
/// `JSONDecoder` is left only what it declines.
@Suite("The byte reader and JSONDecoder: same events or the same error")
struct JSONScannerDifferentialTests {
    // MARK: Outcomes

    /// What `StreamLine.parse` made of a line.
    enum LineOutcome: Hashable {
        case header(GameAttributes, channel: String?)
        case event(String, GameEvent)
        case error(ScoreFeedError)
    }

    static func lineOutcome(_ line: Data, number: Int, source: String?, _ decoding: JSONDecoding) -> LineOutcome {
        do {
            switch try StreamLine.parse(line, number: number, source: source, decoding: decoding) {
            case .header(let attributes, let channel): return .header(attributes, channel: channel)
            case .event(let game, let event, _): return .event(game, event)
            case .bad(let error): return .error(error)
            case .blank: return .error(ScoreFeedError(.invalidValue, "parse gave an empty line"))
            }
        } catch {
            return .error(error)
        }
    }

    /// What `FixtureFormat.decode` made of a file: everything the document holds, or the error.
    struct DocumentOutcome: Hashable {
        var attributes: GameAttributes?
        var events: [GameEvent] = []
        var positions: [Int] = []
        var rejected: [ScoreFeedError] = []
        var finalScore: FinalScore?
        var scheduledStart: Date?
        var file: String?
        var actionCount: Int?
        var error: ScoreFeedError?
    }

    static func documentOutcome(_ data: Data, file: String?, _ decoding: JSONDecoding) -> DocumentOutcome {
        do {
            let document = try FixtureFormat.decode(data, file: file, decoding: decoding)
            return DocumentOutcome(
                attributes: document.attributes, events: document.events, positions: document.positions,
                rejected: document.rejected, finalScore: document.finalScore, scheduledStart: document.scheduledStart,
                file: document.file, actionCount: document.actionCount)
        } catch {
            return DocumentOutcome(error: error)
        }
    }

    /// Parses `line` both ways and expects the same outcome; returns whether the byte reader
    /// read it itself (rather than declining it to `JSONDecoder`). A line the direct event reader
    /// takes must also give what the general path gives.
    @discardableResult
    static func checkLine(_ line: Data, number: Int = 7, source: String? = "stdin", _ comment: String = "") -> Bool {
        let bytes = lineOutcome(line, number: number, source: source, .bytes)
        let reference = lineOutcome(line, number: number, source: source, .foundation)
        #expect(bytes == reference, "\(comment) line \(String(decoding: line.prefix(300), as: UTF8.self))")
        if let direct = directEvent(line, number: number) {
            let general = Result { () throws(ScoreFeedError) in
                try StreamLine.parseInFull(line, number: number, source: source, decoding: .bytes)
            }
            if case .success(.event(let game, let event, _)) = general {
                #expect(direct.game == game && direct.event == event, "\(comment) line \(String(decoding: line.prefix(300), as: UTF8.self))")
            } else {
                Issue.record("\(comment): the direct reader took a line the general path does not read as an event")
            }
        }
        return line.first == UInt8(ascii: "{") && StreamLine.Parsed.scanning(line) != nil
    }

    /// What the direct event reader (``StreamLine/event(reading:number:)``) made of a line, or nil
    /// when it left the line to the general path.
    static func directEvent(_ line: Data, number: Int) -> (game: String, event: GameEvent)? {
        guard case .event(let game, let event, _)? = line.withUnsafeBytes({ StreamLine.event(reading: $0, number: number) })
        else { return nil }
        return (game, event)
    }

    /// Decodes `data` as a fixture both ways and expects the same document or error; returns
    /// whether the byte reader read it itself.
    @discardableResult
    static func checkFixture(_ data: Data, file: String? = "f.json", _ comment: String = "") -> Bool {
        let bytes = documentOutcome(data, file: file, .bytes)
        let reference = documentOutcome(data, file: file, .foundation)
        #expect(bytes == reference, "\(comment) fixture \(String(decoding: data.prefix(300), as: UTF8.self))")
        return PlainFixture.scanning(data) != nil
    }

    /// The `serve` lines of a game, as `scorefeed stream` writes them.
    static func lines(_ document: FeedDocument) -> [Data] {
        [StreamLine.headerLine(document.attributes), StreamLine.headerLine(document.attributes, channel: "Y2hhbm5lbA==")]
            + document.events.map { StreamLine.eventLine($0, game: document.attributes.gameId) }
    }

    /// Checks a document's lines and its fixture encoding, and that the byte reader read them all.
    static func checkGame(_ document: FeedDocument, _ name: String) {
        for (index, line) in lines(document).enumerated() {
            #expect(checkLine(line, number: index + 1, name), "\(name): the byte reader reads line \(index + 1)")
            // The events (after the two headers) are read by the direct reader, serve's usual path.
            #expect(index < 2 || directEvent(line, number: index + 1) != nil, "\(name): the direct reader reads line \(index + 1)")
        }
        let fixture = FixtureFormat.encode(
            attributes: document.attributes, events: document.events, finalScore: document.finalScore,
            scheduledStart: document.scheduledStart)
        #expect(checkFixture(fixture, file: name, name), "\(name): the byte reader reads the fixture")
    }

    // MARK: Files

    @Test func everyFixture() throws {
        var read = 0
        for name in Make.fixtureFiles() {
            let data = try Data(contentsOf: Make.fixtures.appendingPathComponent(name))
            if Self.checkFixture(data, file: name, name) { read += 1 }
            if let document = try? FixtureFormat.decode(data, file: name) {
                Self.checkGame(document, name)
            }
            if !name.hasPrefix("edge/") {
                #expect(PlainFixture.scanning(data) != nil, "\(name): a good fixture is read by the byte reader")
            }
        }
        #expect(read > 0)
    }

    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func everyRealGame() throws {
        #expect(!NBAFiles.games.isEmpty)
        for file in NBAFiles.games {
            let document = try FeedReader.read(path: NBAFiles.path(file))
            Self.checkGame(document, file)
            // The raw NBA file itself is not a fixture: both readers must say so alike.
            Self.checkFixture(try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file))), file: file, file)
        }
    }

    @Test(arguments: [1, 2, 3, 17, 120] as [UInt64])
    func generatedGame(seed: UInt64) throws {
        let game = GameGenerator(seed: seed).generate()
        let data = game.fixtureData()
        #expect(Self.checkFixture(data, file: "seed \(seed)"), "the byte reader reads a generated game")
        Self.checkGame(try FixtureFormat.decode(data), "seed \(seed)")
    }

    /// The corpus under `Tests/Fuzz/corpus/<target>/`, when one is committed: every input as
    /// `serve` input (split into lines as serve splits them) and as a fixture file.
    @Test func fuzzCorpus() throws {
        let root = Make.packageRoot.appendingPathComponent("Tests/Fuzz/corpus")
        guard let targets = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return }
        var inputs = 0
        for target in targets.sorted() {
            let folder = root.appendingPathComponent(target)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                inputs += 1
                var splitter = LineReader.Splitter(limit: 65_536)
                var items = splitter.feed(ArraySlice(Array(data)))
                if let last = splitter.finish() { items.append(last) }
                for case .line(let line, let number) in items where !line.isEmpty {
                    Self.checkLine(line, number: number, "\(target)/\(name)")
                }
                Self.checkFixture(data, file: name, "\(target)/\(name)")
            }
        }
        #expect(inputs > 0 || targets.isEmpty)
    }

    // MARK: Hostile and edge input

    static let team = ##"{"id":"1610612742","tricode":"DAL","name":"Mavericks","city":"Dallas","primaryColor":"#00538C"}"##
    static let event = #""game":"G1","seq":3,"time":1739240010,"period":1,"clock":"11:50","type":"fieldGoal","team":"home","points":3,"made":true"#
    static let header = #""gameId":"G1","league":"NBA","home":\#(team),"away":\#(team)"#

    /// Lines a producer should never send, and lines it may: (name, bytes).
    static let hostile: [(String, [UInt8])] = {
        var table: [(String, String)] = [
            ("good event", "{\(event)}"),
            ("good header", "{\(header)}"),
            ("header with a channel", "{\(header),\"channel\":\"abc\"}"),
            ("header with a numeric channel", "{\(header),\"channel\":5}"),
            ("header with a null channel", "{\(header),\"channel\":null}"),
            ("header with an object channel", "{\(header),\"channel\":{\"a\":[1,2]}}"),
            ("header with a game too", "{\(header),\"game\":\"G9\"}"),
            ("header with a numeric game", "{\(header),\"game\":9}"),
            ("header, home only", #"{"gameId":"G1","league":"NBA","home":\#(team)}"#),
            ("header, home null", #"{"gameId":"G1","league":"NBA","home":null,"away":\#(team)}"#),
            ("header, both null, with game", #"{"gameId":"G1","league":"NBA","home":null,"away":null,"game":"G1","seq":1,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("header without league", #"{"gameId":"G1","home":\#(team),"away":\#(team)}"#),
            ("header, null gameId", #"{"gameId":null,"league":"NBA","home":\#(team),"away":\#(team)}"#),
            ("header, team missing a field", #"{"gameId":"G1","league":"NBA","home":{"id":"1","tricode":"A","name":"B","city":"C"},"away":\#(team)}"#),
            ("header, team field a number", #"{"gameId":"G1","league":"NBA","home":{"id":1,"tricode":"A","name":"B","city":"C","primaryColor":"000"},"away":\#(team)}"#),
            ("header, team with an unknown key", #"{"gameId":"G1","league":"NBA","home":{"id":"1","tricode":"A","name":"B","city":"C","primaryColor":"000","x":[{}]},"away":\#(team)}"#),
            ("header, team repeated key", #"{"gameId":"G1","league":"NBA","home":{"id":"1","id":"2","tricode":"A","name":"B","city":"C","primaryColor":"000"},"away":\#(team)}"#),
            ("header, home an array", #"{"gameId":"G1","league":"NBA","home":[],"away":\#(team)}"#),
            ("header, repeated home", "{\(header),\"home\":\(team)}"),
            ("event with event fields of a header", "{\(event),\"gameId\":5}"),
            ("duplicate seq", "{\(event),\"seq\":4}"),
            ("duplicate seq, second a string", "{\(event),\"seq\":\"x\"}"),
            ("duplicate game", "{\(event),\"game\":\"G2\"}"),
            ("duplicate unknown key", "{\(event),\"x\":1,\"x\":\"y\"}"),
            ("unknown keys, nested", "{\(event),\"x\":{\"a\":[1,2,{\"b\":null}],\"c\":true},\"y\":[]}"),
            ("unknown key with an escape", "{\(event),\"\\u0078\":1}"),
            ("escaped known key", #"{"game":"G1","se\u0071":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("Kelvin sign key", "{\(event),\"\u{212A}\":1}"),
            ("non-ASCII unknown key", "{\(event),\"é\":1}"),
            ("empty key", "{\(event),\"\":1}"),
            ("seq a string", #"{"game":"G1","seq":"3","time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq a float", #"{"game":"G1","seq":3.0,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq an exponent", #"{"game":"G1","seq":3e0,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq 1.5", #"{"game":"G1","seq":1.5,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq -0", #"{"game":"G1","seq":-0,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq 18 digits", #"{"game":"G1","seq":999999999999999999,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq Int.max", #"{"game":"G1","seq":9223372036854775807,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq Int.max + 1", #"{"game":"G1","seq":9223372036854775808,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq Int.min", #"{"game":"G1","seq":-9223372036854775808,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq 30 digits", #"{"game":"G1","seq":123456789012345678901234567890,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq 1e300", #"{"game":"G1","seq":1e300,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq leading zero", #"{"game":"G1","seq":03,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq plus", #"{"game":"G1","seq":+3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq true", #"{"game":"G1","seq":true,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("seq null", #"{"game":"G1","seq":null,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("time NaN", #"{"game":"G1","seq":3,"time":NaN,"period":1,"clock":"1:00","type":"block"}"#),
            ("time Infinity", #"{"game":"G1","seq":3,"time":Infinity,"period":1,"clock":"1:00","type":"block"}"#),
            ("time -Infinity", #"{"game":"G1","seq":3,"time":-Infinity,"period":1,"clock":"1:00","type":"block"}"#),
            ("time \"inf\"", #"{"game":"G1","seq":3,"time":"inf","period":1,"clock":"1:00","type":"block"}"#),
            ("time 1e400", #"{"game":"G1","seq":3,"time":1e400,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 1e-400", #"{"game":"G1","seq":3,"time":1e-400,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 1e300", #"{"game":"G1","seq":3,"time":1e300,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 0e5", #"{"game":"G1","seq":3,"time":0e5,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 0E5", #"{"game":"G1","seq":3,"time":0E5,"period":1,"clock":"1:00","type":"block"}"#),
            ("time -0", #"{"game":"G1","seq":3,"time":-0,"period":1,"clock":"1:00","type":"block"}"#),
            ("time -0.0", #"{"game":"G1","seq":3,"time":-0.0,"period":1,"clock":"1:00","type":"block"}"#),
            ("time -5", #"{"game":"G1","seq":3,"time":-5,"period":1,"clock":"1:00","type":"block"}"#),
            ("time with exponent", #"{"game":"G1","seq":3,"time":1.7392400035e9,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 17 digits", #"{"game":"G1","seq":3,"time":1739240003.1234567,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 16 digits", #"{"game":"G1","seq":3,"time":1739240003.123456,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 40 digits", #"{"game":"G1","seq":3,"time":1739240003.123456789012345678901234567890,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 1.", #"{"game":"G1","seq":3,"time":1.,"period":1,"clock":"1:00","type":"block"}"#),
            ("time .5", #"{"game":"G1","seq":3,"time":.5,"period":1,"clock":"1:00","type":"block"}"#),
            ("time 2^53 + 1", #"{"game":"G1","seq":3,"time":9007199254740993,"period":1,"clock":"1:00","type":"block"}"#),
            ("made 1", "{\(event.replacingOccurrences(of: "\"made\":true", with: "\"made\":1"))}"),
            ("made \"true\"", "{\(event.replacingOccurrences(of: "\"made\":true", with: "\"made\":\"true\""))}"),
            ("made tru", "{\(event.replacingOccurrences(of: "\"made\":true", with: "\"made\":tru"))}"),
            ("made trueish", "{\(event.replacingOccurrences(of: "\"made\":true", with: "\"made\":truex"))}"),
            ("points a string", "{\(event.replacingOccurrences(of: "\"points\":3", with: "\"points\":\"two\""))}"),
            ("score", "{\(event),\"score\":{\"home\":3,\"away\":0}}"),
            ("score null", "{\(event),\"score\":null}"),
            ("score missing away", "{\(event),\"score\":{\"home\":3}}"),
            ("score a string", "{\(event),\"score\":\"3-0\"}"),
            ("score out of range", "{\(event),\"score\":{\"home\":3000,\"away\":0}}"),
            ("score with extra keys", "{\(event),\"score\":{\"home\":3,\"away\":0,\"x\":[]}}"),
            ("score repeated home", "{\(event),\"score\":{\"home\":3,\"home\":4,\"away\":0}}"),
            ("clock a number", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":60,"type":"block"}"#),
            ("type unknown", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"dunk"}"#),
            ("missing clock", #"{"game":"G1","seq":3,"time":1,"period":1,"type":"block"}"#),
            ("missing everything but game", #"{"game":"G1"}"#),
            ("game null", #"{"game":null,"seq":1}"#),
            ("game a number", #"{"game":5,"seq":1}"#),
            ("game an object", #"{"game":{},"seq":1}"#),
            ("neither", #"{"seq":5}"#),
            ("empty object", "{}"),
            ("empty object with space", "{ }"),
            ("spaces everywhere", " {\t\"game\" :\r\"G1\" , \"seq\" : 3 ,\"time\":1,\"period\":1,\"clock\":\"1:00\",\"type\":\"block\" } \t\r"),
            ("form feed", "{\"game\":\u{0C}\"G1\",\"seq\":3,\"time\":1,\"period\":1,\"clock\":\"1:00\",\"type\":\"block\"}"),
            ("trailing garbage", "{\(event)} x"),
            ("trailing brace", "{\(event)}}"),
            ("trailing NUL", "{\(event)}\u{0}"),
            ("trailing comma", "{\(event),}"),
            ("trailing comma in array", "{\(event),\"x\":[1,]}"),
            ("double comma", "{\(event),,\"x\":1}"),
            ("leading comma", "{,\(event)}"),
            ("missing colon", #"{"game" "G1"}"#),
            ("truncated", String("{\(event)}".dropLast(5))),
            ("truncated in a string", #"{"game":"G1","description":"abc"#),
            ("truncated escape", #"{"game":"G1","description":"abc\"#),
            ("description with escapes", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","description":"a\"b\\c\/d\b\f\n\r\t\u00e9\u0000"}"#),
            ("description with a surrogate pair", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","description":"\ud83c\udfc0 \uD83C\uDFC0"}"#),
            ("description with a lone high surrogate", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","description":"\ud83c"}"#),
            ("description with a lone low surrogate", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","description":"\udfc0"}"#),
            ("description with a high surrogate then a letter", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","description":"\ud83c\u0041"}"#),
            ("description with two high surrogates", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","description":"\ud83c\ud83c"}"#),
            ("unknown value with a lone surrogate", "{\(event),\"x\":\"\\ud800\"}"),
            ("unknown value with a bad escape", "{\(event),\"x\":\"\\x\"}"),
            ("unknown value with a control character", "{\(event),\"x\":\"a\u{1}b\"}"),
            ("description with a control character", "{\(event),\"description\":\"a\u{1}b\"}"),
            ("description with DEL", "{\(event),\"description\":\"a\u{7F}b\"}"),
            ("description with a bad hex escape", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","description":"\u00zz"}"#),
            ("description with emoji and accents", "{\(event),\"description\":\"Dončić 🏀 ✓ \u{2028}\"}"),
            ("description of 700 characters", "{\(event),\"description\":\"\(String(repeating: "é", count: 700))\"}"),
            ("player null", "{\(event),\"player\":null}"),
            ("every field", #"{"game":"G1","seq":3,"time":1739240010.25,"period":2,"clock":"PT05M12.30S","type":"freeThrow","team":"away","player":"P","description":"D","points":2,"made":false,"attempt":1,"of":2,"offensive":true,"kind":"k","out":"o","ruling":"r","challenge":true,"score":{"home":1,"away":2}}"#),
            ("foul kind bad", #"{"game":"G1","seq":4,"time":1,"period":1,"clock":"1:00","type":"foul","team":"both","kind":"personal"}"#),
            ("true literal as value of unknown", "{\(event),\"x\":true,\"y\":false,\"z\":null}"),
            ("nul literal", "{\(event),\"x\":nul}"),
            ("NaN in unknown", "{\(event),\"x\":NaN}"),
            ("huge number in unknown", "{\(event),\"x\":1e99999999999999999999}"),
            ("number with exponent in unknown", "{\(event),\"x\":-1.5E+10}"),
            ("deep array, 30", "{\(event),\"x\":\(String(repeating: "[", count: 30))\(String(repeating: "]", count: 30))}"),
            ("deep array, 100", "{\(event),\"x\":\(String(repeating: "[", count: 100))\(String(repeating: "]", count: 100))}"),
            ("deep array, 600", "{\(event),\"x\":\(String(repeating: "[", count: 600))\(String(repeating: "]", count: 600))}"),
            ("deep object, 70", "{\(event),\"x\":\(String(repeating: "{\"a\":", count: 70))1\(String(repeating: "}", count: 70))}"),
            ("unclosed deep array", "{\(event),\"x\":\(String(repeating: "[", count: 5000))"),
            ("array top level", "[1,2,3]"),
            ("string top level", "\"game\""),
            ("not JSON", "{not json"),
            ("empty", ""),
            // The direct event reader's edges: each read only as the general path reads it.
            ("escaped clock", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1\u003a00","type":"block"}"#),
            ("escaped type", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"bl\u006fck"}"#),
            ("escaped team", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","team":"\u0068ome"}"#),
            ("escaped game", #"{"game":"G\u0031","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("team Home", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","team":"Home"}"#),
            ("team homes", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","team":"homes"}"#),
            ("team empty", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","team":""}"#),
            ("team null", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block","team":null}"#),
            ("type Block", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"Block"}"#),
            ("type blocks", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"blocks"}"#),
            ("type empty", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":""}"#),
            ("type null", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":null}"#),
            ("type foul without kind", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"foul"}"#),
            ("type timeout, kind bad", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"timeout","kind":"tv"}"#),
            ("type other without kind", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"other"}"#),
            ("clock PT", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"PT11M42.00S","type":"block"}"#),
            ("clock 1:60", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:60","type":"block"}"#),
            ("clock 1:00.", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:00.","type":"block"}"#),
            ("clock :30", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":":30","type":"block"}"#),
            ("clock 1:5", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"1:5","type":"block"}"#),
            ("clock with Arabic digits", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"١:٠٠","type":"block"}"#),
            ("clock empty", #"{"game":"G1","seq":3,"time":1,"period":1,"clock":"","type":"block"}"#),
            ("time 2100", #"{"game":"G1","seq":3,"time":4102444800,"period":1,"clock":"1:00","type":"block"}"#),
            ("time just before 2100", #"{"game":"G1","seq":3,"time":4102444799.5,"period":1,"clock":"1:00","type":"block"}"#),
            ("game empty", #"{"game":"","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("game with a space first", #"{"game":" G1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("game with a space last", #"{"game":"G1 ","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("game with a space inside", #"{"game":"G 1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("game of 64 bytes", "{\"game\":\"\(String(repeating: "g", count: 64))\",\"seq\":3,\"time\":1,\"period\":1,\"clock\":\"1:00\",\"type\":\"block\"}"),
            ("game of 65 bytes", "{\"game\":\"\(String(repeating: "g", count: 65))\",\"seq\":3,\"time\":1,\"period\":1,\"clock\":\"1:00\",\"type\":\"block\"}"),
            ("game non-ASCII", #"{"game":"é😀","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("game with DEL", "{\"game\":\"G\u{7F}1\",\"seq\":3,\"time\":1,\"period\":1,\"clock\":\"1:00\",\"type\":\"block\"}"),
            ("game with a tab", #"{"game":"G\t1","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("game repeated, second null", #"{"game":"G1","game":null,"seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("home null in an event", #"{"game":"G1","home":null,"seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("league in an event", #"{"game":"G1","league":"NBA","seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
            ("channel in an event", #"{"game":"G1","channel":5,"seq":3,"time":1,"period":1,"clock":"1:00","type":"block"}"#),
        ]
        // Keys of 0 to 12 bytes with a quote, a backslash, a control or a non-ASCII byte at each
        // place (the byte reader reads a short key in one word).
        for length in 0...12 {
            for position in 0..<max(length, 1) {
                for bad in ["\"", "\\\"", "\\\\", "\u{1}", "é", "\u{7F}"] {
                    var key = Array(repeating: "k", count: length)
                    if length > 0 { key[position] = bad }
                    table.append(("key of \(length) with \(bad.unicodeScalars.first!.value) at \(position)", "{\(event),\"\(key.joined())\":1}"))
                }
            }
        }
        table += (0..<8).map { ("seq \($0 + 15) digits", "{\"game\":\"G1\",\"seq\":\(String(repeating: "9", count: $0 + 15)),\"time\":1,\"period\":1,\"clock\":\"1:00\",\"type\":\"block\"}") }
        var bytes = table.map { ($0.0, Array($0.1.utf8)) }
        let prefix = Array("{\(event),\"description\":\"".utf8), suffix = Array("\"}".utf8)
        let invalid: [(String, [UInt8])] = [
            ("0xFF", [0xFF]), ("lone continuation", [0x80]), ("overlong slash", [0xC0, 0xAF]),
            ("overlong 3-byte", [0xE0, 0x80, 0x80]), ("UTF-8 surrogate", [0xED, 0xA0, 0x80]),
            ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80]), ("truncated 2-byte", [0xC3]), ("truncated 4-byte", [0xF0, 0x9F, 0x8F]),
            ("valid 4-byte", [0xF0, 0x9F, 0x8F, 0x80]), ("valid U+10FFFF", [0xF4, 0x8F, 0xBF, 0xBF]),
            ("cut by an escape", [0xC3, 0x5C, 0x6E, 0xA9]),
        ]
        for (name, sequence) in invalid {
            bytes.append(("description with \(name)", prefix + sequence + suffix))
            bytes.append(("unknown value with \(name)", Array("{\(event),\"x\":\"".utf8) + sequence + suffix))
            bytes.append(("unknown key with \(name)", Array("{\(event),\"".utf8) + sequence + Array("\":1}".utf8)))
            bytes.append(("after the object, \(name)", Array("{\(event)}".utf8) + sequence))
        }
        bytes.append(("byte-order mark", [0xEF, 0xBB, 0xBF] + Array("{\(event)}".utf8)))
        bytes.append(("UTF-16", Array("{\(event)}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })))
        return bytes
    }()

    @Test func hostileLines() {
        for (index, (name, line)) in Self.hostile.enumerated() {
            for source in [nil, "stdin"] as [String?] {
                Self.checkLine(Data(line), number: index + 1, source: source, name)
            }
        }
    }

    /// The same lines as events of a fixture file (their `game` is an unknown key there).
    @Test func hostileEventsInAFixture() {
        let good = #"{"seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}"#
        for (name, line) in Self.hostile {
            let file = Array("{\"format\":\"scorefeed-fixture/1\",\"game\":{\(Self.header)},\"events\":[\(good),".utf8)
                + line + Array(",\(good)]}".utf8)
            Self.checkFixture(Data(file), file: "f.json", name)
        }
    }

    static let fixtureHeader = #""format":"scorefeed-fixture/1","game":{\#(header)}"#
    static let fixtureEvent = #"{"seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}"#

    /// Whole files: the top level's own shapes.
    static let hostileFiles: [(String, String)] = [
        ("good", "{\(fixtureHeader),\"events\":[\(fixtureEvent)]}"),
        ("no events", "{\(fixtureHeader)}"),
        ("empty events", "{\(fixtureHeader),\"events\":[]}"),
        ("events null", "{\(fixtureHeader),\"events\":null}"),
        ("events a string", "{\(fixtureHeader),\"events\":\"x\"}"),
        ("an event null", "{\(fixtureHeader),\"events\":[\(fixtureEvent),null]}"),
        ("an event a number", "{\(fixtureHeader),\"events\":[42,\(fixtureEvent)]}"),
        ("an event an array", "{\(fixtureHeader),\"events\":[[],\(fixtureEvent)]}"),
        ("trailing comma in events", "{\(fixtureHeader),\"events\":[\(fixtureEvent),]}"),
        ("repeated events", "{\(fixtureHeader),\"events\":[],\"events\":[\(fixtureEvent)]}"),
        ("no game", "{\"events\":[]}"),
        ("game null", "{\"game\":null,\"events\":[]}"),
        ("other format", #"{"format":"nope/2","game":{\#(header)},"events":[]}"#),
        ("format null", #"{"format":null,"game":{\#(header)},"events":[]}"#),
        ("format a number", #"{"format":2,"game":{\#(header)},"events":[]}"#),
        ("final", "{\(fixtureHeader),\"final\":{\"home\":100,\"away\":99},\"events\":[]}"),
        ("final null", "{\(fixtureHeader),\"final\":null,\"events\":[]}"),
        ("final incomplete", "{\(fixtureHeader),\"final\":{\"home\":100},\"events\":[]}"),
        ("scheduledStart", "{\(fixtureHeader),\"scheduledStart\":1739239200,\"events\":[]}"),
        ("scheduledStart fractional", "{\(fixtureHeader),\"scheduledStart\":1739239200.75,\"events\":[]}"),
        ("scheduledStart a string", "{\(fixtureHeader),\"scheduledStart\":\"soon\",\"events\":[]}"),
        ("scheduledStart exponent", "{\(fixtureHeader),\"scheduledStart\":1.7e9,\"events\":[]}"),
        ("unknown top-level keys", "{\(fixtureHeader),\"x\":{\"y\":[1,{\"z\":null}]},\"events\":[]}"),
        ("game without league", #"{"game":{"gameId":"G1","home":\#(team),"away":\#(team)},"events":[]}"#),
        ("game with an unknown key", #"{"game":{"gameId":"G1","league":"NBA","home":\#(team),"away":\#(team),"x":1},"events":[]}"#),
        ("leading white space", "\n\t {\(fixtureHeader),\"events\":[]}\n"),
        ("trailing garbage", "{\(fixtureHeader),\"events\":[]}x"),
        ("top level an array", "[1,2,3]"),
        ("empty", ""),
        ("white space only", "  \n"),
        ("truncated", String("{\(fixtureHeader),\"events\":[\(fixtureEvent)]}".prefix(90))),
    ]

    @Test func hostileFixtureFiles() {
        for (name, text) in Self.hostileFiles {
            Self.checkFixture(Data(text.utf8), file: "f.json", name)
            Self.checkFixture(Data(text.utf8), file: nil, name)
        }
    }

    // MARK: Mutations and numbers

    /// Seeded mutations of good lines and files: bytes replaced by JSON's punctuation and other
    /// troublemakers, inserted, deleted, or the input cut short. Both readers must agree on each.
    @Test func seededMutations() throws {
        let game = GameGenerator(seed: 7).generate()
        let document = game.document
        let seeds = Self.lines(document).prefix(60) + Self.hostile.prefix(40).map { Data($0.1) }
        let fixture = Array(game.fixtureData().prefix(3000))
        var random = SeededRandom(seed: 21)
        let alphabet = Array(#"{}[]:,"\/\u0000 0123456789.eE+-truefalsnl"#.utf8) + [0x80, 0xC3, 0xED, 0xF0, 0xFF, 0x01, 0x7F]
        func mutate(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            for _ in 0..<(1 + Int(random.next() % 3)) {
                guard !bytes.isEmpty else { break }
                let at = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 4 {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                case 2: bytes.remove(at: at)
                default: bytes = Array(bytes.prefix(at))
                }
            }
            return bytes
        }
        var readByBytes = 0
        for round in 0..<6000 {
            let seed = Array(seeds[seeds.startIndex + round % seeds.count])
            if Self.checkLine(Data(mutate(seed)), number: round + 1, "mutation \(round)") { readByBytes += 1 }
        }
        for round in 0..<300 {
            Self.checkFixture(Data(mutate(fixture)), file: "m.json", "mutation \(round)")
        }
        #expect(readByBytes > 1000, "most mutations still read by the byte reader: \(readByBytes)")
    }

    /// The game clock's byte-level fast path (`M:SS`, `M:SS.f`) gives what the general path
    /// gives, and declines what it does not take.
    @Test func clockFastPathAgrees() {
        var random = SeededRandom(seed: 9)
        let pieces = ["0", "1", "5", "9", "12", "00", "59", "60", "99", ".", ":", "+", "-", "e", " ", "PT", "M", "S", "é"]
        var clocks = ["12:00", "0:24.3", "11:42", "1:60", "1:.5", "1:5.", "012:00", "1234567:00", "1:59.999999999999999", "", ":", "1:",
                      "9:" + String(repeating: "9", count: 120), String(repeating: "9", count: 30) + ":00", "1:123456789012345", "1:1234567890123456"]
        for _ in 0..<20_000 {
            clocks.append((0..<(1 + Int(random.next() % 6))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        for _ in 0..<5_000 {
            clocks.append("\(random.next() % 13):\(random.next() % 60).\(random.next() % 100_000)")
        }
        for clock in clocks {
            let general = GameClockText.spelledSeconds(clock)
            if let plain = GameClockText.plainSeconds(clock) {
                #expect(general?.bitPattern == plain.bitPattern, "clock \(clock)")
            }
            #expect(GameClockText.seconds(clock)?.bitPattern == general?.bitPattern, "clock \(clock)")
        }
    }

    /// Times with up to 32 digits (short ones divided exactly, long ones through `strtod`), and
    /// twenty-digit ones: the same double as `JSONDecoder`'s, bit for bit.
    @Test func timesConvertExactly() {
        var random = SeededRandom(seed: 5)
        // Twenty digits summed would wrap past 2⁶⁴ (18446744073709551616 read as 0).
        let wide = ["18446744073709551616", "18446744073709551617.5", "99999999999999999999", "9999999999999999999", "12345678901234567890"]
        for round in 0..<(20_000 + wide.count) {
            let whole = random.next() % (round % 2 == 0 ? 4_000_000_000 : 10_000)
            let digits = Int(random.next() % (round % 3 == 0 ? 23 : 9))
            var fraction = ""
            for _ in 0..<digits { fraction += String(random.next() % 10) }
            let time = round >= 20_000 ? wide[round - 20_000] : digits == 0 ? "\(whole)" : "\(whole).\(fraction)"
            let line = Data(#"{"game":"G1","seq":\#(round),"time":\#(time),"period":1,"clock":"1:00","type":"block"}"#.utf8)
            let bytes = Self.lineOutcome(line, number: 1, source: nil, .bytes)
            let reference = Self.lineOutcome(line, number: 1, source: nil, .foundation)
            if case .event(_, let a) = bytes, case .event(_, let b) = reference {
                #expect(a.time.timeIntervalSince1970.bitPattern == b.time.timeIntervalSince1970.bitPattern, "time \(time)")
            } else {
                #expect(bytes == reference, "time \(time)")
            }
        }
    }
}

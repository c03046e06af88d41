import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// Issue 31 item 3 as a property: for random adversarial games (long names, emoji, ZWJ
/// sequences, flags, combining marks, JSON escapes, controls, DEL, odd numbers), every payload
/// the renderer makes is within the limit in every serialization the guard covers, measured by
/// the reference writer (``PythonJSON``) and by `JSONEncoder`; text is only ever cut on character
/// boundaries. Where python3 is on the PATH, Python's own `json.dumps` confirms the sizes.
@Suite("Size guard: every serialization of every payload of random adversarial states fits")
struct SizeGuardPropertyTests {
    /// SplitMix64: the same seed, the same games, on every machine.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Pieces of hostile text: 1 to 25 bytes of UTF-8, 1 to 66 bytes escaped.
    static let pieces: [String] = [
        "a", "Z", " ", "3PT", "é", "ß", "Ω", "Я", "ё", "姚", "明", "🏀", "🦁", "🇬🇷", "🇺🇸", "👨‍👩‍👧‍👦", "🐻‍❄️", "e\u{301}",
        "\u{36B}", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{FEFF}", "𝔸", "محمد", "«", "–",
    ]

    static func text(_ random: inout Random, upTo limit: Int) -> String {
        // Short most of the time, sometimes far beyond what fits.
        let length = random.next() % 3 == 0 ? Int.random(in: 0...limit, using: &random) : Int.random(in: 0...20, using: &random)
        var text = ""
        let bias = Int.random(in: 0..<pieces.count, using: &random)   // one piece dominates some texts
        for _ in 0..<length {
            text += random.next() % 2 == 0 ? pieces[bias] : pieces.randomElement(using: &random)!
        }
        return text
    }

    static func team(_ random: inout Random, id: String) -> Team {
        Team(
            id: id, tricode: String(text(&random, upTo: 3).prefix(3)), name: text(&random, upTo: 700),
            city: text(&random, upTo: 700), primaryColor: "#00538C")
    }

    static let seconds: [Double] = [0, 720, 12.5, 0.1, 1e-5, 3.3333333333333335, 59.9, 1e16, 9007199254740994, 300]

    static func state(_ random: inout Random) -> GameState {
        let clock: GameClock = random.next() % 2 == 0
            ? .stopped(seconds: seconds.randomElement(using: &random)!)
            : .running(endsAt: Date(timeIntervalSince1970: 1_739_240_000 + Double(Int.random(in: 0...100_000, using: &random)) / 7))
        return GameState(
            homeScore: Int.random(in: 0...160, using: &random), awayScore: Int.random(in: 0...160, using: &random),
            period: Int.random(in: 1...7, using: &random), phase: [.pregame, .live, .endOfPeriod, .halftime, .final].randomElement(using: &random)!,
            clock: clock, possession: [nil, .home, .away].randomElement(using: &random)!,
            homeFouls: Int.random(in: 0...6, using: &random), awayFouls: Int.random(in: 0...6, using: &random),
            lastPlay: random.next() % 5 == 0 ? nil : text(&random, upTo: 2500), lastScorer: [nil, .home, .away].randomElement(using: &random)!)
    }

    /// One random game's outputs: a push-to-start (token mode), then updates and an end with alerts.
    static func outputs(seed: UInt64, mode: PushRenderer.Mode) -> [PushRenderer.Output] {
        var random = Random(state: seed)
        let attributes = GameAttributes(
            gameId: "PROP\(seed)", league: text(&random, upTo: 300), home: team(&random, id: "1"), away: team(&random, id: "2"))
        var renderer = PushRenderer(attributes: attributes, configuration: .init(mode: mode, start: mode == .token))
        var outputs: [PushRenderer.Output] = []
        for step in 0..<12 {
            let event: Push.Event = step == 11 ? .end : .update
            let alert: AlertKind? = [nil, .final, .overtime, .leadChange].randomElement(using: &random)!
            let push = Push(event: event, priority: random.next() % 3 == 0 ? 5 : 10, alert: alert, reason: "property \(seed)")
            let state = state(&random)
            outputs += renderer.outputs(
                for: push, state: state, diff: Diff([.init(.lastPlay, .null, state.lastPlay.map { .text($0) } ?? .null)]),
                coalesced: 1, sentAt: Make.start.addingTimeInterval(Double(step) * 30), sourceTime: nil)
        }
        return outputs
    }

    static let modes: [PushRenderer.Mode] = [.token, .broadcast(channelId: "dGVzdA==")]

    /// Every record's payload: within the limit in all four serializations.
    func check(_ record: PushRecord, limit: Int, _ context: String) throws {
        let reference = try PythonJSON.sizes(of: record.payload)
        let computed = try PayloadSerialization.sizes(of: record.payload)
        #expect(computed == reference, "\(context): the guard's sizes are the reference writer's")
        let mirror = try JSONDecoder().decode(PayloadJSONTests.MirrorPayload.self, from: record.payload)
        #expect(try JSONEncoder().encode(mirror).count == reference.escapedSlashes, "\(context): JSONEncoder's default")
        for serialization in PayloadSerialization.allCases {
            #expect(reference[serialization] <= limit, "\(context): \(serialization) is \(reference[serialization]) bytes")
        }
        // What was cut was cut after whole characters, with an ellipsis.
        if record.trimmed.contains("lastPlay"), let shown = record.state.lastPlay {
            #expect(shown.hasSuffix("…"), "\(context)")
        }
    }

    @Test(arguments: 0..<24, modes)
    func everySerializationOfEveryPayloadFits(seed: Int, mode: PushRenderer.Mode) throws {
        var pushes = 0
        for output in Self.outputs(seed: UInt64(seed), mode: mode) {
            switch output {
            case .push(let record):
                pushes += 1
                try check(record, limit: mode.payloadLimit, "seed \(seed) seq \(record.seq)")
            case .refused(let refusal):
                // Only identifiers (tricodes here) can make a push that cannot fit.
                #expect(refusal.bytes > refusal.limit)
            }
        }
        #expect(pushes > 0)
    }

    /// A name whose compact bytes fit but whose escaped form does not is trimmed now: emoji are
    /// 4 bytes as sent and 12 as `\ud83c\udfc0`, so a 1,000-emoji play fits 4096 only compact.
    @Test func anEmojiPlayIsTrimmedForTheEscapedForm() throws {
        var renderer = PushRenderer(attributes: Make.attributes)
        var state = Make.live
        state.lastPlay = String(repeating: "🏀", count: 900)
        let outputs = renderer.outputs(
            for: Push(event: .update, priority: 10, reason: "score"), state: state, diff: Diff([]), coalesced: 1,
            sentAt: Make.start, sourceTime: nil)
        guard case .push(let record)? = outputs.first else {
            Issue.record("expected a push")
            return
        }
        let sizes = try PayloadSerialization.sizes(of: record.payload)
        #expect(record.trimmed == ["lastPlay"])
        #expect(sizes.compact < 4096 / 2, "the compact bytes alone would have fit untrimmed (3.6 kB)")
        #expect(sizes.spacedASCII <= 4096 && sizes.spacedASCII > 4096 - 12 - 6, "as many emoji as fit escaped")
        #expect(sizes.largest.serialization == .spacedASCII)
    }

    /// Python's `json.dumps` on every payload of the random games and of the long-names fixture:
    /// the same sizes as the guard computes, and within the limit.
    @Test(.enabled(if: Python3.available, "python3 is not on the PATH: Python's own json.dumps cannot confirm the sizes (the Swift reference writer above still checks them)"))
    func pythonsJSONDumpsAgrees() async throws {
        var payloads: [(Data, Int)] = []
        for mode in Self.modes {
            for seed in 0..<24 {
                for case .push(let record) in Self.outputs(seed: UInt64(seed), mode: mode) { payloads.append((record.payload, mode.payloadLimit)) }
            }
            let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("edge/long-names.json").path)
            let sink = RecordingSink()
            _ = try await Replay(renderer: .init(mode: mode, start: mode == .token)).run(document, sink: sink)
            for record in await sink.records { payloads.append((record.payload, mode.payloadLimit)) }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-payloads-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(payloads.map { $0.0 }.joined(separator: Data("\n".utf8))).write(to: file)

        let process = Process()
        process.executableURL = Python3.url
        process.arguments = [Make.packageRoot.appendingPathComponent("Tests/Support/json_sizes.py").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = text.split(separator: "\n")
        #expect(lines.count == payloads.count)
        for (line, (payload, limit)) in zip(lines, payloads) {
            let python = line.split(separator: " ").compactMap { Int($0) }
            let sizes = try PayloadSerialization.sizes(of: payload)
            #expect(python == [sizes.compact, sizes.spaced, sizes.spacedASCII], "python3 json.dumps: \(python)")
            #expect(python.allSatisfy { $0 <= limit })
        }
    }
}

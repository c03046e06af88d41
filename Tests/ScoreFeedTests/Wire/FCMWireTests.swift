import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// Issue 41 part 4, the Android wire test: the records of the real games in `../shared/nba-pbp`,
/// made by the built `scorefeed replay --platform android --jsonl` (token mode, broadcast mode to
/// each game's topic, and token mode with `--fcm-project`), sent to a stand-in that checks each
/// request as FCM HTTP v1 documents it (``FCMStandIn``, `Tests/Support/fcm_standin.py`): raw as
/// they stand (`fcm_send.py`) and through Google's `firebase-admin` (`fcm_send_admin.py`); the
/// records with `--fcm-project` are token mode's, byte for byte, once the project is filled in. Every
/// request must be answered 200, and what arrived must tell each game in order: seq rising by
/// one, `data.timestamp` strictly rising, the `start` first and one `end` last, with the final
/// score.
///
/// Needs the venv `.ci/run` makes from PyPI (skipped with a message without it; ``FCMRulesTests``
/// checks the same rules in Swift regardless) and the `scorefeed` executable built beside the tests.
@Suite(
    "Wire: real games' Android records through a strict FCM stand-in",
    .serialized,
    .enabled(if: FCMStandIn.available, FCMStandIn.absentReason))
struct FCMWireTests {
    /// How `scorefeed replay` addresses the records.
    enum Mode: String, Sendable, CaseIterable {
        /// `"token": "{token}"`, the path's literal `{project}`: the sender fills in both.
        case token
        /// `"topic": "game-<id>"`.
        case broadcast
        /// Token mode with `--fcm-project`: the path names the stand-in's project already.
        case tokenWithProject

        var flags: [String] {
            switch self {
            case .token: []
            case .broadcast: ["--mode", "broadcast"]
            case .tokenWithProject: ["--fcm-project", FCMStandIn.project]
            }
        }
    }

    /// Every real game's Android records in one JSON-lines file, and each game's final score.
    struct Replayed {
        var file: URL
        var lines: [Data]
        /// By game id (the records' `game`).
        var finals: [String: FinalScore]

        /// The first game's records alone, in a file of their own (this one is removed).
        func firstGame() throws -> Replayed {
            let games = lines.map { (try? JSONSerialization.jsonObject(with: $0) as? [String: Any])?["game"] as? String }
            let game = try #require(games.first ?? nil)
            let kept = zip(lines, games).filter { $0.1 == game }.map(\.0)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-fcm-wire-\(UUID().uuidString).jsonl")
            try Data(kept.map { $0 + Data("\n".utf8) }.joined()).write(to: file)
            try? FileManager.default.removeItem(at: self.file)
            return Replayed(file: file, lines: kept, finals: finals.filter { $0.key == game })
        }
    }

    /// ``replay(_:)`` of `mode`, a file of its own for each caller (who removes it); the replays
    /// themselves run once per test run (three tests read each mode's).
    static func replay(_ mode: Mode) async throws -> Replayed {
        let made = try await replays.value(mode) { try await replaying(mode) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-fcm-wire-\(UUID().uuidString).jsonl")
        try made.output.write(to: file)
        return Replayed(file: file, lines: made.lines, finals: made.finals)
    }

    private static let replays = RunMemo<Mode, (output: Data, lines: [Data], finals: [String: FinalScore])>()

    /// Every real game replayed with `--platform android` in `mode`, by the executable: its
    /// standard output, its lines, and each game's final.
    private static func replaying(_ mode: Mode) async throws -> (output: Data, lines: [Data], finals: [String: FinalScore]) {
        var all = Data()
        var lines: [Data] = []
        var finals: [String: FinalScore] = [:]
        for game in NBAFiles.games {
            let arguments = ["replay", "--jsonl", "--platform", "android"] + mode.flags + [NBAFiles.path(game)]
            let run = try await ScoreFeedProcess.run(arguments)
            try #require(
                run.status == 0,
                "scorefeed \(arguments.joined(separator: " ")) exited \(run.status) (issue 41: --platform android is the CLI's): \(run.standardError.suffix(500))")
            let first = try #require(run.lines.first, "\(game): no records")
            let id = try #require((try JSONSerialization.jsonObject(with: first) as? [String: Any])?["game"] as? String)
            finals[id] = try NBAFiles.oracle(game).final
            lines += run.lines
            all.append(run.standardOutput)
        }
        return (all, lines, finals)
    }

    /// ``FCMRules`` on every line: one message per reason, with a count and an example.
    static func expectNoRuleProblems(_ lines: [Data], _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var byReason: [String: (count: Int, example: String)] = [:]
        for line in lines {
            for problem in Set(FCMRules.problems(line)) {
                let reason = String(problem.prefix { $0 != ":" })
                byReason[reason, default: (0, problem)].count += 1
            }
        }
        for (reason, found) in byReason.sorted(by: { $0.key < $1.key }) {
            Issue.record("\(context): \(found.count) of \(lines.count) records: \(reason); e.g. \(found.example)", sourceLocation: sourceLocation)
        }
    }

    /// What a run told each game, in the order it was sent or received: seq rising by one from 1,
    /// `data.timestamp` strictly rising, the `start` first and exactly one `end`, last, whose state
    /// (the app's `ContentState`) carries the game's final score. `messages` are (game id, data).
    static func expectActivities(
        _ messages: [(game: String, data: [String: String])], finals: [String: FinalScore], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let games = Dictionary(grouping: messages, by: \.game)
        #expect(Set(games.keys) == Set(finals.keys), "\(context): every game's messages, no others", sourceLocation: sourceLocation)
        for (game, messages) in games.sorted(by: { $0.key < $1.key }) {
            let data = messages.map(\.data)
            let seqs = data.map { Int($0["seq"] ?? "") ?? -1 }
            let skip = seqs.enumerated().first { $0.element != $0.offset + 1 }
            let inOrder = skip == nil
            #expect(
                inOrder,
                "\(context), \(game): seq rises by one from 1; message \(skip.map { String($0.offset + 1) } ?? "") has seq \(skip.map { String($0.element) } ?? "") (\(data.count) messages)",
                sourceLocation: sourceLocation)
            let timestamps = data.map { Int($0["timestamp"] ?? "") ?? -1 }
            let falls = zip(timestamps, timestamps.dropFirst()).enumerated().filter { $0.element.0 >= $0.element.1 }
            #expect(
                falls.isEmpty,
                "\(context), \(game): data.timestamp strictly rises; not at seq \(falls.first.map { String(seqs[$0.offset + 1]) } ?? "") (\(falls.count) times)",
                sourceLocation: sourceLocation)
            let events = data.map { $0["event"] ?? "" }
            #expect(events.first == "start", "\(context), \(game): the first message is the start", sourceLocation: sourceLocation)
            let ends = events.indices.filter { events[$0] == "end" }
            #expect(ends == [data.count - 1], "\(context), \(game): one end, last (ends at \(ends) of \(data.count))", sourceLocation: sourceLocation)
            let state = try JSONDecoder().decode(GameState.self, from: Data(try #require(data.last?["state"], sourceLocation: sourceLocation).utf8))
            #expect(
                FinalScore(home: state.homeScore, away: state.awayScore) == finals[game],
                "\(context), \(game): the end shows \(FinalScore(home: state.homeScore, away: state.awayScore)), the game ended \(finals[game].map(\.description) ?? "?")",
                sourceLocation: sourceLocation)
        }
    }

    /// Sends `replayed` with `client` to a new stand-in and expects every request answered 200, by
    /// the sender's count and by the stand-in's log, and the games told in order by what arrived.
    func expectDelivered(_ replayed: Replayed, _ mode: Mode, with client: FCMStandIn.Client) throws {
        let standIn = try FCMStandIn()
        let sent = try standIn.send(replayed.file, with: client)
        let entries = try standIn.entries()
        let context = "\(mode.rawValue), \(client.rawValue)"
        #expect(sent.records == replayed.lines.count, "\(context): every record was read")
        #expect(sent.records > 100 * replayed.finals.count, "\(context): every game's records were read")
        #expect(
            sent.ok == sent.records && sent.status == 0,
            "\(context): \(sent.ok) of \(sent.records) requests answered 200: \(sent.answers)\n\(sent.output.prefix(2000))")
        let refused = entries.filter { $0.status != 200 }
        #expect(
            refused.isEmpty,
            "\(context): the stand-in refused \(refused.count) of \(entries.count): \(refused.first.map { "\($0.answer): \($0.detail ?? "")" } ?? "")")
        #expect(entries.count == replayed.lines.count, "\(context): the stand-in accepted \(entries.count - refused.count) of \(replayed.lines.count) records")
        #expect(entries.allSatisfy { $0.project == standIn.project })
        switch mode {
        case .token, .tokenWithProject:
            #expect(entries.allSatisfy { $0.target == "token" }, "\(context): every message went to a device token")
        case .broadcast:
            #expect(
                entries.allSatisfy { $0.target == "topic" && $0.to == "game-\($0.message?.data?["gameId"] ?? "")" },
                "\(context): every message went to its game's topic")
        }
        if client == .admin {
            #expect(
                entries.allSatisfy { $0.client?.hasPrefix("fire-admin-python/") == true },
                "\(context): the requests came from firebase-admin (\(entries.first?.client ?? "none"))")
        }
        let arrived = entries.compactMap { entry in entry.message?.data.map { (game: $0["gameId"] ?? "", data: $0) } }
        try Self.expectActivities(arrived, finals: replayed.finals, "\(context), as received")
    }

    @Test(
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        // Token mode with `--fcm-project` is token mode's request byte for byte once the sender
        // fills in the project: the test below holds that, so one send serves both.
        arguments: [Mode.token, .broadcast])
    func realGamesSentRaw(_ mode: Mode) async throws {
        let replayed = try await Self.replay(mode)
        defer { try? FileManager.default.removeItem(at: replayed.file) }
        Self.expectNoRuleProblems(replayed.lines, mode.rawValue)
        try expectDelivered(replayed, mode, with: .raw)
    }

    /// `--fcm-project` changes nothing but the path's `{project}`, which the sender fills in with
    /// the same name in token mode: every record is token mode's with the project named, so the
    /// stand-in that accepts token mode's requests (``realGamesSentRaw(_:)``) gets these bytes.
    @Test(
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
    func aNamedProjectIsTokenModesRequestWithItsProjectFilledIn() async throws {
        let token = try await Self.replay(.token)
        let named = try await Self.replay(.tokenWithProject)
        defer { for file in [token.file, named.file] { try? FileManager.default.removeItem(at: file) } }
        Self.expectNoRuleProblems(named.lines, Mode.tokenWithProject.rawValue)
        #expect(named.lines.count == token.lines.count)
        let filled = token.lines.map { Data(String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "{project}", with: FCMStandIn.project).utf8) }
        let differ = zip(filled, named.lines).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(differ == nil, "record \(differ.map { String($0.offset + 1) } ?? ""): \(differ.map { String(decoding: $0.element.1, as: UTF8.self).prefix(300) } ?? "")")
        #expect(token.lines.allSatisfy { String(decoding: $0, as: UTF8.self).contains("/v1/projects/{project}/messages:send") })
    }

    /// Every real game's token-mode records through `firebase-admin`, and one game's broadcast
    /// records: a broadcast record is its token record with the topic in place of the token, byte
    /// for byte (``aBroadcastRecordIsItsTokenRecordSentToTheTopic()``), so the rest of them would
    /// show the library nothing new (and Python's HTTP/2 costs about 5 ms of CPU a request).
    @Test(
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: FCMStandIn.adminAvailable, FCMStandIn.adminAbsentReason),
        // The project given or filled in makes the same request (aNamedProjectIsTokenModesRequestWithItsProjectFilledIn).
        arguments: [Mode.token, .broadcast])
    func realGamesSentThroughFirebaseAdmin(_ mode: Mode) async throws {
        var replayed = try await Self.replay(mode)
        defer { try? FileManager.default.removeItem(at: replayed.file) }
        if mode == .broadcast { replayed = try replayed.firstGame() }
        try expectDelivered(replayed, mode, with: .admin)
    }

    /// In broadcast mode each Android record is token mode's, its `"token":"{token}"` replaced by
    /// `"topic":"game-<id>"`: the same data, the same options, in the same order.
    @Test(
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
    func aBroadcastRecordIsItsTokenRecordSentToTheTopic() async throws {
        let token = try await Self.replay(.token)
        let broadcast = try await Self.replay(.broadcast)
        defer { for file in [token.file, broadcast.file] { try? FileManager.default.removeItem(at: file) } }
        #expect(broadcast.lines.count == token.lines.count)
        #expect(broadcast.lines.count > 100 * NBAFiles.games.count)
        for (index, (tokenLine, broadcastLine)) in zip(token.lines, broadcast.lines).enumerated() {
            let text = String(decoding: tokenLine, as: UTF8.self)
            let game = try #require((try JSONSerialization.jsonObject(with: tokenLine) as? [String: Any])?["game"] as? String)
            #expect(text.components(separatedBy: #""token":"{token}""#).count == 2, "record \(index + 1) names its token once")
            let sent = text.replacingOccurrences(of: #""token":"{token}""#, with: #""topic":"game-\#(game)""#)
            #expect(
                Data(sent.utf8) == broadcastLine,
                "record \(index + 1): \(String(decoding: broadcastLine, as: UTF8.self).prefix(300))")
        }
    }

    /// The stand-in is strict, and its accepting path works: hand-written records in the contract's
    /// shape are answered 200, each broken copy gets the answer FCM documents, and a wrong access
    /// token gets 401 on every request. Runs without the `scorefeed` executable.
    @Test func theStandInAcceptsWhatFCMDocumentsAndRefusesTheRest() throws {
        let cases = try FCMCases.all()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-fcm-cases-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(cases.map { $0.line + "\n" }.joined().utf8).write(to: file)

        let standIn = try FCMStandIn()
        let sent = try standIn.send(file, with: .raw)
        let entries = try standIn.entries()
        #expect(sent.requests == cases.count)
        #expect(sent.status == 1, "the raw sender fails a run with a refused record")
        try #require(entries.count == cases.count)
        for (entry, expected) in zip(entries, cases) {
            #expect(entry.answer == expected.answer, "\(expected.name): \(entry.detail ?? "")")
        }
        #expect(entries.filter(\.contract).count == cases.filter(\.contract).count, "the refusals by ScoreFeed's contract are told apart")

        // Google's front end answers an unknown path before it looks at the credential.
        let forged = try standIn.send(file, with: .raw, accessToken: "ya29.another-token")
        let unknownPaths = cases.filter { $0.answer == "404 NOT_FOUND" }.count
        #expect(forged.answers == ["401 UNAUTHENTICATED": cases.count - unknownPaths, "404 NOT_FOUND": unknownPaths])
    }

    /// firebase-admin refuses a priority it does not take before sending (its AndroidConfig wants
    /// "high" or "normal"; fcm_send_admin.py lower-cases the records' HIGH and NORMAL), and a
    /// wrong access token is answered 401; the samples go through.
    @Test(.enabled(if: FCMStandIn.adminAvailable, FCMStandIn.adminAbsentReason))
    func firebaseAdminSendsTheSamples() throws {
        let samples = FCMCases.samples
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-fcm-samples-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(samples.map { $0 + "\n" }.joined().utf8).write(to: file)
        let standIn = try FCMStandIn()
        let sent = try standIn.send(file, with: .admin)
        #expect(sent.answers == ["200": samples.count] && sent.status == 0, "\(sent.output)")
        #expect(try standIn.entries().allSatisfy { $0.status == 200 && $0.client?.hasPrefix("fire-admin-python/") == true })
        let forged = try standIn.send(file, with: .admin, accessToken: "ya29.another-token")
        #expect(forged.status == 1 && forged.ok == 0, "\(forged.output)")
        #expect(try standIn.entries().filter { $0.status == 401 }.count == samples.count)
    }
}

/// The FCM rules in Swift alone (``FCMRules``, what `fcm_standin.py` checks): on every Android
/// record of the real games, and on hand-written records and broken copies of them. These need no
/// Python and no PyPI.
@Suite("FCM rules in Swift: every Android record as FCM would take it")
struct FCMRulesTests {
    @Test(
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        arguments: FCMWireTests.Mode.allCases)
    func everyRealGameRecordFollowsTheRules(_ mode: FCMWireTests.Mode) async throws {
        let replayed = try await FCMWireTests.replay(mode)
        defer { try? FileManager.default.removeItem(at: replayed.file) }
        #expect(replayed.lines.count > 100 * NBAFiles.games.count)
        FCMWireTests.expectNoRuleProblems(replayed.lines, mode.rawValue)
        let messages = try replayed.lines.map { line -> (game: String, data: [String: String]) in
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            let message = (object["payload"] as? [String: Any])?["message"] as? [String: Any]
            let data = try #require(message?["data"] as? [String: String], "seq \(String(describing: object["seq"])): data of strings")
            return (object["game"] as? String ?? "", data)
        }
        try FCMWireTests.expectActivities(messages, finals: replayed.finals, "\(mode.rawValue), as written")
        for line in replayed.lines {
            let path = ((try JSONSerialization.jsonObject(with: line) as? [String: Any])?["request"] as? [String: Any])?["path"] as? String
            let project = mode == .tokenWithProject ? FCMStandIn.project : "{project}"
            #expect(path == "/v1/projects/\(project)/messages:send")
        }
    }

    /// The rules are not vacuous: the samples pass, and each broken copy is caught with the reason
    /// the stand-in (or the contract) gives.
    @Test func theRulesCatchWhatFCMRefuses() throws {
        for sample in FCMCases.samples {
            #expect(FCMRules.problems(Data(sample.utf8)).isEmpty, "\(FCMRules.problems(Data(sample.utf8)))")
        }
        for item in try FCMCases.all() {
            let problems = FCMRules.problems(Data(item.line.utf8))
            if let rule = item.rule {
                #expect(problems.contains { $0.contains(rule) }, "\(item.name): expected \(rule), found \(problems)")
            } else {
                #expect(problems.isEmpty, "\(item.name): \(problems)")
            }
        }
        #expect(FCMRules.seconds(ofDuration: "3.5s") == 3.5 && FCMRules.seconds(ofDuration: "60s") == 60)
        for bad in ["60", "-1s", "1.s", ".5s", "1.0000000001s", "1m", "s", " 1s"] {
            #expect(FCMRules.seconds(ofDuration: bad) == nil, "\(bad)")
        }
        #expect(FCMRules.isTopic("game-0022000001") && !FCMRules.isTopic("/topics/game-1") && !FCMRules.isTopic(""))
        #expect(FCMRules.isReserved("from") && FCMRules.isReserved("google.sent_time") && FCMRules.isReserved("gcm.n.e"))
        #expect(!FCMRules.isReserved("gameId") && !FCMRules.isReserved("event"))
    }
}

/// Hand-written Android records in the contract's shape (DESIGN.md 4; `LiveUpdateMessage`'s data),
/// and broken copies of them: what FCM answers each (``FCMStandIn``) and the problem ``FCMRules``
/// finds (nil: none; FCM's own view can differ from the contract's, and the stand-in's project is
/// not the rules' business).
enum FCMCases {
    struct Case {
        var name: String
        var line: String
        /// What the stand-in answers: "200" or "<status> <STATUS>".
        var answer: String
        /// A text one of ``FCMRules/problems(_:)`` holds, or nil for none.
        var rule: String?
        /// Refused by ScoreFeed's contract, not by FCM.
        var contract = false
    }

    static let start = #"{"platform":"android","activity":"0022000001","game":"0022000001","seq":1,"event":"start","priority":10,"sentAt":1608678000,"sourceTime":1608677990,"coalesced":1,"reason":"tip-off","request":{"method":"POST","path":"/v1/projects/{project}/messages:send","headers":{"content-type":"application/json; charset=UTF-8"}},"payload":{"message":{"token":"{token}","data":{"gameId":"0022000001","seq":"1","event":"start","timestamp":"1608678000000","state":"{\"awayScore\":0,\"homeScore\":0,\"period\":1,\"phase\":\"live\"}","attributes":"{\"gameId\":\"0022000001\",\"home\":{\"tricode\":\"BKN\",\"name\":\"Nets\"},\"away\":{\"tricode\":\"GSW\",\"name\":\"Warriors\"}}","alert":"{\"title\":\"GSW at BKN\",\"body\":\"GSW 0 – BKN 0, Q1 12:00.\"}"},"android":{"priority":"HIGH","ttl":"3600s"}}},"diff":{"phase":["pregame","live"]}}"#
    static let update = #"{"platform":"android","activity":"0022000001","game":"0022000001","seq":2,"event":"update","priority":5,"sentAt":1608678060.5,"sourceTime":1608678058,"coalesced":2,"reason":"score","request":{"method":"POST","path":"/v1/projects/{project}/messages:send","headers":{"content-type":"application/json; charset=UTF-8"}},"payload":{"message":{"token":"{token}","data":{"gameId":"0022000001","seq":"2","event":"update","timestamp":"1608678060500","state":"{\"awayScore\":2,\"homeScore\":0,\"lastPlay\":\"S. Curry 2PT\",\"period\":1,\"phase\":\"live\"}","attributes":"{\"gameId\":\"0022000001\",\"home\":{\"tricode\":\"BKN\",\"name\":\"Nets\"},\"away\":{\"tricode\":\"GSW\",\"name\":\"Warriors\"}}"},"android":{"priority":"NORMAL","ttl":"300s","collapse_key":"game-0022000001"}}},"diff":{"awayScore":[0,2]}}"#
    static let end = #"{"platform":"android","activity":"0022000001","game":"0022000001","seq":3,"event":"end","priority":10,"sentAt":1608690052.5,"sourceTime":null,"coalesced":1,"reason":"final","request":{"method":"POST","path":"/v1/projects/{project}/messages:send","headers":{"content-type":"application/json; charset=UTF-8"}},"payload":{"message":{"topic":"game-0022000001","data":{"gameId":"0022000001","seq":"3","event":"end","timestamp":"1608690052500","state":"{\"awayScore\":99,\"homeScore\":125,\"period\":4,\"phase\":\"final\"}","attributes":"{\"gameId\":\"0022000001\",\"home\":{\"tricode\":\"BKN\",\"name\":\"Nets\"},\"away\":{\"tricode\":\"GSW\",\"name\":\"Warriors\"}}","alert":"{\"title\":\"Final: GSW 99 – BKN 125\",\"body\":\"Brooklyn Nets win.\"}","dismiss_after":"1608690952500"},"android":{"priority":"HIGH","ttl":"14400s"}}},"diff":{"phase":["live","final"]},"trimmed":["lastPlay"]}"#
    static let samples = [start, update, end]

    struct Unchanged: Error, CustomStringConvertible {
        var description: String
    }

    /// `line` with `old` (which must be in it) replaced by `new`.
    static func change(_ line: String, _ old: String, _ new: String) throws -> String {
        guard line.contains(old) else { throw Unchanged(description: "the sample has no \(old)") }
        return line.replacingOccurrences(of: old, with: new)
    }

    static func all() throws -> [Case] {
        let pad = String(repeating: "x", count: 2000)
        return [
            Case(name: "start, to a token", line: start, answer: "200"),
            Case(name: "a NORMAL update with a collapse key", line: update, answer: "200"),
            Case(name: "the end, to the game's topic", line: end, answer: "200"),
            Case(name: "priority URGENT", line: try change(start, #""priority":"HIGH""#, #""priority":"URGENT""#),
                 answer: "400 INVALID_ARGUMENT", rule: "INVALID_ARGUMENT: android.priority URGENT"),
            Case(name: "priority in lower case (FCM takes it; the records write HIGH)",
                 line: try change(start, #""priority":"HIGH""#, #""priority":"high""#), answer: "200", rule: "android.priority high"),
            Case(name: "priority HIGH on a priority 5", line: try change(update, #""priority":"NORMAL""#, #""priority":"HIGH""#),
                 answer: "200", rule: "Contract: android.priority HIGH on a priority 5"),
            Case(name: "ttl without its unit", line: try change(start, #""ttl":"3600s""#, #""ttl":"3600""#),
                 answer: "400 INVALID_ARGUMENT", rule: "INVALID_ARGUMENT: android.ttl is not"),
            Case(name: "ttl a number", line: try change(start, #""ttl":"3600s""#, #""ttl":3600"#),
                 answer: "400 INVALID_ARGUMENT", rule: "INVALID_ARGUMENT: android.ttl is not"),
            Case(name: "ttl beyond 4 weeks", line: try change(start, #""ttl":"3600s""#, #""ttl":"2419201s""#),
                 answer: "400 INVALID_ARGUMENT", rule: "beyond 4 weeks"),
            Case(name: "collapse_key a number", line: try change(update, #""collapse_key":"game-0022000001""#, #""collapse_key":7"#),
                 answer: "400 INVALID_ARGUMENT", rule: "android.collapse_key is not a string"),
            Case(name: "unknown android field", line: try change(start, #""ttl":"3600s""#, #""ttl":"3600s","sound":"default""#),
                 answer: "400 INVALID_ARGUMENT", rule: "unknown android field sound"),
            Case(name: "unknown message field", line: try change(start, #""message":{"token""#, #""message":{"priority":"high","token""#),
                 answer: "400 INVALID_ARGUMENT", rule: "unknown message field priority"),
            Case(name: "a data value that is not a string", line: try change(start, #""seq":"1","event""#, #""seq":1,"event""#),
                 answer: "400 INVALID_ARGUMENT", rule: "INVALID_ARGUMENT: data.seq is not a string"),
            Case(name: "a reserved data key google*",
                 line: try change(start, #""timestamp":"1608678000000""#, #""timestamp":"1608678000000","google.c.a.e":"1""#),
                 answer: "400 INVALID_ARGUMENT", rule: "data key google.c.a.e is reserved"),
            Case(name: "a reserved data key from",
                 line: try change(start, #""timestamp":"1608678000000""#, #""timestamp":"1608678000000","from":"scorefeed""#),
                 answer: "400 INVALID_ARGUMENT", rule: "data key from is reserved"),
            Case(name: "a notification", line: try change(start, #""android":{"priority""#, #""notification":{"title":"GSW at BKN"},"android":{"priority""#),
                 answer: "400 INVALID_ARGUMENT", rule: "Contract: a notification", contract: true),
            Case(name: "two targets", line: try change(start, #""token":"{token}""#, #""token":"{token}","topic":"game-0022000001""#),
                 answer: "400 INVALID_ARGUMENT", rule: "INVALID_ARGUMENT: 2 targets"),
            Case(name: "a topic with v1's forbidden /topics/ prefix", line: try change(end, #""topic":"game-"#, #""topic":"/topics/game-"#),
                 answer: "400 INVALID_ARGUMENT", rule: "is not an FCM topic name"),
            Case(name: "data beyond 2048 bytes to a topic",
                 line: try change(end, #""dismiss_after""#, #""pad":"\#(pad)","dismiss_after""#),
                 answer: "400 INVALID_ARGUMENT", rule: "beyond 2048 to a topic"),
            Case(name: "the same data to a token: within 4096 (a key outside the schema, though)",
                 line: try change(start, #""alert""#, #""pad":"\#(pad)","alert""#), answer: "200", rule: "Contract: unexpected data key pad"),
            Case(name: "an end without dismiss_after", line: try change(end, #","dismiss_after":"1608690952500""#, ""),
                 answer: "200", rule: "Contract: an end without dismiss_after"),
            Case(name: "a path FCM does not have", line: try change(start, #"/messages:send""#, #"/messages""#),
                 answer: "404 NOT_FOUND", rule: "NOT_FOUND: path"),
            Case(name: "another project", line: try change(start, "/v1/projects/{project}/", "/v1/projects/other-project/"),
                 answer: "403 PERMISSION_DENIED", rule: nil),
            Case(name: "a body that is not JSON by its type", line: try change(start, #""application/json; charset=UTF-8""#, #""text/plain""#),
                 answer: "400 INVALID_ARGUMENT", rule: "content-type text/plain"),
        ]
    }
}

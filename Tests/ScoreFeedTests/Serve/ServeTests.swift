import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// A recorded stream of several generated games, interleaved by feed time as they would arrive.
enum RecordedStream {
    static func lines(seeds: [UInt64]) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var headers: [String] = []
        var events: [(Double, Int, Int, String)] = []
        for (g, seed) in seeds.enumerated() {
            let game = GameGenerator(seed: seed).generate()
            headers.append(String(decoding: try! encoder.encode(game.attributes), as: UTF8.self))
            let start = game.events.first!.time.timeIntervalSince1970
            for (i, event) in game.events.enumerated() {
                var object = try! JSONSerialization.jsonObject(with: encoder.encode(RawEvent(event))) as! [String: Any]
                object["game"] = game.attributes.gameId
                let line = String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
                events.append((event.time.timeIntervalSince1970 - start, g, i, line))
            }
        }
        events.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        return headers + events.map(\.3)
    }

    static func file(seeds: [UInt64]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-stream-\(UUID().uuidString).jsonl")
        try Data((lines(seeds: seeds).joined(separator: "\n") + "\n").utf8).write(to: url)
        return url
    }
}

@Suite("serve: many games from one stream", .serialized)
struct ServeTests {
    /// Runs `scorefeed serve --clock feed` on `input`; kills it with SIGKILL after `killAfter`
    /// output lines when given. Returns the lines it printed and whether it was killed.
    static func serve(input: URL, stateDir: URL, killAfter: Int? = nil, extra: [String] = []) async throws -> (lines: [String], killed: Bool, stderr: String) {
        try await OffPool.run { try serveBlocking(input: input, stateDir: stateDir, killAfter: killAfter, extra: extra) }
    }

    /// ``serve(input:stateDir:killAfter:extra:)`` on the calling thread.
    static func serveBlocking(input: URL, stateDir: URL, killAfter: Int?, extra: [String]) throws -> (lines: [String], killed: Bool, stderr: String) {
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = ["serve", "--clock", "feed", "--state-dir", stateDir.path] + extra
        process.standardInput = try FileHandle(forReadingFrom: input)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (lines, killed) = readLines(of: process, from: out.fileHandleForReading, killAfter: killAfter)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (lines, killed && process.terminationReason == .uncaughtSignal, stderr)
    }

    /// Reads `process`'s output lines from `handle` to its end, sending SIGKILL once `killAfter`
    /// lines have come; waits for the process. Returns the lines and whether it sent the kill.
    static func readLines(of process: Process, from handle: FileHandle, killAfter: Int?) -> (lines: [String], killed: Bool) {
        var lines: [String] = []
        var buffer = Data()
        var killed = false
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
                if let killAfter, !killed, lines.count >= killAfter {
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                }
            }
        }
        process.waitUntilExit()
        return (lines, killed)
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-state-\(UUID().uuidString)")
    }

    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: APNsTestServer.available, APNsTestServer.absentReason),
        arguments: CrashSafetyTests.Mode.allCases)
    func killNineAndRestartSendsEveryPushOnceInOrder(_ mode: CrashSafetyTests.Mode) async throws {
        // Broadcast: ScoreFeed manages the channels behind the APNs test server (one for the clean
        // run, one that lives through every kill of the other).
        func arguments(_ apns: APNsTestServer?) -> [String] {
            apns.map {
                ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "0", "--webhook", $0.url.absoluteString,
                 "--delete-unknown-channels"]
            } ?? []
        }
        let cleanAPNs = mode == .broadcast ? try APNsTestServer() : nil, apns = mode == .broadcast ? try APNsTestServer() : nil
        let input = try RecordedStream.file(seeds: [11, 12, 13])
        defer { try? FileManager.default.removeItem(at: input) }
        let cleanState = Self.temporaryDirectory(), state = Self.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: cleanState)
            try? FileManager.default.removeItem(at: state)
        }
        let clean = try await Self.serve(input: input, stateDir: cleanState, extra: arguments(cleanAPNs))
        let cleanLines = BroadcastAudit.pushLines(clean.lines)
        #expect(cleanLines.count > 300)

        var rng = SeededRandom(seed: 2026)
        // Each run's pushes, with the number of the run that wrote them.
        var all: [(run: Int, line: String)] = []
        var kills = 0
        for number in 0..<60 {
            let run = try await Self.serve(input: input, stateDir: state, killAfter: Int.random(in: 1...80, using: &rng), extra: arguments(apns))
            all += BroadcastAudit.pushLines(run.lines).map { (number, $0) }
            if run.killed { kills += 1 } else { break }
        }
        #expect(kills >= 3, "the test killed the server at least a few times")

        // Every clean push arrived; nothing arrived that the clean run did not send.
        #expect(Set(all.map(\.line)) == Set(cleanLines))
        // Per activity, order is kept and the only repeats are identical lines at kill points:
        // the push each game had in flight (the games of a batch send side by side), one a kill.
        var repeats: [String: Set<Int>] = [:]
        var lastSeq: [String: Int] = [:]
        var bodies: [String: String] = [:]
        for (run, line) in all {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let activity = try #require(object["activity"] as? String), seq = try #require(object["seq"] as? Int)
            let id = try #require((object["request"] as? [String: Any]).flatMap { $0["headers"] as? [String: String] }?["apns-id"])
            if let previous = lastSeq[activity] {
                #expect(seq >= previous, "order of \(activity): \(seq) after \(previous)")
                if seq == previous {
                    #expect(run > 0 && repeats[activity, default: []].insert(run).inserted, "\(activity) repeats seq \(seq) once, after a kill")
                } else { #expect(seq == previous + 1, "no gap in \(activity)") }
            }
            lastSeq[activity] = seq
            if let body = bodies[id] { #expect(body == line, "one body per apns-id") }
            bodies[id] = line
        }
        if let apns {
            let audit = try await BroadcastAudit(apns)
            let finals = Dictionary(try cleanLines.compactMap { line -> (String, FinalScore)? in
                guard line.contains("\"event\":\"end\""), let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let game = object["game"] as? String, let score = try BroadcastAudit.score(inRecord: line) else { return nil }
                return (game, score)
            }, uniquingKeysWith: { first, _ in first })
            #expect(finals.count == 3)
            try audit.check(finals: finals, oneChannel: false)
        }
    }

    @Test func badInputIsReportedWithItsLineAndOtherGamesGoOn() async throws {
        let sink = RecordingSink()
        let service = try GameService(options: .init(clock: .feed), sink: sink)
        let stream = RecordedStream.lines(seeds: [21, 22])
        var lines = stream
        let good = lines.count
        // Garbage of every kind, each between good lines.
        let bad: [(String, ScoreFeedError.Code)] = [
            ("{not json", .malformedJSON),
            ("\u{1}\u{2}binary\u{FF}", .malformedJSON),
            ("[1,2,3]", .malformedJSON),
            (#"{"game":"NOPE","seq":1,"time":1,"period":1,"clock":"12:00","type":"periodStart"}"#, .invalidValue),
            (#"{"seq":5}"#, .missingField),
            (#"{"game":"SF00000021","seq":"x","time":1,"period":1,"clock":"12:00","type":"block"}"#, .invalidValue),
        ]
        for (offset, item) in bad.enumerated() { lines.insert(item.0, at: 2 + offset * 50) }
        var errors: [ScoreFeedError] = []
        for (i, line) in lines.enumerated() {
            if let error = await service.handle(.line(Data(line.utf8), number: i + 1)) { errors.append(error) }
        }
        let lineNumbers = bad.indices.map { 2 + $0 * 50 + 1 }
        for (n, (text, code)) in zip(lineNumbers, bad) {
            let error = errors.first { $0.location.line == n }
            #expect(error?.code == code, "line \(n) (\(text)): \(String(describing: error))")
        }
        // Oversized lines are reported too, with their number.
        let oversized = await service.handle(.oversized(number: 9999, length: 70_000))
        #expect(oversized?.location.line == 9999)

        // Both games still produced exactly what a clean run does.
        let cleanSink = RecordingSink()
        let clean = try GameService(options: .init(clock: .feed), sink: cleanSink)
        for (i, line) in stream.enumerated() {
            _ = await clean.handle(.line(Data(line.utf8), number: i + 1))
        }
        #expect(await sink.records.map { $0.jsonLine() } == cleanSink.records.map { $0.jsonLine() })
        #expect(lines.count == good + bad.count)
    }

    @Test func duplicatesAtAnyDistanceAreIgnoredAndLowerSeqsLaterAreApplied() async throws {
        let sink = RecordingSink()
        let service = try GameService(options: .init(clock: .feed), sink: sink)
        let lines = RecordedStream.lines(seeds: [31])
        for (i, line) in lines.prefix(40).enumerated() { _ = await service.handle(.line(Data(line.utf8), number: i + 1)) }
        // The same lines again, one near and one far back: ignored, counted, no message.
        #expect(await service.handle(.line(Data(lines[39].utf8), number: 41)) == nil)
        #expect(await service.handle(.line(Data(lines[2].utf8), number: 42)) == nil)
        // An event numbered far below the newest (the NBA inserts actions with any number): applied.
        var inserted = try #require(try JSONSerialization.jsonObject(with: Data(lines[39].utf8)) as? [String: Any])
        inserted["seq"] = -100
        inserted["type"] = "substitution"
        #expect(await service.handle(.line(try JSONSerialization.data(withJSONObject: inserted), number: 43)) == nil)
        let game = try #require(await service.summaries().first)
        #expect(game.statistics.duplicates == 2)
        #expect(game.statistics.accepted == 39 + 1)
    }

    @Test func splitterHandlesPartialLongAndCRLFLines() {
        var splitter = LineReader.Splitter(limit: 10)
        var items = splitter.feed(ArraySlice(Array("abc\r\nde".utf8)))
        items += splitter.feed(ArraySlice(Array("f\n0123456789ABCDEF\nok\n".utf8)))
        items += splitter.finish().map { [$0] } ?? []
        let summary = items.map { item -> String in
            switch item {
            case .line(let data, let number): "\(number):\(String(decoding: data, as: UTF8.self))"
            case .oversized(let number, _): "\(number):oversized"
            }
        }
        #expect(summary == ["1:abc", "2:def", "3:oversized", "4:ok"])
    }

    /// Serves the first half of a game with checkpoints, lets `damage` change the checkpoint
    /// file, then restarts on the same directory and serves the rest.
    static func restart(
        resendHeader: Bool = false, damage: (URL) throws -> Void
    ) async throws -> (before: [PushRecord], restoration: GameService.Restoration, after: [PushRecord], dir: URL) {
        let dir = temporaryDirectory()
        let lines = RecordedStream.lines(seeds: [41])
        let cut = lines.count / 2
        let first = RecordingSink()
        let before = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: first)
        for (i, line) in lines.prefix(cut).enumerated() { _ = await before.handle(.line(Data(line.utf8), number: i + 1)) }
        await before.shutDown()
        let file = try #require(try CheckpointStore(directory: dir).readAll().first?.file)
        try damage(file)
        let second = RecordingSink()
        let after = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: second)
        let restoration = try await after.restore()
        if resendHeader { _ = await after.handle(.line(Data(lines[0].utf8), number: 0)) }
        for (i, line) in lines.enumerated().dropFirst(cut) { _ = await after.handle(.line(Data(line.utf8), number: i + 1)) }
        await after.shutDown()
        return (await first.records, restoration, await second.records, dir)
    }

    @Test func aCheckpointFromAnotherVersionResumesWithTheBudgetCountedAsSpent() async throws {
        let run = try await Self.restart { file in
            // The policy part no longer fits (another version wrote it); another file is not JSON.
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            object["coalescer"] = ["budgetFromTheFuture": 1]
            try JSONSerialization.data(withJSONObject: object).write(to: file)
            try Data("{ torn".utf8).write(to: file.deletingLastPathComponent().appendingPathComponent("game-broken.json"))
        }
        defer { try? FileManager.default.removeItem(at: run.dir) }
        #expect(run.restoration.resumedGames == 1)
        #expect(run.restoration.problems.count == 2, "\(run.restoration.problems)")
        #expect(run.restoration.problems.contains { $0.message.contains("another version") })
        #expect(run.restoration.problems.contains { $0.code == .malformedJSON && $0.location.file?.hasSuffix("game-broken.json") == true })
        #expect(FileManager.default.fileExists(atPath: run.dir.appendingPathComponent("game-broken.json.unreadable").path))

        let lastBefore = try #require(run.before.last)
        #expect(run.after.first?.seq == lastBefore.seq + 1, "numbering continues from the checkpoint")
        #expect(run.after.last?.event == .end)
        let hour = lastBefore.sentAt.addingTimeInterval(3600)
        let early = run.after.filter { $0.sentAt < hour }
        #expect(!early.isEmpty)
        #expect(early.allSatisfy { $0.priority == 5 }, "no priority 10 the device might drop within the hour")
        #expect(run.after.contains { $0.priority == 10 }, "after the hour the budget is used again")
    }

    @Test func aTornCheckpointStartsItsGameAfreshWithTheBudgetCountedAsSpent() async throws {
        // The producer sends the game's header again when it learns the game was lost.
        let run = try await Self.restart(resendHeader: true) { file in try Data("{\"attributes\": ".utf8).write(to: file) }
        defer { try? FileManager.default.removeItem(at: run.dir) }
        #expect(run.restoration.resumedGames == 0)
        let problem = try #require(run.restoration.problems.first)
        #expect(problem.code == .malformedJSON)
        #expect(problem.message.contains("budget counted as spent"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: run.dir.path).filter { $0.hasSuffix(".json.unreadable") }
        #expect(kept.count == 1, "the torn file is kept aside, not overwritten")
        let lastBefore = try #require(run.before.last)
        let early = run.after.filter { $0.sentAt < lastBefore.sentAt.addingTimeInterval(3600) }
        #expect(!early.isEmpty)
        #expect(early.allSatisfy { $0.priority == 5 }, "the earlier pushes are unknown: no priority 10 within the hour")
        #expect(run.after.last?.event == .end)
        // Its numbering is lost with the file: it jumps past any apns-id the lost run used.
        #expect(run.after.first.map { $0.seq > GameService.LostNumbering.jump } == true)
    }

    @Test func aCheckpointOfAnUnknownFormatKeepsItsNumberingAndTheBudgetIsSpentAcrossRestarts() async throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = RecordedStream.lines(seeds: [42])
        let cut = lines.count / 2
        let first = RecordingSink()
        let before = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: first)
        for (i, line) in lines.prefix(cut).enumerated() { _ = await before.handle(.line(Data(line.utf8), number: i + 1)) }
        // (Its snapshot: the game's journal holds its base until then.)
        await before.compact()
        let file = try #require(try CheckpointStore(directory: dir).readAll().first?.file)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        object["format"] = GameSession.checkpointFormat + 1
        try JSONSerialization.data(withJSONObject: object).write(to: file)
        // A first restart puts it aside; a second one, before the game's first event, still knows.
        _ = try await GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink()).restore()
        let second = RecordingSink()
        let after = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: second)
        _ = try await after.restore()
        _ = await after.handle(.line(Data(lines[0].utf8), number: 1))
        for (i, line) in lines.enumerated().dropFirst(cut) { _ = await after.handle(.line(Data(line.utf8), number: i + 1)) }
        await after.shutDown()
        let lastBefore = try #require(await first.records.last)
        let records = await second.records
        #expect(records.first?.seq == lastBefore.seq + 1, "numbering goes on from the seq the file still shows")
        let early = records.filter { $0.sentAt < lastBefore.sentAt.addingTimeInterval(3600) }
        #expect(!early.isEmpty)
        #expect(early.allSatisfy { $0.priority == 5 }, "the budget counts as spent after both restarts")
    }

    @Test func checkpointsAreWrittenAtomically() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CheckpointStore(directory: dir)
        try store.write(Data("one".utf8), for: "G/1 x")
        try store.write(Data("two".utf8), for: "G/1 x")
        #expect(try store.readAll().map(\.data) == [Data("two".utf8)])
        #expect(store.url(for: "G/1 x").lastPathComponent == "game-G%2F1%20%78.json")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }
}

import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// Game ids: the rule (1 to 64 bytes of UTF-8, no control character, no whitespace at either
/// end), the file names (one-to-one, safe, case-insensitive-safe), and what `serve` does with
/// adversarial ids: a clear, short error naming the line, or a checkpoint of the game's own
/// inside the state directory.
@Suite("Game ids and their file names")
struct GameIDTests {
    static let long = String(repeating: "x", count: 5_000)
    /// Ids a new user or a hostile feed might send; `valid` says whether the rule takes it.
    static let adversarial: [(id: String, valid: Bool)] = [
        ("", false), ("..", true), ("../../etc", true), ("/abs/path", true), ("a\u{0}b", false),
        ("a\u{1F}b", false), ("tab\there", false), ("new\nline", false), ("\u{7F}", false), ("\u{85}", false),
        ("line\u{2028}sep", false), (" G1", false), ("G1 ", false), ("😀", true), ("é😀", true), ("é\u{1F}600", false),
        (long, false), (String(repeating: "é", count: 32), true), (String(repeating: "é", count: 33), false),
        ("g1", true), ("G1", true), ("%47%31", true), ("0022400762", true), ("SF00000007", true), ("G/1 x", true),
    ]

    @Test func theRuleTakesPrintableIdsOf1To64BytesOnly() {
        for (id, valid) in Self.adversarial {
            #expect((GameID.problem(with: id) == nil) == valid, "\(GameID.quoted(id)): \(GameID.problem(with: id) ?? "valid")")
        }
        #expect(GameID.problem(with: String(repeating: "a", count: 64)) == nil)
        #expect(GameID.problem(with: String(repeating: "a", count: 65)) != nil)
    }

    @Test func fileStemsAreOneToOneReversibleAndSafe() {
        let ids = Self.adversarial.map(\.id) + ["é", "e\u{301}", "É", "%", "%25", "_", "-", "A-b_C"]
        let stems = ids.map(GameID.fileStem)
        // Distinct byte sequences ("é" and "e\u{301}" are one String to Swift, one game to serve,
        // but two spellings on disk).
        let distinct = Set(ids.map { Array($0.utf8) }).count
        #expect(Set(stems).count == distinct, "no two ids share a stem")
        #expect(Set(stems.map { $0.lowercased() }).count == distinct, "nor on a case-insensitive file system")
        for (id, stem) in zip(ids, stems) {
            #expect(GameID.decodeFileStem(stem) == id)
            #expect(stem.utf8.allSatisfy { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) },
                "\(stem): no '/', '.', NUL or lowercase letter")
        }
        #expect(GameID.fileStem("é😀") != GameID.fileStem("é\u{1F}600"))
        #expect(GameID.legacyFileStem("é😀") == GameID.legacyFileStem("é\u{1F}600"), "the old names were not one-to-one")
        #expect(GameID.fileStem("SF00000007") == "SF00000007" && GameID.fileStem("0022400762") == "0022400762",
                "the NBA's ids and generated ones keep their names")
        #expect(GameID.decodeFileStem("%4") == nil && GameID.decodeFileStem("%2f") == nil && GameID.decodeFileStem("a") == nil)
    }

    /// A game's files as an engine spells them (``CheckpointStore/url(for:)``, said to be files,
    /// so the file system is not asked) are the paths a restore spells for the files it lists
    /// (`appendingPathComponent`): the journal knows a file by its path, and two spellings would
    /// be two files. Wherever the directory is, `//` at its end too (a string spelling of the
    /// directory's `path` and the name did not keep it).
    @Test(arguments: ["", "/", "//", "/./state", "/a b/%41", "/state//"])
    func aGamesFilesAreSpelledAsARestoreSpellsThem(_ below: String) throws {
        let top = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: top) }
        let store = try CheckpointStore(directory: URL(fileURLWithPath: top.path + below))
        for id in ["0022400762", "é😀", "G/1 x", ".."] {
            let listed = store.directory.appendingPathComponent("game-\(GameID.fileStem(id)).json")
            #expect(store.url(for: id).path == listed.path, "\(below): \(id)")
            #expect(store.journalURL(for: id).path == CheckpointStore.journalURL(of: listed).path, "\(below): \(id)")
        }
    }

    @Test func messagesNeverRepeatALongIdInFull() {
        let quoted = GameID.quoted(Self.long)
        #expect(quoted.count < 40 && quoted.hasSuffix("…\""))
        #expect(GameID.quoted("a\u{0}b") == "\"a\\u{0}b\"")
        #expect(GameID.problem(with: Self.long).map { $0.count < 120 } == true)
    }

    /// Every adversarial id in a header, then one event each: the valid ones get a checkpoint of
    /// their own in the state directory (and come back on restore); the others get a short error
    /// naming the line and start no game; nothing is written outside the state directory.
    @Test func serveGivesEachAdversarialIdAnErrorOrAFileOfItsOwn() async throws {
        let root = RealFeedServeTests.temporaryDirectory()
        let dir = root.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let ids = Self.adversarial.map(\.id)
        var lines: [Data] = []
        for id in ids {
            var attributes = Make.attributes
            attributes.gameId = id
            lines.append(StreamLine.headerLine(attributes))
            lines.append(StreamLine.eventLine(Make.event(1, .periodStart), game: id))
        }
        let service = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        let messages = await RealFeedServeTests.feed(lines, to: service)
        await service.shutDown()
        await service.compact()

        let valid = Self.adversarial.filter(\.valid).map(\.id)
        let invalid = Self.adversarial.filter { !$0.valid }.map(\.id)
        #expect(messages.count == 2 * invalid.count, "one error for each bad header and each of its events: \(messages)")
        for message in messages {
            #expect(message.code == .invalidValue && message.location.line != nil)
            #expect(message.description.count < 300, "\(message.description.count) characters")
            #expect(!message.description.contains(Self.long.prefix(100)))
        }
        #expect(messages.contains { $0.message.hasPrefix("game header: \"gameId\" is empty") && $0.message.hasSuffix("the game is not started") })
        for id in invalid { #expect(await !service.knows(id)) }

        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(valid.map { "game-\(GameID.fileStem($0)).json" }), "one checkpoint per valid game")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["state"], "nothing beside the state dir")

        let again = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        let restoration = try await again.restore()
        #expect(restoration.problems.isEmpty && restoration.resumedGames == valid.count)
        #expect(Set(await again.summaries().map(\.attributes.gameId)) == Set(valid))
    }

    /// A checkpoint written under the name earlier versions made (`game-g1.json` for `g1`) is
    /// found on restore and renamed, with its journal, to the game's name now; the game goes on
    /// and the union of the two runs' pushes is a clean run's.
    @Test func aCheckpointUnderItsOldNameIsFoundAndRenamed() async throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let id = "sf-é7"
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("one-point.json").path)
        var attributes = document.attributes
        attributes.gameId = id
        let lines = [StreamLine.headerLine(attributes)] + document.events.map { StreamLine.eventLine($0, game: id) }
        let cut = lines.count / 2

        let clean = RecordingSink()
        let cleanService = try GameService(options: .init(clock: .feed), sink: clean)
        _ = await RealFeedServeTests.feed(lines, to: cleanService)
        await cleanService.shutDown()

        let first = RecordingSink()
        let before = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: first)
        _ = await RealFeedServeTests.feed(lines.prefix(cut), to: before)
        // (A snapshot, as earlier versions wrote one for every game: this one's journal holds its base.)
        await before.compact()
        let store = try CheckpointStore(directory: dir)
        let manager = FileManager.default
        #expect(store.legacyURL(for: id).lastPathComponent == "game-sf-é7.json")
        try manager.moveItem(at: store.url(for: id), to: store.legacyURL(for: id))
        if manager.fileExists(atPath: store.journalURL(for: id).path) {
            try manager.moveItem(at: store.journalURL(for: id), to: CheckpointStore.journalURL(of: store.legacyURL(for: id)))
        }

        let second = RecordingSink()
        let after = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: second)
        let restoration = try await after.restore()
        #expect(restoration.resumedGames == 1 && restoration.problems.isEmpty, "\(restoration.problems)")
        #expect(manager.fileExists(atPath: store.url(for: id).path) && !manager.fileExists(atPath: store.legacyURL(for: id).path))
        _ = await RealFeedServeTests.feed(lines, to: after)
        await after.shutDown()
        let (firstRecords, secondRecords, cleanRecords) = (await first.records, await second.records, await clean.records)
        #expect(Set((firstRecords + secondRecords).map { $0.jsonLine() }) == Set(cleanRecords.map { $0.jsonLine() }))
        #expect(!firstRecords.isEmpty && !secondRecords.isEmpty && secondRecords.first?.seq != 1, "the game went on from its checkpoint")
    }

    /// Both names present: the game's own file wins, the old one is put aside and said.
    @Test func theGamesOwnFileWinsOverAnOldOne() async throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var attributes = Make.attributes
        attributes.gameId = "g1"
        let service = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        _ = await RealFeedServeTests.feed([StreamLine.headerLine(attributes), StreamLine.eventLine(Make.event(1, .periodStart), game: "g1")], to: service)
        await service.compact()
        let store = try CheckpointStore(directory: dir)
        try FileManager.default.copyItem(at: store.url(for: "g1"), to: store.legacyURL(for: "g1"))
        let again = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        let restoration = try await again.restore()
        #expect(restoration.resumedGames == 1)
        #expect(restoration.problems.count == 1 && restoration.problems[0].message.contains("game-g1.json.superseded") == true)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("game-g1.json.superseded").path))
    }

    /// A checkpoint whose game id breaks the rule (an older version took `""`) is not restored:
    /// a clear problem, and the file is put aside.
    @Test func aCheckpointWithABadIdIsPutAside() async throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let service = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        _ = await RealFeedServeTests.feed([StreamLine.headerLine(Make.attributes), StreamLine.eventLine(Make.event(1, .periodStart), game: Make.attributes.gameId)], to: service)
        await service.compact()
        let store = try CheckpointStore(directory: dir)
        let text = try String(decoding: Data(contentsOf: store.url(for: Make.attributes.gameId)), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "\"gameId\":\"TEST1\"", with: "\"gameId\":\"\"").utf8).write(to: dir.appendingPathComponent("game-.json"))
        try FileManager.default.removeItem(at: store.url(for: Make.attributes.gameId))
        let again = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        let restoration = try await again.restore()
        #expect(restoration.resumedGames == 0)
        #expect(restoration.problems.first?.message.contains("its game id is empty") == true, "\(restoration.problems)")
    }

    /// The built `serve` on the real games with a header for each adversarial id spliced in:
    /// the night's games run as before, each bad header is one short line naming its line, and
    /// the state dir holds one checkpoint per valid game and nothing outside it. `poll --games`
    /// with a bad id is a usage error.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: RealFeedServeTests.Mode.withAndroidToken)
    func serveOnRealGamesWithAdversarialHeaders(_ mode: RealFeedServeTests.Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try await StateDirectoryLockTests.stream(mode, into: folder)
        let clean = try await ScoreFeedProcess.run(StateDirectoryLockTests.serveArguments(mode, state: folder.appendingPathComponent("clean")), input: stream)
        var lines = try String(contentsOf: stream, encoding: .utf8).split(separator: "\n").map { Data($0.utf8) }
        let headers = lines.prefix { String(decoding: $0, as: UTF8.self).contains("\"gameId\"") }.count
        var spliced: [Data] = []
        for (id, _) in Self.adversarial {
            var attributes = Make.attributes
            attributes.gameId = id
            spliced.append(StreamLine.headerLine(attributes))
        }
        lines.insert(contentsOf: spliced, at: headers)
        let input = folder.appendingPathComponent("adversarial.jsonl")
        try Data((lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n").utf8).write(to: input)
        let root = folder.appendingPathComponent("root")
        let state = root.appendingPathComponent("state")
        let run = try await ScoreFeedProcess.run(StateDirectoryLockTests.serveArguments(mode, state: state), input: input)
        #expect(run.status == 0, "\(run.standardError.suffix(400))")
        let same = Set(run.lines) == Set(clean.lines)
        #expect(same && run.lines.count == clean.lines.count, "the night's games ran as without the bad headers")
        let errors = run.standardError.split(separator: "\n").filter { $0.contains("game header: \"gameId\"") }
        let invalid = Self.adversarial.filter { !$0.valid }
        #expect(errors.count == invalid.count)
        for error in errors {
            #expect(error.count < 300 && error.contains("line ") && error.hasSuffix("the game is not started"), "\(error)")
        }
        #expect(!run.standardError.contains(Self.long.prefix(100)), "no line repeats the 5,000-character id")
        // One checkpoint per game, the night's 8 and each valid adversarial one; nothing outside.
        let files = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix("game-") && $0.hasSuffix(".json") }
        let night = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("clean").path)
            .filter { $0.hasPrefix("game-") && $0.hasSuffix(".json") }
        #expect(night.count == 8)
        #expect(Set(files) == Set(night + Self.adversarial.filter(\.valid).map { "game-\(GameID.fileStem($0.id)).json" }))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["state"])

        let poll = try await ScoreFeedProcess.run(["poll", "--games", "0022400762,bad\u{1}id", "--url-template", "http://127.0.0.1:9/{gameId}"])
        #expect(poll.status == 64 && poll.standardError.contains("--games: the game id \"bad\\u{1}id\" contains the control character U+0001"), "\(poll.standardError.prefix(300))")
    }
}

import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// `scorefeed stream`: recorded games as the JSON lines `serve` reads, headers first, then every
/// game's events merged by feed time with each game's own order kept.
@Suite("stream command", .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct StreamCommandTests {
    /// A stream's lines parsed: the headers in order, then each event with its game.
    struct ParsedStream {
        var headers: [GameAttributes] = []
        var events: [(game: String, event: GameEvent)] = []

        init(_ lines: [Data]) throws {
            for (index, line) in lines.enumerated() {
                switch try StreamLine.parse(line, number: index + 1, source: "stream output") {
                case .header(let attributes, _):
                    #expect(events.isEmpty, "line \(index + 1): a header after the first event")
                    headers.append(attributes)
                case .event(let game, let event, _):
                    events.append((game, event))
                case .blank, .bad:
                    Issue.record("line \(index + 1): parse gave \(line) neither a header nor an event")
                }
            }
        }

        /// Each game's events in the order the stream gives them.
        func events(of game: String) -> [GameEvent] {
            events.filter { $0.game == game }.map(\.event)
        }
    }

    /// The order a k-way merge by time must give, worked out independently: every event with its
    /// file's place and its own, sorted by (time, file, place). Valid when each game's times do
    /// not go backwards, which the test checks first.
    static func expectedOrder(_ documents: [FeedDocument]) -> [(game: String, seq: Int)] {
        var all: [(time: Date, file: Int, place: Int, game: String, seq: Int)] = []
        for (file, document) in documents.enumerated() {
            let times = document.events.map(\.time)
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(document.attributes.gameId)'s times rise")
            for (place, event) in document.events.enumerated() {
                all.append((event.time, file, place, document.attributes.gameId, event.seq))
            }
        }
        all.sort { ($0.time, $0.file, $0.place) < ($1.time, $1.file, $1.place) }
        return all.map { ($0.game, $0.seq) }
    }

    static func fixture(_ name: String) -> String {
        Make.fixtures.appendingPathComponent(name).path
    }

    @Test func twoFixturesGiveHeadersThenEventsMergedByTime() async throws {
        // The shipped fixtures are on different days: shift one-point onto overtime's evening,
        // starting at the same second, so the games interleave and their first events tie.
        let overtime = try FeedReader.read(path: Self.fixture("overtime.json"))
        var onePoint = try FeedReader.read(path: Self.fixture("one-point.json"))
        let shift = try #require(overtime.events.first).time.timeIntervalSince(try #require(onePoint.events.first).time)
        for index in onePoint.events.indices {
            onePoint.events[index].time = Date(
                timeIntervalSince1970: (onePoint.events[index].time.timeIntervalSince1970 + shift).rounded())
        }
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shifted = folder.appendingPathComponent("one-point-shifted.json")
        try FixtureFormat.encode(attributes: onePoint.attributes, events: onePoint.events, finalScore: onePoint.finalScore)
            .write(to: shifted)

        let run = try await ScoreFeedProcess.run(["stream", shifted.path, Self.fixture("overtime.json")])
        #expect(run.status == 0, "\(run.standardError)")
        let stream = try ParsedStream(run.lines)
        #expect(stream.headers == [onePoint.attributes, overtime.attributes])
        #expect(stream.events.count == onePoint.events.count + overtime.events.count)
        #expect(stream.events(of: onePoint.attributes.gameId) == onePoint.events, "one-point in its own order")
        #expect(stream.events(of: overtime.attributes.gameId) == overtime.events, "overtime in its own order")
        let order = stream.events.map { (game: $0.game, seq: $0.event.seq) }
        let expected = Self.expectedOrder([onePoint, overtime])
        #expect(order.elementsEqual(expected) { $0.game == $1.game && $0.seq == $1.seq })
        #expect(order.first?.game == onePoint.attributes.gameId, "a tie goes to the file named first")
        let switches = zip(order, order.dropFirst()).filter { $0.game != $1.game }.count
        #expect(switches > 100, "the games interleave (\(switches) switches)")
        #expect(run.standardError.contains("stream: 2 games, \(stream.events.count) events"))
    }

    @Test func everyLineOfEveryFixtureParses() async throws {
        let files = ["overtime.json", "one-point.json", "correction.json", "regulation-blowout.json"].map(Self.fixture)
        let documents = try files.map { try FeedReader.read(path: $0) }
        let run = try await ScoreFeedProcess.run(["stream"] + files)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.last == UInt8(ascii: "\n"), "every line ends with a newline")
        let stream = try ParsedStream(run.lines)
        #expect(stream.headers == documents.map(\.attributes))
        #expect(stream.events.count == documents.map(\.events.count).reduce(0, +))
        for document in documents {
            #expect(stream.events(of: document.attributes.gameId) == document.events)
        }
        let order = stream.events.map { (game: $0.game, seq: $0.event.seq) }
        #expect(order.elementsEqual(Self.expectedOrder(documents)) { $0.game == $1.game && $0.seq == $1.seq })
    }

    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func realLiveDataGamesKeepEveryEventInTheirOrder() async throws {
        let files = NBAFiles.games.filter { $0.hasPrefix("playbyplay_") }.map(NBAFiles.path)
        try #require(!files.isEmpty, "liveData games (playbyplay_*.json) in \(NBAFiles.folder.path)")
        let documents = try files.map { try FeedReader.read(path: $0) }
        let run = try await ScoreFeedProcess.run(["stream"] + files)
        #expect(run.status == 0, "\(run.standardError)")
        let stream = try ParsedStream(run.lines)
        #expect(stream.headers.map(\.gameId) == documents.map(\.attributes.gameId))
        #expect(stream.events.count == documents.map(\.events.count).reduce(0, +))
        for document in documents {
            let streamed = stream.events(of: document.attributes.gameId)
            #expect(streamed.map(\.seq) == document.events.map(\.seq), "\(document.attributes.gameId): seqs in document order")
            #expect(streamed == document.events, "\(document.attributes.gameId): events unchanged")
        }
    }

    @Test func outWritesTheFileInsteadOfStandardOutput() async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("night.jsonl")
        try Data(String(repeating: "old content\n", count: 50_000).utf8).write(to: out)
        let run = try await ScoreFeedProcess.run(["stream", Self.fixture("overtime.json"), "--out", out.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        let written = try Data(contentsOf: out)
        let expected = try await ScoreFeedProcess.run(["stream", Self.fixture("overtime.json")]).standardOutput
        #expect(written == expected, "the file is truncated and holds exactly the stream")
    }

    @Test func theSameGameTwiceIsAUsageErrorNamingBothFiles() async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.json")
        try FileManager.default.copyItem(atPath: Self.fixture("overtime.json"), toPath: copy.path)
        let run = try await ScoreFeedProcess.run(["stream", "Fixtures/overtime.json", copy.path])
        #expect(run.status == 64)
        #expect(run.standardError.contains("Fixtures/overtime.json and \(copy.path)"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test(arguments: ["missing.json", "Fixtures/edge", "Fixtures/README.md"])
    func aFileThatDoesNotReadIsAnErrorNamingIt(file: String) async throws {
        let run = try await ScoreFeedProcess.run(["stream", "Fixtures/overtime.json", file])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains(file), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty, "nothing is written before every file is read")
    }

    @Test func aClosedStandardOutputEndsQuietly() async throws {
        let run = try await ScoreFeedProcess.run(["stream", "Fixtures/overtime.json", "Fixtures/one-point.json"], closeOutput: true)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains("Error"), "\(run.standardError)")
    }

    @Test(arguments: [
        (["stream"], "stream needs at least one game file"),
        (["stream", "Fixtures/overtime.json", "--speed", "0"], "--speed must be a number"),
        (["stream", "Fixtures/overtime.json", "--speed", "--out", "x.jsonl"], "--speed needs a value"),
        (["stream", "Fixtures/overtime.json", "--out"], "--out needs a value"),
        (["stream", "Fixtures/overtime.json", "--out", "./Fixtures/../Fixtures/overtime.json"],
         "refusing to write the stream into the input file Fixtures/overtime.json"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("overtime.json")))
        let run = try await ScoreFeedProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.fixture("overtime.json"))) == before)
    }

    @Test func helpListsEveryOptionInItsUsage() async throws {
        let run = try await ScoreFeedProcess.run(["help", "stream"])
        #expect(run.status == 0)
        #expect(CommandLineTests.optionsMissingFromUsage(run.output).isEmpty)
    }
}

/// ``FeedMerge`` alone: the k-way merge behind `stream`.
@Suite("stream: merging games by feed time")
struct FeedMergeTests {
    @Test func tiesGoToTheFirstGameAndEachGameKeepsItsOrder() {
        // Game 1's times go backwards once: its order is kept, nothing of game 0 jumps it.
        let game0 = [Make.event(1, .periodStart, at: 0), Make.event(2, .jumpBall, at: 5), Make.event(3, .steal, at: 5)]
        let game1 = [Make.event(10, .periodStart, at: 0), Make.event(12, .block, at: 9), Make.event(11, .steal, at: 4)]
        let game2: [GameEvent] = []
        let merged = Array(FeedMerge([game0, game1, game2])).map { "\($0.game):\($0.event.seq)" }
        #expect(merged == ["0:1", "1:10", "0:2", "0:3", "1:12", "1:11"])
    }

    @Test func noGamesGiveNothing() {
        #expect(Array(FeedMerge([])).isEmpty)
        #expect(Array(FeedMerge([[], []])).isEmpty)
    }
}

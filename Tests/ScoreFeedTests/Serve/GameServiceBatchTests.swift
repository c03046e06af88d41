import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// ``GameService/handle(batch:source:)`` in process: the path `serve` takes with each batch its
/// reader found waiting. On feed time (each game on its own manual clock, as `serve --clock feed`)
/// with a recording sink: two games interleaved as `scorefeed stream` writes them, cut into
/// batches of several sizes, with and without a state directory (with one, each batch is made
/// durable with one sync before any of its pushes goes). Each game's records are byte for byte
/// the ones `Replay` sends for it alone. Real games from `../shared/nba-pbp` when present, the
/// shipped fixtures otherwise.
@Suite("GameService.handle(batch:): what serve does with a batch of lines")
struct GameServiceBatchTests {
    typealias Mode = RealFeedServeTests.Mode

    /// Two games: the first two real play-by-play games, or two fixtures.
    static func games() throws -> [FeedDocument] {
        if NBAFiles.available {
            let files = NBAFiles.games.filter { $0.hasPrefix("playbyplay_") }.prefix(2)
            if files.count == 2 { return try files.map(RealFeedServeTests.imported) }
        }
        return try ["overtime.json", "one-point.json"].map { try FeedReader.read(path: Make.fixtures.appendingPathComponent($0).path) }
    }

    /// `lines` parsed as serve's reader parses them, numbered from 1.
    static func parsed(_ lines: [Data]) -> [StreamLine] {
        lines.enumerated().map { StreamLine(.line($0.element, number: $0.offset + 1), source: "stdin") }
    }

    /// Hands `lines` to `service` in batches of `size`; returns the messages, in order.
    static func handle(_ lines: [StreamLine], in size: Int, to service: GameService) async -> [ScoreFeedError] {
        var messages: [ScoreFeedError] = []
        var start = 0
        while start < lines.count {
            let end = start + min(size, lines.count - start)
            messages += await service.handle(batch: Array(lines[start..<end]), source: "stdin")
            start = end
        }
        return messages
    }

    /// What `Replay` sends for `document` alone; in broadcast mode on `channel`, the channel the
    /// service's game got.
    static func replay(_ document: FeedDocument, mode: Mode, channel: String?) async throws -> [PushRecord] {
        let sink = RecordingSink()
        let renderer: PushRenderer.Configuration = mode.hasChannels ? .init(mode: .broadcast(channelId: channel ?? "none")) : mode.replayRenderer
        _ = try await Replay(policy: Coalescer(configuration: mode.coalescer), renderer: renderer).run(document, sink: sink)
        return await sink.records
    }

    @Test(arguments: [1, 7, 100, Int.max], [false, true])
    func eachGameSendsWhatReplaySendsForIt(batch size: Int, durable: Bool) async throws {
        try await check(mode: .token, batch: size, durable: durable)
    }

    @Test(arguments: [1, 100, Int.max])
    func inBroadcastModeEachGameOnItsOwnChannelSendsWhatReplaySends(batch size: Int) async throws {
        try await check(mode: .broadcast, batch: size, durable: true)
    }

    @Test(arguments: [Mode.androidToken, .androidBroadcast], [1, 100, Int.max])
    func onAndroidEachGameSendsWhatReplaySendsForIt(_ mode: Mode, batch size: Int) async throws {
        try await check(mode: mode, batch: size, durable: true)
    }

    func check(mode: Mode, batch size: Int, durable: Bool) async throws {
        let documents = try Self.games()
        let state = durable ? RealFeedServeTests.temporaryDirectory() : nil
        defer { if let state { try? FileManager.default.removeItem(at: state) } }
        let sink = mode.sink()
        let service = try mode.service(clock: .feed, state: state, sink: sink)
        let lines = Self.parsed(RealFeedServeTests.stream(documents))
        let messages = await Self.handle(lines, in: size, to: service)
        await service.shutDown()

        #expect(messages.isEmpty, "\(messages.prefix(3))")
        let counters = await service.counters
        #expect(counters.lines == lines.count && counters.headers == 2 && counters.badLines == 0 && counters.unknownGame == 0)
        #expect(counters.events == documents.reduce(0) { $0 + $1.events.count })
        let records = await sink.records
        var channels: Set<String> = []
        for document in documents {
            let id = document.attributes.gameId
            let sent = records.filter { $0.game == id }
            let channel = sent.first?.request.headers["apns-channel-id"]
            if let channel { channels.insert(channel) }
            let expected = try await Self.replay(document, mode: mode, channel: channel)
            #expect(sent.count == expected.count, "game \(id)")
            #expect(sent.map { $0.jsonLine() } == expected.map { $0.jsonLine() }, "game \(id): event and payload bytes as replay's")
            #expect(sent.last?.event == .end, "game \(id) ends")
        }
        if mode.hasChannels {
            #expect(channels.count == 2, "a channel per game")
            #expect(await sink.openChannels.isEmpty, "both deleted after their end")
        }
    }

    /// A bad line and an event for a game with no header, inside one batch: each is said, in
    /// order, with its line number, and the games around them go on as replay's.
    @Test func badLinesInABatchAreSaidInOrderAndTheGamesGoOn() async throws {
        let documents = try Self.games()
        var lines = RealFeedServeTests.stream(documents)
        let middle = lines.count / 2
        lines.insert(Data("{not json".utf8), at: middle)
        lines.insert(Data(#"{"game":"NOPE","seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}"#.utf8), at: middle + 2)
        let sink = RecordingSink()
        let service = try Mode.token.service(clock: .feed, sink: sink)
        let messages = await Self.handle(Self.parsed(lines), in: Int.max, to: service)
        await service.shutDown()

        #expect(messages.map(\.location.line) == [middle + 1, middle + 3], "\(messages)")
        #expect(messages.last?.message.contains("which has no header yet") == true, "\(messages)")
        let counters = await service.counters
        #expect(counters.badLines == 1 && counters.unknownGame == 1 && counters.lines == lines.count)
        let records = await sink.records
        for document in documents {
            let expected = try await Self.replay(document, mode: .token, channel: nil)
            #expect(records.filter { $0.game == document.attributes.gameId }.map { $0.jsonLine() } == expected.map { $0.jsonLine() })
        }
    }
}

import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// `serve` on the NBA's own games, fed in the feed's own order (action numbers out of order,
/// inserts, gaps), as `scorefeed stream` writes them: the same pushes as `replay`, whatever the
/// producer repeats, and every game ends with its `end` and exact final.
@Suite("serve on the real games in ../shared/nba-pbp", .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct RealFeedServeTests {
    /// A real game as `import` writes it and `replay` reads it back.
    static func imported(_ file: String) throws -> FeedDocument {
        try importedFiles.value(file) { try importing(file) }
    }

    private static let importedFiles = RunMemo<String, FeedDocument>()

    private static func importing(_ file: String) throws -> FeedDocument {
        let original = try FeedReader.read(path: NBAFiles.path(file))
        let fixture = FixtureFormat.encode(
            attributes: original.attributes, events: original.events, finalScore: original.finalScore,
            scheduledStart: original.scheduledStart)
        return try FixtureFormat.decode(fixture, file: file)
    }

    /// What `scorefeed stream` writes for `documents`: the headers, then the events merged by time.
    static func stream(_ documents: [FeedDocument]) -> [Data] {
        var lines = documents.map { StreamLine.headerLine($0.attributes) }
        var merge = FeedMerge(documents.map(\.events))
        while let (game, event) = merge.next() {
            lines.append(StreamLine.eventLine(event, game: documents[game].attributes.gameId))
        }
        return lines
    }

    static func replay(_ document: FeedDocument, mode: Mode = .token) async throws -> [PushRecord] {
        let sink = RecordingSink()
        var replay = Replay(policy: Coalescer(configuration: mode.coalescer), renderer: mode.replayRenderer)
        replay.otherLanes = mode.otherLanes
        _ = try await replay.run(document, sink: sink)
        return await sink.records
    }

    /// Token mode, or broadcast mode with each game on the channel ScoreFeed creates for it (the
    /// recording sink plays APNs: the first channel it makes is ``Mode/firstChannel``); and the
    /// same two for Android (FCM data messages to a device token, or to each game's topic), so
    /// every live-path test that runs for iOS runs for Android.
    enum Mode: String, CaseIterable, Sendable {
        case token, broadcast
        case androidToken = "android-token", androidBroadcast = "android-broadcast"
        /// `--platform ios,android` in token mode: one fold, an APNs lane and an FCM lane.
        case both = "ios-android"

        static let firstChannel = Data("channel-1".utf8).base64EncodedString()

        /// For tests of the process around the engines (exit statuses, signals, a full pipe):
        /// both iOS modes and Android's topic mode. The platform changes only what is rendered,
        /// which the in-process suites check in every mode; these take tens of seconds of wall
        /// clock each.
        static let ofProcesses: [Mode] = [.token, .broadcast, .androidBroadcast]

        /// Both iOS modes and one of Android's: a suite's tests take Android's token mode and its
        /// topics in turn, so each runs for both platforms and the suite for every mode, at three
        /// runs a test instead of four (the two Android modes differ only in each message's target).
        static let withAndroidToken: [Mode] = [.token, .broadcast, .androidToken]
        static let withAndroidTopic: [Mode] = [.token, .broadcast, .androidBroadcast]

        var platform: PushRenderer.Platform { self == .token || self == .broadcast || self == .both ? .ios : .android }

        /// The lanes after the first (Android's beside iOS's, with ``both``).
        var otherLanes: [PlatformLane.Options] { self == .both ? [.android(beside: renderer)] : [] }

        /// Whether games have broadcast channels that ScoreFeed makes and deletes (iOS broadcast).
        var hasChannels: Bool { self == .broadcast }

        /// Whether pushes go to a broadcast (an iOS channel or an FCM topic).
        var isBroadcast: Bool { self == .broadcast || self == .androidBroadcast }

        /// The policy both replay and the service run: each platform's own.
        var coalescer: Coalescer.Configuration { platform == .android ? .android : .standard }

        /// `serve`'s and `poll`'s options for this mode (channels come from the headers).
        var arguments: [String] {
            (platform == .android ? ["--platform", "android"] : self == .both ? ["--platform", "ios,android"] : [])
                + (isBroadcast ? ["--mode", "broadcast"] : [])
        }

        /// What replay of one game renders: in broadcast mode, on the channel serve's game gets.
        var replayRenderer: PushRenderer.Configuration {
            var configuration: PushRenderer.Configuration = switch self {
            case .token, .androidToken, .both: .init()
            case .broadcast: .init(mode: .broadcast(channelId: Self.firstChannel))
            case .androidBroadcast: .init(mode: .broadcastPerGame)
            }
            configuration.platform = platform
            return configuration
        }

        /// A service in this mode (broadcast: channels managed, deleted as soon as the end is out);
        /// `wallClock`: the clock a `.system` service decides on; `minInterval`: the least time
        /// between two pushes of a game (`--min-interval`), else the mode's policy's.
        func service(
            clock: GameService.ClockMode, state: URL? = nil, sink: any PushSink, wallClock: any EngineClock = SystemClock(),
            minInterval: TimeInterval? = nil
        ) throws -> GameService {
            var coalescer = coalescer
            if let minInterval { coalescer.minInterval = minInterval }
            var options = GameService.Options(
                clock: clock, coalescer: coalescer, renderer: renderer, stateDirectory: state, channels: .init(manage: hasChannels),
                wallClock: wallClock)
            options.otherLanes = otherLanes
            return try GameService(options: options, sink: sink)
        }

        /// The service's renderer: token, or a channel per game deleted as soon as the end is out.
        var renderer: PushRenderer.Configuration {
            var configuration: PushRenderer.Configuration = isBroadcast ? PushRenderer.Configuration(mode: .broadcastPerGame).lingering(0) : .init()
            configuration.platform = platform
            return configuration
        }

        func sink() -> RecordingSink { RecordingSink(answeringChannels: hasChannels) }
    }

    /// Hands `lines` to `service`, numbering them from `first`; returns the messages.
    @discardableResult
    static func feed(_ lines: some Sequence<Data>, to service: GameService, first: Int = 1) async -> [ScoreFeedError] {
        var messages: [ScoreFeedError] = []
        for (i, line) in lines.enumerated() {
            if let message = await service.handle(.line(line, number: first + i)) { messages.append(message) }
        }
        return messages
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-real-\(UUID().uuidString)")
    }

    @Test(arguments: NBAFiles.games, Mode.allCases)
    func streamIntoServeOnFeedTimeSendsWhatReplaySends(_ file: String, _ mode: Mode) async throws {
        let document = try Self.imported(file)
        let expected = try await Self.replay(document, mode: mode)
        let sink = mode.sink()
        let service = try mode.service(clock: .feed, sink: sink)
        let lines = Self.stream([document])
        let messages = await Self.feed(lines, to: service)
        await service.shutDown()
        let records = await sink.records
        #expect(messages.isEmpty, "\(messages.prefix(3))")
        #expect(records.count == expected.count)
        #expect(records.map { $0.jsonLine() } == expected.map { $0.jsonLine() }, "event and payload bytes as replay's")
        let last = try #require(records.last)
        #expect(last.event == .end)
        let final = try #require(document.finalScore)
        #expect(last.state.homeScore == final.home && last.state.awayScore == final.away)

        // An at-least-once producer sends it all again: nothing new goes out.
        await Self.feed(lines, to: service, first: lines.count + 1)
        await service.shutDown()
        #expect(await sink.records.count == records.count)
        let summary = try #require(await service.summaries().first)
        #expect(summary.statistics.duplicates == document.events.count - summary.statistics.rejected)
        #expect(summary.statistics.edits == 0)
        if mode.hasChannels {
            #expect(await sink.channelRequests.filter { $0.action != .list }.map(\.action) == [.create, .delete], "one channel, deleted after the end")
            #expect(await sink.openChannels.isEmpty)
        }
    }

    /// Every real game as one stream into `serve` on feed time with a state directory, handed as
    /// one batch (as `serve` reads a backlog of up to a megabyte): the batch is made durable with
    /// one sync, then its games send side by side. Each game's records on each platform are
    /// replay's, byte for byte and in order (channel ids aside: the games' creates interleave),
    /// and end on its final.
    @Test(arguments: Mode.allCases)
    func allGamesAsOneDurableBatchSendWhatReplaySends(_ mode: Mode) async throws {
        let documents = try NBAFiles.games.map(Self.imported)
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sink = mode.sink()
        let service = try mode.service(clock: .feed, state: dir, sink: sink)
        let batch = Self.stream(documents).enumerated().map { StreamLine($1, number: $0 + 1, source: nil) }
        let messages = await service.handle(batch: batch)
        await service.shutDown()
        #expect(messages.isEmpty, "\(messages.prefix(3))")
        let records = await sink.records
        for document in documents {
            let id = document.attributes.gameId
            let expected = try await Self.replay(document, mode: mode)
            let sent = records.filter { $0.game == id }
            // Each platform's lane in replay's order (the lanes of a batch's held pushes interleave
            // otherwise than replay's, which sends each moment's at once: no device sees both).
            for platform in [PushRenderer.Platform.ios, .android] {
                func lines(_ records: [PushRecord]) -> [String] {
                    BroadcastAudit.pushLines(records.filter { $0.platform == platform }.map { String(decoding: $0.jsonLine(), as: UTF8.self) })
                }
                #expect(lines(sent) == lines(expected), "\(id) on \(platform): replay's records, in order")
            }
            let final = try #require(document.finalScore)
            #expect(sent.last?.event == .end && sent.last.map { FinalScore(home: $0.state.homeScore, away: $0.state.awayScore) } == final, "\(id) ends on its final")
        }
        if mode.hasChannels {
            #expect(await sink.openChannels.isEmpty, "every game's channel deleted")
        }
    }

    @Test(arguments: Mode.withAndroidToken)
    func allGamesAtOnceOnTheSystemClockEndWithTheirExactFinals(_ mode: Mode) async throws {
        let documents = try NBAFiles.games.map(Self.imported)
        let sink = mode.sink()
        let service = try mode.service(clock: .system, sink: sink)
        await Self.feed(Self.stream(documents), to: service)
        // The input ended: held pushes go out as they come due on the real clock (seconds).
        await service.shutDown(waitingAtMost: 120)
        let records = await sink.records
        for document in documents {
            let id = document.attributes.gameId
            let last = try #require(records.last { $0.game == id }, "\(id) sent nothing")
            let final = try #require(document.finalScore)
            #expect(last.event == .end, "\(id) ends with its end")
            #expect(FinalScore(home: last.state.homeScore, away: last.state.awayScore) == final, "\(id)'s exact final")
        }
        let summaries = await service.summaries()
        #expect(summaries.count == documents.count)
        #expect(summaries.allSatisfy { $0.ended && $0.unsent == 0 })
        if mode.hasChannels {
            var channels: [String: Set<String>] = [:]
            for record in records { channels[record.game, default: []].insert(record.request.headers["apns-channel-id"] ?? "") }
            #expect(channels.values.allSatisfy { $0.count == 1 } && Set(channels.values.compactMap(\.first)).count == documents.count)
            #expect(await sink.openChannels.isEmpty && summaries.allSatisfy { $0.channel.state == "deleted" })
        }
    }

    /// The 3PT of 0022400723 action 112, which the feed lists after actions 119 and 120: a restart
    /// right after 119 or 120 must still apply it when the producer sends it all again.
    @Test(arguments: [0, 1, 2, 3], Mode.withAndroidTopic)
    func aRestartAfterLaterNumberedActionsStillAppliesTheEarlierNumberedOne(_ offset: Int, _ mode: Mode) async throws {
        let file = "playbyplay_0022400723.json"
        guard NBAFiles.games.contains(file) else { return }
        let document = try Self.imported(file)
        let lines = Self.stream([document])
        let position = try #require(document.events.firstIndex { $0.seq == 112 })
        #expect(document.events[..<position].contains { $0.seq == 120 }, "the feed lists 120 before 112")
        let cut = position + offset  // events before the cut were applied before the crash (1 header line first)
        let clean = try await Self.replay(document, mode: mode)

        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = mode.sink()
        let before = try mode.service(clock: .feed, state: dir, sink: first)
        await Self.feed(lines.prefix(1 + cut), to: before)
        // The process dies here: no drain. A new one starts on the same state directory (in
        // broadcast mode, APNs keeps the channel the first run made).
        let second = first
        let after = try mode.service(clock: .feed, state: dir, sink: second)
        let restoration = try await after.restore()
        #expect(restoration.resumedGames == 1 && restoration.problems.isEmpty)
        await Self.feed(lines, to: after)
        await after.shutDown()

        let sent = await second.records
        #expect(Set(sent.map { $0.jsonLine() }) == Set(clean.map { $0.jsonLine() }))
        let final = try #require(document.finalScore)
        #expect(sent.last?.event == .end)
        #expect(sent.last.map { FinalScore(home: $0.state.homeScore, away: $0.state.awayScore) } == final)
    }
}

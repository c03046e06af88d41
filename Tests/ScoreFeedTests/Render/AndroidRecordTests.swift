import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// Android records (issue 41): FCM HTTP v1 data messages in the push record's envelope, made by
/// the same fold and policy as the iOS ones.
@Suite("Android records: FCM HTTP v1 data messages")
struct AndroidRecordTests {
    static func configuration(_ mode: PushRenderer.Mode, project: String? = nil) -> PushRenderer.Configuration {
        var configuration = PushRenderer.Configuration(mode: mode)
        configuration.platform = .android
        configuration.fcmProject = project
        return configuration
    }

    static func replay(_ document: FeedDocument, _ mode: PushRenderer.Mode) async throws -> [PushRecord] {
        let sink = RecordingSink()
        _ = try await Replay(policy: Coalescer(configuration: .android), renderer: configuration(mode)).run(document, sink: sink)
        return await sink.records
    }

    /// The record contract on one game's records: the envelope, the FCM body (target, string
    /// data, no reserved key, priority, ttl, size), seq rising by one, timestamps strictly rising,
    /// the `start` first and one `end` last carrying `final`, and the data read back by the app's
    /// model type as the record's state.
    static func expectContract(
        _ records: [PushRecord], mode: PushRenderer.Mode, final: FinalScore?, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try #require(!records.isEmpty, "\(context): no records", sourceLocation: sourceLocation)
        #expect(records.map(\.seq) == Array(1...records.count), "\(context): seq rises by one", sourceLocation: sourceLocation)
        #expect(records.first?.event == .start, "\(context): the first record is the start", sourceLocation: sourceLocation)
        let ends = records.indices.filter { records[$0].event == .end }
        #expect(ends == [records.count - 1], "\(context): one end, last", sourceLocation: sourceLocation)
        if let final, let last = records.last {
            #expect(
                FinalScore(home: last.state.homeScore, away: last.state.awayScore) == final,
                "\(context): the end carries the final score", sourceLocation: sourceLocation)
        }
        var previous: Int?
        for record in records {
            let line = record.jsonLine()
            #expect(line.starts(with: Data("{\"platform\":\"android\",\"activity\":".utf8)), sourceLocation: sourceLocation)
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any], sourceLocation: sourceLocation)
            #expect([5, 10].contains(object["priority"] as? Int), sourceLocation: sourceLocation)
            let request = try #require(object["request"] as? [String: Any], sourceLocation: sourceLocation)
            #expect(request["method"] as? String == "POST", sourceLocation: sourceLocation)
            #expect(request["path"] as? String == "/v1/projects/{project}/messages:send", sourceLocation: sourceLocation)
            // The payload is the body, byte for byte: the record holds it as JSON.
            let body = try #require(try JSONSerialization.jsonObject(with: record.payload) as? [String: Any], sourceLocation: sourceLocation)
            #expect(Array(body.keys) == ["message"], sourceLocation: sourceLocation)
            let message = try #require(body["message"] as? [String: Any], sourceLocation: sourceLocation)
            #expect(Set(message.keys) == ["data", "android", mode.isToken ? "token" : "topic"], sourceLocation: sourceLocation)
            if mode.isToken {
                #expect(message["token"] as? String == "{token}", sourceLocation: sourceLocation)
            } else {
                #expect(message["topic"] as? String == "game-\(record.game)", sourceLocation: sourceLocation)
            }
            let data = try #require(message["data"] as? [String: String], "\(context) seq \(record.seq): data values are strings", sourceLocation: sourceLocation)
            for key in data.keys {
                #expect(!FCMRules.isReserved(key), "\(key) is reserved", sourceLocation: sourceLocation)
            }
            let size = data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
            #expect(size <= (mode.isToken ? 4096 : 2048), "\(context) seq \(record.seq): \(size) bytes of data", sourceLocation: sourceLocation)
            let android = try #require(message["android"] as? [String: String], sourceLocation: sourceLocation)
            #expect(android["priority"] == (record.priority == 10 ? "HIGH" : "NORMAL"), sourceLocation: sourceLocation)
            let ttl = try #require(android["ttl"], sourceLocation: sourceLocation)
            #expect(ttl.hasSuffix("s") && Int(ttl.dropLast()) != nil, "\(context): ttl \(ttl)", sourceLocation: sourceLocation)
            // Only a NORMAL update collapses: a HIGH message never waits in FCM's bucket.
            #expect((android["collapse_key"] != nil) == (record.priority == 5), sourceLocation: sourceLocation)
            // What the app reads.
            let update = try LiveUpdateMessage(data: data)
            #expect(update.state == record.state && update.seq == record.seq && update.gameId == record.game, sourceLocation: sourceLocation)
            #expect(update.event.rawValue == record.event.rawValue && update.timestamp == record.timestamp, sourceLocation: sourceLocation)
            #expect(update.supersedes(nil) && previous.map { update.timestamp > $0 } ?? true, "\(context): timestamps rise", sourceLocation: sourceLocation)
            #expect((update.dismissAfter != nil) == (record.event == .end), sourceLocation: sourceLocation)
            if update.alert != nil { #expect(record.priority == 10, sourceLocation: sourceLocation) }
            previous = update.timestamp
        }
    }

    @Test(arguments: [PushRenderer.Mode.token, .broadcastPerGame])
    func everyFixtureMeetsTheContract(_ mode: PushRenderer.Mode) async throws {
        for file in Make.fixtureFiles() {
            let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
            let records = try await Self.replay(document, mode)
            try Self.expectContract(records, mode: mode, final: document.finalScore, "\(file) \(mode.name)")
        }
    }

    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason), arguments: [PushRenderer.Mode.token, .broadcastPerGame])
    func everyRealGameMeetsTheContract(_ mode: PushRenderer.Mode) async throws {
        for file in NBAFiles.games {
            let document = try FeedReader.read(path: NBAFiles.path(file))
            let records = try await Self.replay(document, mode)
            try Self.expectContract(records, mode: mode, final: try NBAFiles.oracle(file).final, "\(file) \(mode.name)")
        }
    }

    /// The same game, the same decisions: Android's records follow iOS's pushes one for one (but
    /// for iOS's push-to-start, which Android always has, and priority-5 copies, which it never
    /// needs), with the same states.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func androidShowsWhatIOSShows() async throws {
        let file = try #require(NBAFiles.games.first { $0.hasPrefix("playbyplay_") })
        let document = try FeedReader.read(path: NBAFiles.path(file))
        let policy = Coalescer(configuration: .android)
        let iosSink = RecordingSink(), androidSink = RecordingSink()
        var ios = PushRenderer.Configuration(start: true)
        ios.platform = .ios
        _ = try await Replay(policy: policy, renderer: ios).run(document, sink: iosSink)
        _ = try await Replay(policy: policy, renderer: Self.configuration(.token)).run(document, sink: androidSink)
        let shown = await iosSink.records.filter { !$0.reason.hasPrefix("priority-5 copy") }
        let android = await androidSink.records
        #expect(shown.map(\.state) == android.map(\.state))
        #expect(shown.map(\.event) == android.map(\.event))
        #expect(shown.map(\.sentAt) == android.map(\.sentAt))
    }

    @Test func theRequestNamesTheProjectWhenGiven() throws {
        var renderer = PushRenderer(attributes: Make.attributes, configuration: Self.configuration(.token, project: "demo-project"))
        let record = try renderer.render(
            Push(event: .update, priority: 10, reason: "score"), state: Make.live, diff: Diff(), coalesced: 1,
            sentAt: Make.start, sourceTime: nil)
        #expect(record.request.path == "/v1/projects/demo-project/messages:send")
        #expect(record.platform == .android)
        #expect(record.timestamp == Int(Make.start.timeIntervalSince1970 * 1000))
    }

    /// A topic message has half a token message's room: long text is trimmed, as in an APNs
    /// payload, and what cannot fit is refused without a seq.
    @Test func longTextIsTrimmedToFCMsLimit() throws {
        var state = Make.live
        state.lastPlay = String(repeating: "Giannis Antetokounmpo driving layup ", count: 80)
        var renderer = PushRenderer(attributes: Make.attributes, configuration: Self.configuration(.broadcastPerGame))
        let record = try renderer.render(
            Push(event: .update, priority: 10, alert: .leadChange, reason: "lead"), state: state, diff: Diff(), coalesced: 1,
            sentAt: Make.start, sourceTime: nil)
        #expect(record.trimmed == ["lastPlay"])
        let data = try #require(((try JSONSerialization.jsonObject(with: record.payload) as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: String])
        let size = data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        #expect(size <= 2048 && size > 2000, "trimmed to the limit, not below it by much: \(size)")
        #expect(record.state.lastPlay?.hasSuffix("…") == true)

        var huge = Make.attributes
        huge.home.tricode = String(repeating: "X", count: 5000)
        var refusing = PushRenderer(attributes: huge, configuration: Self.configuration(.token))
        #expect(throws: ScoreFeedError.self) {
            try refusing.render(Push(event: .update, priority: 10, reason: "score"), state: Make.live, diff: Diff(), coalesced: 1, sentAt: Make.start, sourceTime: nil)
        }
        #expect(refusing.seq == 0)
    }

    /// An iOS configuration and record save as they did before platforms existed (a checkpoint
    /// written now reads in an older version, and the same game writes the same bytes); an
    /// Android one keeps its platform through a checkpoint.
    @Test func platformsSurviveACheckpoint() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let ios = String(decoding: try encoder.encode(PushRenderer.Configuration()), as: UTF8.self)
        #expect(!ios.contains("platform") && !ios.contains("fcmProject"))
        let android = Self.configuration(.token, project: "p")
        let read = try JSONDecoder().decode(PushRenderer.Configuration.self, from: try encoder.encode(android))
        #expect(read.platform == .android && read.fcmProject == "p")

        var renderer = PushRenderer(attributes: Make.attributes, configuration: android)
        let record = try renderer.render(
            Push(event: .update, priority: 10, reason: "score"), state: Make.live, diff: Diff(), coalesced: 1, sentAt: Make.start, sourceTime: nil)
        #expect(try JSONDecoder().decode(PushRecord.self, from: try encoder.encode(record)) == record)
        var iosRenderer = PushRenderer(attributes: Make.attributes)
        let iosRecord = try iosRenderer.render(
            Push(event: .update, priority: 10, reason: "score"), state: Make.live, diff: Diff(), coalesced: 1, sentAt: Make.start, sourceTime: nil)
        #expect(!String(decoding: try encoder.encode(iosRecord), as: UTF8.self).contains("platform"))
        #expect(!String(decoding: iosRecord.jsonLine(), as: UTF8.self).contains("platform"))
    }

    /// The model type reads what it writes, and names what is wrong.
    @Test func theAppsModelReadsItsData() throws {
        let message = LiveUpdateMessage(
            gameId: "g", seq: 3, event: .end, timestamp: 1_700_000_000_123, state: Make.live, attributes: Make.attributes,
            alert: .init(title: "Final", body: "Home win."), dismissAfter: 1_700_000_900_123)
        #expect(try LiveUpdateMessage(data: message.data) == message)
        var broken = message.data
        broken["seq"] = "three"
        #expect(throws: DecodingError.self) { try LiveUpdateMessage(data: broken) }
        broken = message.data
        broken.removeValue(forKey: "state")
        #expect(throws: DecodingError.self) { try LiveUpdateMessage(data: broken) }
        var older = message
        older.timestamp -= 1
        #expect(message.supersedes(older) && !older.supersedes(message) && !message.supersedes(message))
    }

    /// A state directory holds one platform's games: a run for the other platform on it stops at
    /// its restore, naming the game and both platforms, instead of going on with another renderer
    /// (an iOS game on Android would have no start; an Android one on iOS a start mid-game).
    @Test(arguments: [PushRenderer.Platform.ios, .android])
    func aStateDirectoryHoldsOnePlatformsGames(_ written: PushRenderer.Platform) async throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func service(_ platform: PushRenderer.Platform) throws -> GameService {
            let mode: RealFeedServeTests.Mode = platform == .ios ? .token : .androidToken
            return try mode.service(clock: .feed, state: dir, sink: RecordingSink())
        }
        let document = GameGenerator(seed: 4).generate().document
        let first = try service(written)
        _ = try await first.restore()
        await RealFeedServeTests.feed(RealFeedServeTests.stream([document]).prefix(80), to: first)
        let other: PushRenderer.Platform = written == .ios ? .android : .ios
        let error = await #expect(throws: ScoreFeedError.self) { _ = try await service(other).restore() }
        #expect(error?.code == .usage, "\(String(describing: error))")
        #expect(error?.message.contains("written for \(written.rawValue), and this run is for \(other.rawValue)") == true, "\(String(describing: error))")
        // The same platform takes the game on.
        #expect(try await service(written).restore().resumedGames == 1)
    }

    /// A game whose checkpoint was lost numbers on from what the file still shows: a file of the
    /// other platform's (too broken to say whose) has its timestamp in the other unit, taken in
    /// this platform's, so an iOS `aps.timestamp` never becomes milliseconds (devices drop a push
    /// stamped thousands of years ahead).
    @Test func aLostCheckpointsTimestampIsTakenInThisPlatformsUnit() throws {
        #expect(PushRenderer.timestamp(1_608_685_322_901, for: .ios) == 1_608_685_323)
        #expect(PushRenderer.timestamp(1_608_685_322, for: .ios) == 1_608_685_322)
        #expect(PushRenderer.timestamp(1_608_685_322, for: .android) == 1_608_685_322_999)
        #expect(PushRenderer.timestamp(1_608_685_322_901, for: .android) == 1_608_685_322_901)
        #expect(PushRenderer.timestamp(0, for: .android) == 0 && PushRenderer.timestamp(0, for: .ios) == 0)
        for platform in PushRenderer.Platform.allCases {
            var configuration = PushRenderer.Configuration()
            configuration.platform = platform
            var session = GameSession(attributes: Make.attributes, renderer: configuration, now: Make.start)
            let other = platform == .ios ? 1_739_240_100_500 : 1_739_240_100
            session.continueNumbering(after: 60, lastTimestamp: other)
            let expected = platform == .ios ? 1_739_240_101 : 1_739_240_100_999
            #expect(session.renderer.seq == 60 && session.renderer.lastTimestamp == expected, "\(platform)")
        }
    }
}

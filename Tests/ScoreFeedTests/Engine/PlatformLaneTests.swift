import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// `--platform ios,android`: one fold, a lane per platform. Each lane's records are those its
/// platform sends alone, byte for byte; a game with two lanes is checkpointed as one value
/// (format 5) and journaled, and comes back the same.
@Suite("One fold, a lane per platform")
struct PlatformLaneTests {
    /// Every fixture, and every real game when ../shared is there.
    static let games: [String] = {
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: "Fixtures")) ?? []
        let shipped = fixtures.filter { $0.hasSuffix(".json") }.sorted().map { "Fixtures/" + $0 }
        return shipped + (NBAFiles.available ? NBAFiles.games.map(NBAFiles.path) : [])
    }()

    static func replay(
        _ document: FeedDocument, _ renderer: PushRenderer.Configuration, policy: Coalescer.Configuration,
        otherLanes: [PlatformLane.Options] = []
    ) async throws -> [String] {
        let sink = RecordingSink()
        var replay = Replay(policy: Coalescer(configuration: policy), renderer: renderer)
        replay.otherLanes = otherLanes
        _ = try await replay.run(document, sink: sink)
        return await sink.records.map { String(decoding: $0.jsonLine(), as: UTF8.self) }
    }

    @Test(arguments: games, [false, true])
    func eachLaneSendsWhatItsPlatformSendsAlone(_ file: String, _ broadcast: Bool) async throws {
        let document = try FeedReader.read(path: file)
        let ios = PushRenderer.Configuration(mode: broadcast ? .broadcast(channelId: "dGVzdA==") : .token)
        let android = PlatformLane.Options.android(beside: ios)
        let alone = try await Self.replay(document, ios, policy: .standard)
        let androidAlone = try await Self.replay(document, android.renderer, policy: .android)
        let both = try await Self.replay(document, ios, policy: .standard, otherLanes: [android])
        let (androidLines, iosLines) = (both.filter { $0.hasPrefix(#"{"platform":"android""#) }, both.filter { !$0.hasPrefix(#"{"platform":"android""#) })
        #expect(iosLines == alone, "the iOS records of --platform ios, byte for byte")
        #expect(androidLines == androidAlone, "the Android records of --platform android, byte for byte")
        #expect(androidLines.count > 100 && iosLines.count > 100)
        if broadcast { #expect(androidAlone.allSatisfy { $0.contains(#""topic":"game-"#) }, "Android's broadcast goes to the game's topic") }
    }

    @Test func theAndroidLaneTakesTheIOSLanesLifetimesAndItsOwnLimits() {
        var ios = PushRenderer.Configuration(bundleId: "com.team.app", mode: .broadcast(channelId: "dGVzdA=="), start: false, staleAfter: 120)
        ios.payloadLimit = 5000
        let android = PlatformLane.Options.android(beside: ios, project: "team-prod")
        #expect(android.renderer.platform == .android && android.renderer.fcmProject == "team-prod")
        #expect(android.renderer.mode == .broadcastPerGame, "a topic per game, not the iOS channel")
        #expect(android.renderer.staleAfter == 120 && android.renderer.bundleId == "com.team.app")
        #expect(android.renderer.payloadLimit == 2048, "FCM's limit to a topic, not the iOS override")
        #expect(android.policy == .android)
    }

    /// A lane whose policy is lost (a damaged checkpoint) is taken over by a fresh one: on iOS it
    /// counts the hour's budget as spent (Apple drops what goes past it, and the lost one may
    /// have spent it); on Android it does not (FCM drops no HIGH message for want of a budget),
    /// or every Android message of the next hour would go NORMAL and wait out Doze.
    @Test func aTakenOverPolicyCountsTheHourSpentOnIOSAlone() {
        let ios = PushRenderer.Configuration()
        let android = PlatformLane.Options.android(beside: ios)
        let now = Date(timeIntervalSince1970: 1_735_689_600)
        var session = GameSession(attributes: Make.attributes, policy: Coalescer(), renderer: ios, now: now)
        session.addLane(policy: Coalescer(configuration: android.policy), renderer: android.renderer)
        session.takeOverPolicy(lane: 0, ended: false, configuration: .standard)
        session.takeOverPolicy(lane: 1, ended: false, configuration: android.policy)
        let policies = session.lanes.map { $0.policy as? Coalescer }
        #expect(policies[0]?.availableWithinBudget(now) == 0)
        #expect(policies[1]?.availableWithinBudget(now) == android.policy.budget)
        #expect(session.lanes.allSatisfy { $0.policyWasReset })
    }

    /// A session with two lanes fed a generated game, its inputs recorded, every output
    /// delivered from the lane that names it.
    static func recorded(_ events: ArraySlice<GameEvent>, into session: inout GameSession) {
        for (index, event) in zip(events.indices, events) {
            session.receive(event, index: index, now: event.time)
            while let deadline = session.deadline, deadline <= event.time { session.tick(now: deadline) }
            while let next = session.nextLaneOutput { _ = next.output; session.delivered(lane: next.lane, now: event.time) }
        }
    }

    static func twoLanes(_ game: GeneratedGame) -> GameSession {
        var session = GameSession(attributes: game.attributes)
        let android = PlatformLane.Options.android(beside: session.renderer.configuration)
        session.addLane(policy: Coalescer(configuration: android.policy), renderer: android.renderer)
        return session
    }

    @Test func twoLanesAreOneCheckpointAndTheJournalBringsThemBackByteForByte() throws {
        let game = GameGenerator(seed: 11).generate()
        var live = Self.twoLanes(game)
        live.recordsInputs = true
        Self.recorded(game.events.prefix(150), into: &live)
        _ = live.takeUnjournaled()
        let snapshot = try live.encoded()
        let text = String(decoding: snapshot, as: UTF8.self)
        #expect(text.contains(#""format":5"#) && text.contains(#""lanes":[{"#), "format 5: the other lane beside the first's fields")
        let decoded = try GameSession.decode(snapshot, file: "game.json")
        #expect(decoded.platforms == [.ios, .android])
        #expect(try decoded.encoded() == snapshot, "read back, the same bytes")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-lanes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("game.journal").path
        let journal = Journal()
        for range in [150..<200, 200..<201, 201..<game.events.count] {
            Self.recorded(game.events[range], into: &live)
            let first = live.journaled + 1
            let numbering = live.numbering
            try journal.append(live.takeUnjournaled(), first: first, seq: numbering.seq, lastTimestamp: numbering.lastTimestamp, to: path)
        }
        try journal.sync()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(String(decoding: bytes, as: UTF8.self).contains("deliveredOnLane"), "the Android lane's deliveries are journaled by lane")
        let read = try GameSession.read(snapshot, journal: bytes, file: "game.json")
        #expect(try read.encoded() == live.encoded(), "the same game, byte for byte")
        // Restored, each lane sends its own end again (the sink never confirmed it), and only it;
        // Android's lane its start first (never confirmed either).
        let restored = try GameSession.restore(
            snapshot, journal: bytes, file: "game.json",
            lanes: [.init(renderer: .init(), policy: .standard), .android(beside: .init())])
        #expect(restored.hasEnded && restored.lanes.allSatisfy { !$0.outbox.isEmpty })
        for lane in restored.lanes {
            let kept = lane.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
            #expect(kept.allSatisfy { $0.platform == lane.platform } && kept.last?.event == .end)
            #expect(kept.map(\.event).filter { $0 != .end } == (lane.platform == .android ? [.start] : []), "\(lane.platform): \(kept.map(\.event))")
        }
        #expect(Journal.read(bytes).seq == live.numbering.seq)
    }

    /// Pushes waiting in both lanes when the snapshot is written stay in their own lanes.
    @Test func eachLanesWaitingPushesAreSavedInItsLane() throws {
        let game = GameGenerator(seed: 5).generate()
        var session = Self.twoLanes(game)
        for (index, event) in game.events.enumerated() { session.receive(event, index: index, now: event.time) }
        session.finish(now: game.events.last!.time.addingTimeInterval(60))
        #expect(session.lanes.allSatisfy { $0.outbox.count > 10 }, "nothing delivered: both lanes hold pushes")
        let decoded = try GameSession.decode(try session.encoded(), file: "game.json")
        for (saved, lane) in zip(decoded.lanes, session.lanes) {
            let same = saved.outbox == lane.outbox
            #expect(same, "\(lane.platform)'s \(lane.outbox.count) pushes, in its own lane (read back: \(saved.outbox.count))")
            #expect(saved.outbox.allSatisfy { if case .push(let record) = $0 { record.platform == lane.platform } else { true } })
        }
        #expect(try decoded.encoded() == session.encoded())
    }

    /// iOS broadcast on a channel ScoreFeed made, beside Android: iOS's end waits for the
    /// channel's delete, Android's for the sink alone (as Android alone would), and a restart
    /// while the channel lingers sends each lane's own end again in its own lane.
    @Test func eachLanesEndIsKeptByItsOwnRule() throws {
        let perGame = PushRenderer.Configuration(mode: .broadcastPerGame).lingering(60)
        var session = GameSession(attributes: Make.attributes, renderer: perGame, now: Make.start)
        let android = PlatformLane.Options.android(beside: perGame)
        session.addLane(policy: Coalescer(configuration: android.policy), renderer: android.renderer)
        session.createChannel(storage: 0)
        session.channelAnswered(ChannelAnswer(status: 200, channelID: "Y2gx"), now: Make.start)
        session.receive(Make.event(1, .periodStart, at: 0), index: 0, now: Make.start)
        let end = Make.event(2, .gameEnd, period: 4, clock: 0, at: 3000)
        session.receive(end, index: 1, now: end.time)
        session.finish(now: end.time)
        while let next = session.nextLaneOutput { _ = next.output; session.delivered(lane: next.lane, now: end.time) }
        #expect(Set(session.keptRecords.map(\.platform)) == [.ios, .android])
        #expect(session.keptRecordsWaitForTheSink, "Android's end waits for the sink")
        #expect(session.deadline == end.time.addingTimeInterval(60), "iOS's channel lingers")
        // A restart while the channel lingers: each lane's end again, in its own lane.
        let restored = try GameSession.restore(session.encoded(), file: "t", lanes: [.init(renderer: perGame, policy: .standard), android])
        for lane in restored.lanes {
            let kept = lane.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
            #expect(kept.contains { $0.event == .end } && kept.allSatisfy { $0.platform == lane.platform })
            // Android's start, never confirmed either, goes first.
            #expect(kept.filter { $0.event != .end }.map(\.event) == (lane.platform == .android ? [.start] : []))
        }
        // The sink confirmed: Android's start and end go, iOS's end stays until the delete.
        session.confirmKept()
        #expect(session.keptRecords.map(\.platform).allSatisfy { $0 == .ios } && !session.keptRecords.isEmpty)
        #expect(!session.keptRecordsWaitForTheSink)
    }

    /// With one lane the session is as before lanes: the clock moves on with each delivery
    /// after the end, and the pushes handed are counted under the keys checkpoints always had.
    @Test func oneLaneKeepsItsOldSavedForm() throws {
        var session = GameSession(attributes: Make.attributes, now: Make.start)
        let end = Make.event(2, .gameEnd, period: 4, clock: 0, at: 3000)
        session.receive(Make.event(1, .periodStart, at: 0), index: 0, now: Make.start)
        session.receive(end, index: 1, now: end.time)
        let later = end.time.addingTimeInterval(42)
        while let next = session.nextLaneOutput { _ = next.output; session.delivered(lane: next.lane, now: later) }
        #expect(session.now == later)
        let text = String(decoding: try session.encoded(), as: UTF8.self)
        #expect(text.contains(#""format":4"#) && text.contains(#""10 end":1"#) && !text.contains("lane"))
        var two = Self.twoLanes(GameGenerator(seed: 2).generate())
        two.receive(Make.event(1, .periodStart, at: 0), index: 0, now: Make.start)
        two.receive(end, index: 1, now: end.time)
        while let next = two.nextLaneOutput { _ = next.output; two.delivered(lane: next.lane, now: later) }
        let both = String(decoding: try two.encoded(), as: UTF8.self)
        #expect(both.contains(#""10 end":1"#) && both.contains(#""lane 1 10 end":1"#))
        #expect(try GameSession.decode(two.encoded(), file: "t").statistics.handed == two.statistics.handed)
    }

    /// A format-5 file too broken to restore still says where every lane's numbering stood.
    @Test func aBrokenTwoLaneFileNumbersOnPastEveryLane() {
        let file = Data(#"{"format":5,"seq":12,"lastTimestamp":1700000000,"lanes":[{"seq":30,"lastTimestamp":1700000100500}],"attributes":"#.utf8)
        let salvaged = GameSession.salvageNumbering(file)
        #expect(salvaged == nil, "not JSON: nothing to salvage")
        let whole = Data(#"{"format":5,"seq":12,"lastTimestamp":1700000000,"lanes":[{"seq":30,"lastTimestamp":1700000100500}]}"#.utf8)
        let numbering = GameSession.salvageNumbering(whole)
        #expect(numbering?.seq == 30 && numbering?.lastTimestamp == 1_700_000_100_500)
    }

    @Test func aLostNumberingGoesOnInEachLanesUnit() {
        var session = Self.twoLanes(GameGenerator(seed: 3).generate())
        // The lost run's latest, in milliseconds: iOS takes it in seconds, rounded up.
        session.continueNumbering(after: 41, lastTimestamp: 1_700_000_000_500)
        #expect(session.lanes.map(\.renderer.seq) == [41, 41])
        #expect(session.lanes[0].renderer.lastTimestamp == 1_700_000_001)
        #expect(session.lanes[1].renderer.lastTimestamp == 1_700_000_000_500)
        #expect(session.numbering.seq == 41 && session.numbering.lastTimestamp == 1_700_000_001_999)
    }

    @Test func aStateDirectoryForOneSetOfPlatformsRefusesAnother() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-lanes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let document = try FeedReader.read(path: "Fixtures/one-point.json")
        var options = GameService.Options(clock: .feed, stateDirectory: dir)
        options.otherLanes = [.android(beside: options.renderer)]
        let service = try GameService(options: options, sink: RecordingSink())
        _ = try await service.restore()
        for (i, line) in RealFeedServeTests.stream([document]).prefix(40).enumerated() { _ = await service.handle(.line(line, number: i + 1)) }
        await service.shutDown()

        let iosOnly = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        await #expect {
            _ = try await iosOnly.restore()
        } throws: { error in
            let message = (error as? ScoreFeedError)?.message ?? ""
            return (error as? ScoreFeedError)?.code == .usage && message.contains("written for ios,android, and this run is for ios")
        }
        let again = try GameService(options: options, sink: RecordingSink())
        let restoration = try await again.restore()
        #expect(restoration.resumedGames == 1 && restoration.problems.isEmpty)
    }
}

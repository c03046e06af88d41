import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// A game's broadcast channel: the pure phase machine, the session that holds pushes until the
/// channel is open and stamps them with it, and the engine and service that create, use and
/// delete it through the sink.
@Suite("Broadcast channels")
struct BroadcastChannelTests {
    static let bundle = "com.acme"
    static let perGame = PushRenderer.Configuration(bundleId: bundle, mode: .broadcastPerGame)

    // MARK: - The phase machine

    @Test func aManagedChannelGoesThroughItsLife() {
        var channel = BroadcastChannel()
        #expect(channel.request(game: "G", bundleId: Self.bundle) == nil)
        channel.create(storage: 0)
        let create = try! #require(channel.request(game: "G", bundleId: Self.bundle))
        #expect(create.action == .create && create.request.method == "POST" && create.request.path == "/1/apps/com.acme/channels")
        #expect(String(decoding: create.body ?? Data(), as: UTF8.self) == #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        #expect(channel.isLive && channel.sendableID == nil)
        let now = Date(timeIntervalSince1970: 100)
        #expect(channel.answered(ChannelAnswer(status: 200, channelID: "Y2gx"), now: now) == .opened("Y2gx"))
        #expect(channel.sendableID == "Y2gx" && channel.created == now)
        #expect(channel.request(game: "G", bundleId: Self.bundle) == nil)
        channel.endDelivered(now: now, linger: 30)
        #expect(channel.deadline == now.addingTimeInterval(30) && channel.sendableID == "Y2gx")
        channel.advance(now: now.addingTimeInterval(29))
        #expect(channel.state == "lingering")
        channel.advance(now: now.addingTimeInterval(30))
        let delete = try! #require(channel.request(game: "G", bundleId: Self.bundle))
        #expect(delete.action == .delete && delete.request.method == "DELETE" && delete.request.headers["apns-channel-id"] == "Y2gx")
        #expect(channel.sendableID == nil && channel.isLive)
        #expect(channel.answered(ChannelAnswer(status: 200), now: now) == .deleted("Y2gx", alreadyGone: false))
        #expect(channel.state == "deleted" && !channel.isLive && channel.deadline == nil)
    }

    @Test(arguments: [
        (ChannelAnswer(status: 404, reason: "ChannelNotRegistered"), "deleted"),
        (ChannelAnswer(status: 400, reason: "BadChannelId"), "deleted"),
        (ChannelAnswer(status: 403, reason: "Forbidden"), "refused"),
    ])
    func aDeleteAnsweredNotFoundMeansGone(_ answer: ChannelAnswer, _ state: String) {
        var channel = Self.created(answer: ChannelAnswer(status: 200, channelID: "Y2gx"))
        channel.endDelivered(now: .distantPast, linger: 0)
        channel.advance(now: .distantPast)
        channel.answered(answer, now: .distantPast)
        #expect(channel.state == state)
    }

    @Test(arguments: [
        (ChannelAnswer(status: 200), "creating"),
        (ChannelAnswer(status: 200, channelID: "not base64!"), "creating"),
        (ChannelAnswer(status: 400, reason: "TooManyChannels"), "refused"),
        (ChannelAnswer(status: 201, channelID: "Y2gy"), "open"),
    ])
    func aCreateAnswer(_ answer: ChannelAnswer, _ state: String) {
        #expect(Self.created(answer: answer).state == state)
    }

    /// A channel created for game G, after APNs answered the create with `answer`.
    static func created(answer: ChannelAnswer) -> BroadcastChannel {
        var channel = BroadcastChannel()
        channel.create(storage: 0)
        channel.answered(answer, now: .distantPast)
        return channel
    }

    @Test(arguments: ["", "not base64!", "a$b=", String(repeating: "QUFB", count: 100)])
    func aBadHeaderChannelIsRefused(_ id: String) {
        var channel = BroadcastChannel()
        channel.use(id, storage: 0)
        #expect(channel.state == "refused" && channel.sendableID == nil)
    }

    @Test func aHeaderChannelIsNeverDeleted() {
        var channel = BroadcastChannel()
        channel.use("Y2gx", storage: 0)
        #expect(channel.sendableID == "Y2gx" && !channel.isLive)
        channel.endDelivered(now: .distantPast, linger: 0)
        channel.advance(now: .distantFuture)
        #expect(channel.state == "open" && channel.request(game: "G", bundleId: Self.bundle) == nil)
    }

    @Test func aRetriedCreateCarriesANewRequestIDAndTheSameOneAfterARestart() throws {
        var first = BroadcastChannel()
        first.create(storage: 0)
        let restored = try JSONDecoder().decode(BroadcastChannel.self, from: JSONEncoder().encode(first))
        #expect(restored == first)
        #expect(restored.request(game: "G", bundleId: Self.bundle)?.requestID == first.request(game: "G", bundleId: Self.bundle)?.requestID)
    }

    @Test func channelRequestLines() {
        let create = ChannelRequest.create(game: "G1", bundleId: "com.acme", storage: 0, requestID: "R")
        #expect(String(decoding: create.jsonLine(), as: UTF8.self)
            == #"{"kind":"channel","action":"create","game":"G1","service":"manage-broadcast","request":{"method":"POST","path":"/1/apps/com.acme/channels","headers":{"apns-request-id":"R"}},"body":{"message-storage-policy":0,"push-type":"LiveActivity"}}"#)
        let list = ChannelRequest.list(bundleId: "com.acme", requestID: "L")
        #expect(String(decoding: list.jsonLine(), as: UTF8.self)
            == #"{"kind":"channel","action":"list","game":null,"service":"manage-broadcast","request":{"method":"GET","path":"/1/apps/com.acme/all-channels","headers":{"apns-request-id":"L"}}}"#)
        #expect(ChannelAnswer(status: 200, body: Data(#"{"channels":["a","b"]}"#.utf8)).channels == ["a", "b"])
    }

    // MARK: - The session

    /// A session in broadcast mode with a channel per game, after a few scores.
    static func session(events: Int = 6) -> GameSession {
        var session = GameSession(attributes: Make.attributes, renderer: perGame, now: Make.start)
        session.receive(Make.event(1, .periodStart, at: 0), index: 0, now: Make.start)
        for seq in 2...events {
            let event = Make.event(seq, .fieldGoal(points: 2, made: true), team: seq % 2 == 0 ? .home : .away, at: Double(seq) * 40)
            session.receive(event, index: seq - 1, now: event.time)
        }
        return session
    }

    static func pushes(_ outbox: [PushRenderer.Output]) -> [PushRecord] {
        outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
    }

    @Test func withoutAChannelOnlyTheNewestStateWaits() {
        let session = Self.session()
        #expect(session.isHolding && session.nextDelivery == nil)
        let waiting = Self.pushes(session.outbox)
        #expect(waiting.filter { $0.event == .update }.count <= 2, "one update, and its priority-5 copy at most")
        #expect(session.statistics.superseded > 0)
        #expect(waiting.allSatisfy { $0.request.headers["apns-channel-id"] == nil })
    }

    /// A priority 10 with an alert whose last play the size guard trimmed (more than from its
    /// priority-5 copy, which has no alert) shows the same state as the copy: both wait, and the
    /// copy does not supersede it. Before, the two states differed by the trimmed text, and only
    /// the copy waited: the lead change would have reached the lock screen at priority 5. In
    /// broadcast mode the game waits for its channel; in token mode for a full disk (the outbox's
    /// ``GameSession/supersedeWaiting()``). Each mode's lengths trim the priority 10 alone, then
    /// both (the guard measures the payload's largest serialization: about 3.6 KB of play in a
    /// token payload, 4.7 KB in a broadcast one). (Android has no priority-5 copies.)
    @Test(arguments: [(true, 4_700, false), (true, 5_000, true), (false, 3_600, false), (false, 4_000, true)])
    func aTrimmedPriority10IsNotSupersededByItsCopy(broadcast: Bool, playLength: Int, copyTrimmed: Bool) {
        var session = Self.lateLeadChange(broadcast: broadcast, playLength: playLength)
        if !broadcast { session.supersedeWaiting() }
        let waiting = Self.pushes(session.outbox).filter { $0.event == .update }
        #expect(waiting.map(\.priority) == [10, 5], "the priority 10 and its copy wait, alone")
        #expect(waiting.allSatisfy { $0.state.awayScore == 3 && $0.state.homeScore == 2 })
        #expect(waiting.first?.trimmed.contains("lastPlay") == true, "the priority 10's last play was trimmed")
        #expect(waiting.last?.trimmed.contains("lastPlay") == copyTrimmed, "the copy's last play trimmed: \(copyTrimmed)")
    }

    /// A last play that really changed still tells a trimmed push from a newer one: a correction
    /// taken back in the same arrival leaves the score as it was and only the last play new, and
    /// the trimmed priority 10 and its copy are superseded by it.
    @Test(arguments: [true, false])
    func aTrimmedPushIsSupersededByANewerLastPlay(broadcast: Bool) {
        var session = Self.lateLeadChange(broadcast: broadcast, playLength: broadcast ? 5_000 : 4_000)
        let superseded = session.statistics.superseded
        session.beginArrival()
        for (seq, points) in [(13, -1), (14, 1)] {
            let event = Make.event(seq, .correction(points: points), team: .away, period: 4, clock: 55, at: 400)
            session.receive(event, index: seq - 1, now: event.time)
        }
        session.endArrival(now: Make.start.addingTimeInterval(400))
        if !broadcast { session.supersedeWaiting() }
        let waiting = Self.pushes(session.outbox).filter { $0.event == .update }
        #expect(waiting.last?.state.lastPlay?.hasPrefix("Score corrected") == true, "the correction's push waits")
        #expect(!waiting.contains { $0.trimmed.contains("lastPlay") }, "the trimmed pushes were superseded")
        #expect(session.statistics.superseded > superseded)
    }

    /// A session whose last push is a late lead change (an alert, at priority 10 with its copy)
    /// by a player whose name fills most of the payload.
    static func lateLeadChange(broadcast: Bool, playLength: Int) -> GameSession {
        let renderer = broadcast ? perGame : PushRenderer.Configuration(bundleId: bundle, mode: .token)
        var session = GameSession(attributes: Make.attributes, renderer: renderer, now: Make.start)
        var seq = 0
        func add(_ kind: GameEvent.Kind, team: TeamSide? = nil, period: Int, clock: Double, player: String? = nil) {
            seq += 1
            let event = Make.event(seq, kind, team: team, period: period, clock: clock, at: Double(seq) * 30, player: player)
            session.receive(event, index: seq - 1, now: event.time)
        }
        for period in 1...4 {
            add(.periodStart, period: period, clock: 720)
            if period < 4 { add(.periodEnd, period: period, clock: 0) }
        }
        add(.fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 90)
        add(.fieldGoal(points: 3, made: true), team: .away, period: 4, clock: 60, player: String(repeating: "x", count: playLength))
        return session
    }

    /// A priority-10 update dropped while the game waits for its channel never reaches Apple: the
    /// coalescer gets it back, so the hour's bookings are the priority 10s that still wait.
    @Test func aSupersededPriority10IsGivenBack() throws {
        let session = Self.session(events: 40)
        let coalescer = try #require(session.lanes[0].policy as? Coalescer)
        let waiting = Self.pushes(session.outbox).filter { $0.priority == 10 }.count
        #expect(session.statistics.priority10 > waiting, "some priority-10 updates were superseded")
        #expect(coalescer.budget.used(at: session.now) + coalescer.beyond.used(at: session.now) == waiting)
    }

    @Test func theCreateGoesFirstThenEveryPushOnTheGamesOwnChannel() throws {
        var session = Self.session()
        session.createChannel(storage: 0)
        guard case .channel(let create) = session.nextDelivery else { Issue.record("the create goes first"); return }
        #expect(create.action == .create && create.game == Make.attributes.gameId)
        session.channelAnswered(ChannelAnswer(status: 200, channelID: "Y2gx"), now: Make.start)
        var sent: [PushRecord] = []
        while case .output(.push(let record)) = session.nextDelivery {
            sent.append(record)
            session.delivered(now: session.now)
        }
        #expect(!sent.isEmpty && sent.allSatisfy { $0.request.headers["apns-channel-id"] == "Y2gx" })
        #expect(session.nextDelivery == nil && !session.isHolding)
    }

    /// A game on its open channel "Y2gx" (a 60 s linger) whose end was just received.
    static func endedOnChannel() -> (GameSession, GameEvent) {
        var session = Self.session()
        session.lanes[0].renderer = session.renderer.reconfigured(perGame.lingering(60))
        session.createChannel(storage: 0)
        session.channelAnswered(ChannelAnswer(status: 200, channelID: "Y2gx"), now: Make.start)
        let end = Make.event(50, .gameEnd, period: 4, clock: 0, at: 3000)
        session.receive(end, index: 49, now: end.time)
        return (session, end)
    }

    @Test func theDeleteGoesOnlyAfterTheEndWasDeliveredAndTheLingerIsOver() throws {
        var (session, end) = Self.endedOnChannel()
        session.finish(now: end.time)
        var last: PushRecord?
        while let next = session.nextDelivery {
            guard case .output(.push(let record)) = next else { Issue.record("no channel request before the end is out"); return }
            last = record
            session.delivered(now: end.time)
        }
        #expect(last?.event == .end && last?.request.headers["apns-channel-id"] == "Y2gx")
        #expect(session.deadline == end.time.addingTimeInterval(60))
        #expect(!session.lingerIsOver(now: end.time.addingTimeInterval(59)))
        #expect(session.lingerIsOver(now: end.time.addingTimeInterval(60)))
        // The engine asks the sink whether it still holds the game's pushes, then:
        session.beginDelete(now: end.time.addingTimeInterval(60))
        guard case .channel(let delete) = session.nextDelivery else { Issue.record("the delete comes after the linger"); return }
        #expect(delete.action == .delete && delete.request.headers["apns-channel-id"] == "Y2gx")
        // The checkpoint keeps the phase, so a restart sends the delete again.
        let restored = try GameSession.restore(session.encoded(), file: "t", renderer: Self.perGame)
        #expect(restored.nextDelivery == .channel(delete))
    }

    @Test func heldUpdatesKeepTheNewestPriority10WithItsCopy() {
        let session = Self.session(events: 12)
        let pushes = Self.pushes(session.outbox)
        let newest = try! #require(pushes.last?.state)
        #expect(pushes.dropLast().allSatisfy { $0.event != .update || $0.state == newest }, "older states are dropped")
        if pushes.count == 2 { #expect(pushes[0].priority == 10 && pushes[1].priority == 5, "a priority 10 and its copy stay together") }
    }

    @Test func aRestartWhileTheChannelLingersSendsTheEndAgainBeforeTheDelete() throws {
        var (session, end) = Self.endedOnChannel()
        var ends: [PushRecord] = []
        while case .output(.push(let record)) = session.nextDelivery {
            if record.event == .end { ends.append(record) }
            session.delivered(now: end.time)
        }
        #expect(session.channel.state == "lingering" && !ends.isEmpty)
        // The sink (a webhook that is down) held the end in memory when the process was killed.
        let restored = try GameSession.restore(session.encoded(), file: "t", renderer: Self.perGame)
        #expect(restored.channel.state == "open")
        #expect(Self.pushes(restored.outbox).map(\.seq) == ends.map(\.seq), "the end goes out again, the same records")
        guard case .output(.push(let first)) = restored.nextDelivery else { Issue.record("the end goes before the delete"); return }
        #expect(first.event == .end && first.request.headers["apns-channel-id"] == "Y2gx")
    }

    /// Killed after the end (priority 10) was handed to the sink and before its priority-5 copy
    /// was: the sink (its memory gone) may have lost the end, and the linger, which would send it
    /// again, has not begun. The end goes out again before its copy, or the device gets the final
    /// only at priority 5 (a simulated day: seed 55, day 80, broadcast, ios,android).
    @Test func aRestartBetweenTheEndAndItsCopySendsTheEndAgain() throws {
        var (session, end) = Self.endedOnChannel()
        var handed: PushRecord?
        while case .output(.push(let record)) = session.nextDelivery {
            session.delivered(now: end.time)
            if record.event == .end { handed = record; break }
        }
        let first = try #require(handed)
        #expect(first.priority == 10)
        let copy = try #require(Self.pushes(session.outbox).first)
        #expect(copy.event == .end && copy.priority == 5 && session.channel.state == "open")
        let restored = try GameSession.restore(session.encoded(), file: "t", renderer: Self.perGame)
        #expect(Self.pushes(restored.outbox).map(\.seq) == [first.seq, copy.seq], "the end goes out again, then its copy")
        // Killed again before either left: each waits once.
        let again = try GameSession.restore(restored.encoded(), file: "t", renderer: Self.perGame)
        #expect(Self.pushes(again.outbox).map(\.seq) == [first.seq, copy.seq])
    }

    /// While the sink still holds the game's end (its webhook down), the channel does not linger
    /// yet: its linger counts from when the sink has delivered the end, so devices get the whole
    /// linger to receive it, however late it went out.
    @Test func theLingerStartsOnceTheSinkHasDeliveredTheEnd() async throws {
        let clock = ManualClock(Make.start)
        let delivered = Delivered()
        let sink = CallbackSink(
            send: { _ in }, manage: { request in request.action == .create ? ChannelAnswer(status: 200, channelID: "Y2gx") : ChannelAnswer(status: 200) },
            pending: { _ in delivered.value ? 0 : 1 })
        let session = GameSession(attributes: Make.attributes, renderer: Self.perGame.lingering(60), now: Make.start)
        let engine = MatchEngine(session: session, clock: clock, sink: sink)
        try await engine.setUpChannel(.create)
        try await engine.receiveOnFeedTime(Make.event(1, .periodStart, at: 0), index: 0)
        try await engine.receiveOnFeedTime(Make.event(2, .gameEnd, period: 4, clock: 0, at: 60), index: 1)
        try await engine.finish()
        let waits = await engine.channelWorkWaits
        let waitsForTheSink = await engine.current.lingerWaitsForTheSink
        #expect(await engine.channel.state == "open" && waits && waitsForTheSink, "the sink still holds the end: no linger yet")
        #expect(await engine.deadline == nil, "no deadline spins while it waits")
        // Past the linger as counted from the hand-over: the sink still holds the end.
        clock.advance(by: 100)
        try await engine.flush()
        #expect(await engine.channel.state == "open")
        delivered.value = true
        try await engine.flush()
        let drained = clock.now
        #expect(await engine.channel.phase == .lingering(id: "Y2gx", until: drained.addingTimeInterval(60)), "the linger counts from the delivery")
        clock.advance(by: 59)
        try await engine.tick()
        #expect(await engine.channel.state == "lingering")
        clock.advance(by: 1)
        try await engine.tick()
        #expect(await engine.channel.state == "deleted")
    }

    /// What the engine told the session about the sink (the end held, then delivered) is in its
    /// journal: the game restored from its snapshot and journal is the game, byte for byte; and a
    /// restart while the channel waits for the sink sends the end again (the sink's memory is gone).
    @Test func aChannelWaitingForTheSinkIsJournaledAndARestartSendsTheEndAgain() throws {
        var (session, end) = Self.endedOnChannel()
        session.recordsInputs = true
        _ = session.takeUnjournaled()
        let snapshot = try session.encoded()
        var ends: [PushRecord] = []
        while case .output(.push(let record)) = session.nextDelivery {
            if record.event == .end { ends.append(record) }
            session.delivered(now: end.time)
            if record.event == .end { session.endHeldBySink() }
        }
        #expect(session.channel.state == "open" && session.lingerWaitsForTheSink && !ends.isEmpty)
        let waiting = session
        session.endDrained(now: end.time.addingTimeInterval(30))
        #expect(session.channel.phase == .lingering(id: "Y2gx", until: end.time.addingTimeInterval(90)))
        let first = session.journaled + 1
        let inputs = session.takeUnjournaled()
        #expect(inputs.contains(.endHeld) && inputs.contains(.endDrained(now: end.time.addingTimeInterval(30))))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("channel-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("game.journal").path
        let journal = Journal()
        try journal.append(inputs, first: first, seq: session.renderer.seq, lastTimestamp: session.renderer.lastTimestamp, to: path)
        try journal.sync()
        // Read as written (a restore would send the end again: the channel lingers).
        let replayed = try GameSession.read(snapshot, journal: try Data(contentsOf: URL(fileURLWithPath: path)), file: "t")
        #expect(try replayed.encoded() == session.encoded(), "the journal gives back the game, byte for byte")
        // Killed while the sink held the end: it goes out again before the channel lingers.
        let restored = try GameSession.restore(waiting.encoded(), file: "t", renderer: Self.perGame)
        #expect(restored.channel.state == "open")
        #expect(Self.pushes(restored.outbox).map(\.seq) == ends.map(\.seq), "the end goes out again, the same records")
    }

    // MARK: - The engine

    @Test(arguments: [0.0, 90])
    func anEngineCreatesSendsAndDeletesThroughTheSink(_ linger: Double) async throws {
        let sink = RecordingSink(answeringChannels: true)
        let clock = ManualClock(Make.start)
        let session = GameSession(attributes: Make.attributes, renderer: Self.perGame.lingering(linger), now: Make.start)
        let engine = MatchEngine(session: session, clock: clock, sink: sink)
        try await engine.setUpChannel(.create)
        let id = try #require(await engine.channel.sendableID)
        let events = [Make.event(1, .periodStart, at: 0)]
            + (2...20).map { Make.event($0, .fieldGoal(points: 2, made: true), team: $0 % 3 == 0 ? .away : .home, at: Double($0) * 30) }
            + [Make.event(21, .gameEnd, period: 4, clock: 0, at: 700)]
        for (index, event) in events.enumerated() { try await engine.receiveOnFeedTime(event, index: index) }
        try await engine.finish()
        try await engine.fireDeadlines(through: .distantFuture)
        let records = await sink.records
        #expect(records.allSatisfy { $0.request.headers["apns-channel-id"] == id })
        Make.expectOneFinal(records)
        let requests = await sink.channelRequests
        #expect(requests.map(\.action) == [.create, .delete])
        #expect(await sink.openChannels.isEmpty)
        #expect(await engine.channel.state == "deleted")
    }

    /// A batch's flush that finds the engine still sending what the batch held back (its
    /// channel's create, waiting on APNs) is not lost: once the create is answered, the delivery
    /// under way sends the pushes too, instead of leaving them in the outbox for the game's next call.
    @Test func aFlushDuringAHeldDeliverySendsThePushesOnceItEnds() async throws {
        let (started, creating) = AsyncStream<Void>.makeStream()
        let (answer, answering) = AsyncStream<Void>.makeStream()
        let sent = Delivered()
        let sink = CallbackSink(
            send: { _ in sent.value = true },
            manage: { request in
                guard request.action == .create else { return ChannelAnswer(status: 200) }
                creating.yield()
                for await _ in answer { break }
                return ChannelAnswer(status: 200, channelID: "Y2gx")
            })
        let session = GameSession(attributes: Make.attributes, renderer: Self.perGame, now: Make.start)
        let engine = MatchEngine(session: session, clock: ManualClock(Make.start), sink: sink)
        // The batch's create goes, its pushes held for the batch's sync.
        async let setUp: Void = engine.setUpChannel(.create, holdingPushes: true)
        for await _ in started { break }
        for (index, event) in [Make.event(1, .periodStart, at: 0), Make.event(2, .fieldGoal(points: 3, made: true), team: .home, at: 30)].enumerated() {
            try await engine.receiveOnFeedTime(event, index: index, holdingPushes: true)
        }
        try #require(await !engine.current.outbox.isEmpty, "the batch's pushes wait")
        // The batch is durable: its flush comes while the create still waits on APNs.
        try await engine.flush()
        #expect(!sent.value, "nothing goes before the channel is open")
        answering.yield()
        try await setUp
        #expect(sent.value)
        #expect(await engine.current.outbox.isEmpty, "the pushes went with the delivery that was under way")
        #expect(await engine.channel.state == "open")
    }

    // MARK: - The service

    static func lines(seeds: [UInt64], channels: [String?]? = nil) -> [Data] {
        let lines = RecordedStream.lines(seeds: seeds).map { Data($0.utf8) }
        guard let channels else { return lines }
        var headerIndex = 0
        return lines.map { line in
            guard case .header(let attributes, _)? = try? StreamLine.parse(line, number: 1) else { return line }
            defer { headerIndex += 1 }
            return channels[headerIndex].map { StreamLine.headerLine(attributes, channel: $0) } ?? line
        }
    }

    static func service(
        _ sink: any PushSink, mode: PushRenderer.Mode = .broadcastPerGame, channels: ChannelManagement = .init(manage: true),
        state: URL? = nil, report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> GameService {
        try GameService(
            options: .init(
                clock: .feed, renderer: PushRenderer.Configuration(bundleId: bundle, mode: mode).lingering(0), stateDirectory: state, channels: channels),
            sink: sink, report: report)
    }

    @Test func twoGamesNeverShareAChannelAndEachEndsOnItsOwn() async throws {
        let sink = RecordingSink(answeringChannels: true)
        let service = try Self.service(sink)
        await RealFeedServeTests.feed(Self.lines(seeds: [3, 4]), to: service)
        await service.shutDown()
        let records = await sink.records
        var channelOf: [String: Set<String>] = [:]
        for record in records { channelOf[record.game, default: []].insert(record.request.headers["apns-channel-id"] ?? "none") }
        #expect(channelOf.count == 2 && channelOf.values.allSatisfy { $0.count == 1 })
        #expect(Set(channelOf.values.map { $0.first! }).count == 2, "two games, two channels")
        for game in channelOf.keys { Make.expectOneFinal(records.filter { $0.game == game }) }
        let requests = await sink.channelRequests
        #expect(requests.filter { $0.action == .create }.count == 2)
        #expect(requests.filter { $0.action == .delete }.count == 2)
        #expect(await sink.openChannels.isEmpty)
    }

    @Test(arguments: [PushRenderer.Mode.token, .broadcastPerGame])
    func broadcastPayloadsAreTokenPayloads(_ mode: PushRenderer.Mode) async throws {
        // Each mode's payload bytes, game by game, against token mode's.
        func payloads(_ mode: PushRenderer.Mode) async throws -> [String: [Data]] {
            let sink = RecordingSink(answeringChannels: true)
            let service = try Self.service(sink, mode: mode)
            await RealFeedServeTests.feed(Self.lines(seeds: [5, 6]), to: service)
            await service.shutDown()
            return Dictionary(grouping: await sink.records, by: \.game).mapValues { $0.map(\.payload) }
        }
        let token = try await payloads(.token)
        #expect(try await payloads(mode) == token)
    }

    @Test func headerChannelsAreUsedAndNeverCreatedOrDeleted() async throws {
        let sink = RecordingSink(answeringChannels: true)
        let service = try Self.service(sink, channels: .init(manage: true))
        await RealFeedServeTests.feed(Self.lines(seeds: [3, 4], channels: ["QUFB", nil]), to: service)
        await service.shutDown()
        let records = await sink.records
        let first = records.first { $0.request.headers["apns-channel-id"] == "QUFB" }?.game
        #expect(first != nil)
        #expect(records.filter { $0.game == first }.allSatisfy { $0.request.headers["apns-channel-id"] == "QUFB" })
        #expect(records.filter { $0.game != first }.allSatisfy { $0.request.headers["apns-channel-id"] != "QUFB" })
        let requests = await sink.channelRequests.filter { $0.action != .list }
        #expect(requests.allSatisfy { $0.game != first }, "the backend's channel is neither created nor deleted")
    }

    @Test func pastTheCapAGameHoldsUntilAChannelIsDeleted() async throws {
        let sink = RecordingSink(answeringChannels: true)
        let said = Said()
        let service = try Self.service(sink, channels: .init(manage: true, maxChannels: 1), report: { line in said.add(line) })
        let lines = Self.lines(seeds: [3, 4])
        await RealFeedServeTests.feed(lines.prefix(lines.count / 2), to: service)
        let early = await sink.records
        #expect(Set(early.map(\.game)).count == 1, "while the first game has the one channel, the second sends nothing")
        let summaries = await service.summaries()
        let held = try #require(summaries.first { $0.attributes.gameId != early.first?.game })
        #expect(held.holding && held.unsent > 0 && held.channel.state == "none")
        let metrics = await service.metrics(now: Date(), recorder: MetricsRecorder())
        #expect(metrics.withheld["channel"] == held.unsent && metrics.withheld["checkpoint"] == nil, "--metrics names the cause")
        #expect(said.lines.filter { $0.contains("no broadcast channel to send on") }.count == 1, "said once")
        #expect(said.lines.contains { $0.contains("--max-channels allows (1)") })

        await RealFeedServeTests.feed(lines.dropFirst(lines.count / 2), to: service, first: lines.count / 2 + 1)
        await service.shutDown()
        let requests = await sink.channelRequests.filter { $0.action != .list }
        #expect(requests.map(\.action) == [.create, .delete, .create, .delete], "the second channel is made once the first is deleted")
        let records = await sink.records
        for game in Set(records.map(\.game)) {
            let mine = records.filter { $0.game == game }
            #expect(Set(mine.map { $0.request.headers["apns-channel-id"] }).count == 1)
            Make.expectOneFinal(mine)
        }
        #expect(Set(records.map { $0.request.headers["apns-channel-id"] }).count == 2)
        #expect(await sink.openChannels.isEmpty)
    }

    @Test func twoHeadersNeverShareAChannel() async throws {
        let sink = RecordingSink(answeringChannels: true)
        let said = Said()
        let service = try Self.service(sink, channels: .init(), report: { said.add($0) })
        await RealFeedServeTests.feed(Self.lines(seeds: [3, 4], channels: ["QUFB", "QUFB"]), to: service)
        await service.shutDown()
        #expect(Set(await sink.records.map(\.game)).count == 1, "the second game holds")
        #expect(said.lines.contains { $0.contains("two games never share one") })
    }

    @Test func aBadHeaderChannelCostsTheGameItsChannelNotItsHeader() async throws {
        let sink = RecordingSink(answeringChannels: true)
        let said = Said()
        let service = try Self.service(sink, channels: .init(), report: { line in said.add(line) })
        let messages = await RealFeedServeTests.feed(Self.lines(seeds: [3], channels: ["not base64!"]), to: service)
        #expect(messages.isEmpty, "the events are the game's")
        await service.shutDown()
        #expect(await sink.records.isEmpty)
        #expect(said.lines.contains { $0.contains("is not base64") })
    }

    @Test func aRestartInTheMiddleOfACreateSendsItAgainAndTheOrphanIsDeleted() async throws {
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let apns = RecordingSink(answeringChannels: true)
        // The first run's sender makes the channel but the answer is lost (the process dies).
        let lost = CallbackSink(manage: { request in
            _ = try await apns.manage(request)
            throw ScoreFeedError(.sinkUnavailable, "killed before the answer")
        })
        let lines = Self.lines(seeds: [3])
        let first = try Self.service(lost, state: state)
        await RealFeedServeTests.feed(lines.prefix(1), to: first)
        #expect(await apns.openChannels.count == 1)
        let orphan = try #require(await apns.openChannels.first)

        let said = Said()
        let second = try Self.service(apns, channels: .init(manage: true, deleteUnknown: true), state: state, report: { said.add($0) })
        try await second.restore()
        await RealFeedServeTests.feed(lines, to: second)
        await second.shutDown()
        let records = await apns.records
        #expect(!records.isEmpty && records.allSatisfy { $0.request.headers["apns-channel-id"] != orphan })
        #expect(await apns.openChannels.isEmpty, "the orphan and the game's channel are both deleted")
        #expect(said.lines.contains { $0.contains("no game owned") })
        let file = try Data(contentsOf: state.appendingPathComponent(ChannelDirectory.fileName))
        let directory = try ChannelDirectory.decode(file, file: "channels.json")
        #expect(directory.games.values.map(\.state) == ["deleted"])
    }

    /// A game's checkpoint damaged mid-game: the restart keeps its channel from `channels.json`
    /// (it does not delete it as no game's), a clean stop before the game's lines come again
    /// keeps it for the next run (devices may still listen), and when the game comes back it goes
    /// on on that channel, the one its devices subscribed to, which is deleted after its end.
    @Test func aDamagedCheckpointsGameGoesOnOnItsChannelAcrossCleanStops() async throws {
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let apns = RecordingSink(answeringChannels: true)
        let lines = Self.lines(seeds: [3])
        let first = try Self.service(apns, channels: .init(manage: true, deleteUnknown: true), state: state)
        await RealFeedServeTests.feed(lines.prefix(lines.count / 2), to: first)
        await first.shutDown()
        let channel = try #require(await apns.openChannels.first)
        #expect(await apns.openChannels.count == 1, "the game is live: its channel stays")
        // The game's checkpoint is damaged (half its bytes), its journal gone.
        let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
        let snapshot = state.appendingPathComponent(try #require(files.first { $0.hasPrefix("game-") && $0.hasSuffix(".json") }))
        let bytes = try Data(contentsOf: snapshot)
        try bytes.prefix(bytes.count / 2).write(to: snapshot)
        try? FileManager.default.removeItem(at: snapshot.deletingPathExtension().appendingPathExtension("journal"))

        let said = Said()
        let second = try Self.service(apns, channels: .init(manage: true, deleteUnknown: true), state: state, report: { said.add($0) })
        try await second.restore()
        await second.shutDown()
        #expect(said.lines.contains { $0.contains("is kept for it") })
        #expect(await apns.openChannels == [channel], "neither the reconciliation nor the drain deleted it")
        let directory = try ChannelDirectory.decode(Data(contentsOf: state.appendingPathComponent(ChannelDirectory.fileName)), file: "channels.json")
        #expect(directory.games.values.map(\.channel) == [channel] && directory.games.values.map(\.state) == ["open"])

        let third = try Self.service(apns, channels: .init(manage: true, deleteUnknown: true), state: state)
        try await third.restore()
        await RealFeedServeTests.feed(lines, to: third)
        await third.shutDown()
        let records = await apns.records
        #expect(records.allSatisfy { $0.request.headers["apns-channel-id"] == channel }, "every push on the channel its devices know")
        #expect(records.last?.event == .end)
        #expect(await apns.channelRequests.filter { $0.action == .create }.count == 1, "made once")
        #expect(await apns.openChannels.isEmpty, "deleted after the game's end")
    }

    /// A game whose checkpoint is lost after its channel was deleted starts afresh when its lines
    /// come again (a day replayed): it sends its end again, on a channel it creates anew. That
    /// create goes under a request id of its own: counted from zero again, its creates would
    /// repeat the lost checkpoint's first one, and a sender that deduplicates by
    /// `apns-request-id` (``ChannelServiceStandIn/deduplicatesCreates``) would answer it with the
    /// deleted channel (found by the simulator, session 66: "end seq 170 went to channel
    /// Y2hhbm5lbC0xMA==, which APNs did not have open").
    @Test func aGameStartedAfreshOnALostCheckpointCreatesUnderARequestIDOfItsOwn() async throws {
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let apns = RecordingSink(answeringChannels: true, deduplicatingCreates: true)
        let lines = Self.lines(seeds: [3])
        let first = try Self.service(apns, channels: .init(manage: true, deleteUnknown: true), state: state)
        await RealFeedServeTests.feed(lines, to: first)
        await first.shutDown()
        let channel = try #require(await apns.records.last?.request.headers["apns-channel-id"])
        #expect(await apns.openChannels.isEmpty, "deleted after the end")
        // The game's checkpoint is lost: its bytes cut in half, its journal gone.
        let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
        let snapshot = state.appendingPathComponent(try #require(files.first { $0.hasPrefix("game-") && $0.hasSuffix(".json") }))
        let bytes = try Data(contentsOf: snapshot)
        try bytes.prefix(bytes.count / 2).write(to: snapshot)
        try? FileManager.default.removeItem(at: snapshot.deletingPathExtension().appendingPathExtension("journal"))

        let second = try Self.service(apns, channels: .init(manage: true, deleteUnknown: true), state: state)
        try await second.restore()
        await RealFeedServeTests.feed(lines, to: second)
        await second.shutDown()
        let creates = await apns.channelRequests.filter { $0.action == .create }
        #expect(creates.count == 2)
        let ids = creates.map { $0.request.headers["apns-request-id"] }
        #expect(ids.count == 2 && ids[0] != nil && ids[0] != ids[1])
        let again = await apns.records.filter { $0.request.headers["apns-channel-id"] != channel }
        #expect(again.last?.event == .end, "the end sent again on the new channel")
        #expect(await apns.openChannels.isEmpty)
    }

    @Test func withoutTheFlagUnknownChannelsAreOnlyReported() async throws {
        let apns = RecordingSink(answeringChannels: true)
        _ = try await apns.manage(.create(game: "elsewhere", bundleId: Self.bundle, storage: 0, requestID: "X"))
        let said = Said()
        let service = try Self.service(apns, report: { said.add($0) })
        let found = await service.reconcileChannels()
        #expect(found.unknown.count == 1 && found.deleted.isEmpty)
        #expect(await apns.openChannels.count == 1)
        #expect(said.lines.contains { $0.contains("--delete-unknown-channels") })
    }
}

/// A flag set from a test and read from a sink's closure.
final class Delivered: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return flag }
        set { lock.lock(); flag = newValue; lock.unlock() }
    }
}

/// Lines a service reported, gathered from any thread.
final class Said: @unchecked Sendable {
    private let lock = NSLock()
    private var gathered: [String] = []

    func add(_ line: String) {
        lock.lock()
        gathered.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return gathered
    }
}

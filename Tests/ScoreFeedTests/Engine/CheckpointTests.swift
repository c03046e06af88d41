import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The checkpoint formats on disk: files written by earlier versions still load and continue the
/// game exactly; a format this version does not know is a clear error; options given at restart
/// apply to the resumed game.
@Suite("Checkpoint formats (golden files)")
struct CheckpointTests {
    static let golden = Make.packageRoot.appendingPathComponent("Tests/ScoreFeedTests/Golden")

    /// `Fixtures/one-point.json` as `serve` reads it: the header, then its events.
    static let lines: [Data] = {
        let document = try! FeedReader.read(path: Make.fixtures.appendingPathComponent("one-point.json").path)
        return [StreamLine.headerLine(document.attributes)]
            + document.events.map { StreamLine.eventLine($0, game: document.attributes.gameId) }
    }()

    /// Runs `lines` through a service on feed time whose state directory starts with `checkpoint`.
    static func resume(
        _ checkpoint: String, lines: some Sequence<Data>, options: GameService.Options = .init(clock: .feed)
    ) async throws -> (GameService.Restoration, [PushRecord], GameService) {
        let dir = RealFeedServeTests.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: golden.appendingPathComponent(checkpoint), to: dir.appendingPathComponent("game-SF00000007.json"))
        var options = options
        options.stateDirectory = dir
        let sink = RecordingSink()
        let service = try GameService(options: options, sink: sink)
        let restoration = try await service.restore()
        await RealFeedServeTests.feed(lines, to: service)
        await service.shutDown()
        try? FileManager.default.removeItem(at: dir)
        return (restoration, await sink.records, service)
    }

    static func clean() async throws -> [PushRecord] {
        let sink = RecordingSink()
        let service = try GameService(options: .init(clock: .feed), sink: sink)
        await RealFeedServeTests.feed(lines, to: service)
        await service.shutDown()
        return await sink.records
    }

    /// Written by ScoreFeed before checkpoints had a format number, after the first 250 events of
    /// one-point.json, by a version with another push policy: the game resumes with the same
    /// numbering and the events it had applied, the hour's priority-10 pushes stay spent (the old
    /// policy's budget is read), and it ends with the exact final while the whole stream is sent
    /// again.
    /// A snapshot's format is read by the byte reader, which builds nothing; what it declines
    /// `JSONDecoder` reads, as before: every golden file's format, an object without one (format
    /// 1), and the bytes it leaves to `JSONDecoder`.
    @Test func theFormatIsReadWithoutDecodingTheSnapshot() throws {
        for (name, format) in [("checkpoint-format1.json", nil), ("checkpoint-format2.json", 2), ("checkpoint-format3.json", 3), ("checkpoint-format4.json", 4)] {
            let data = try Data(contentsOf: Self.golden.appendingPathComponent(name))
            #expect(GameSession.format(of: data) == .some(format), "\(name)")
        }
        #expect(GameSession.format(of: Data(#"{}"#.utf8)) == .some(nil))
        #expect(GameSession.format(of: Data(#"{"a":[1,{"format":9}],"format":null}"#.utf8)) == .some(nil))
        for declined in [#"[4]"#, #"{"format":"4"}"#, #"{"format":4,"format":5}"#, #"{"format":4}x"#, #"{"format":4"#, ""] {
            #expect(GameSession.format(of: Data(declined.utf8)) == nil, "\(declined)")
        }
        #expect(throws: ScoreFeedError.self) { try GameSession.read(Data(#"{"format":4"#.utf8), file: "torn.json") }
    }

    @Test func aFormat1CheckpointResumesTheGame() async throws {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format1.json"))
        let checkpoint = try GameSession.decode(data, file: "checkpoint-format1.json")
        let spent = try #require(checkpoint.coalescer).budget.spent
        #expect(!spent.isEmpty, "the old policy's spent budget is read")
        let (restoration, records, service) = try await Self.resume("checkpoint-format1.json", lines: Self.lines)
        #expect(restoration.resumedGames == 1)
        #expect(restoration.problems.isEmpty, "\(restoration.problems)")
        #expect(records.first?.seq == 55, "numbering continues after the 54 pushes it had sent")
        #expect(records.map(\.seq) == Array(55..<(55 + records.count)))
        Make.expectOneFinal(records)
        let clean = try await Self.clean()
        #expect(records.last?.state == clean.last?.state, "the same final")
        // Within the assumed budget, 15 an hour; beyond it (each with its copy), 15 more.
        let beyond = records.filter { $0.priority == 10 && $0.reason.contains("beyond the assumed budget") }
        let tens = spent + records.filter { $0.priority == 10 && !beyond.contains($0) }.map(\.sentAt)
        for t in tens {
            #expect(tens.filter { $0 > t.addingTimeInterval(-3600) && $0 <= t }.count <= 15, "rolling hour at \(t)")
        }
        let extra = beyond.map(\.sentAt)
        for t in extra {
            #expect(extra.filter { $0 > t.addingTimeInterval(-3600) && $0 <= t }.count <= 15, "rolling hour at \(t)")
        }
        for push in beyond {
            #expect(records.contains { $0.priority == 5 && $0.state == push.state && $0.sentAt == push.sentAt }, "its copy at \(push.sentAt)")
        }
        let summary = try #require(await service.summaries().first)
        #expect(summary.statistics.duplicates == 250, "the applied events are known by number")
    }

    @Test func aFormat2CheckpointResumesWithItsAppliedEventsAndNumbering() async throws {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format2.json"))
        let checkpoint = try GameSession.decode(data, file: "checkpoint-format2.json")
        #expect(Self.format(data) == 2)
        #expect(checkpoint.applied.count == 250)
        #expect(checkpoint.statistics.pushes == 55)
        let (restoration, records, service) = try await Self.resume("checkpoint-format2.json", lines: Self.lines)
        #expect(restoration.resumedGames == 1 && restoration.problems.isEmpty)
        #expect(records.first?.seq == 56, "numbering continues")
        #expect(records.last?.event == .end)
        #expect(records.last.map { [$0.state.awayScore, $0.state.homeScore] } == [96, 97])
        let summary = try #require(await service.summaries().first)
        #expect(summary.statistics.duplicates == 250)
    }

    /// Written by `serve --mode broadcast --channels manage` after the first 250 events: the game's
    /// channel is open, and the game goes on on it after a restart, then deletes it.
    @Test func aFormat3CheckpointResumesOnItsOwnChannel() async throws {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format3.json"))
        let checkpoint = try GameSession.decode(data, file: "checkpoint-format3.json")
        #expect(Self.format(data) == 3 && checkpoint.applied.count == 250)
        let id = "HfUdV99TILdOWFq2s2Qd+Q=="
        #expect(checkpoint.channel.phase == .open(id: id) && checkpoint.channel.origin == .scorefeed)
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try data.write(to: dir.appendingPathComponent("game-SF00000007.json"))
        let sink = RecordingSink(answeringChannels: true)
        let service = try GameService(
            options: .init(
                clock: .feed, renderer: PushRenderer.Configuration(bundleId: "com.acme", mode: .broadcastPerGame).lingering(0),
                stateDirectory: dir, channels: .init(manage: true)),
            sink: sink)
        try await service.restore()
        await RealFeedServeTests.feed(Self.lines, to: service)
        await service.shutDown()
        let records = await sink.records
        #expect(records.first?.seq == 79, "numbering continues")
        #expect(records.allSatisfy { $0.request.headers["apns-channel-id"] == id })
        #expect(records.last.map { [$0.state.awayScore, $0.state.homeScore] } == [96, 97])
        let deletes = await sink.channelRequests.filter { $0.action == .delete }
        #expect(deletes.map { $0.request.headers["apns-channel-id"] } == [id], "the game's channel is deleted after its end")
        #expect(await service.summaries().first?.channel.state == "deleted")
    }

    /// A snapshot written when the channel linger was kept beside the renderer's configuration
    /// (`"channelLinger"`): its journal is applied under that linger, and the restored game
    /// then takes today's. A linger in the configuration (written since) is the one read.
    @Test func theLingerAnOlderSnapshotKeptBesideTheConfigurationIsRead() throws {
        let golden = String(decoding: try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format4.json")), as: UTF8.self)
        #expect(golden.contains("\"channelLinger\":120,"))
        let older = Data(golden.replacingOccurrences(of: "\"channelLinger\":120,", with: "\"channelLinger\":45,").utf8)
        #expect(try GameSession.decode(older, file: "older.json").renderer.configuration.channelLinger == 45)
        let resumed = try GameSession.restore(older, file: "older.json", renderer: PushRenderer.Configuration().lingering(300))
        #expect(resumed.renderer.configuration.channelLinger == 300)
        let newer = Data(golden.replacingOccurrences(of: "\"renderer\":{", with: "\"renderer\":{\"lingerOption\":10,").utf8)
        #expect(try GameSession.decode(newer, file: "newer.json").renderer.configuration.channelLinger == 10)
        // Written again, the linger is in the configuration only.
        var session = try GameSession.decode(older, file: "older.json")
        session.lanes[0].renderer = session.renderer.reconfigured(PushRenderer.Configuration().lingering(45))
        let written = String(decoding: try session.encoded(), as: UTF8.self)
        #expect(written.contains("\"lingerOption\":45") && !written.contains("\"channelLinger\""))
    }

    /// Written by `serve --state-dir`, killed after the first 250 events: a snapshot taken at
    /// the game's first event and a journal of everything since. The game resumes where the
    /// journal ends: its 250 events applied, its numbering after the last push it sent.
    @Test func aFormat4SnapshotWithItsJournalResumesWhereTheJournalEnds() async throws {
        let snapshot = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format4.json"))
        let journal = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format4.journal"))
        #expect(Self.format(snapshot) == 4)
        let restored = try GameSession.restore(snapshot, journal: journal, file: "checkpoint-format4.json")
        #expect(restored.applied.count == 250 && restored.statistics.accepted == 250)
        #expect(restored.renderer.seq == Journal.read(journal).seq)
        // The pushes the journal does not know delivered (the sink's pipe was full at the kill).
        let pending = restored.outbox.compactMap { if case .push(let record) = $0 { record.seq } else { nil } }
        #expect(pending == Array((restored.renderer.seq - pending.count + 1)...restored.renderer.seq))
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try snapshot.write(to: dir.appendingPathComponent("game-SF00000007.json"))
        try journal.write(to: dir.appendingPathComponent("game-SF00000007.journal"))
        let sink = RecordingSink()
        let service = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: sink)
        #expect(try await service.restore().resumedGames == 1)
        await RealFeedServeTests.feed(Self.lines, to: service)
        await service.shutDown()
        let records = await sink.records
        #expect(records.first?.seq == pending.first ?? restored.renderer.seq + 1, "the undelivered go first, the same")
        #expect(records.map(\.seq) == Array((records.first?.seq ?? 0)..<((records.first?.seq ?? 0) + records.count)), "numbering continues")
        #expect(records.last.map { [$0.state.awayScore, $0.state.homeScore] } == [96, 97])
        #expect(await service.summaries().first?.statistics.duplicates == 250)
    }

    /// A state directory written before the poller read `meta.time` as a moment holds the newest
    /// copy's time as its Eastern wall-clock time read as UTC, four or five hours before the
    /// moment: in a snapshot (`newestCopy`) and in journal lines (`{"copy":…}`). Both are read
    /// back as the moment, so the restarted poller's floor still refuses a stale edge's older
    /// copy (taken as hours old, every copy would get in until a fresh one). Written again, the
    /// moment goes under its own names.
    @Test func aNewestCopyKeptAsWallClockTimeIsReadBackAsTheMoment() throws {
        let game = GameGenerator(seed: 3).generate()
        var session = GameSession(attributes: game.attributes)
        for (index, event) in game.events.prefix(40).enumerated() { session.receive(event, index: index, now: event.time) }
        // 2025-02-11 01:16:27 Eastern standard time is 06:16:27 UTC; 2025-07-01 20:30 daylight time is 00:30 UTC.
        let wall = Date(timeIntervalSince1970: try #require(ISOTime.seconds("2025-02-11T01:16:27Z")))
        let moment = Date(timeIntervalSince1970: try #require(ISOTime.seconds("2025-02-11T06:16:27Z")))
        session.noteCopy(written: moment)
        let written = try session.encoded()
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains("\"newestCopyAt\":") && !text.contains("\"newestCopy\":"))
        var object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        object["newestCopy"] = wall.timeIntervalSinceReferenceDate
        object["newestCopyAt"] = nil
        let older = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        let restored = try GameSession.decode(older, file: "older.json")
        #expect(restored.newestCopy == moment)
        let again = String(decoding: try restored.encoded(), as: UTF8.self)
        #expect(again.contains("\"newestCopyAt\":") && !again.contains("\"newestCopy\":"))
        // A journal line of that version, replayed.
        var replayed = restored
        let summer = Date(timeIntervalSince1970: try #require(ISOTime.seconds("2025-06-30T20:30:00Z")))
        replayed.apply(.copy(written: summer))
        #expect(replayed.newestCopy?.timeIntervalSince1970 == ISOTime.seconds("2025-07-01T00:30:00Z"))
        replayed.apply(.copyAt(written: moment.addingTimeInterval(86_400 * 200)))
        #expect(replayed.newestCopy == moment.addingTimeInterval(86_400 * 200))
    }

    @Test func aCheckpointFromBeforeTheDelayHedgeHedgesLikeTheDefaults() throws {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format2.json"))
        let configuration = try #require(try GameSession.decode(data, file: "checkpoint-format2.json").coalescer).configuration
        #expect(configuration.priority5Delay == 120)
        #expect(configuration.shortestPriority5Delay == Coalescer.Configuration.standard.shortestPriority5Delay)
        #expect(configuration.keepUsesShare == Coalescer.Configuration.standard.keepUsesShare)
        #expect(configuration.hedgesDelay)
        #expect(configuration.largestBudget == 2 * configuration.budget, "an unknown budget is hedged up to twice the assumed one")
        let again = try JSONDecoder().decode(Coalescer.Configuration.self, from: try JSONEncoder().encode(configuration.knowingDelay(45)))
        #expect(again.priority5Delay == 45 && again.shortestPriority5Delay == 45 && !again.hedgesDelay, "a known delay stays known")
    }

    @Test(arguments: [GameSession.checkpointFormat + 1, 0, 99])
    func anUnknownFormatIsAClearError(_ format: Int) throws {
        var object = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format2.json"))) as? [String: Any])
        object["format"] = format
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect {
            _ = try GameSession.decode(data, file: "game-X.json")
        } throws: { error in
            guard let error = error as? ScoreFeedError else { return false }
            return error.code == .unknownFormat && error.message.contains("format \(format)")
                && error.location.file == "game-X.json"
        }
    }

    @Test func optionsGivenAtRestartApplyAndWhatWasSpentStaysSpent() throws {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format2.json"))
        let checkpoint = try GameSession.decode(data, file: "checkpoint-format2.json")
        let spent = try #require(checkpoint.coalescer).budget.spent
        #expect(!spent.isEmpty)
        var configuration = Coalescer.Configuration.standard
        configuration.budget = 40
        var session = checkpoint
        session.resume(renderer: .init(), policy: configuration)
        let coalescer = try #require(session.policy as? Coalescer)
        #expect(coalescer.configuration.budget == 40)
        #expect(coalescer.budget.limit == 40)
        #expect(coalescer.budget.spent == spent, "the hour's spent budget is not reset")
    }

    @Test(arguments: [false, true])
    func aCheckpointWithoutItsPolicyCountsTheBudgetAsSpent(_ null: Bool) throws {
        var object = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format2.json"))) as? [String: Any])
        if null { object["coalescer"] = NSNull() } else { object.removeValue(forKey: "coalescer") }
        let checkpoint = try GameSession.decode(try JSONSerialization.data(withJSONObject: object), file: "x")
        #expect(checkpoint.policyWasReset)
        var session = checkpoint
        session.resume(renderer: .init(), policy: .standard)
        let coalescer = try #require(session.policy as? Coalescer)
        #expect(coalescer.budget.available(at: checkpoint.now) == 0)
    }

    /// The session's own `Codable` form is format 4: format 3 (the golden file written by an
    /// earlier version) plus what a journal needs. Read and written again, the file says the same
    /// (it was written before `endRecords`, empty there, existed).
    @Test func aFormat3FileIsTheSessionsOwnFormPlusTheJournalsNeeds() throws {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format3.json"))
        let session = try GameSession.decode(data, file: "checkpoint-format3.json")
        var written = String(decoding: try session.encoded(), as: UTF8.self)
        for added in ["\"endRecords\":[],", "\"journaled\":0,"] {
            #expect(written.contains(added))
            written = written.replacingOccurrences(of: added, with: "")
        }
        written = written.replacingOccurrences(of: "\"format\":4", with: "\"format\":3")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let renderer = String(decoding: try encoder.encode(PushRenderer.Configuration()), as: UTF8.self)
        #expect(written.contains(",\"renderer\":" + renderer))
        written = written.replacingOccurrences(of: ",\"renderer\":" + renderer, with: "")
        let golden = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        #expect(written == golden)
    }

    @Test func theSameStateWritesTheSameBytes() throws {
        let data = try Data(contentsOf: Self.golden.appendingPathComponent("checkpoint-format2.json"))
        let checkpoint = try GameSession.decode(data, file: "checkpoint-format2.json")
        let again = try GameSession.decode(try checkpoint.encoded(), file: "again")
        #expect(try again.encoded() == checkpoint.encoded())
        #expect(again.applied == checkpoint.applied)
    }
}

extension CheckpointTests {
    /// The `format` a checkpoint file states.
    static func format(_ data: Data) -> Int? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["format"] as? Int
    }
}

extension GameSession {
    /// The restored policy, when it is a coalescer.
    fileprivate var coalescer: Coalescer? { policy as? Coalescer }
    /// The sequence numbers the game has applied.
    fileprivate var applied: Set<Int> { Set(fold.validator.applied.keys) }
}

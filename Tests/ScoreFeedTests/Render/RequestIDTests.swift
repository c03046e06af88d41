import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// A push's `apns-id` covers its body (``RequestID/uuid(for:)``): a record retried keeps its id,
/// any other body gets another, and two instances that number an activity from 1 again (a restart
/// without a state dir, a fresh state dir after one was lost) never give one id two bodies.
@Suite("apns-id: one body per id, the same for a retry")
struct RequestIDTests {
    // MARK: - The hash

    /// The digests the reference C code and Python's `mmh3.hash_bytes` give (seed 0).
    static let vectors: [(String, String)] = [
        ("", "00000000000000000000000000000000"),
        ("hello", "029bbd41b3a7d8cb191dae486a901e5b"),
        ("The quick brown fox jumps over the lazy dog", "6c1b07bc7bbc4be347939ac4a93c437a"),
        ("0123456789abcdef", "a7d14acf946de04bda08a7635c5bc387"),
        ("0123456789abcdefg", "def945aa2d61328eee72c306c2f40008"),
    ]

    static func hex(_ hash: Murmur3) -> String {
        let (first, second) = hash.finished
        return (0..<16).map { index in
            let byte = UInt8(truncatingIfNeeded: (index < 8 ? first : second) >> UInt64(8 * (index % 8)))
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }

    @Test(arguments: vectors)
    func murmur3GivesTheReferenceDigestWhateverThePieces(_ text: String, _ digest: String) {
        let bytes = Array(text.utf8)
        // Whole, split at every point, and byte by byte.
        var splits: [[Range<Int>]] = [[0..<bytes.count], bytes.indices.map { $0..<($0 + 1) }]
        for cut in 0...bytes.count { splits.append([0..<cut, cut..<bytes.count]) }
        for pieces in splits {
            var hash = Murmur3()
            for range in pieces { bytes[range].withUnsafeBytes { hash.add($0) } }
            #expect(Self.hex(hash) == digest, "\(text) in \(pieces.count) pieces")
        }
    }

    @Test func eightBytesAtOnceAreTheirLittleEndianBytes() {
        for lead in 0..<20 {
            let value: UInt64 = 0x0123_4567_89AB_CDEF
            let prefix = [UInt8](repeating: 7, count: lead)
            var words = Murmur3(), bytes = Murmur3()
            prefix.withUnsafeBytes { words.add($0) }
            words.add(value)
            prefix.withUnsafeBytes { bytes.add($0) }
            withUnsafeBytes(of: value.littleEndian) { bytes.add($0) }
            #expect(Self.hex(words) == Self.hex(bytes), "after \(lead) bytes")
        }
    }

    // MARK: - The rule

    static func record(
        activity: String = "G1", seq: Int = 7, at seconds: Double = 0.25, mode: PushRenderer.Mode = .token,
        state: GameState = Make.live, priority: Int = 10
    ) throws -> PushRecord {
        var renderer = PushRenderer(
            attributes: Make.attributes, configuration: .init(bundleId: "com.acme", activity: activity, mode: mode))
        renderer.resume(seq: seq - 1, lastTimestamp: 0, startPending: false)
        return try renderer.render(
            Push(event: .update, priority: priority, reason: "score"), state: state, diff: Diff(), coalesced: 1,
            sentAt: Make.start.addingTimeInterval(seconds), sourceTime: Make.start)
    }

    /// What a record may differ in and keep its id: the same request made at the same moment
    /// (its own notes, and the channel a per-game broadcast is stamped with as it leaves); any
    /// other change is another body, and another id.
    enum Change: String, CaseIterable, Sendable {
        case nothing, reason, diff, coalesced, sourceTime, idHeaders, stampedChannel, sentAtWithinTheMillisecond
        case payloadByte, score, priority, expiration, topic, path, sentAt, sentAtWithinTheSecond, seq, activity

        var keepsTheID: Bool {
            switch self {
            case .nothing, .reason, .diff, .coalesced, .sourceTime, .idHeaders, .stampedChannel, .sentAtWithinTheMillisecond:
                return true
            default: return false
            }
        }

        func apply(to record: inout PushRecord) throws {
            switch self {
            case .nothing: break
            case .reason: record.reason += " (again)"
            case .diff: record.diff = Diff([.init(.homeScore, .int(1), .int(3))])
            case .coalesced: record.coalesced += 4
            case .sourceTime: record.sourceTime = Make.start.addingTimeInterval(-9)
            case .idHeaders:
                record.request.headers["apns-id"] = UUID().uuidString
                record.request.headers["apns-request-id"] = UUID().uuidString
            case .stampedChannel: record.request.headers["apns-channel-id"] = "Y2gx"
            case .payloadByte:
                var bytes = [UInt8](record.payload)
                bytes[bytes.count / 2] ^= 1
                record.payload = Data(bytes)
            case .score:
                var state = Make.live
                state.homeScore = 2
                record = try RequestIDTests.record(state: state)
            case .priority: record = try RequestIDTests.record(priority: 5)
            case .expiration: record.request.headers["apns-expiration"] = "1"
            case .topic: record.request.headers["apns-topic"] = "com.other.push-type.liveactivity"
            case .path: record = try RequestIDTests.record(mode: .broadcast(channelId: "Y2gx"))
            case .sentAt: record = try RequestIDTests.record(at: 1.25)
            case .sentAtWithinTheMillisecond:
                // The line writes sentAt to the millisecond: the id covers what the line says.
                record.sentAt = record.sentAt.addingTimeInterval(0.0001)
            case .sentAtWithinTheSecond:
                // The same payload bytes (the same send second), another instant.
                record.sentAt = record.sentAt.addingTimeInterval(0.5)
            case .seq: record = try RequestIDTests.record(seq: 8)
            case .activity: record = try RequestIDTests.record(activity: "G2")
            }
        }
    }

    @Test(arguments: Change.allCases)
    func anIDNamesOneBody(_ change: Change) throws {
        let base = try Self.record()
        var other = base
        try change.apply(to: &other)
        #expect((RequestID.uuid(for: other) == RequestID.uuid(for: base)) == change.keepsTheID)
        #expect(base.request.headers["apns-id"] == RequestID.uuid(for: base), "the renderer follows the rule")
    }

    /// Every push of every fixture, in every mode: its `apns-id` is the rule's, a version-8 UUID
    /// in Apple's canonical lower case, and no two pushes share one.
    @Test(arguments: ["token", "start", "broadcast"])
    func everyRenderedIDFollowsTheRule(_ mode: String) async throws {
        let configuration = PushRenderer.Configuration(
            mode: mode == "broadcast" ? .broadcast(channelId: "Y2gx") : .token, start: mode == "start")
        var ids: Set<String> = []
        var count = 0
        for file in Make.fixtureFiles() {
            let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
            let sink = RecordingSink()
            _ = try await Replay(renderer: configuration).run(document, sink: sink)
            for record in await sink.records {
                let id = try #require(record.request.headers["apns-id"])
                #expect(id == RequestID.uuid(for: record), "\(file) seq \(record.seq)")
                // What the line says is enough: its sentAt as written reads back to the same id.
                let line = try #require(try JSONSerialization.jsonObject(with: record.jsonLine()) as? [String: Any])
                var read = record
                read.sentAt = Date(timeIntervalSince1970: try #require(line["sentAt"] as? Double))
                #expect(RequestID.uuid(for: read) == id)
                #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(id)")
                if mode == "broadcast" { #expect(record.request.headers["apns-request-id"] == id) }
                ids.insert(id)
                count += 1
            }
        }
        #expect(ids.count == count, "no two pushes share an id")
    }

    // MARK: - Retries keep their id

    /// A game's session, its pushes rendered and not yet handed to the sink.
    static func pending(events: Int = 40) -> (GameSession, [GameEvent]) {
        let game = GameGenerator(seed: 11).generate()
        var session = GameSession(attributes: game.attributes, policy: EveryChangePolicy())
        session.recordsInputs = true
        for (index, event) in game.events.prefix(events).enumerated() { session.receive(event, index: index, now: event.time) }
        return (session, game.events)
    }

    static func ids(_ outbox: [PushRenderer.Output]) -> [String] {
        outbox.compactMap { if case .push(let record) = $0 { record.request.headers["apns-id"] } else { nil } }
    }

    @Test func aRetriedOutboxRecordKeepsItsIDAcrossACheckpoint() throws {
        let (session, _) = Self.pending()
        let waiting = Self.ids(session.outbox)
        #expect(waiting.count > 5)
        let restored = try GameSession.restore(session.encoded(), file: "game.json")
        #expect(Self.ids(restored.outbox) == waiting)
        #expect(restored.outbox == session.outbox, "the same records, byte for byte")
    }

    @Test func aRecordMadeAgainFromTheJournalHasTheSameID() throws {
        let game = GameGenerator(seed: 11).generate()
        var live = GameSession(attributes: game.attributes)
        live.recordsInputs = true
        _ = live.takeUnjournaled()
        let snapshot = try live.encoded()
        // Nothing handed to the sink: every push is still in the outbox.
        for (index, event) in game.events.prefix(200).enumerated() {
            live.receive(event, index: index, now: event.time)
            while let deadline = live.deadline, deadline <= event.time { live.tick(now: deadline) }
        }
        var again = try GameSession.restore(snapshot, file: "game.json")
        for input in live.takeUnjournaled() { again.apply(input) }
        #expect(Self.ids(again.outbox) == Self.ids(live.outbox))
        #expect(Self.ids(live.outbox).count > 5)
    }

    /// A snapshot written before this rule (the golden format-4 one, with its journal): the
    /// records its journal makes again keep the ids the earlier version gave them, and the game
    /// goes on under today's rule.
    @Test func aJournalFromBeforeTheRuleKeepsItsRecordsIDs() throws {
        let golden = CheckpointTests.golden
        let snapshot = try Data(contentsOf: golden.appendingPathComponent("checkpoint-format4.json"))
        let journal = try Data(contentsOf: golden.appendingPathComponent("checkpoint-format4.journal"))
        let read = try GameSession.read(snapshot, journal: journal, file: "checkpoint-format4.json")
        #expect(read.renderer.configuration.requestIDs == .sequence)
        let pending = read.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
        #expect(!pending.isEmpty)
        for record in pending {
            #expect(record.request.headers["apns-id"] == RequestID.uuid(activity: record.activity, seq: record.seq))
        }
        // The snapshot's outbox was written with upper-case ids; they are read lower-cased.
        let written = try #require(String(data: snapshot, encoding: .utf8)?.firstMatch(of: /"apns-id":"([0-9A-F-]{36})"/)?.1)
        let alone = try GameSession.read(snapshot, file: "checkpoint-format4.json")
        let fromSnapshot = try #require(alone.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }.first)
        #expect(fromSnapshot.request.headers["apns-id"] == written.lowercased())
        #expect(fromSnapshot.request.headers["apns-id"] == RequestID.uuid(activity: fromSnapshot.activity, seq: fromSnapshot.seq))
        let resumed = try GameSession.restore(snapshot, journal: journal, file: "checkpoint-format4.json")
        #expect(resumed.renderer.configuration.requestIDs == .record)
        #expect(resumed.outbox == read.outbox, "still the same records")
    }

    @Test func aConfigurationSaysItsRuleAndOneWithoutItIsFromBefore() throws {
        let today = try JSONDecoder().decode(PushRenderer.Configuration.self, from: JSONEncoder().encode(PushRenderer.Configuration()))
        #expect(today.requestIDs == .record && today == PushRenderer.Configuration())
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(PushRenderer.Configuration())) as? [String: Any])
        object.removeValue(forKey: "requestIDRule")
        let earlier = try JSONDecoder().decode(PushRenderer.Configuration.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(earlier.requestIDs == .sequence)
    }

    // MARK: - Failover

    /// An instance on state dir A follows a game to its middle and is lost with its machine; a new
    /// one on a fresh state dir B is handed the stream again from an earlier point, numbers from 1
    /// again, and finishes the game. Across both, every id names one body (under the first rule,
    /// (activity, seq) alone, most of B's would have named another body of A's).
    @Test(arguments: ["token", "broadcast"])
    func aFreshStateDirNeverReusesAnIDForAnotherBody(_ mode: String) async throws {
        let lines = RecordedStream.lines(seeds: [21, 22]).map { Data($0.utf8) }
        let headers = 2
        let renderer = PushRenderer.Configuration(mode: mode == "token" ? .token : .broadcast(channelId: "Y2gx"))
        func run(_ lines: some Collection<Data>) async throws -> [PushRecord] {
            let dir = RealFeedServeTests.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            let sink = RecordingSink()
            let service = try GameService(options: .init(clock: .feed, renderer: renderer, stateDirectory: dir), sink: sink)
            await RealFeedServeTests.feed(lines, to: service)
            await service.shutDown(waitingAtMost: 0)
            return await sink.records
        }
        let events = lines.count - headers
        let lost = try await run(lines.prefix(headers + events * 6 / 10))
        let fresh = try await run(Array(lines.prefix(headers)) + lines.dropFirst(headers + events / 2))
        var bodies: [String: Data] = [:]
        var shared = 0
        for record in lost + fresh {
            let id = try #require(record.request.headers["apns-id"])
            if let body = bodies[id] {
                #expect(body == record.jsonLine(), "\(id) names two bodies")
                shared += 1
            }
            bodies[id] = record.jsonLine()
        }
        #expect(shared == 0, "the lost instance ended with unsent pushes at most, never the fresh one's")
        let sequenceClashes = fresh.filter { next in
            lost.contains { $0.activity == next.activity && $0.seq == next.seq && $0.payload != next.payload }
        }
        #expect(sequenceClashes.count > fresh.count / 2, "what (activity, seq) alone would have given")
    }
}

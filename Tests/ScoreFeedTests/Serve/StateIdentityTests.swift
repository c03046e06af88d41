import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// Each state directory has an identity, folded into its channel creates' `apns-request-id`: a
/// fresh directory that replaces a lost one makes its own channels (a sender that deduplicates by
/// request id never hands it the lost one's), never broadcasts on a channel it does not own, and
/// finds the lost directory's channels as orphans.
@Suite("State directory identity and channel creates")
struct StateIdentityTests {
    static let bundle = "com.acme"

    // MARK: - The identity

    @Test func aDirectoryGetsItsIdentityOnceAndKeepsIt() throws {
        let dir = RealFeedServeTests.temporaryDirectory(), other = RealFeedServeTests.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: other)
        }
        let first = try CheckpointStore(directory: dir).identity()
        #expect(UUID(uuidString: first) != nil)
        #expect(try CheckpointStore(directory: dir).identity() == first, "read back on a later start")
        #expect(try CheckpointStore(directory: other).identity() != first, "another directory, another identity")
        let written = try String(contentsOf: dir.appendingPathComponent(CheckpointStore.identityFileName), encoding: .utf8)
        #expect(written == first + "\n")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names == [CheckpointStore.identityFileName], "no temporary file left: \(names)")
    }

    /// An identity whose name cannot be made durable (the directory's sync fails) is an error at
    /// the start that writes it, not taken on trust; the next start reads the one linked.
    @Test func anIdentityWhoseDirectoryCannotBeSyncedIsAnError() throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect {
            _ = try CheckpointStore(directory: dir, diskFault: { EIO }).identity()
        } throws: { error in
            (error as? ScoreFeedError)?.message.contains("cannot sync the state directory") == true
        }
        let identity = try CheckpointStore(directory: dir).identity()
        #expect(UUID(uuidString: identity) != nil)
        #expect(try CheckpointStore(directory: dir).identity() == identity)
    }

    @Test(arguments: ["", "not a uuid\n", "{\"identity\":1}"])
    func anIdentityThatIsNotAUUIDIsAnErrorAndIsKept(_ text: String) throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CheckpointStore(directory: dir)
        let file = dir.appendingPathComponent(CheckpointStore.identityFileName)
        try Data(text.utf8).write(to: file)
        #expect {
            _ = try store.identity()
        } throws: { error in
            (error as? ScoreFeedError)?.code == .invalidValue && (error as? ScoreFeedError)?.location.file == file.path
        }
        #expect(try Data(contentsOf: file) == Data(text.utf8), "not replaced")
    }

    @Test func aServiceWithoutAStateDirHasAnIdentityOfItsOwnPerRun() throws {
        let one = try GameService(options: .init(clock: .feed), sink: RecordingSink())
        let two = try GameService(options: .init(clock: .feed), sink: RecordingSink())
        #expect(UUID(uuidString: one.identity) != nil && one.identity != two.identity)
    }

    // MARK: - The create's request id

    /// A channel created by the directory `owner` (nil: before identities), after `creates`
    /// creates.
    static func creating(owner: String?, creates: Int = 1) -> BroadcastChannel {
        var channel = BroadcastChannel()
        if let owner { channel.claim(for: owner) }
        for _ in 0..<creates {
            channel.phase = .none
            channel.create(storage: 0)
        }
        return channel
    }

    static let a = "1E4C7A0B-8A43-4C7E-9D55-0F3B2C1D4E5F", b = "6F0D2B9A-3C4E-4F5A-8B6C-7D8E9FA0B1C2"

    /// (game, owner, creates) of two creates, and whether their request ids are the same.
    @Test(arguments: [
        (("G", a, 1), ("G", a, 1), true),  // the same create sent again after a restart on the same directory
        (("G", a, 1), ("G", b, 1), false),  // a fresh directory's first create for the game
        (("G", a, 1), ("G", a, 2), false),  // a create retried after an unusable answer
        (("G", a, 1), ("H", a, 1), false),  // another game
        (("G", nil, 1), ("G", a, 1), false),  // before identities, and after
        (("G", nil, 1), ("G", nil, 1), true),
    ] as [((String, String?, Int), (String, String?, Int), Bool)])
    func createRequestIDs(_ one: (String, String?, Int), _ two: (String, String?, Int), same: Bool) throws {
        let first = try #require(Self.creating(owner: one.1, creates: one.2).request(game: one.0, bundleId: Self.bundle))
        let second = try #require(Self.creating(owner: two.1, creates: two.2).request(game: two.0, bundleId: Self.bundle))
        #expect((first.requestID == second.requestID) == same)
        #expect(UUID(uuidString: first.requestID) != nil)
    }

    /// A game started afresh on a lost checkpoint claims `<identity>/after-<seq>`; the plain
    /// identity a restart's restore claims does not take it away, so its first create never
    /// carries the request id of the lost life's first (seed 101, day 18 of `simulate --platform
    /// both`: a deduplicating sender handed back that channel, deleted since).
    @Test func aClaimKeepsTheOwnerClaimedBefore() {
        var channel = BroadcastChannel(), plain = BroadcastChannel()
        channel.claim(for: Self.a + "/after-2")
        channel.claim(for: Self.a)
        plain.claim(for: Self.a)
        #expect(channel.owner == Self.a + "/after-2")
        #expect(channel.createRequestID(game: "G") != plain.createRequestID(game: "G"))
    }

    @Test func aChannelFromBeforeIdentitiesKeepsItsCreatesRequestID() throws {
        // Its create went out as "channel-create:<game>": sent again, it must carry that id.
        let legacy = Self.creating(owner: nil)
        #expect(legacy.request(game: "G", bundleId: Self.bundle)?.requestID == RequestID.uuid(activity: "channel-create:G", seq: 1))
        var claimed = legacy
        claimed.claim(for: Self.a)
        #expect(claimed.owner == nil, "a create already asked for keeps the owner it was sent under")
        let restored = try JSONDecoder().decode(BroadcastChannel.self, from: JSONEncoder().encode(Self.creating(owner: Self.a)))
        #expect(restored.owner == Self.a, "kept in the checkpoint")
        #expect(restored.request(game: "G", bundleId: Self.bundle)?.requestID == Self.creating(owner: Self.a).request(game: "G", bundleId: Self.bundle)?.requestID)
    }

    // MARK: - Failover in broadcast mode

    /// APNs behind a sender that deduplicates creates by `apns-request-id` (the same id hands back
    /// the channel it made then), as the manual (RunningServe.md) invites.
    actor DeduplicatingSender {
        let apns = RecordingSink(answeringChannels: true)
        var made: [String: ChannelAnswer] = [:]

        func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
            if request.action == .create, let earlier = made[request.requestID] { return earlier }
            let answer = try await apns.manage(request)
            if request.action == .create { made[request.requestID] = answer }
            return answer
        }

        nonisolated func sink() -> CallbackSink {
            CallbackSink(send: { record in try await self.apns.send(record) }, manage: { request in try await self.manage(request) })
        }
    }

    static func service(_ sink: any PushSink, state: URL, deleteUnknown: Bool = false, report: @escaping @Sendable (String) -> Void = { _ in }) throws -> GameService {
        try GameService(
            options: .init(
                clock: .feed, renderer: PushRenderer.Configuration(bundleId: bundle, mode: .broadcastPerGame).lingering(0),
                stateDirectory: state, channels: .init(manage: true, deleteUnknown: deleteUnknown)),
            sink: sink, report: report)
    }

    /// The instance on state dir A has made its game's channel and is lost with its machine; the
    /// one on fresh dir B is handed the stream again: B's create carries B's own request id, so
    /// the deduplicating sender makes B a channel of its own, every broadcast of B goes there, and
    /// B's reconciliation finds A's channel (deleted with `--delete-unknown-channels`). A restart on
    /// A itself sends A's create id again.
    @Test(arguments: [false, true])
    func aFreshStateDirMakesItsOwnChannelAndFindsTheLostOnes(_ deleteUnknown: Bool) async throws {
        let lost = RealFeedServeTests.temporaryDirectory(), fresh = RealFeedServeTests.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: lost)
            try? FileManager.default.removeItem(at: fresh)
        }
        let sender = DeduplicatingSender()
        let lines = BroadcastChannelTests.lines(seeds: [3])
        let old = try Self.service(sender.sink(), state: lost)
        await RealFeedServeTests.feed(lines.prefix(lines.count / 2), to: old)
        let oldChannel = try #require(await old.summaries().first?.channel.sendableID)
        let oldCreate = try #require(await sender.apns.channelRequests.first { $0.action == .create })
        let oldRecords = await sender.apns.records
        #expect(!oldRecords.isEmpty && oldRecords.allSatisfy { $0.request.headers["apns-channel-id"] == oldChannel })

        // The same directory again (a restart, not a loss): the same identity and create id.
        let again = try Self.service(CallbackSink(), state: lost)
        #expect(again.identity == old.identity)
        var session = GameSession(attributes: Make.attributes)
        session.claimChannel(for: again.identity)
        #expect(session.channel.owner == old.identity)

        let said = Said()
        let new = try Self.service(sender.sink(), state: fresh, deleteUnknown: deleteUnknown, report: { said.add($0) })
        #expect(new.identity != old.identity)
        try await new.restore()
        await RealFeedServeTests.feed(lines, to: new)
        await new.shutDown(waitingAtMost: 0)
        let creates = await sender.apns.channelRequests.filter { $0.action == .create }
        #expect(creates.count == 2 && creates[1].requestID != oldCreate.requestID)
        let newRecords = await sender.apns.records.dropFirst(oldRecords.count)
        let newChannels = Set(newRecords.map { $0.request.headers["apns-channel-id"] })
        #expect(!newRecords.isEmpty && newChannels.count == 1 && !newChannels.contains(oldChannel), "never on the lost directory's channel")
        Make.expectOneFinal(Array(newRecords))
        if deleteUnknown {
            let deletes = await sender.apns.channelRequests.filter { $0.action == .delete }
            #expect(deletes.first?.request.headers["apns-channel-id"] == oldChannel, "the orphan is deleted at the start")
            #expect(said.lines.contains { $0.contains("no game owned") })
        } else {
            #expect(said.lines.contains { $0.contains(oldChannel) }, "the lost directory's channel is found: \(said.lines)")
        }
        let open = await sender.apns.openChannels
        #expect(open == (deleteUnknown ? [] : [oldChannel]), "the fresh directory's own channel is deleted after its game; the orphan with the flag")
    }
}

import Foundation
import Synchronization
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The journal: what a game did since its snapshot, appended, synced once per batch, read back
/// exactly, a torn tail dropped.
@Suite("Journal: durable without rewriting the game")
struct JournalTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-journal-\(UUID().uuidString)")
    }

    /// A game's engine checkpointing into `dir` (its disk failing while `fault` says so), on a
    /// manual clock, into a recording sink; and its events: the tip-off, then a basket every 30 s
    /// up to event number `lastEvent`.
    static func gameOnDisk(
        _ dir: URL, fault: CheckpointStore.DiskFault? = nil, lastEvent: Int
    ) throws -> (store: CheckpointStore, clock: ManualClock, sink: RecordingSink, engine: MatchEngine, events: [GameEvent]) {
        let store = try CheckpointStore(directory: dir, diskFault: fault)
        let clock = ManualClock(Make.start)
        let sink = RecordingSink()
        let engine = MatchEngine(attributes: Make.attributes, clock: clock, sink: sink, checkpoints: store)
        let events = [GameSessionTests.tipOff] + (2...lastEvent).map {
            Make.event($0, .fieldGoal(points: 2, made: true), team: $0 % 2 == 0 ? .home : .away, at: Double($0) * 30)
        }
        return (store, clock, sink, engine, events)
    }

    /// Hands `engine` the events of `range` (each numbered by its place), the clock moved to each
    /// one's time unless it is past it already.
    static func receive(_ events: [GameEvent], _ range: Range<Int>, on engine: MatchEngine, clock: ManualClock) async throws {
        for index in range {
            clock.advance(to: max(clock.now, events[index].time))
            try await engine.receive(events[index], index: index)
        }
    }

    /// Moves the clock to the engine's checkpoint retry and asks for it (a failing write tried again).
    static func tryAgain(_ engine: MatchEngine, clock: ManualClock) async throws {
        clock.advance(to: try #require(await engine.checkpointRetry))
        try await engine.flush()
    }

    /// The game as a restart reads it from `store` (its one game), once the journal is synced.
    static func restoredFromDisk(_ store: CheckpointStore) throws -> GameSession {
        try store.journal.sync()
        let entry = try #require(try store.readAll().first)
        return try GameSession.restore(entry.data, journal: entry.journal, file: entry.file.path)
    }

    /// The records after a spell when nothing could leave the outbox (`before` went earlier): in
    /// order, and of what waited only the newest state went (``GameSession/supersedeWaiting()``),
    /// the older updates superseded: none of them is sent stale.
    static func expectNewestWentAlone(
        _ records: [PushRecord], after before: Int, _ statistics: GameSession.Statistics, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let held = records.dropFirst(before)
        #expect(!held.isEmpty && zip(records, records.dropFirst()).allSatisfy { $0.seq < $1.seq }, "in order", sourceLocation: sourceLocation)
        #expect(Set(held.map(\.state)).count == 1, "the newest state alone: \(held.map(\.seq))", sourceLocation: sourceLocation)
        #expect(statistics.superseded > 0 && held.last.map { $0.seq > held.count + before } == true, "the older ones superseded",
                sourceLocation: sourceLocation)
    }

    /// A session that records its inputs, fed `events` of a generated game.
    static func recorded(_ events: ArraySlice<GameEvent>, into session: inout GameSession) {
        for (index, event) in zip(events.indices, events) {
            session.receive(event, index: index, now: event.time)
            while let deadline = session.deadline, deadline <= event.time { session.tick(now: deadline) }
            while case .output = session.nextDelivery { session.delivered(now: event.time) }
        }
    }

    @Test func aSnapshotAndItsJournalGiveBackTheSameGameByteForByte() throws {
        let game = GameGenerator(seed: 7).generate()
        var live = GameSession(attributes: game.attributes)
        live.recordsInputs = true
        Self.recorded(game.events.prefix(200), into: &live)
        _ = live.takeUnjournaled()
        let snapshot = try live.encoded()
        let journal = Journal()
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("game.journal").path
        // Three commits' worth of inputs, synced.
        for range in [200..<260, 260..<261, 261..<400] {
            Self.recorded(game.events[range], into: &live)
            let first = live.journaled + 1
            try journal.append(
                live.takeUnjournaled(), first: first, seq: live.renderer.seq, lastTimestamp: live.renderer.lastTimestamp, to: path)
        }
        try journal.sync()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let restored = try GameSession.restore(snapshot, journal: bytes, file: "game.json")
        #expect(try restored.encoded() == live.encoded(), "the same game, byte for byte")
        #expect(restored.journaled == live.journaled)
        #expect(Journal.read(bytes).seq == live.renderer.seq, "the numbering stands in the clear")
    }

    /// The journal writes its common inputs by hand: every event of every fixture and real game,
    /// and hostile text, reads back as the very input `Codable` would have written.
    @Test func theJournalsOwnSpellingReadsBackAsTheSameInput() throws {
        var events = try Make.fixtureFiles().flatMap { try FeedReader.read(path: Make.fixtures.appendingPathComponent($0).path).events }
        if NBAFiles.available {
            events += NBAFiles.games.flatMap { (try? FeedReader.read(path: NBAFiles.path($0)).events) ?? [] }
        }
        var odd = Make.event(9, .other(type: "quote \" backslash \\ tab \t nul \u{0} é 😀"), team: .home, clock: 0.1 + 0.2)
        odd.player = "\u{1F}\n"
        odd.description = String(repeating: "ü", count: 600)
        odd.feedScore = FinalScore(home: 3, away: -1)
        odd.time = Date(timeIntervalSinceReferenceDate: -0.0)
        events.append(odd)
        events.append(Make.event(10, .replay(ruling: nil, challenge: true)))
        events.append(Make.event(11, .substitution(out: nil)))
        var inputs: [GameSession.Input] = events.enumerated().map { .receive($1, index: $0, now: $1.time.addingTimeInterval(0.1)) }
        inputs += [.tick(now: Make.start), .finish(now: Make.start.addingTimeInterval(1e-7)), .delivered(now: nil), .delivered(now: Make.start),
                   .deliveredOnLane(1, now: nil), .deliveredOnLane(1, now: Make.start.addingTimeInterval(0.125))]
        inputs += [
            .beginArrival, .endArrival(now: Make.start.addingTimeInterval(0.25)), .staleCopy,
            .copy(written: Make.start.addingTimeInterval(-0.125)), .copyAt(written: Make.start.addingTimeInterval(-0.375)),
            .settleArrival(now: Make.start.addingTimeInterval(3.3), window: 0.5), .follow(FinalScore(home: 101, away: 99), now: Make.start),
            .restart(now: Make.start.addingTimeInterval(7.75), window: 0.5), .endConfirmed,
        ]
        #expect(inputs.count > 20)
        for input in inputs {
            var bytes = JSONBytes()
            let handWritten = input.appendJSON(to: &bytes)
            #expect(handWritten)
            let data = bytes.data()
            #expect(try JSONDecoder().decode(GameSession.Input.self, from: data) == input, "\(String(decoding: data, as: UTF8.self))")
        }
        // The byte reader reads every one of them, alone and as a journal line's array, as `JSONDecoder` does.
        var line = JSONBytes()
        line.byte(UInt8(ascii: "["))
        for (index, input) in inputs.enumerated() {
            if index > 0 { line.byte(UInt8(ascii: ",")) }
            _ = input.appendJSON(to: &line)
        }
        line.byte(UInt8(ascii: "]"))
        let scanned = JSONScanner.reading(line.data()) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) in try scanner.inputs() }
        #expect(scanned == inputs)
    }

    /// The byte reader of journal lines reads what `JSONDecoder` reads, or declines it (then
    /// `JSONDecoder` reads it): every input kind as `JSONEncoder` writes it, and each of them cut,
    /// with a byte changed, with a member repeated or unknown.
    @Test func theJournalsByteReaderReadsAsJSONDecoderOrDeclines() throws {
        let now = Make.start.addingTimeInterval(12.5)
        var inputs: [GameSession.Input] = [
            .receive(Make.event(3, .fieldGoal(points: 3, made: true), team: .away), index: 2, now: now),
            .receive(Make.event(4, .freeThrow(attempt: 1, of: 2, made: false, points: 1), team: .home), index: 3, now: now),
            .receive(Make.event(5, .timeout(.full), team: .home), index: 4, now: now),
            .receive(Make.event(6, .foul(.shooting), team: .home), index: 5, now: now),
            .receive(Make.event(7, .turnover(kind: nil)), index: 6, now: now),
            .receive(Make.event(8, .correction(points: -2), team: .away), index: 7, now: now),
            .tick(now: now), .finish(now: now), .delivered(now: nil), .delivered(now: now), .deliveredOnLane(1, now: now), .deliveredOnLane(2, now: nil), .beginArrival, .endArrival(now: now),
            .settleArrival(now: now, window: 0.5), .follow(FinalScore(home: 1, away: 2), now: now), .staleCopy,
            .continueNumbering(after: 4, lastTimestamp: 9), .useChannel("abc", storage: 1), .createChannel(storage: 0),
            .beginDelete(now: now), .refuseChannel("no"), .callOff(.final, why: "over", now: now), .copy(written: now), .copyAt(written: now),
            .restart(now: now, window: 0.5), .endConfirmed,
        ]
        inputs[0] = {
            guard case .receive(var event, let index, let now) = inputs[0] else { return inputs[0] }
            event.feedScore = FinalScore(home: 3, away: 0)
            event.player = "A. Player"
            event.description = "makes it"
            return .receive(event, index: index, now: now)
        }()
        var declined = 0
        for input in inputs {
            let data = try JSONEncoder().encode([input])
            let decoded = try JSONDecoder().decode([GameSession.Input].self, from: data)
            var variants = [data, Data(data.dropLast()), Data(data.prefix(data.count / 2))]
            var changed = data
            changed[data.count / 2] = UInt8(ascii: "7")
            variants.append(changed)
            let text = String(decoding: data, as: UTF8.self)
            variants.append(Data(text.replacingOccurrences(of: "{\"now\":", with: "{\"now\":1,\"now\":").utf8))
            variants.append(Data(text.replacingOccurrences(of: "\"now\":", with: "\"later\":").utf8))
            for (number, variant) in variants.enumerated() {
                let byDecoder = try? JSONDecoder().decode([GameSession.Input].self, from: variant)
                let scanned = JSONScanner.reading(variant) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) in try scanner.inputs() }
                if number == 0 { #expect(byDecoder == decoded) }
                guard let scanned else {
                    declined += 1
                    continue
                }
                #expect(scanned == byDecoder, "\(String(decoding: variant, as: UTF8.self))")
            }
        }
        #expect(declined > 0 && declined < inputs.count * 6, "some are read, some are left to JSONDecoder")
    }

    /// State that cannot be written (here: a directory stands where the snapshot's temporary
    /// file goes) holds the game's pushes; once it can be written again, the whole game goes to
    /// a snapshot, the newest state goes out (what waited before it superseded), and the state
    /// on disk is the game's, byte for byte.
    @Test func stateThatCannotBeWrittenHoldsThePushesAndNothingIsLost() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // serve's policy: the checkpoint holds a coalescer's state.
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, lastEvent: 6)
        try await engine.receive(events[0], index: 0)
        let before = await sink.records.count
        #expect(before > 0, "the first event's push went out (the snapshot was written)")
        let blocker = store.url(for: Make.attributes.gameId).appendingPathExtension("tmp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        await engine.compact()  // a snapshot that fails
        for (index, event) in events.enumerated().dropFirst() {
            clock.advance(to: event.time)
            try await engine.receive(event, index: index)
        }
        #expect(await sink.records.count == before, "nothing leaves that the disk does not hold")
        #expect(await engine.checkpointFailure?.code == .io)
        try FileManager.default.removeItem(at: blocker)
        try await engine.flush()
        let records = await sink.records
        #expect(await engine.checkpointFailure == nil)
        Self.expectNewestWentAlone(records, after: before, await engine.statistics)
        // The last delivery is buffered until the next push or sync (a crash would send it again).
        try store.journal.sync()
        let entry = try #require(try store.readAll().first)
        let disk = try GameSession.restore(entry.data, journal: entry.journal, file: entry.file.path)
        #expect(try disk.encoded() == (await engine.current).encoded(), "the state on disk is the game's")
    }

    /// A full disk (every write refused, `ENOSPC`): the game's pushes wait, the engine asks to be
    /// called again on a backoff (a second after the first failure, doubling with each failure to
    /// half a minute, ``MatchEngine/checkpointRetry``), each try failing writes nothing, and the first call
    /// after the disk has room sends the newest state (the updates that waited before it superseded). The first failure is the journal's (the
    /// game had its snapshot), cut back whole: the tries after it write its kept lines again.
    @Test func aFullDiskIsTriedAgainOnABackoffAndThePushesGoOnceItHasRoom() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = Mutex(false)
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, fault: { full.withLock { $0 } ? ENOSPC : nil }, lastEvent: 3)
        try await engine.receive(events[0], index: 0)
        let before = await sink.records.count
        let snapshots = store.journal.snapshots
        let noRetry = await engine.checkpointRetry
        #expect(before > 0 && noRetry == nil)
        full.withLock { $0 = true }
        for (index, event) in events.enumerated().dropFirst() {
            clock.advance(to: event.time)
            try await engine.receive(event, index: index)
        }
        #expect(await engine.checkpointFailure?.message.contains("No space left on device") == true)
        var waits: [TimeInterval] = []
        for _ in 0..<7 {
            let retry = try #require(await engine.checkpointRetry)
            #expect(await engine.wakeUp == retry, "the engine wants its retry alone")
            waits.append(retry.timeIntervalSince(clock.now))
            clock.advance(to: retry)
            try await engine.flush()
        }
        // Two inputs failed before the first try: each failure doubles the wait.
        #expect(waits == [2, 4, 8, 16, 30, 30, 30])
        #expect(await sink.records.count == before, "nothing leaves that the disk does not hold")
        full.withLock { $0 = false }
        try await Self.tryAgain(engine, clock: clock)
        let (failure, retry) = (await engine.checkpointFailure, await engine.checkpointRetry)
        #expect(failure == nil && retry == nil)
        let records = await sink.records
        Self.expectNewestWentAlone(records, after: before, await engine.statistics)
        // The journal's write failed: its kept lines went, not the whole game (each try would
        // have encoded it), and the disk holds every event.
        #expect(store.journal.snapshots == snapshots, "no snapshot: the journal's lines were written")
        let disk = try Self.restoredFromDisk(store)
        #expect(disk.state.homeScore == 2 && disk.state.awayScore == 2, "every input was kept and written")
    }

    /// The disk fills twice, with a write that succeeds between: the second spell's first failure
    /// is tried again a second later, as a first failure is, not at the half minute the first
    /// spell's failures had earned (what the simulator's second spell at a game's last line finds,
    /// ``SimulatedDay/diskFull``).
    @Test func aSecondFullDiskBacksOffFromAFirstFailure() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = Mutex(false)
        let (_, clock, sink, engine, events) = try Self.gameOnDisk(dir, fault: { full.withLock { $0 } ? ENOSPC : nil }, lastEvent: 6)
        try await Self.receive(events, 0..<2, on: engine, clock: clock)
        full.withLock { $0 = true }
        try await Self.receive(events, 2..<3, on: engine, clock: clock)
        for _ in 0..<6 {
            try await Self.tryAgain(engine, clock: clock)
        }
        let longest = try #require(await engine.checkpointRetry).timeIntervalSince(clock.now)
        #expect(longest == 30, "the first spell's failures earned the longest wait")
        full.withLock { $0 = false }
        try await Self.tryAgain(engine, clock: clock)
        let (failure, cleared) = (await engine.checkpointFailure, await engine.checkpointRetry)
        #expect(failure == nil && cleared == nil)
        try await Self.receive(events, 3..<4, on: engine, clock: clock)
        let before = await sink.records.count
        full.withLock { $0 = true }
        try await Self.receive(events, 4..<5, on: engine, clock: clock)
        let retry = try #require(await engine.checkpointRetry)
        #expect(retry.timeIntervalSince(clock.now) == 1, "a failure after a write that succeeded is a first")
        full.withLock { $0 = false }
        clock.advance(to: retry)
        try await engine.flush()
        #expect(await sink.records.count > before, "the push that waited goes at the retry")
    }

    /// Flushes before the retry is due (a batch's, or the final's arrival) fail on a full disk and
    /// move nothing of the backoff: the retries still come 1, 2 and 4 s apart from the first
    /// failure, and the write that succeeds comes at the first retry after the disk has room, not
    /// at the half minute that counting each early try would have reached (seed 101, day 13: the
    /// final waited 29 s after the disk had room).
    @Test func triesBeforeTheRetryIsDueMoveNoBackoff() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = Mutex(false)
        let (_, clock, _, engine, events) = try Self.gameOnDisk(dir, fault: { full.withLock { $0 } ? ENOSPC : nil }, lastEvent: 6)
        try await Self.receive(events, 0..<2, on: engine, clock: clock)
        full.withLock { $0 = true }
        try await Self.receive(events, 2..<3, on: engine, clock: clock)
        let start = clock.now
        var waits: [TimeInterval] = []
        for _ in 0..<3 {
            let retry = try #require(await engine.checkpointRetry)
            // Three early tries, each failing, before the retry is due.
            for _ in 1...3 {
                clock.advance(to: clock.now.addingTimeInterval(retry.timeIntervalSince(clock.now) / 4))
                try await engine.flush()
            }
            #expect(await engine.checkpointRetry == retry, "an early try moved the retry")
            waits.append(retry.timeIntervalSince(start))
            try await Self.tryAgain(engine, clock: clock)
        }
        #expect(waits == [1, 3, 7], "the retries double from the first failure")
        full.withLock { $0 = false }
        try await Self.tryAgain(engine, clock: clock)
        #expect(await engine.checkpointFailure == nil)
        #expect(clock.now.timeIntervalSince(start) == 15, "the write succeeds at the retry after the disk had room")
    }

    /// A disk that fails every write and sync with `EIO` (a device's error) for a spell: the
    /// game's pushes wait as on a full disk, the journal gives up its descriptor and trusts nothing
    /// it could not sync, and once the disk works the retry writes what the game holds: the
    /// pushes go on without a restart, and the disk holds the whole game.
    @Test func aDiskThatFailsWithADevicesErrorIsTriedAgainAndTheGameGoesOn() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let failing = Mutex(false)
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, fault: { failing.withLock { $0 } ? EIO : nil }, lastEvent: 8)
        try await Self.receive(events, 0..<3, on: engine, clock: clock)
        let before = await sink.records.count
        failing.withLock { $0 = true }
        try await Self.receive(events, 3..<5, on: engine, clock: clock)
        #expect(await engine.checkpointFailure?.message.contains("errno \(EIO)") == true)
        #expect(await sink.records.count == before, "nothing leaves that the disk does not hold")
        for _ in 0..<3 {
            try await Self.tryAgain(engine, clock: clock)
        }
        #expect(await engine.checkpointFailure != nil, "the disk still fails")
        failing.withLock { $0 = false }
        try await Self.tryAgain(engine, clock: clock)
        let (failure, retry) = (await engine.checkpointFailure, await engine.checkpointRetry)
        #expect(failure == nil && retry == nil)
        try await Self.receive(events, 5..<events.count, on: engine, clock: clock)
        // (The updates that waited behind the disk went as the newest state alone: their seqs skip.)
        let records = await sink.records
        #expect(records.count > before && zip(records, records.dropFirst()).allSatisfy { $0.seq < $1.seq }, "the pushes went on, in order")
        #expect(records.last?.state.homeScore == 8 && records.last?.state.awayScore == 6, "to the last basket")
        #expect(await engine.current.outboxCount == 0)
        let disk = try Self.restoredFromDisk(store)
        #expect(try disk.encoded() == (await engine.current).encoded(), "the state on disk is the game's")
    }

    /// What a disk back from a spell costs the lock screen, full (`ENOSPC`) or failing (`EIO`):
    /// six events held behind it go as one push, the newest state, at the first try after it.
    @Test(arguments: [ENOSPC, EIO])
    func aDiskBackFromASpellSendsItsNewestStateAsOnePush(_ code: Int32) async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let failing = Mutex(false)
        let (_, clock, sink, engine, events) = try Self.gameOnDisk(dir, fault: { failing.withLock { $0 } ? code : nil }, lastEvent: 12)
        try await Self.receive(events, 0..<3, on: engine, clock: clock)
        failing.withLock { $0 = true }
        try await Self.receive(events, 3..<9, on: engine, clock: clock)
        let before = await sink.records.count
        failing.withLock { $0 = false }
        try await Self.tryAgain(engine, clock: clock)
        let moment = await sink.records.dropFirst(before)
        #expect(moment.count == 1 && moment.filter { $0.priority == 10 }.count <= 1, "\(moment.map { ($0.seq, $0.priority) })")
        #expect(moment.last?.state.homeScore == 8 && moment.last?.state.awayScore == 8, "the ninth event's score")
    }

    /// The descriptor of the file at `path` this process holds open, if any (read from
    /// `/proc/self/fd`).
    static func descriptor(of path: String) -> Int32? {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap(Int32.init).first { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == path
        }
    }

    /// A journal whose descriptor stops taking writes (`EBADF`: here one put in its place that
    /// only reads, as a descriptor closed under it or a file server's stale handle would fail):
    /// the game's pushes wait, as for any failed write, and its retry opens the file again: the
    /// pushes go on without a restart, and the disk holds the game. Before, every retry wrote to
    /// the same descriptor and the game sent nothing more until the process restarted.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc/self/fd to find the journal's descriptor"))
    func aJournalWhoseDescriptorFailsIsOpenedAgain() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, lastEvent: 8)
        try await Self.receive(events, 0..<3, on: engine, clock: clock)
        let journal = CheckpointStore.journalURL(of: store.url(for: Make.attributes.gameId)).resolvingSymlinksInPath().path
        let fd = try #require(Self.descriptor(of: journal), "the journal is open after three events")
        // Its number stays taken (no other file can get it), by a descriptor that refuses writes.
        let readOnly = open("/dev/null", O_RDONLY)
        #expect(readOnly >= 0 && dup2(readOnly, fd) == fd)
        close(readOnly)
        defer { if Self.descriptor(of: "/dev/null") == fd { close(fd) } }
        let before = await sink.records.count
        clock.advance(to: events[3].time)
        try await engine.receive(events[3], index: 3)
        #expect(await engine.checkpointFailure?.message.contains("errno \(EBADF)") == true, "the write failed")
        #expect(await sink.records.count == before, "nothing leaves that the disk does not hold")
        var tries = 0
        while let retry = await engine.checkpointRetry, tries < 10 {
            clock.advance(to: retry)
            try await engine.flush()
            tries += 1
        }
        #expect(await engine.checkpointFailure == nil, "the retry opened the journal again (\(tries) tries)")
        try await Self.receive(events, 4..<events.count, on: engine, clock: clock)
        let records = await sink.records
        #expect(records.count > before && records.map(\.seq) == Array(1...records.count), "the pushes went on, in order")
        #expect(await engine.current.outboxCount == 0)
        let disk = try Self.restoredFromDisk(store)
        #expect(try disk.encoded() == (await engine.current).encoded(), "the state on disk is the game's")
    }

    /// A journal that cannot be opened (a directory where its file goes) while snapshots can be
    /// written: its lines are not kept for a retry that would fail the same way for good; each
    /// try writes the whole game instead, and every push goes out, in order.
    @Test func aJournalThatCannotBeOpenedFallsBackToSnapshots() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, lastEvent: 6)
        let journal = CheckpointStore.journalURL(of: store.url(for: Make.attributes.gameId))
        try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: true)
        try await Self.receive(events, events.indices, on: engine, clock: clock)
        let before = await sink.records.count
        let (waiting, failed) = (await engine.current.outboxCount, await engine.checkpointFailure)
        #expect(failed != nil && waiting > 0, "the journal could not be written: a push waits")
        #expect(!store.journal.keepsFailedLines(journal.path), "an open that failed keeps nothing for a retry")
        var tries = 0
        while let retry = await engine.checkpointRetry, tries < 40 {
            clock.advance(to: retry)
            try await engine.flush()
            tries += 1
        }
        let records = await sink.records
        #expect(records.count >= before && records.map(\.seq) == Array(1...records.count), "in order, after \(tries) tries")
        let (left, failure) = (await engine.current.outboxCount, await engine.checkpointFailure)
        #expect(left == 0 && failure == nil, "every push went: none is left")
    }

    /// Inputs that come while a write is failing wait for its retry: a try may write the whole
    /// game, so a try per input could encode a snapshot per input, its outbox growing. The inputs
    /// are kept, and the retry writes them all.
    @Test func inputsWhileAWriteFailsWaitForItsRetry() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = Mutex(false)
        let asked = Mutex(0)
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(
            dir, fault: { full.withLock { $0 } && asked.withLock { $0 += 1; return true } ? ENOSPC : nil }, lastEvent: 8)
        try await engine.receive(events[0], index: 0)
        let before = await sink.records.count
        full.withLock { $0 = true }
        try await engine.receive(events[1], index: 1)
        let tries = asked.withLock { $0 }
        let failure = await engine.checkpointFailure
        #expect(tries > 0 && failure != nil, "the first input's write failed")
        // The rest come before the retry (the clock stands still): no write is tried.
        for (index, event) in events.enumerated().dropFirst(2) { try await engine.receive(event, index: index) }
        #expect(asked.withLock { $0 } == tries, "no input tried a write before the retry")
        let (retry, wakeUp) = (await engine.checkpointRetry, await engine.wakeUp)
        #expect(retry != nil && wakeUp == retry, "the engine wants its retry")
        full.withLock { $0 = false }
        try await Self.tryAgain(engine, clock: clock)
        #expect(await engine.checkpointFailure == nil)
        let records = await sink.records
        Self.expectNewestWentAlone(records, after: before, await engine.statistics)
        // Events 2, 4, 6 and 8 scored for home, 3, 5 and 7 for away: all of them are on disk.
        let disk = try Self.restoredFromDisk(store)
        #expect(disk.state.homeScore == 8 && disk.state.awayScore == 6, "every input was kept and written")
    }

    /// A game that has ended and sent everything is folded into one snapshot: a restart later in
    /// the day reads it alone. Before, every restart after the final replayed the game's whole
    /// journal (about 230 KB for an NBA game): an eighth of a simulated day was restores.
    @Test func anEndedGameIsOneSnapshot() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try CheckpointStore(directory: dir)
        let game = GameGenerator(seed: 7).generate()
        let clock = ManualClock(try #require(game.events.first).time)
        let sink = RecordingSink()
        let engine = MatchEngine(attributes: game.attributes, clock: clock, sink: sink, checkpoints: store)
        var midGame = 0
        for (index, event) in game.events.enumerated() {
            while let deadline = await engine.deadline, deadline <= event.time {
                clock.advance(to: deadline)
                try await engine.tick()
            }
            clock.advance(to: event.time)
            try await engine.receive(event, index: index)
            if index == game.events.count / 2 {
                try store.journal.sync()
                midGame = try #require(try store.readAll().first).journal?.count ?? 0
            }
        }
        while let deadline = await engine.deadline {
            clock.advance(to: deadline)
            try await engine.tick()
        }
        #expect(await engine.current.hasEnded)
        #expect(await sink.records.last?.event == .end)
        #expect(midGame > 0, "mid-game, the inputs go to the journal")
        try store.journal.sync()
        let entry = try #require(try store.readAll().first)
        #expect(entry.journal?.isEmpty ?? true, "the ended game is its snapshot alone")
        let disk = try GameSession.restore(entry.data, journal: entry.journal, file: entry.file.path)
        #expect(try disk.encoded() == (await engine.current).encoded(), "the state on disk is the game's")
    }

    @Test(arguments: [1, 10, 37])
    func aTornTailIsDroppedAndWhatCameBeforeIsKept(_ cut: Int) throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("g.journal").path
        let journal = Journal()
        let event = Make.event(1, .periodStart, clock: 720)
        try journal.append([.receive(event, index: 0, now: event.time)], first: 1, seq: 0, lastTimestamp: 0, to: path)
        try journal.append([.tick(now: event.time), .finish(now: event.time)], first: 2, seq: 3, lastTimestamp: 9, to: path)
        try journal.sync()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let whole = Journal.read(bytes)
        #expect(whole.inputs.count == 3 && whole.droppedLines == 0 && whole.seq == 3 && whole.lastTimestamp == 9)
        bytes.removeLast(cut)  // the last write torn by a crash
        let torn = Journal.read(bytes)
        #expect(torn.inputs == [.receive(event, index: 0, now: event.time)] && torn.droppedLines == 1 && torn.seq == 0)
    }

    /// What a crash or a power cut leaves after a journal's whole lines: the last line torn (no
    /// newline), or a page that never reached the disk (zeros) with a whole line after it. A
    /// restarted journal appends only after the whole lines, so what it appends is read at the
    /// next start (a reader stops at the first line that is not whole, and would drop it too):
    /// whether the journal reads the file again or is handed the restore's reading of it (as
    /// ``Journal/syncBeforeTheNextPush(_:read:)`` hands it; one of another length is not used).
    @Test(arguments: ["torn tail", "lost page"], [nil, "the restore's reading", "a reading of another length"])
    func whatARestartAppendsAfterADamagedTailIsRead(_ damage: String, _ handed: String?) throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("g.journal")
        let journal = Journal()
        let event = Make.event(1, .periodStart, clock: 720)
        try journal.append([.receive(event, index: 0, now: event.time)], first: 1, seq: 0, lastTimestamp: 0, to: url.path)
        try journal.sync()
        let whole = try Data(contentsOf: url)
        try journal.append([.tick(now: event.time), .finish(now: event.time)], first: 2, seq: 3, lastTimestamp: 9, to: url.path)
        try journal.append([.tick(now: event.time)], first: 4, seq: 3, lastTimestamp: 9, to: url.path)
        try journal.sync()
        var bytes = try Data(contentsOf: url)
        let second = (bytes[whole.count...].firstIndex(of: 0x0A) ?? bytes.endIndex) + 1
        if damage == "torn tail" {
            bytes = bytes.prefix(second - 10)
        } else {
            bytes.replaceSubrange(whole.count..<second, with: Data(repeating: 0, count: second - whole.count))
        }
        try bytes.write(to: url)
        let damaged = Journal.read(bytes)
        #expect(damaged.inputs.count == 1 && damaged.wholeBytes == whole.count)
        // Zeros glued onto a whole line are no line a newer ScoreFeed wrote (the checksum covers
        // what follows the line's head): the restore would refuse the checkpoint for one.
        #expect(damaged.unreadableLine == nil)
        let restarted = Journal()
        switch handed {
        case "the restore's reading"?: restarted.syncBeforeTheNextPush([url.path], read: [url.path: damaged])
        case "a reading of another length"?: restarted.syncBeforeTheNextPush([url.path], read: [url.path: Journal.read(whole)])
        default: break
        }
        try restarted.append([.tick(now: event.time.addingTimeInterval(1))], first: 2, seq: 1, lastTimestamp: 5, to: url.path)
        try restarted.sync()
        let after = Journal.read(try Data(contentsOf: url))
        #expect(
            after.inputs == [.receive(event, index: 0, now: event.time), .tick(now: event.time.addingTimeInterval(1))]
                && after.droppedLines == 0 && after.seq == 1,
            "\(after.inputs.count) inputs, \(after.droppedLines) lines dropped")
    }

    /// A whole line (its checksum holds) whose input this version cannot read was written by a
    /// newer ScoreFeed: not a torn tail to drop in silence. The reading names it, and restoring the
    /// game refuses the checkpoint with its place (the game then starts afresh, numbered on, as
    /// from a damaged checkpoint) instead of resuming without the inputs from there on.
    @Test func aWholeLineThisVersionCannotReadIsNotATornTail() throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("game-G.journal").path
        let journal = Journal()
        let event = Make.event(1, .periodStart, clock: 720)
        try journal.append([.receive(event, index: 0, now: event.time)], first: 1, seq: 0, lastTimestamp: 0, to: path)
        try journal.sync()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let body = #"1 9 [{"fromANewerVersion":{}}]"#
        bytes += Data("2 \(String(Journal.checksum(Data(body.utf8)), radix: 16)) \(body)\n".utf8)
        bytes += Data("3 0 torn".utf8)
        let reading = Journal.read(bytes)
        #expect(reading.inputs.count == 1 && reading.droppedLines == 2 && reading.unreadableLine == 2)
        var torn = bytes
        torn.removeLast(20)
        #expect(Journal.read(torn).unreadableLine == nil, "a line cut short is a torn tail")
        let snapshot = try GameSession(attributes: Make.attributes).encoded()
        #expect {
            try GameSession.read(snapshot, journal: bytes, file: dir.appendingPathComponent("game-G.json").path)
        } throws: { error in
            let error = error as? ScoreFeedError
            return error?.code == .unknownFormat && error?.location.line == 2 && error?.location.file?.hasSuffix("game-G.journal") == true
        }
    }

    /// Thousands of games do not hold thousands of files open: past the cap, journals are
    /// synced and closed, and every line still lands in its own file.
    @Test func journalsPastTheOpenFileCapAreClosedAndLoseNothing() throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = Journal(maxOpenFiles: 2)
        let paths = (0..<5).map { dir.appendingPathComponent("g\($0).journal").path }
        for round in 0..<3 {
            for (game, path) in paths.enumerated() {
                try journal.append(
                    [.tick(now: Make.start.addingTimeInterval(Double(round)))], first: round + 1, seq: game, lastTimestamp: round,
                    to: path)
            }
            try journal.sync()
        }
        for (game, path) in paths.enumerated() {
            let reading = Journal.read(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(reading.inputs == (0..<3).map { .tick(now: Make.start.addingTimeInterval(Double($0))) } && reading.seq == game)
        }
    }

    /// Past the cap, the journals used least recently are closed, not every one: a game that
    /// writes often keeps its descriptor while more games than the cap come and go.
    @Test func pastTheCapTheLeastRecentlyUsedJournalsAreClosed() throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = Journal(maxOpenFiles: 4)
        let path = { (name: String) in dir.appendingPathComponent("\(name).journal").path }
        var lines: [String: Int] = [:]
        func write(_ name: String) throws {
            lines[name, default: 0] += 1
            try journal.append([.tick(now: Make.start)], first: lines[name]!, seq: 1, lastTimestamp: 1, to: path(name))
            try journal.sync()
        }
        for name in ["a", "b", "c", "d", "a", "e"] { try write(name) }
        #expect(journal.openPaths == Set(["a", "c", "d", "e"].map(path)), "b was used least recently")
        for name in ["f", "a", "g"] { try write(name) }
        #expect(journal.openPaths == Set(["a", "e", "f", "g"].map(path)))
        for (name, count) in lines {
            #expect(Journal.read(try Data(contentsOf: URL(fileURLWithPath: path(name)))).inputs.count == count)
        }
    }

    /// The cap follows the process's descriptor limit, leaving room for everything else.
    @Test(arguments: [(256, 128), (300, 150), (511, 255), (512, 256), (1_024, 768), (20_000, 19_744), (1 << 20, 65_536), (1, 1)])
    func theCapLeavesRoomUnderTheDescriptorLimit(_ limit: Int, _ cap: Int) {
        #expect(Journal.maxOpenFiles(descriptorLimit: limit) == cap)
    }

    @Test func theDefaultCapIsTheProcesssOwn() {
        #if canImport(Glibc)
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(Journal.defaultMaxOpenFiles == Journal.maxOpenFiles(descriptorLimit: Int(clamping: limit.rlim_cur)))
        #endif
        #expect(Journal().maxOpenFiles == Journal.defaultMaxOpenFiles)
    }

    /// A journal closed to make room is synced first even when it took only deliveries: a failed
    /// write-back of them is then said to its game, not lost with the descriptor.
    @Test func aJournalClosedToMakeRoomIsSyncedFirst() throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = Journal(maxOpenFiles: 1)
        let a = journal.file(for: dir.appendingPathComponent("a.journal").path)
        try journal.append([.delivered(now: Make.start)], first: 1, seq: 1, lastTimestamp: 1, into: a)
        try journal.readyForPush(a)
        #expect(journal.syncs == 0, "a delivery alone is not synced")
        try journal.append([.delivered(now: Make.start)], first: 1, seq: 1, lastTimestamp: 1, to: dir.appendingPathComponent("b.journal").path)
        try journal.sync()
        #expect(journal.syncs == 1, "a was synced as it was closed; b took a delivery only")
        #expect(journal.openPaths == [dir.appendingPathComponent("b.journal").path])
    }

    /// One game's journal that cannot be written (a directory stands where it goes) holds that
    /// game only: the others' lines are written and synced, and only its own sync fails.
    @Test func aJournalThatCannotBeWrittenHoldsOnlyItsOwnGame() throws {
        let dir = Self.directory()
        let bad = dir.appendingPathComponent("a.journal").path, good = dir.appendingPathComponent("b.journal").path
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = Journal()
        for path in [bad, good] {
            try journal.append([.tick(now: Make.start)], first: 1, seq: 1, lastTimestamp: 1, to: path)
        }
        try journal.sync(good)
        #expect(Journal.read(try Data(contentsOf: URL(fileURLWithPath: good))).inputs == [.tick(now: Make.start)])
        #expect(throws: ScoreFeedError.self) { try journal.sync(bad) }
        #expect(throws: ScoreFeedError.self) { try journal.sync() }
        #expect(journal.needsSync && journal.hasPending, "its lines wait for the disk")
    }

    /// What a lost line costs decides whether it waits for a sync: a delivery, a confirmed end,
    /// a priority given back, or what the sink did with a channel's end (each lost: the end or the
    /// push goes again, or the budget stays spent) need only reach the kernel; an event must be synced.
    @Test(arguments: [
        (GameSession.Input.delivered(now: Make.start), false), (.endConfirmed, false), (.endHeld, false),
        (.endDrained(now: Make.start), false), (.givenBack(lane: 0, sentAt: Make.start, beyondBudget: false), false),
        (.tick(now: Make.start), true), (.beginDelete(now: Make.start), true),
    ])
    func whatALostLineCostsDecidesItsSync(_ input: GameSession.Input, _ synced: Bool) throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = Journal()
        let path = dir.appendingPathComponent("g.journal").path
        try journal.append([input], first: 1, seq: 1, lastTimestamp: 1, to: path)
        #expect(journal.needsSync == synced)
        // A group commit writes the line either way, and syncs the file only for a line that must be.
        try journal.sync()
        #expect(journal.syncs == (synced ? 1 : 0))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == journal.bytesWritten && journal.bytesWritten > 0)
    }

    /// A live game's push costs no sync of its own: its delivery is written before the game's next
    /// push (or with the next batch) and synced with the game's next line that must be, not by the
    /// group commit of another game's batch.
    @Test func deliveriesAreSyncedWithTheirGamesNextLineNotByOtherGamesBatches() throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = Journal()
        let a = journal.file(for: dir.appendingPathComponent("a.journal").path)
        let b = dir.appendingPathComponent("b.journal").path
        try journal.append([.tick(now: Make.start)], first: 1, seq: 1, lastTimestamp: 1, into: a)
        try journal.sync()
        #expect(journal.syncs == 1)
        // Game a's push was delivered; game b's batch comes and goes.
        try journal.append([.delivered(now: Make.start)], first: 2, seq: 1, lastTimestamp: 1, into: a)
        try journal.readyForPush(a)
        try journal.append([.tick(now: Make.start)], first: 1, seq: 1, lastTimestamp: 1, to: b)
        try journal.sync()
        #expect(journal.syncs == 2, "b's line alone was synced")
        // Game a's next event: its delivery is synced with it.
        try journal.append([.tick(now: Make.start.addingTimeInterval(1))], first: 3, seq: 1, lastTimestamp: 1, into: a)
        try journal.sync()
        #expect(journal.syncs == 3)
        let reading = Journal.read(try Data(contentsOf: URL(fileURLWithPath: dir.appendingPathComponent("a.journal").path)))
        #expect(reading.inputs.count == 3 && reading.droppedLines == 0)
    }

    @Test func aLineThatDoesNotFollowOnEndsTheJournal() throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("g.journal").path
        let journal = Journal()
        let now = Make.start
        try journal.append([.tick(now: now)], first: 5, seq: 1, lastTimestamp: 1, to: path)
        try journal.append([.tick(now: now)], first: 9, seq: 2, lastTimestamp: 2, to: path)  // 6 to 8 missing
        try journal.sync()
        let reading = Journal.read(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(reading.first == 5 && reading.inputs.count == 1 && reading.droppedLines == 1)
        // A snapshot that holds only up to 3 cannot take a journal starting at 5.
        var session = GameSession(attributes: Make.attributes)
        session.journaled = 3
        #expect(throws: ScoreFeedError.self) { try session.replay(reading, file: "g.json") }
    }

    /// One sync per batch, not per event: a batch of a whole game's lines costs a handful of
    /// syncs, and bytes written per event stay small however long the game.
    @Test func aBatchOfLinesIsMadeDurableWithOneSync() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = RecordedStream.lines(seeds: [5])
        let sink = RecordingSink()
        let service = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: sink)
        await service.beginBatch()
        for (i, line) in lines.enumerated() { _ = await service.handle(.line(Data(line.utf8), number: i + 1)) }
        let journal = try #require(service.journal)
        #expect(await sink.records.isEmpty, "nothing leaves before the batch is durable")
        #expect(journal.syncs == 0)
        #expect(await service.endBatch() == nil)
        #expect(journal.syncs == 1, "one sync for \(lines.count) lines")
        #expect(journal.bytesWritten / lines.count < 1000, "\(journal.bytesWritten) bytes for \(lines.count) lines")
        let records = await sink.records
        Make.expectOneFinal(records)
        await service.shutDown()
        let entries = try CheckpointStore(directory: dir).readAll()
        #expect(entries.count == 1 && entries[0].journal?.isEmpty != false, "a clean exit leaves one file per game")
    }

    /// A new game's first commit writes no snapshot file (a temporary file, two syncs and a
    /// rename): its journal starts with its base, made durable by the batch's one sync. Restored
    /// from that journal alone (by the engine's reader, `status` and a restarting service), it is
    /// the same game byte for byte; the next run's first commit, and a clean exit, write a
    /// snapshot before the journal is cut.
    @Test func aNewGamesJournalStartsWithItsBaseAndNoSnapshot() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, lastEvent: 6)
        for (index, event) in events.prefix(4).enumerated() {
            clock.advance(to: event.time)
            try await engine.receive(event, index: index)
        }
        #expect(await sink.records.count > 0, "its pushes went, after the sync that made the base durable")
        #expect(store.journal.snapshots == 0 && !FileManager.default.fileExists(atPath: store.url(for: Make.attributes.gameId).path))
        let bytes = try Data(contentsOf: store.journalURL(for: Make.attributes.gameId))
        #expect(String(decoding: bytes.prefix(200), as: UTF8.self).contains(#"{"base":{"#))
        let reading = Journal.read(bytes)
        #expect(reading.base != nil && reading.droppedLines == 0)
        let entry = try #require(try store.readAll().first)
        #expect(entry.journalOnly && entry.data == nil)
        let disk = try Self.restoredFromDisk(store)
        #expect(try disk.encoded() == (await engine.current).encoded(), "the same game, from its journal alone")
        let status = try GameStatus.read(stateDirectory: dir.path, now: clock.now)
        #expect(status.games.map(\.game) == [Make.attributes.gameId] && status.problems.isEmpty)
        // A base cut in half (a disk that lost it) is no game: the journal holds no base.
        #expect(throws: ScoreFeedError.self) {
            try GameSession.read(nil, journal: bytes.prefix(100), file: store.url(for: Make.attributes.gameId).path)
        }

        // The next run: restored from the journal, its first commit writes a snapshot, durably,
        // before it cuts the journal: a crash before the next sync still finds the game whole.
        let next = MatchEngine(session: disk, clock: clock, sink: sink, checkpoints: store)
        clock.advance(to: events[4].time)
        _ = await next.take(arrival: [(events[4], 4)])
        let unsynced = try #require(try store.readAll().first, "the game is on disk before the next sync")
        let found = try GameSession.read(unsynced.data, journal: unsynced.journal, file: unsynced.file.path)
        #expect(found.journaled >= disk.journaled && found.state.homeScore + found.state.awayScore >= 6)
        try await next.flush()
        try store.journal.sync()
        #expect(store.journal.snapshots == 1 && FileManager.default.fileExists(atPath: store.url(for: Make.attributes.gameId).path))
        let after = try #require(try store.readAll().first)
        #expect(!after.journalOnly && after.data != nil)
        #expect(try Self.restoredFromDisk(store).encoded() == (await next.current).encoded())
    }

    /// A game with no snapshot whose journal's base is damaged (its later lines whole) is put
    /// aside as unreadable (`game-….journal.unreadable`, known again at the next start), and its
    /// numbering is the highest any whole line shows: its pushes after the restart number on past
    /// every one it sent.
    @Test func aDamagedBaseIsPutAsideWithItsNumbering() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, lastEvent: 5)
        for (index, event) in events.enumerated() {
            clock.advance(to: event.time)
            try await engine.receive(event, index: index)
        }
        try store.journal.sync()
        let sent = try #require(await sink.records.last?.seq)
        let url = store.journalURL(for: Make.attributes.gameId)
        var bytes = try Data(contentsOf: url)
        let first = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        bytes.replaceSubrange(first / 4..<first / 2, with: Data(repeating: UInt8(ascii: "#"), count: first / 2 - first / 4))
        try bytes.write(to: url)
        #expect(Journal.read(bytes).inputs.isEmpty && Journal.read(bytes).base == nil, "the reading stops at the damaged base")
        #expect(Journal.highestNumbering(bytes)?.seq == sent, "the whole lines after it still number")

        let restarted = try GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink())
        let restoration = try await restarted.restore()
        #expect(restoration.resumedGames == 0 && restoration.problems.count == 1)
        #expect(restoration.problems.first?.message.contains("numbered on from seq \(sent + 1)") == true, "\(restoration.problems)")
        #expect(FileManager.default.fileExists(atPath: url.appendingPathExtension("unreadable").path))
        let aside = try store.putAside()
        #expect(aside.map(\.checkpoint.lastPathComponent) == [store.url(for: Make.attributes.gameId).lastPathComponent])
        let again = try await GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink()).restore()
        #expect(again.problems.isEmpty && again.resumedGames == 0, "known as put aside, not a problem again")
    }

    /// A base that a crash cut short (no whole line: nothing was sent, pushes wait for its sync) is
    /// no checkpoint, not a damaged one: no problem, no numbering jump. And a game whose snapshot
    /// was put aside as unreadable writes a snapshot at its first commit, not a base beside it: the
    /// journal there is the put-aside snapshot's, and a restart finds the game.
    @Test func aCutBaseIsNoCheckpointAndAPutAsideSnapshotKeepsItsJournal() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (store, clock, sink, engine, events) = try Self.gameOnDisk(dir, lastEvent: 2)
        let journal = store.journalURL(for: Make.attributes.gameId)
        try Data("1 8ee8ed4926d30851 0 0 {\"base\":{\"attrib".utf8).write(to: journal)
        let restoration = try await GameService(options: .init(clock: .feed, stateDirectory: dir), sink: RecordingSink()).restore()
        let entries = try store.readAll()
        #expect(restoration.problems.isEmpty && restoration.resumedGames == 0 && entries.isEmpty)

        try FileManager.default.removeItem(at: journal)
        try Data("{\"format\": 999}".utf8).write(to: store.url(for: Make.attributes.gameId).appendingPathExtension("unreadable"))
        clock.advance(to: events[0].time)
        try await engine.receive(events[0], index: 0)
        #expect(await sink.records.count > 0)
        #expect(store.journal.snapshots == 1, "a snapshot, not a base beside the put-aside one")
        let entry = try #require(try store.readAll().first)
        #expect(!entry.journalOnly && entry.data != nil)
    }

    /// A snapshot's rename is durable once its directory is synced: when that sync fails, the
    /// write fails and the game keeps the journal the snapshot was to replace. Before, the failure
    /// was ignored and the journal cut, so a power cut that undid the rename lost every input
    /// since the older state. Here the device fails between the snapshot's bytes and its rename.
    @Test func aSnapshotWhoseDirectoryCannotBeSyncedKeepsItsJournal() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let failing = Mutex<Int32?>(nil)
        let store = try CheckpointStore(
            directory: dir, diskFault: { failing.withLock { $0 } },
            diskStep: { path in if path.hasSuffix(".json") { failing.withLock { $0 = EIO } } })
        let clock = ManualClock(Make.start)
        let engine = MatchEngine(attributes: Make.attributes, clock: clock, sink: RecordingSink(), checkpoints: store)
        let events = [GameSessionTests.tipOff] + (2...5).map {
            Make.event($0, .fieldGoal(points: 2, made: true), team: $0 % 2 == 0 ? .home : .away, at: Double($0) * 30)
        }
        for (index, event) in events.enumerated() {
            clock.advance(to: event.time)
            try await engine.receive(event, index: index)
        }
        await engine.compact()
        let failure = try #require(await engine.checkpointFailure)
        #expect(failure.message.contains("cannot sync the state directory"), "\(failure.message)")
        #expect(store.journal.snapshots == 0, "not counted as written")
        failing.withLock { $0 = nil }
        let entry = try #require(try store.readAll().first)
        #expect(entry.data != nil, "the snapshot was renamed into place")
        #expect(entry.journal.map { !$0.isEmpty } == true, "the journal is kept")
        #expect(try Self.restoredFromDisk(store).encoded() == (await engine.current).encoded())
    }

    /// A clean exit leaves each game in one snapshot file, even one whose journal started with its base.
    @Test func aCleanExitWritesTheSnapshotOfAGameThatBeganInItsJournal() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (store, clock, _, engine, events) = try Self.gameOnDisk(dir, lastEvent: 3)
        for (index, event) in events.enumerated() {
            clock.advance(to: event.time)
            try await engine.receive(event, index: index)
        }
        await engine.compact()
        let entry = try #require(try store.readAll().first)
        #expect(store.journal.snapshots == 1 && entry.data != nil && entry.journal?.isEmpty != false)
        #expect(try Self.restoredFromDisk(store).encoded() == (await engine.current).encoded())
    }

    /// A base stands only as a journal's first line: one later (a journal cut and begun again
    /// without its file being cut, say) ends the reading there.
    @Test func aBaseStandsOnlyFirst() throws {
        let dir = Self.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (lines, based) = (dir.appendingPathComponent("a.journal").path, dir.appendingPathComponent("b.journal").path)
        let journal = Journal()
        let event = Make.event(1, .periodStart, clock: 720)
        try journal.append([.receive(event, index: 0, now: event.time)], first: 1, seq: 0, lastTimestamp: 0, to: lines)
        journal.begin(try GameSession(attributes: Make.attributes).encoded(), first: 2, seq: 0, lastTimestamp: 0, to: based)
        try journal.sync()
        let first = try Data(contentsOf: URL(fileURLWithPath: lines)), second = try Data(contentsOf: URL(fileURLWithPath: based))
        #expect(Journal.read(second).base != nil && Journal.read(second).first == 2)
        let reading = Journal.read(first + second)
        #expect(reading.base == nil && reading.inputs.count == 1 && reading.droppedLines == 1)
        // The base read alone is the base the whole reading finds: whole and first, followed by
        // lines or not; torn; damaged; not first; none.
        var damaged = second
        damaged[damaged.startIndex + 30] ^= 0x01
        for (data, what) in [(second, "a base"), (second + first, "a base and a line"), (second.dropLast(), "a torn base"),
                             (damaged, "a damaged base"), (first + second, "a base after a line"), (first, "no base"), (Data(), "nothing")] {
            #expect(Journal.base(of: data) == Journal.reading(of: data)?.base, "\(what)")
        }
        #expect(Journal.base(of: second) != nil && Journal.base(of: second + first) != nil && Journal.base(of: second.dropLast()) == nil)
    }

    /// A journal's lines are found as `split(separator:omittingEmptySubsequences: false)` finds
    /// them, in a whole buffer or a slice of one.
    @Test(arguments: ["", "\n", "a", "a\n", "a\n\nb", "\n\n", "12 ab [1]\n13 cd [2]\n14 e"])
    func linesAreThePiecesBetweenNewlines(_ text: String) {
        let whole = Data(text.utf8)
        var padded = Data("xx\n".utf8)
        padded.append(whole)
        for data in [whole, padded.dropFirst(3)] {
            let split = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
            #expect(Journal.pieces(of: data).map { Data(data[$0]) } == split)
        }
    }

    /// The state fuzz target's committed corpus (`Tests/Fuzz/corpus/state`: a game's snapshot, a
    /// 0x00 byte, its journal), read back as a restart reads it: each seed, written by `serve
    /// --state-dir` and left by a `kill -9`, restores to a game that holds every input its journal
    /// does; each seed with a byte of its journal's inputs changed (the checksum made to hold, as
    /// the fuzz target does) restores to a game or a ScoreFeedError, never a crash.
    @Test func theStateCorpusRestoresWholeAndDamagedWithoutACrash() throws {
        let seeds = try Make.stateSeeds()
        #expect(seeds.count >= 2)
        var damaged = 0
        for (name, snapshot, journal) in seeds {
            let game = try GameSession.restore(snapshot.isEmpty ? nil : snapshot, journal: journal, file: name)
            let reading = Journal.reading(of: journal)
            #expect(reading?.droppedLines ?? 0 == 0, "\(name)")
            if let reading, let first = reading.first {
                #expect(game.journaled == first + reading.inputs.count - 1, "\(name)")
            }
            // Each input's bytes of the journal's last line, changed one at a time.
            let lines = journal.split(separator: 0x0A).map { Data($0) }
            guard let last = lines.last, let open = last.firstIndex(of: UInt8(ascii: "[")) else { continue }
            for at in stride(from: open, to: last.endIndex, by: max(1, (last.endIndex - open) / 24)) {
                for byte in [UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "}")] {
                    var line = last
                    line[at] = byte
                    let fields = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
                    var rebuilt = Data(fields[0])
                    rebuilt.append(contentsOf: Array(" \(String(Journal.checksum(Data(fields[2])), radix: 16)) ".utf8))
                    rebuilt.append(contentsOf: fields[2])
                    let changed = lines.dropLast().reduce(Data()) { $0 + $1 + [0x0A] } + rebuilt + [0x0A]
                    do {
                        _ = try GameSession.restore(snapshot.isEmpty ? nil : snapshot, journal: changed, file: name)
                    } catch {
                        #expect(!error.message.isEmpty)
                    }
                    damaged += 1
                }
            }
        }
        #expect(damaged > 0)
    }
}

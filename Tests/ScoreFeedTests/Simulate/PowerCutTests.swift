import Foundation
import Synchronization
import Testing
@testable import ScoreFeed

/// A power cut keeps what the journal synced and no more: the journal tells each sync
/// (``CheckpointStore/Durable``), and ``PowerCut`` cuts a copy of the directory to it.
@Suite("Power cut: what a journal synced survives, nothing else")
struct PowerCutTests {
    /// A state directory, a journal that tells `cut` of each sync, and the directory as a power
    /// cut would leave it now (a copy, cut).
    struct Disk {
        let directory: URL
        let cut: PowerCut
        let journal: Journal

        init() throws {
            directory = JournalTests.directory()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let cut = PowerCut(directory: directory)
            self.cut = cut
            journal = Journal(durable: { path, change in cut.record(path, change) })
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// Each journal's bytes as a power cut now leaves them (nil: the file is gone).
        func afterACut(_ names: [String]) -> [String: Data?] {
            let copy = directory.appendingPathExtension("cut-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: copy) }
            try? FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            Simulation.copy(directory, to: copy, tearing: nil, cut: cut)
            return Dictionary(uniqueKeysWithValues: names.map { ($0, try? Data(contentsOf: copy.appendingPathComponent($0))) })
        }

        /// The journal `name`, begun with an empty base (its first line, not yet synced).
        func begun(_ name: String) -> Journal.File {
            journal.begin(Data("{}".utf8), first: 1, seq: 0, lastTimestamp: 1, to: path(name))
            return journal.file(for: path(name))
        }

        func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// A file renamed into place without its bytes synced first keeps only its name through a
    /// cut once its directory is synced: it is left empty; one whose bytes were synced before its
    /// rename is whole; a rename whose directory was not synced is undone either way.
    @Test(arguments: [(true, true, "new"), (false, true, ""), (true, false, "old"), (false, false, "old")])
    func aFileRenamedBeforeItsBytesWereSyncedIsEmptyAfterACut(_ contentSynced: Bool, _ directorySynced: Bool, _ left: String) throws {
        let disk = try Disk()
        defer { disk.remove() }
        func renamed(_ text: String, synced: Bool) throws {
            let target = disk.path("game-A.json"), temporary = target + ".tmp"
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            if synced { disk.cut.record(target, .contentSynced) }
            disk.cut.record(target, .replaced)
            #expect(rename(temporary, target) == 0)
        }
        try renamed("old", synced: true)
        disk.cut.record(disk.directory.path, .named)
        try renamed("new", synced: contentSynced)
        if directorySynced { disk.cut.record(disk.directory.path, .named) }
        let after = disk.afterACut(["game-A.json"])
        #expect(after["game-A.json"] == .some(Data(left.utf8)))
        #expect(try disk.bytes("game-A.json") == Data("new".utf8))
    }

    /// A snapshot renamed into place survives a cut once its directory is synced; one whose
    /// directory's sync failed (the device failing after its bytes, at the rename) is undone by
    /// the cut: the name holds the snapshot before it, or nothing when there was none.
    @Test func aRenameSurvivesOnlyOnceItsDirectoryIsSynced() throws {
        let directory = JournalTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failing = Mutex(false)
        let cut = PowerCut(directory: directory)
        let store = try CheckpointStore(
            directory: directory, diskFault: { failing.withLock { $0 } ? EIO : nil },
            diskStep: { path in if path.hasSuffix("/game-B.json") { failing.withLock { $0 = true } } },
            durable: { path, change in cut.record(path, change) })
        func afterACut(_ game: String) -> Data? {
            let copy = directory.appendingPathExtension("cut-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: copy) }
            try? FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            Simulation.copy(directory, to: copy, tearing: nil, cut: cut)
            return try? Data(contentsOf: copy.appendingPathComponent(store.url(for: game).lastPathComponent))
        }
        try store.write(Data("a1".utf8), for: "A")
        #expect(afterACut("A") == Data("a1".utf8), "renamed, its directory synced")
        // Game B's first snapshot: the device fails at its rename.
        #expect(throws: ScoreFeedError.self) { try store.write(Data("b1".utf8), for: "B") }
        #expect(try Data(contentsOf: store.url(for: "B")) == Data("b1".utf8), "the rename went through")
        #expect(afterACut("B") == nil, "a power cut undoes it: there was no snapshot")
        failing.withLock { $0 = false }
        try store.write(Data("a2".utf8), for: "A")
        #expect(afterACut("B") == Data("b1".utf8), "the next sync of the directory made it durable")
        #expect(afterACut("A") == Data("a2".utf8))
        // A later snapshot of B whose rename is not synced: the cut gives the name the one before.
        #expect(throws: ScoreFeedError.self) { try store.write(Data("b2".utf8), for: "B") }
        #expect(afterACut("B") == Data("b1".utf8))
        #expect(afterACut("A") == Data("a2".utf8), "another file's synced rename stands")
    }

    /// A line that must be synced survives once synced; a delivery handed to the kernel
    /// (``Journal/readyForPush(_:)``) does not, until its game's next line that must be is synced
    /// with it; a journal cut after its snapshot stays cut.
    @Test func whatWasSyncedSurvivesAndDeliveriesWaitForTheirGamesNextLine() throws {
        let disk = try Disk()
        defer { disk.remove() }
        let journal = disk.journal
        let a = disk.begun("a.journal")
        try journal.sync()
        let base = try disk.bytes("a.journal")
        #expect(disk.afterACut(["a.journal"])["a.journal"] == base, "the base, synced with its directory, survives")
        try journal.append([.delivered(now: Make.start)], first: 2, seq: 1, lastTimestamp: 1, into: a)
        try journal.readyForPush(a)
        #expect(try disk.bytes("a.journal").count > base.count, "the delivery reached the kernel")
        #expect(disk.afterACut(["a.journal"])["a.journal"] == base, "and not the disk")
        try journal.append([.tick(now: Make.start)], first: 3, seq: 1, lastTimestamp: 1, into: a)
        try journal.sync()
        let whole = try disk.bytes("a.journal")
        #expect(disk.afterACut(["a.journal"])["a.journal"] == whole, "the game's next line took its delivery with it")
        journal.reset(disk.path("a.journal"))
        #expect(disk.afterACut(["a.journal"])["a.journal"] == Data())
    }

    /// A delivery followed by a push of another state decided before it (no line of the game's
    /// comes after the delivery to sync it) is synced before that push goes
    /// (``Journal/syncDeliveriesBeforeTheNextPush(_:)``): a power cut keeps it with the lines that
    /// decided the push, so the older state is not sent again before the newer one.
    @Test func aDeliveryBeforeAPushOfAnotherStateIsSyncedFirst() throws {
        let disk = try Disk()
        defer { disk.remove() }
        let journal = disk.journal
        let a = disk.begun("a.journal")
        try journal.append([.tick(now: Make.start)], first: 2, seq: 2, lastTimestamp: 1, into: a)
        try journal.sync()
        try journal.append([.delivered(now: Make.start)], first: 3, seq: 2, lastTimestamp: 1, into: a)
        try journal.readyForPush(a)
        #expect(disk.afterACut(["a.journal"])["a.journal"] != (try disk.bytes("a.journal")), "a delivery alone waits in the kernel")
        journal.syncDeliveriesBeforeTheNextPush(a)
        #expect(journal.needsSync)
        try journal.readyForPush(a)
        #expect(disk.afterACut(["a.journal"])["a.journal"] == (try disk.bytes("a.journal")), "synced before the next push")
        // Still buffered when told: synced once written.
        try journal.append([.delivered(now: Make.start)], first: 4, seq: 2, lastTimestamp: 1, into: a)
        journal.syncDeliveriesBeforeTheNextPush(a)
        try journal.readyForPush(a)
        #expect(disk.afterACut(["a.journal"])["a.journal"] == (try disk.bytes("a.journal")))
        // Nothing unsynced: nothing owed.
        journal.syncDeliveriesBeforeTheNextPush(a)
        #expect(!journal.needsSync)
    }

    /// A journal the write itself makes (no base: a game whose snapshot came first) has a name
    /// only once its directory is synced: the sync that makes its first line durable syncs the
    /// directory too, so the line is not lost with the name.
    @Test func aJournalMadeByItsFirstWriteIsNamedWhenItsLineIsSynced() throws {
        let disk = try Disk()
        defer { disk.remove() }
        try disk.journal.append([.tick(now: Make.start)], first: 5, seq: 2, lastTimestamp: 1, to: disk.path("b.journal"))
        try disk.journal.sync()
        let written = try disk.bytes("b.journal")
        #expect(!written.isEmpty)
        #expect(disk.afterACut(["b.journal"])["b.journal"] == written)
    }

    /// A journal a restart found holds what the killed process handed the kernel, not always the
    /// disk: it is synced, with its directory, before the restart's first push goes
    /// (``Journal/syncBeforeTheNextPush(_:read:)``); one that does not exist is not made.
    @Test func whatARestartFoundIsSyncedBeforeItsFirstPush() throws {
        let disk = try Disk()
        defer { disk.remove() }
        // A whole line, written by a journal the power cut does not hear of (the killed process's).
        let killed = Journal()
        try killed.append([.tick(now: Make.start)], first: 1, seq: 0, lastTimestamp: 1, to: disk.path("a.journal"))
        try killed.sync()
        let found = try disk.bytes("a.journal")
        #expect(disk.afterACut(["a.journal"])["a.journal"]! == nil, "nothing synced it yet")
        disk.journal.syncBeforeTheNextPush([disk.path("a.journal"), disk.path("absent.journal")])
        #expect(disk.journal.needsSync)
        try disk.journal.readyForPush(disk.journal.file(for: disk.path("a.journal")))
        #expect(disk.journal.syncs == 1)
        #expect(disk.afterACut(["a.journal"])["a.journal"] == found)
        #expect(!FileManager.default.fileExists(atPath: disk.path("absent.journal")))
    }

    /// A restore has every journal it read synced, with its directory, before its first push
    /// (``GameService/restore()``): what a killed process left is the kernel's until then.
    @Test func aRestoreSyncsTheJournalsItRead() async throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try RealFeedServeTests.Mode.token.service(clock: .feed, state: dir, sink: RecordingSink())
        _ = try await first.restore()
        await RealFeedServeTests.feed(RealFeedServeTests.stream([GameGenerator(seed: 4).generate().document]).prefix(80), to: first)
        let journals = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".journal") }
        #expect(journals.count == 1)
        // Another start on the directory as the first left it, told of what reached the disk.
        let told = Mutex<[String]>([])
        var options = GameService.Options(
            clock: .feed, coalescer: RealFeedServeTests.Mode.token.coalescer, renderer: .init(), stateDirectory: dir, channels: .init(manage: false),
            wallClock: SystemClock())
        options.durable = { path, change in
            // (A sync's change without its length: the case's name.)
            let name = "\(change)".prefix { $0 != "(" }
            told.withLock { $0.append("\(name) \((path as NSString).lastPathComponent)") }
        }
        let second = try GameService(options: options, sink: RecordingSink())
        #expect(try await second.restore().resumedGames == 1)
        try second.store?.journal.sync()
        let all = told.withLock { $0 }
        #expect(all.contains("synced \(journals[0])"), "\(all)")
        #expect(all.contains("named \(dir.lastPathComponent)"), "\(all)")
    }

    /// Files that were there when the instance started (what the one before left) are named and
    /// whole; a journal nothing synced is gone, its name never having reached the disk.
    @Test func whatTheInstanceFoundIsKeptAndAnUnsyncedNewJournalIsGone() throws {
        let directory = JournalTests.directory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let found = Data("1 0 1 00 [1]\n".utf8)
        try found.write(to: directory.appendingPathComponent("old.journal"))
        let cut = PowerCut(directory: directory)
        try Data("2 0 1 00 [2]\n".utf8).write(to: directory.appendingPathComponent("new.journal"))
        try found.write(to: directory.appendingPathComponent("old.journal").appendingPathExtension("extra"))
        let copy = directory.appendingPathExtension("cut")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        Simulation.copy(directory, to: copy, tearing: nil, cut: cut)
        #expect(try Data(contentsOf: copy.appendingPathComponent("old.journal")) == found)
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("new.journal").path))
        #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent("old.journal.extra").path), "only journals are cut")
    }

    /// After a kill a lane sends again at most the one update in flight; after a power cut, the
    /// updates of its last state (an update and its priority-5 copy, whose deliveries were synced
    /// with nothing yet), and never a state before it.
    @Test func afterAPowerCutALaneSendsAgainOnlyItsLastState() async throws {
        var day = SimulatedDay(
            index: 0, seed: 5, mode: .token, pool: SimulatedGamePool(generated: 40), pollInterval: 120, games: 3...5, killsInFinalWrites: false, powerCuts: false)
        day.restarts = []
        let outcome = try await SimulationTests.run(day)
        #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        let records = outcome.records
        // A game whose last updates are a priority 10 and its copy, with an update of another
        // state before them.
        let copy = try #require(records.indices.dropFirst().first { index in
            let record = records[index], before = records[index - 1]
            return record.event == .update && record.priority == 5 && before.priority == 10 && before.game == record.game
                && before.showsSameState(as: record)
                && !records[(index + 1)...].contains { $0.game == record.game && $0.event == .update }
                && records[..<(index - 1)].contains { $0.game == record.game && $0.event == .update && !$0.showsSameState(as: record) }
        })
        let earlier = try #require(records[..<(copy - 1)].lastIndex {
            $0.game == records[copy].game && $0.event == .update && !$0.showsSameState(as: records[copy])
        })
        let restart = try #require(records.last).sentAt.addingTimeInterval(60)
        func violations(sendingAgain again: [Int], powerCut: Bool) -> [String] {
            var checker = SimulationInvariants(
                day: day, records: records + again.map { records[$0] },
                deliveredAt: records.map(\.sentAt) + again.map { _ in restart.addingTimeInterval(1) },
                instances: [day.start, restart], lostState: [false, false], kills: [nil, restart], powerCuts: [false, powerCut], openChannels: [])
            checker.checkRepeats()
            return checker.violations
        }
        #expect(violations(sendingAgain: [copy], powerCut: false).isEmpty, "a kill: the one in flight")
        #expect(!violations(sendingAgain: [copy - 1, copy], powerCut: false).isEmpty, "a kill: two are one too many")
        #expect(violations(sendingAgain: [copy - 1, copy], powerCut: true).isEmpty, "a power cut: the last state's update and its copy")
        #expect(!violations(sendingAgain: [earlier, copy - 1, copy], powerCut: true).isEmpty, "a power cut: not a state before it")
        #expect(!violations(sendingAgain: [earlier], powerCut: true).isEmpty, "a power cut: not a state before it alone either")
    }
}

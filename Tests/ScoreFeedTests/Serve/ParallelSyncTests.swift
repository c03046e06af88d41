import Foundation
import Synchronization
import Testing
@testable import ScoreFeed
import ScoreFeedModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A batch's journals synced side by side (``ParallelSync``): each file's result where it was
/// given, a failing one failing alone, and a journal that does the same whichever way its syncs
/// ran (one after another, or side by side: a threshold of zero takes that path every time).
@Suite("Journal: a batch's syncs side by side")
struct ParallelSyncTests {
    /// Files made in a directory of their own, open for appending, each holding a line.
    static func openFiles(_ count: Int, in dir: URL) throws -> [Int32] {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let fd = open(dir.appendingPathComponent("f\(index)").path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            try #require(fd >= 0)
            #expect(write(fd, "line\n", 5) == 5)
            return fd
        }
    }

    @Test(arguments: [Duration.zero, .seconds(3_600)])
    func eachSyncsResultStandsInItsPlaceAndOneThatFailsFailsAlone(threshold: Duration) throws {
        let dir = JournalTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var descriptors = try Self.openFiles(20, in: dir)
        defer { for fd in descriptors { close(fd) } }
        // A pipe among the files: it cannot be synced (EINVAL on Linux; the code is the system's).
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        close(descriptors[7])
        descriptors[7] = ends[1]
        let codes = ParallelSync.dataSync(descriptors, sideBySideAfter: threshold)
        #expect(codes.count == 20)
        #expect(codes[7] != 0, "the pipe: \(codes[7])")
        #expect(codes.enumerated().allSatisfy { $0.offset == 7 || $0.element == 0 }, "every other one synced: \(codes)")
        #expect(ParallelSync.dataSync([], sideBySideAfter: threshold).isEmpty)
        let two = ParallelSync.dataSync([ends[1], descriptors[0]], sideBySideAfter: threshold)
        #expect(two.count == 2 && two[0] != 0 && two[1] == 0, "\(two)")
    }

    /// Threads refused, or made: every descriptor synced all the same, each result in its place.
    @Test(arguments: [false, true])
    func withoutThreadsTheCallingThreadSyncsTheRest(threadsMade: Bool) throws {
        let dir = JournalTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let descriptors = try Self.openFiles(6, in: dir)
        defer { for fd in descriptors { close(fd) } }
        let asked = Mutex(0)
        let codes = ParallelSync.dataSync(descriptors + [-1], sideBySideAfter: .zero) { body in
            asked.withLock { $0 += 1 }
            return threadsMade && ParallelSync.spawn(body)
        }
        #expect(codes == [0, 0, 0, 0, 0, 0, EBADF])
        #expect(asked.withLock { $0 } == (threadsMade ? 5 : 1), "a refused thread ends the asking")
    }

    /// Twelve games' lines, one sync: every journal told durable once, in the order of the
    /// files' names, with its whole length, and read back whole; a journal whose descriptor was
    /// taken from under it fails alone (its path's error), the others durable all the same.
    @Test(arguments: [Duration.zero, .seconds(3_600)])
    func aBatchsJournalsAreDurableTogetherAndTheSameEitherWay(threshold: Duration) throws {
        let dir = JournalTests.directory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let told = Mutex<[(String, CheckpointStore.DurableChange)]>([])
        let journal = Journal(durable: { path, change in told.withLock { $0.append((path, change)) } }, sideBySideAfter: threshold)
        let paths = (0..<12).map { dir.appendingPathComponent(String(format: "game-%02d.journal", $0)).path }
        let event = GameSessionTests.tipOff
        for (index, path) in paths.enumerated().reversed() {
            try journal.append([.receive(event, index: index, now: event.time)], first: 1, seq: index, lastTimestamp: 0, to: path)
        }
        try journal.sync()
        let synced = told.withLock { $0 }.filter { if case .synced = $0.1 { true } else { false } }
        #expect(synced.map(\.0) == paths, "each once, in name order")
        for (path, change) in synced {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            guard case .synced(let length) = change else { continue }
            #expect(length == bytes.count, "its whole length")
            #expect(Journal.read(bytes).wholeBytes == bytes.count, "a whole line")
        }
        #expect(journal.syncs == 12)

        // A second batch: one game's descriptor made a pipe's (its sync fails).
        told.withLock { $0 = [] }
        for (index, path) in paths.enumerated() {
            try journal.append([.receive(event, index: index + 1, now: event.time)], first: 2, seq: index, lastTimestamp: 0, to: path)
        }
        // Its descriptor made a pipe's: the lines are written, and the sync fails (EINVAL on Linux).
        let victim = paths[5]
        let victimDescriptor = try #require(Self.openDescriptor(of: victim))
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(dup2(ends[1], victimDescriptor) == victimDescriptor)
        #expect(throws: ScoreFeedError.self) { try journal.sync(victim) }
        let second = told.withLock { $0 }.map(\.0)
        #expect(second == paths.filter { $0 != victim }, "the others durable, in order: \(second.map { ($0 as NSString).lastPathComponent })")
        #expect(journal.syncs == 23)
        #expect(throws: Never.self) { try journal.sync(paths[0]) }
    }

    /// The descriptor this process holds open on the file at `path` (the one whose device and
    /// inode are the file's).
    static func openDescriptor(of path: String) -> Int32? {
        var file = stat()
        guard stat(path, &file) == 0 else { return nil }
        return (3..<Int32(4_096)).first { fd in
            var info = stat()
            return fstat(fd, &info) == 0 && info.st_dev == file.st_dev && info.st_ino == file.st_ino
        }
    }
}

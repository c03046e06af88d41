import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The games' append-only journals in a state directory: what each game's session did since its
/// last snapshot, one line per commit. Appends are buffered; ``sync(_:)`` writes every game's
/// buffered lines and syncs each file once, so one sync makes a whole batch of lines durable
/// (group commit) before any of their pushes is handed to the sink. That a push was delivered
/// only needs to reach the kernel before the next push goes (``readyForPush(_:)``): it survives the
/// process being killed, and after a power cut the pushes since the last sync are sent again,
/// byte for byte. Shared by every engine of a service (a lock guards it).
///
/// A line is `<first input number> <seq> <last timestamp> <FNV-1a 64 of the rest, hex> <JSON
/// array of inputs>`: the renderer's numbering after the inputs stands in the clear, so a game
/// whose snapshot cannot be read still numbers on after its last push. A torn
/// last line (a crash in the middle of a write) fails its checksum or has no newline and is
/// dropped on reading, with everything after it.
public final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: Int32] = [:]
    private var pending: [String: [UInt8]] = [:]
    /// Files written since their last sync.
    private var unsynced: Set<String> = []
    /// Files whose last write failed and was cut back whole, their lines kept in ``pending``: a
    /// retry of the write finishes the work (``keepsFailedLines(_:)``).
    private var cutBack: Set<String> = []
    /// Files whose sync failed, until ``reset(_:)``: Linux reports a failed write-back once, and a
    /// later `fdatasync` may succeed without the pages it lost, so such a file is not trusted
    /// again (its game writes a snapshot instead).
    private var syncFailed: [String: ScoreFeedError] = [:]
    /// Whether lines that must be synced (not only deliveries) wait or are unsynced.
    private var owesSync = false
    /// Bytes written and syncs made since the service started (for `bench`).
    public private(set) var bytesWritten = 0
    public private(set) var syncs = 0
    /// Snapshots written (each a game's whole saved form, synced with its directory) and their bytes.
    public private(set) var snapshots = 0
    public private(set) var snapshotBytes = 0

    /// Counts a snapshot of `bytes` written beside the journals.
    public func noteSnapshot(bytes: Int) {
        lock.withLock {
            snapshots += 1
            snapshotBytes += bytes
        }
    }

    /// The most journal files kept open at once: a service with thousands of games stays far
    /// below a process's usual limit of 1,024 descriptors.
    public let maxOpenFiles: Int

    /// While it says so, every write fails as on a full disk (``CheckpointStore/FullDisk``): the
    /// journals' and their store's snapshots'.
    let fullDisk: CheckpointStore.FullDisk?

    public init(maxOpenFiles: Int = 256, fullDisk: CheckpointStore.FullDisk? = nil) {
        self.maxOpenFiles = max(1, maxOpenFiles)
        self.fullDisk = fullDisk
    }

    deinit {
        for fd in files.values { close(fd) }
    }

    /// Buffers the inputs numbered from `first` for the journal at `path`; returns the line's
    /// bytes. Inputs that are all deliveries (and confirmed ends: one lost sends the end again;
    /// priorities given back: one lost leaves the budget spent; and what the sink did with a
    /// channel's end, held or delivered: one lost sends the end again before the channel goes)
    /// need only reach the kernel before the next push; any other must be synced.
    @discardableResult
    public func append(
        _ inputs: [GameSession.Input], first: Int, seq: Int, lastTimestamp: Int, to path: String
    ) throws(ScoreFeedError) -> Int {
        let mustSync = inputs.contains {
            switch $0 {
            case .delivered, .deliveredOnLane, .endConfirmed, .givenBack, .endHeld, .endDrained: false
            default: true
            }
        }
        // The checksummed part: `seq lastTimestamp [inputs]`.
        var bytes = JSONBytes(capacity: 32 + 256 * inputs.count)
        bytes.int(seq)
        bytes.byte(UInt8(ascii: " "))
        bytes.int(lastTimestamp)
        bytes.raw(" [")
        for (index, input) in inputs.enumerated() {
            if index > 0 { bytes.byte(UInt8(ascii: ",")) }
            guard !input.appendJSON(to: &bytes) else { continue }
            do {
                bytes.raw(try Self.encoder.encode(input))
            } catch {
                throw ScoreFeedError(.io, "cannot encode a journal entry: \(error)", at: .init(file: path))
            }
        }
        bytes.byte(UInt8(ascii: "]"))
        // The line: `first checksum `, the checksummed part and a newline, copied once into the
        // file's buffer.
        var head = JSONBytes(capacity: 40)
        head.int(first)
        head.byte(UInt8(ascii: " "))
        head.hex(bytes.withBytes { Self.checksum($0) })
        head.byte(UInt8(ascii: " "))
        let length = head.count + bytes.count + 1
        head.withBytes { head in
            bytes.withBytes { body in
                func appendLine(to buffer: inout [UInt8]) {
                    buffer.append(contentsOf: head)
                    buffer.append(contentsOf: body)
                    buffer.append(0x0A)
                }
                lock.withLock {
                    appendLine(to: &pending[path, default: []])
                    if mustSync { owesSync = true }
                }
            }
        }
        return length
    }

    /// Whether the last write of `path` failed and was cut back whole, its lines kept to be
    /// written again (a full disk, say): a retry of the write is all its game needs. Not after
    /// a file that could not be opened, or a sync that failed: the game writes a snapshot.
    public func keepsFailedLines(_ path: String) -> Bool {
        lock.withLock { cutBack.contains(path) }
    }

    /// Whether something must be synced before the next push leaves.
    public var needsSync: Bool {
        lock.withLock { owesSync }
    }

    /// Whether lines wait to be written and synced.
    public var hasPending: Bool {
        lock.withLock { !pending.isEmpty }
    }

    /// What must come before the next push leaves (one look under the lock): lines that must be
    /// synced are synced (``sync(_:)``); else buffered deliveries are handed to the kernel without
    /// waiting for the disk, enough for a delivery to outlive the process. Throws as ``sync(_:)``
    /// does.
    public func readyForPush(_ path: String) throws(ScoreFeedError) {
        lock.lock()
        defer { lock.unlock() }
        if let failed = syncFailed[path] { throw failed }
        if owesSync { return try syncLocked(path) }
        guard !pending.isEmpty else { return }
        if let failure = Self.failure(writePending(), for: path) { throw failure }
    }

    /// Writes every buffered line and syncs each file written to since its last sync. A file
    /// that cannot be written keeps its lines buffered (cut back to where it was) and stops no
    /// other: the error is thrown for `path` only (for any file when `path` is nil), so one
    /// game's full disk does not hold another game's pushes.
    public func sync(_ path: String? = nil) throws(ScoreFeedError) {
        lock.lock()
        defer { lock.unlock() }
        try syncLocked(path)
    }

    private func syncLocked(_ path: String?) throws(ScoreFeedError) {
        var failures = writePending()
        for file in unsynced.sorted() {
            guard let fd = files[file], syncFailed[file] == nil else { continue }
            guard fdatasync(fd) == 0 else {
                let failure = ScoreFeedError(.io, "cannot sync the journal: \(ScoreFeedError.errnoText(errno))", at: .init(file: file))
                failures[file] = failure
                syncFailed[file] = failure
                cutBack.remove(file)
                continue
            }
            syncs += 1
            unsynced.remove(file)
        }
        for (file, failure) in syncFailed where failures[file] == nil { failures[file] = failure }
        owesSync = !failures.isEmpty
        if let failure = Self.failure(failures, for: path) { throw failure }
    }

    /// The failure that concerns `path` (any, when nil), the first by file name.
    private static func failure(_ failures: [String: ScoreFeedError], for path: String?) -> ScoreFeedError? {
        guard let path else { return failures.keys.sorted().first.flatMap { failures[$0] } }
        return failures[path]
    }

    /// Writes every buffered line; returns the files that could not be written.
    private func writePending() -> [String: ScoreFeedError] {
        var failures: [String: ScoreFeedError] = [:]
        // (One file, the usual case with a delivery, needs no sorting.)
        for path in pending.count == 1 ? Array(pending.keys) : pending.keys.sorted() {
            guard let bytes = pending[path] else { continue }
            let fd: Int32
            do {
                fd = try descriptor(path)
            } catch {
                failures[path] = error
                cutBack.remove(path)
                continue
            }
            let (written, failure) = fullDisk?() == true ? (0, ENOSPC) : bytes.withUnsafeBytes { FileWrite.all($0, to: fd) }
            guard failure == 0 else {
                // The part that went in is cut off again (appended: it ends the file); only a file
                // cut back whole may take the same lines again.
                let end = lseek(fd, 0, SEEK_END)
                if written == 0 || (end >= written && ftruncate(fd, end - off_t(written)) == 0) {
                    cutBack.insert(path)
                } else {
                    cutBack.remove(path)
                }
                failures[path] = ScoreFeedError(.io, "cannot write the journal: \(ScoreFeedError.errnoText(failure))", at: .init(file: path))
                continue
            }
            bytesWritten += bytes.count
            pending[path] = nil
            cutBack.remove(path)
            unsynced.insert(path)
        }
        return failures
    }

    /// Empties the journal at `path` (its inputs are in a snapshot written durably before):
    /// buffered lines are dropped and the file is cut to nothing.
    public func reset(_ path: String) {
        lock.withLock {
            pending[path] = nil
            unsynced.remove(path)
            cutBack.remove(path)
            syncFailed[path] = nil
            if let fd = files[path] {
                _ = ftruncate(fd, 0)
            } else {
                _ = truncate(path, 0)
            }
        }
    }

    private func descriptor(_ path: String) throws(ScoreFeedError) -> Int32 {
        if let fd = files[path] { return fd }
        if files.count >= maxOpenFiles { try closeFiles() }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { throw ScoreFeedError(.io, "cannot open the journal: \(ScoreFeedError.errnoText(errno))", at: .init(file: path)) }
        files[path] = fd
        return fd
    }

    /// Closes the open journals to make room: those synced at once, the others once synced.
    private func closeFiles() throws(ScoreFeedError) {
        for (path, fd) in files {
            if unsynced.contains(path) {
                guard fdatasync(fd) == 0 else {
                    throw ScoreFeedError(.io, "cannot sync the journal: \(ScoreFeedError.errnoText(errno))", at: .init(file: path))
                }
                syncs += 1
                unsynced.remove(path)
            }
            close(fd)
            files[path] = nil
        }
    }

    private static let encoder = JSONEncoder()

    /// FNV-1a, 64 bits: enough to tell a torn line from a whole one.
    static func checksum(_ bytes: some ContiguousBytes) -> UInt64 {
        bytes.withUnsafeBytes { buffer in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
    }
}


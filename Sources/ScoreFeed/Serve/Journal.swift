import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The games' append-only journals in a state directory: what each game's session did since its
/// last snapshot, one line per commit. Appends are buffered; ``sync(_:)`` writes every game's
/// buffered lines and syncs each file once (side by side where the disk makes a sync wait:
/// ``sideBySideAfter``), so one sync makes a whole batch of lines durable (group commit) before
/// any of their pushes is handed to the sink. That a push was delivered
/// only needs to reach the kernel before the next push goes (``readyForPush(_:)``): it survives the
/// process being killed, and after a power cut the pushes whose deliveries were not synced are sent
/// again, byte for byte. So a file that took only deliveries is not synced for them: they are
/// synced with the game's next line that must be, and a live game's push costs no sync of its own
/// (on the system clock, before its game's next push instead when that push shows another state
/// decided before them: ``syncDeliveriesBeforeTheNextPush(_:)``, so a power cut sends again only the
/// last state's pushes).
/// Shared by every engine of a service (a lock guards it).
///
/// A line is `<first input number> <seq> <last timestamp> <FNV-1a 64 of the rest, hex> <JSON
/// array of inputs>`: the renderer's numbering after the inputs stands in the clear, so a game
/// whose snapshot cannot be read still numbers on after its last push. A new game's first line
/// may be its base instead (`… {"base":<the session's saved form>}`, ``begin(_:first:seq:lastTimestamp:to:)``):
/// the game has no snapshot yet. A torn
/// last line (a crash in the middle of a write) fails its checksum or has no newline and is
/// dropped on reading, with everything after it.
public final class Journal: @unchecked Sendable {
    private let lock = ShortLock()
    /// Each journal written to, by path: its descriptor, the lines it buffers, whether it waits
    /// for a sync. One lookup per call; the rest is the file's own.
    private var files: [String: File] = [:]
    /// The files that buffer lines, each once.
    private var dirty: [File] = []
    /// The files that took a line that must be synced since their last sync, each once.
    private var unsynced: [File] = []
    /// The files whose sync failed (``File/syncFailed``), each once.
    private var failedSyncs: [File] = []
    /// The new files (begun with a base, or made by a write) whose names are not yet durable
    /// (``File/isNew``), each once.
    private var newFiles: [File] = []
    /// Descriptors open now (at most ``maxOpenFiles``).
    private var openFiles = 0
    /// Counts descriptor uses: a file's ``File/lastUse`` orders the open files by their last use.
    private var uses = 0
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

    /// The most journal files kept open at once. Past it, the least recently used quarter is
    /// closed (each synced first if it must be), so a service with more games than the cap
    /// reopens a game's journal only after a quarter of the cap's games have written since.
    public let maxOpenFiles: Int

    /// The cap a service uses: the process's descriptor limit (`RLIMIT_NOFILE`, its soft limit)
    /// less 256 kept for everything else, or half of a limit below 512, at most 65,536. With
    /// Linux's usual soft limit of 1,024 that is 768 games' journals open at once; where the
    /// limit is higher, thousands of live games never reopen theirs.
    public static var defaultMaxOpenFiles: Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let found = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
        #else
        let found = getrlimit(RLIMIT_NOFILE, &limit) == 0
        #endif
        return maxOpenFiles(descriptorLimit: found ? Int(clamping: limit.rlim_cur) : 512)
    }

    /// The journals kept open under a descriptor limit of `limit`: all but 256 kept for
    /// everything else (sockets, snapshots, the state directory's lock, standard streams), half
    /// of a limit below 512, at most 65,536.
    static func maxOpenFiles(descriptorLimit limit: Int) -> Int {
        min(65_536, limit < 512 ? max(1, limit / 2) : limit - 256)
    }

    /// While it says so, every write fails with its error (``CheckpointStore/DiskFault``): the
    /// journals' and their store's snapshots'; and with an error other than a full disk's, every
    /// sync of a journal or of the directory too.
    let diskFault: CheckpointStore.DiskFault?
    /// Called before each change a commit or a delivery makes (``CheckpointStore/DiskStep``): a
    /// journal's lines handed to the kernel, a journal cut; and its store's snapshots' bytes and
    /// renames.
    let diskStep: CheckpointStore.DiskStep?
    /// Told of each sync that made bytes or names durable, and of each journal cut to nothing
    /// (``CheckpointStore/Durable``): the simulator's power cut keeps only those.
    let durable: CheckpointStore.Durable?
    /// How long the first of a sync's files may take before the others are synced side by side,
    /// on threads of their own: a disk's sync waits for the device, a page cache's does not.
    /// Zero syncs side by side whenever there are several (for tests).
    public let sideBySideAfter: Duration

    /// The ``sideBySideAfter`` a service uses: 100 µs, above a sync that only asks the kernel
    /// (a few microseconds on tmpfs) and below a journal commit on a disk (0.3 ms and up).
    public static let defaultSideBySideAfter: Duration = .microseconds(100)

    public init(
        maxOpenFiles: Int = Journal.defaultMaxOpenFiles, diskFault: CheckpointStore.DiskFault? = nil, diskStep: CheckpointStore.DiskStep? = nil,
        durable: CheckpointStore.Durable? = nil, sideBySideAfter: Duration = Journal.defaultSideBySideAfter
    ) {
        self.maxOpenFiles = max(1, maxOpenFiles)
        self.diskFault = diskFault
        self.diskStep = diskStep
        self.durable = durable
        self.sideBySideAfter = sideBySideAfter
    }

    deinit {
        for file in files.values where file.descriptor >= 0 { close(file.descriptor) }
    }

    /// One journal file's state, guarded by the journal's lock: what an engine holds to reach its
    /// journal without looking its path up at every commit (``file(for:)``).
    public final class File: @unchecked Sendable {
        fileprivate let path: String
        /// Its descriptor, -1 while closed.
        fileprivate var descriptor: Int32 = -1
        /// When its descriptor was last used (``Journal``'s count of uses).
        fileprivate var lastUse = 0
        /// Lines not yet written, kept from write to write (no fresh buffer per line).
        fileprivate var pending = JSONBytes(capacity: 1_024)
        /// Took a line that must be synced (not only deliveries) since its last sync.
        fileprivate var unsynced = false
        /// ``pending`` holds a line that must be synced: once written, the file is ``unsynced``.
        fileprivate var pendingMustSync = false
        /// Took bytes (deliveries too) since its last sync: it is synced before it is closed, or a
        /// failed write-back of them would be reported to no descriptor, and a line synced after
        /// them could stand behind a damaged one.
        fileprivate var writtenSinceSync = false
        /// Its last write failed and was cut back whole, its lines kept in ``pending``: a retry
        /// of the write finishes the work (``Journal/keepsFailedLines(_:)``).
        fileprivate var cutBack = false
        /// Its sync failed, until ``Journal/reset(_:)``: Linux reports a failed write-back once,
        /// and a later `fdatasync` may succeed without the pages it lost, so such a file is not
        /// trusted again (its game writes a snapshot instead).
        fileprivate var syncFailed: ScoreFeedError?
        /// Its first line is a base (``Journal/begin(_:first:seq:lastTimestamp:to:)``), or a write
        /// made the file: the file is new, and its name is durable only once its directory is
        /// synced after it.
        fileprivate var isNew = false
        /// Whether this run has cut the file back to its whole lines (``cutToWholeLines(_:_:read:)``):
        /// done at its first open, not at every reopen.
        fileprivate var cutToWholeLines = false

        fileprivate init(path: String) {
            self.path = path
        }
    }

    /// The journal at `path`, for the calls that take a ``File``.
    public func file(for path: String) -> File {
        lock.withLock { lockedFile(path) }
    }

    /// The state of the journal at `path` (made at its first use).
    private func lockedFile(_ path: String) -> File {
        if let file = files[path] { return file }
        let file = File(path: path)
        files[path] = file
        return file
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
        try append(inputs, first: first, seq: seq, lastTimestamp: lastTimestamp, into: file(for: path))
    }

    /// ``append(_:first:seq:lastTimestamp:to:)`` to the journal `file`.
    @discardableResult
    public func append(
        _ inputs: [GameSession.Input], first: Int, seq: Int, lastTimestamp: Int, into file: File
    ) throws(ScoreFeedError) -> Int {
        let path = file.path
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
        let head = Self.head(first: first, of: bytes)
        let length = head.count + bytes.count + 1
        lock.withLock {
            if file.pending.count == 0 { dirty.append(file) }
            file.pending.append(head)
            file.pending.append(bytes)
            file.pending.byte(0x0A)
            if mustSync {
                owesSync = true
                file.pendingMustSync = true
            }
        }
        return length
    }

    /// Starts the journal at `path` afresh with a base: the whole game as `session` encodes it
    /// (``GameSession/encoded()``), every input before `first` in it. A new game's checkpoint
    /// then costs no snapshot file of its own (a temporary file, two syncs and a rename): the base
    /// is made durable with the batch's other lines, by the same sync, the file's directory with
    /// it. Only for a game with neither a snapshot nor journal lines on disk: the file is cut to
    /// nothing first. Returns the line's bytes.
    @discardableResult
    public func begin(_ session: Data, first: Int, seq: Int, lastTimestamp: Int, to path: String) -> Int {
        // The checksummed part: `seq lastTimestamp {"base":<session>}`.
        var bytes = JSONBytes(capacity: 48 + session.count)
        bytes.int(seq)
        bytes.byte(UInt8(ascii: " "))
        bytes.int(lastTimestamp)
        bytes.raw(" {\"base\":")
        bytes.raw(session)
        bytes.byte(UInt8(ascii: "}"))
        let head = Self.head(first: first, of: bytes)
        let length = head.count + bytes.count + 1
        lock.withLock {
            // (The file on disk is empty or absent: its state alone is forgotten, nothing is cut.)
            let file = lockedFile(path)
            forget(file)
            dirty.append(file)
            file.pending.append(head)
            file.pending.append(bytes)
            file.pending.byte(0x0A)
            file.pendingMustSync = true
            markNew(file)
            owesSync = true
        }
        return length
    }

    /// Journals a start found (`paths`; those that do not exist are skipped): a killed process's
    /// lines reach the kernel, not always the disk, and a restart's pushes stand on them, so each
    /// is synced, with its directory (a rename at the restore too), before the next push goes, as
    /// if its lines had just been written. A journal that cannot be opened is left to its game's
    /// first write, which fails as any would. `read` holds the journals as the restore read them
    /// (by path), so their torn tails are cut without reading them again.
    public func syncBeforeTheNextPush(_ paths: [String], read: [String: Reading] = [:]) {
        lock.withLock {
            for path in paths where FileManager.default.fileExists(atPath: path) {
                let file = lockedFile(path)
                guard (try? descriptor(file, read: read[path])) != nil else { continue }
                file.writtenSinceSync = true
                markUnsynced(file)
                markNew(file)
                owesSync = true
            }
        }
    }

    /// The deliveries `file` took since its last sync are synced before the next push leaves, as
    /// a line that must be: its game's next push shows another state than the one just delivered,
    /// decided before that delivery (several states in the outbox: a catch-up, lines taken while
    /// the push before was in flight, a restart), so no line of the game's follows
    /// the delivery to sync it. Left to the kernel, a power cut would keep the lines that decided
    /// the next push and lose the deliveries before it, and the next instance would send the
    /// older states again before the newer one (seed 1, day 343 of 500: three updates, two of
    /// them sent again).
    public func syncDeliveriesBeforeTheNextPush(_ file: File) {
        lock.withLock {
            guard file.pending.count > 0 || file.writtenSinceSync else { return }
            if file.pending.count > 0 { file.pendingMustSync = true } else { markUnsynced(file) }
            owesSync = true
        }
    }

    /// Whether the last write of `path` failed and was cut back whole, its lines kept to be
    /// written again (a full disk, say): a retry of the write is all its game needs. Not after
    /// a file that could not be opened, or a sync that failed: the game writes a snapshot.
    public func keepsFailedLines(_ path: String) -> Bool {
        lock.withLock { files[path]?.cutBack == true }
    }

    /// Whether something must be synced before the next push leaves.
    public var needsSync: Bool {
        lock.withLock { owesSync }
    }

    /// The journals open now, by path (for tests).
    var openPaths: Set<String> {
        lock.withLock { Set(files.values.filter { $0.descriptor >= 0 }.map(\.path)) }
    }

    /// Whether lines wait to be written and synced.
    public var hasPending: Bool {
        lock.withLock { !dirty.isEmpty }
    }

    /// What must come before the next push of the journal `file`'s game leaves (one look under
    /// the lock): lines that must be synced are synced (``sync(_:)``); else buffered deliveries are
    /// handed to the kernel without waiting for the disk, enough for a delivery to outlive the
    /// process. Throws as ``sync(_:)`` does.
    public func readyForPush(_ file: File) throws(ScoreFeedError) {
        try lock.withLock { () throws(ScoreFeedError) in
            if let failed = file.syncFailed { throw failed }
            if owesSync { return try syncLocked(file.path) }
            guard !dirty.isEmpty else { return }
            if let failure = Self.failure(writePending(), for: file.path) { throw failure }
        }
    }

    /// Writes every buffered line and syncs each file that took a line that must be synced since
    /// its last sync (one that took only deliveries is left to the kernel). A file
    /// that cannot be written keeps its lines buffered (cut back to where it was) and stops no
    /// other: the error is thrown for `path` only (for any file when `path` is nil), so one
    /// game's full disk does not hold another game's pushes.
    public func sync(_ path: String? = nil) throws(ScoreFeedError) {
        try lock.withLock { () throws(ScoreFeedError) in try syncLocked(path) }
    }

    private func syncLocked(_ path: String?) throws(ScoreFeedError) {
        var failures = writePending()
        let waiting = unsynced.count == 1 ? unsynced : unsynced.sorted { $0.path < $1.path }
        unsynced = []
        var syncing: [File] = []
        for file in waiting where file.unsynced {
            guard file.descriptor >= 0, file.syncFailed == nil else {
                unsynced.append(file)
                continue
            }
            syncing.append(file)
        }
        // The batch's files at once: every one is durable before this returns, whichever is first.
        for (file, result) in zip(syncing, syncData(syncing)) {
            if let (failure, code) = result {
                failures[file.path] = failure
                distrust(file, failure)
                // Not trusted again until its game's snapshot empties it: then it is opened anew.
                giveUpDescriptor(of: file, after: code)
                unsynced.append(file)
                continue
            }
            syncs += 1
            file.unsynced = false
            file.writtenSinceSync = false
        }
        // A new file's name is durable once its directory is synced too (once for all of them);
        // until it is, its game's pushes wait, and the next sync tries again.
        if !newFiles.isEmpty {
            let named = Dictionary(grouping: newFiles.filter { !$0.unsynced }) { ($0.path as NSString).deletingLastPathComponent }
            newFiles.removeAll { !$0.unsynced }
            for (directory, files) in named.sorted(by: { $0.key < $1.key }) {
                if let failure = syncDirectory(directory) {
                    for file in files { failures[file.path] = failure }
                    newFiles += files
                } else {
                    for file in files { file.isNew = false }
                }
            }
        }
        for file in failedSyncs { if let failure = file.syncFailed, failures[file.path] == nil { failures[file.path] = failure } }
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
        let written = dirty.count == 1 ? dirty : dirty.sorted { $0.path < $1.path }
        dirty = []
        for file in written {
            let fd: Int32
            do {
                fd = try descriptor(file)
            } catch {
                failures[file.path] = error
                file.cutBack = false
                dirty.append(file)
                continue
            }
            diskStep?(file.path)
            let (count, failure) = diskFault?().map { (0, $0) } ?? file.pending.withBytes { FileWrite.all($0, to: fd) }
            guard failure == 0 else {
                // The part that went in is cut off again (appended: it ends the file); only a file
                // cut back whole may take the same lines again.
                let end = lseek(fd, 0, SEEK_END)
                file.cutBack = count == 0 || (end >= count && ftruncate(fd, end - off_t(count)) == 0)
                let error = ScoreFeedError(.io, "cannot write the journal: \(ScoreFeedError.errnoText(failure))", at: .init(file: file.path))
                failures[file.path] = error
                // A full disk leaves the descriptor as good as it was; any other failure may be
                // the descriptor's own (one closed under it, a file server's stale handle), which
                // would fail every retry: the file is opened again at the next write, and what
                // it took before is not trusted (its sync cannot be had from this descriptor).
                if failure != ENOSPC && failure != EDQUOT {
                    if file.writtenSinceSync { file.cutBack = false }
                    giveUpDescriptor(of: file, after: failure)
                }
                if file.cutBack {
                    dirty.append(file)
                } else {
                    // Part of the lines went in and could not be cut off: nothing more is written
                    // after them (a reader stops at a torn line); its lines stay buffered, so no
                    // later line is written either, until its game's snapshot empties the file.
                    distrust(file, error)
                }
                continue
            }
            bytesWritten += file.pending.count
            file.pending.removeAll(keepingAtMost: 16_384)
            file.cutBack = false
            file.writtenSinceSync = true
            // Deliveries alone need only be in the kernel: the file is synced for a line that
            // must be.
            if file.pendingMustSync {
                file.pendingMustSync = false
                markUnsynced(file)
            }
        }
        return failures
    }

    /// Empties the journal at `path` (its inputs are in a snapshot written durably before):
    /// buffered lines are dropped and the file is cut to nothing.
    public func reset(_ path: String) {
        lock.withLock {
            let file = files[path]
            if let file { forget(file) }
            diskStep?(path)
            if let fd = file?.descriptor, fd >= 0 { _ = ftruncate(fd, 0) } else { _ = truncate(path, 0) }
            durable?(path, .emptied)
        }
    }

    /// `file`'s sync failed, or a write it could not cut back: it is not trusted again until
    /// ``reset(_:)`` (its game writes a snapshot), and every later sync says so for it.
    private func distrust(_ file: File, _ failure: ScoreFeedError) {
        guard file.syncFailed == nil else { return }
        file.syncFailed = failure
        file.cutBack = false
        failedSyncs.append(file)
        owesSync = true
    }

    /// `file` took a line that must be synced: the next sync syncs it.
    private func markUnsynced(_ file: File) {
        guard !file.unsynced else { return }
        file.unsynced = true
        unsynced.append(file)
    }

    /// `file` is new on the disk (``File/isNew``): the next sync syncs its directory too.
    private func markNew(_ file: File) {
        guard !file.isNew else { return }
        file.isNew = true
        newFiles.append(file)
    }

    /// Drops what the journal holds of `file`: its buffered lines, and what waits on it.
    private func forget(_ file: File) {
        if file.pending.count > 0 {
            file.pending.removeAll(keepingAtMost: 16_384)
            dirty.removeAll { $0 === file }
        }
        file.pendingMustSync = false
        file.writtenSinceSync = false
        if file.unsynced {
            file.unsynced = false
            unsynced.removeAll { $0 === file }
        }
        file.cutBack = false
        if file.isNew {
            file.isNew = false
            newFiles.removeAll { $0 === file }
        }
        if file.syncFailed != nil {
            file.syncFailed = nil
            failedSyncs.removeAll { $0 === file }
        }
    }

    /// The open descriptor of `file`, opened (and cut to its whole lines, at its first open in
    /// this run) when it is not; `read` is the file as a restore read it, if it did.
    private func descriptor(_ file: File, read: Reading? = nil) throws(ScoreFeedError) -> Int32 {
        uses += 1
        file.lastUse = uses
        if file.descriptor >= 0 { return file.descriptor }
        if openFiles >= maxOpenFiles { closeFiles() }
        var fd = open(file.path, O_WRONLY | O_APPEND)
        if fd < 0, errno == ENOENT {
            // A journal this write makes (a game whose snapshot came first): its name is durable
            // only once its directory is synced, as a base's (``File/isNew``).
            fd = open(file.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            if fd >= 0 { markNew(file) }
        }
        guard fd >= 0 else { throw ScoreFeedError(.io, "cannot open the journal: \(ScoreFeedError.errnoText(errno))", at: .init(file: file.path)) }
        if !file.cutToWholeLines {
            do throws(ScoreFeedError) {
                try cutToWholeLines(file, fd, read: read)
            } catch {
                // Tried again at the next open: nothing is appended after a torn tail.
                close(fd)
                throw error
            }
            file.cutToWholeLines = true
        }
        file.descriptor = fd
        openFiles += 1
        return fd
    }

    /// Cuts an existing journal back to its whole lines before this run first appends to it: a
    /// reader stops at the first line that is not whole (a crash's torn tail, a power cut's lost
    /// page), so a line appended after one would be lost with it at the next start. A line
    /// written whole by a newer ScoreFeed is left alone (the restore refuses such a journal).
    /// `read`, the restore's reading of the file, is used when the file still has its length.
    private func cutToWholeLines(_ file: File, _ fd: Int32, read: Reading?) throws(ScoreFeedError) {
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return }
        let reading: Reading
        if let read, read.bytes == size {
            reading = read
        } else {
            do {
                reading = Self.read(try Data(contentsOf: URL(fileURLWithPath: file.path)))
            } catch {
                throw ScoreFeedError(.io, "cannot read the journal: \(error.localizedDescription)", at: .init(file: file.path))
            }
        }
        guard reading.wholeBytes < reading.bytes, reading.unreadableLine == nil else { return }
        guard ftruncate(fd, off_t(reading.wholeBytes)) == 0 else {
            throw ScoreFeedError(.io, "cannot cut the journal's torn tail: \(ScoreFeedError.errnoText(errno))", at: .init(file: file.path))
        }
    }

    /// Gives up `file`'s descriptor, closing it unless `failure` says it is not open (`EBADF`: its
    /// number may be another file's now): the next write opens the file again.
    private func giveUpDescriptor(of file: File, after failure: Int32 = 0) {
        guard file.descriptor >= 0 else { return }
        if failure != EBADF { close(file.descriptor) }
        file.descriptor = -1
        openFiles -= 1
    }

    /// Closes the least recently used quarter of the open journals to make room (at least one),
    /// each synced first when it took anything since its last sync, deliveries too. A file whose
    /// sync fails is its own game's failure (``File/syncFailed``), not the one being opened.
    private func closeFiles() {
        let open = files.values.filter { $0.descriptor >= 0 }.sorted { $0.lastUse < $1.lastUse }
        for file in open.prefix(max(1, open.count / 4)) {
            // (A file that took a line that must be synced took bytes too.)
            if file.writtenSinceSync {
                if file.unsynced { unsynced.removeAll { $0 === file } }
                file.unsynced = false
                file.writtenSinceSync = false
                if let (failure, _) = syncData(file) {
                    distrust(file, failure)
                } else {
                    syncs += 1
                }
            }
            giveUpDescriptor(of: file)
        }
    }

    private static let encoder = JSONEncoder()

    /// The error a sync fails with now (``diskFault``'s): a full disk fails writes, not the sync
    /// of what was written before it filled.
    private var syncFault: Int32? {
        diskFault?().flatMap { $0 == ENOSPC ? nil : $0 }
    }

    /// Syncs the bytes `file` took (`fdatasync`); returns its failure and its `errno`, nil when
    /// it succeeded.
    private func syncData(_ file: File) -> (ScoreFeedError, Int32)? {
        syncData([file])[0]
    }

    /// Syncs the bytes each of `files` took, side by side on a disk that makes each sync wait
    /// (``ParallelSync``); returns each one's failure and `errno`, nil where it succeeded, in the
    /// order given. Each file's injected fault is asked first, in that order, and what became
    /// durable is told after, in that order too: the same calls whichever way the syncs ran.
    private func syncData(_ files: [File]) -> [(ScoreFeedError, Int32)?] {
        let faults = files.map { _ in syncFault }
        let healthy = files.indices.filter { faults[$0] == nil }
        let codes = ParallelSync.dataSync(healthy.map { files[$0].descriptor }, sideBySideAfter: sideBySideAfter)
        var results = faults
        for (index, code) in zip(healthy, codes) { results[index] = code == 0 ? nil : code }
        return zip(files, results).map { file, failure in
            if let code = failure {
                return (ScoreFeedError(.io, "cannot sync the journal: \(ScoreFeedError.errnoText(code))", at: .init(file: file.path)), code)
            }
            if let durable {
                var info = stat()
                durable(file.path, .synced(length: fstat(file.descriptor, &info) == 0 ? Int(info.st_size) : 0))
            }
            return nil
        }
    }

    /// Syncs the directory at `path` (the journals' and their store's); returns its failure, nil
    /// when it succeeded.
    func syncDirectory(_ path: String) -> ScoreFeedError? {
        if let fault = syncFault {
            return ScoreFeedError(.io, "cannot sync the state directory: \(ScoreFeedError.errnoText(fault))", at: .init(file: path))
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0, fsync(fd) == 0 else {
            let failure = ScoreFeedError(.io, "cannot sync the state directory: \(ScoreFeedError.errnoText(errno))", at: .init(file: path))
            if fd >= 0 { close(fd) }
            return failure
        }
        close(fd)
        durable?(path, .named)
        return nil
    }

    /// A line's head: `first checksum `, the checksum that of `body` (the line's checksummed part).
    private static func head(first: Int, of body: borrowing JSONBytes) -> JSONBytes {
        var head = JSONBytes(capacity: 40)
        head.int(first)
        head.byte(UInt8(ascii: " "))
        head.hex(body.withBytes { checksum($0) })
        head.byte(UInt8(ascii: " "))
        return head
    }

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


import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps each game's checkpoint in a directory: its snapshot (`game-<id>.json`, the session's
/// whole saved form), written now and then, and its journal (`game-<id>.journal`), which holds
/// the inputs since. A snapshot is written atomically: a temporary file, fsync, rename over the
/// old one, fsync of the directory; a crash leaves the old snapshot or the new one, never a torn
/// file.
public struct CheckpointStore: Sendable {
    public let directory: URL
    /// ``directory``'s path, spelled once.
    let directoryPath: String
    /// The games' journals.
    public let journal: Journal
    /// The error every write to the disk fails with now, if any: `ENOSPC` (a full disk: every
    /// write of a snapshot or a journal fails and writes nothing) or another `errno`, such as
    /// `EIO` (a device's error: the writes and the syncs of snapshots and journals fail). How the
    /// simulator breaks the disk (``SimulatedDay/diskFull``, ``SimulatedDay/diskErrors``); nil:
    /// the disk as it is.
    public typealias DiskFault = @Sendable () -> Int32?

    /// Called just before each change a commit or a delivery makes to the directory (a journal's
    /// lines handed to the kernel, a journal cut, a snapshot's bytes, its rename; a write that a
    /// full disk will refuse too): where the simulator kills an instance in the middle of one
    /// (``SimulatedDay/Restart/atDiskStep``), told the path of the file it changes; nil live.
    public typealias DiskStep = @Sendable (_ path: String) -> Void

    /// Told of what reached the disk for good (``DurableChange``), with the path of the file or
    /// the directory: what the simulator's power cut keeps (``PowerCut``); nil live.
    public typealias Durable = @Sendable (_ path: String, _ change: DurableChange) -> Void

    /// What reached the disk for good, and the one change that reaches it only with its
    /// directory (``replaced``).
    public enum DurableChange: Sendable {
        /// A journal's bytes written so far: synced. `length`: the file's size then (its
        /// descriptor's, read by the journal only when someone listens: no path lookup per sync).
        case synced(length: Int)
        /// A journal cut to nothing, its inputs in a snapshot made durable before (the cut itself
        /// reaches the disk with the next sync; until then the old lines stand behind the newer
        /// snapshot, which a restore reads past).
        case emptied
        /// A directory's names: synced (its new journals' names, a snapshot's rename).
        case named
        /// The bytes of the file about to be renamed over the path (a snapshot's, `channels.json`'s
        /// temporary file): synced. A file renamed over a path without it holds its bytes only in
        /// the kernel: a power cut, even once the rename reached the disk, leaves it empty.
        case contentSynced
        /// A file is about to be renamed over the path (a snapshot, written and synced): the name
        /// keeps the file it had on the disk until its directory is synced (``named``), and a
        /// power cut before then brings that file back.
        case replaced
    }

    public init(directory: URL, diskFault: DiskFault? = nil, diskStep: DiskStep? = nil, durable: Durable? = nil) throws(ScoreFeedError) {
        self.directory = directory
        directoryPath = directory.path
        journal = Journal(diskFault: diskFault, diskStep: diskStep, durable: durable)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ScoreFeedError(.io, "cannot create the state directory: \(error.localizedDescription)", at: .init(file: directory.path))
        }
    }

    /// The file for `game`: `game-<stem>.json`, the stem ``GameID/fileStem(_:)``, one-to-one.
    public func url(for game: String) -> URL {
        file(named: "game-\(GameID.fileStem(game)).json")
    }

    /// The file the versions before ``GameID/fileStem(_:)`` used for `game`: a snapshot found
    /// under it is renamed to ``url(for:)`` when its game is restored.
    public func legacyURL(for game: String) -> URL {
        file(named: "game-\(GameID.legacyFileStem(game)).json")
    }

    /// The file `name` in the directory, said to be a file: `appendingPathComponent(_:)` asks the
    /// file system whether it is a directory, a cost a new game paid several times over. Every
    /// game's file is spelled here, the ones a restore lists too: the journal knows a file by its
    /// path, and two spellings would be two files.
    private func file(named name: String) -> URL {
        directory.appending(path: name, directoryHint: .notDirectory)
    }

    /// The journal file of `game`, beside its snapshot.
    public func journalURL(for game: String) -> URL {
        Self.journalURL(of: url(for: game))
    }

    /// The journal beside the snapshot `file`.
    static func journalURL(of file: URL) -> URL {
        file.deletingPathExtension().appendingPathExtension("journal")
    }

    /// The bytes of the journal beside the snapshot `file`, nil when there is none.
    static func journal(of file: URL) -> Data? {
        try? Data(contentsOf: journalURL(of: file))
    }

    /// Writes `data` as the snapshot of `game`, durably.
    public func write(_ data: Data, for game: String) throws(ScoreFeedError) {
        _ = try write(to: url(for: game)) { data }
    }

    /// Writes the snapshot of `game` that `encode` makes, durably, encoding it only once its
    /// file could be opened: a path that cannot be written (a directory in the way, a read-only
    /// file system) costs no encoding, however often a failing game tries again. Returns the
    /// snapshot's size.
    func write(for game: String, encode: () throws(ScoreFeedError) -> Data) throws(ScoreFeedError) -> Int {
        try write(to: url(for: game), encode)
    }

    /// Writes `data` as the directory's file `name` (`channels.json`), durably and atomically.
    public func write(_ data: Data, named name: String) throws(ScoreFeedError) {
        _ = try write(to: directory.appendingPathComponent(name)) { data }
    }

    private func write(to target: URL, _ encode: () throws(ScoreFeedError) -> Data) throws(ScoreFeedError) -> Int {
        // Each path spelled once (a `URL`'s path is made anew at each ask).
        let targetPath = target.path
        let temporaryPath = targetPath + ".tmp"
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw ScoreFeedError(.io, "cannot open \(temporaryPath): \(ScoreFeedError.errnoText(errno))", at: .init(file: temporaryPath))
        }
        let data: Data
        do {
            data = try encode()
        } catch {
            close(fd)
            unlink(temporaryPath)
            throw error
        }
        journal.diskStep?(temporaryPath)
        var failure = journal.diskFault?() ?? data.withUnsafeBytes { FileWrite.all($0, to: fd).failure }
        if failure == 0 {
            if fsync(fd) == 0 { journal.durable?(targetPath, .contentSynced) } else { failure = errno }
        }
        close(fd)
        if failure == 0 {
            journal.diskStep?(targetPath)
            journal.durable?(targetPath, .replaced)
            if rename(temporaryPath, targetPath) != 0 { failure = errno }
        }
        guard failure == 0 else {
            // A temporary file left on a full disk holds space the next write needs.
            unlink(temporaryPath)
            throw ScoreFeedError(.io, "cannot write \(targetPath): \(ScoreFeedError.errnoText(failure))", at: .init(file: targetPath))
        }
        // The rename is durable once its directory is: until then a power cut may bring the
        // old snapshot back, so a failed sync fails the write, and its game keeps the journal
        // that the new snapshot was to replace (a restore reads past what both hold).
        if let failure = journal.syncDirectory(directoryPath) { throw failure }
        return data.count
    }

    /// One snapshot file and its bytes (nil when the file could not be read), with its game's
    /// journal (nil when there is none): a game's checkpoint.
    public struct Entry: Sendable {
        public var file: URL
        public var data: Data?
        public var journal: Data?
        /// The game has no snapshot yet: its journal starts with its base
        /// (``Journal/begin(_:first:seq:lastTimestamp:to:)``), and ``file`` does not exist.
        public var journalOnly = false

        /// Whether there is a checkpoint to read: a snapshot's bytes, or a journal holding a base.
        public var isReadable: Bool { data != nil || (journalOnly && journal != nil) }

        /// The file that holds the game's checkpoint: its snapshot, or its journal when it has none yet.
        public var holder: URL { journalOnly ? CheckpointStore.journalURL(of: file) : file }
    }

    /// Whether `game` has nothing on disk: no snapshot, none put aside as unreadable (it owns the
    /// journal beside it), and no journal lines. A new game's journal may then start with its base
    /// (``Journal/begin(_:first:seq:lastTimestamp:to:)``); any other writes a snapshot first, as
    /// cutting its journal before the snapshot is durable would lose what the journal held.
    public func holdsNothing(for game: String) -> Bool {
        let snapshot = url(for: game).path
        guard access(snapshot, F_OK) != 0, access(snapshot + ".unreadable", F_OK) != 0 else { return false }
        var status = stat()
        return stat(journalURL(for: game).path, &status) != 0 || status.st_size == 0
    }

    /// A snapshot put aside as unreadable (`game-….json.unreadable`), with the snapshot file it
    /// was and that file's journal (nil when there is none).
    public struct PutAside: Sendable {
        public var checkpoint: URL
        public var data: Data?
        public var journal: Data?
    }

    /// Every checkpoint put aside as unreadable, by file name: a snapshot (with its journal), or
    /// the journal of a game that had no snapshot yet (`game-….journal.unreadable`).
    public func putAside() throws(ScoreFeedError) -> [PutAside] {
        let names = try names()
        let snapshots = Set(names.filter { $0.hasPrefix("game-") && $0.hasSuffix(".json.unreadable") })
        return names.compactMap { name -> PutAside? in
            guard name.hasPrefix("game-") else { return nil }
            let file = self.file(named: name)
            if snapshots.contains(name) {
                let checkpoint = file.deletingPathExtension()
                return PutAside(checkpoint: checkpoint, data: try? Data(contentsOf: file), journal: Self.journal(of: checkpoint))
            }
            guard name.hasSuffix(".journal.unreadable") else { return nil }
            let stem = String(name.dropLast(".journal.unreadable".count))
            guard !snapshots.contains(stem + ".json.unreadable") else { return nil }
            return PutAside(checkpoint: self.file(named: stem + ".json"), data: nil, journal: try? Data(contentsOf: file))
        }
    }

    /// Every checkpoint in the directory (snapshot and journal), by file name. A file larger than
    /// `largest` bytes is not read (its data, or its journal, is nil).
    public func readAll(largest: Int = .max) throws(ScoreFeedError) -> [Entry] {
        let names = try names()
        let snapshots = Set(names.filter { $0.hasPrefix("game-") && ($0.hasSuffix(".json") || $0.hasSuffix(".json.unreadable")) })
        return names.compactMap { name -> Entry? in
            if name.hasSuffix(".json"), snapshots.contains(name) {
                let file = self.file(named: name)
                let journal = Self.journalURL(of: file)
                return Entry(
                    file: file, data: Self.size(of: file) <= largest ? try? Data(contentsOf: file) : nil,
                    journal: Self.size(of: journal) <= largest ? Self.journal(of: file) : nil)
            }
            // A game with no snapshot yet: its journal alone (an empty one holds nothing).
            // (The journal of a snapshot put aside as unreadable is that game's, not one of its own.)
            guard name.hasPrefix("game-"), name.hasSuffix(".journal") else { return nil }
            let stem = String(name.dropLast(".journal".count))
            guard !snapshots.contains(stem + ".json"), !snapshots.contains(stem + ".json.unreadable") else { return nil }
            let journal = file(named: name)
            var status = stat()
            guard stat(journal.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
            let data = Int(status.st_size) <= largest ? try? Data(contentsOf: journal) : nil
            // A base whose first write a crash cut short (no whole line yet) held nothing that was
            // sent: pushes wait for its sync. No checkpoint, then, not a damaged one.
            if let data, !data.contains(0x0A) { return nil }
            return Entry(file: file(named: stem + ".json"), data: nil, journal: data, journalOnly: true)
        }
    }

    /// The directory's file `name` (`channels.json`), nil when there is none, it cannot be read
    /// or it is larger than `largest` bytes.
    public func read(named name: String, largest: Int) -> Data? {
        let file = directory.appendingPathComponent(name)
        guard Self.size(of: file) <= largest else { return nil }
        return try? Data(contentsOf: file)
    }

    /// The size of `file` in bytes (0 when it cannot be had).
    static func size(of file: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

extension CheckpointStore {
    /// The directory's file names, sorted.
    fileprivate func names() throws(ScoreFeedError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw ScoreFeedError(.io, "cannot list the state directory: \(error.localizedDescription)", at: .init(file: directory.path))
        }
    }
}

import Foundation

/// The state directory as a power cut leaves it (``SimulatedDay/Restart/powerCut``): a kill keeps
/// every byte handed to the kernel, a power cut only what was synced. Told by the instance's
/// ``Journal`` of each sync (``CheckpointStore/Durable``), it keeps each journal's length at its
/// last sync and which journals' names reached the disk; what a killed instance left that it had
/// not synced stays unsynced for the next (``init(directory:after:in:)``). The cut then leaves each
/// journal at that length (or zeros in place of what it had not synced, but its last line) and
/// loses one whose name never reached the disk. A journal cut to
/// nothing after its snapshot counts as cut at once: the old lines behind a newer snapshot are
/// what a kill between the snapshot and the cut leaves, which the kills already give. Snapshots
/// and the channel directory are written whole and synced, then renamed: a rename whose directory
/// was not synced since is undone by the cut, the name
/// given back the file it had (or none), as a device that failed before the directory's sync
/// leaves it (``SimulatedDay/Restart/failsTheDevice``); a file renamed without its bytes synced
/// first (``CheckpointStore/DurableChange/contentSynced``) is left empty.
public final class PowerCut: @unchecked Sendable {
    private let lock = NSLock()
    /// Each journal's length at its last sync, by path.
    private var lengths: [String: Int] = [:]
    /// The journals whose names are durable, by path.
    private var named: Set<String> = []
    /// The files renamed over since their directory's last sync, by path: the bytes the name held
    /// on the disk before (nil: no file).
    private var renamed: [String: Data?] = [:]
    /// The paths whose next file, about to be renamed over them, had its bytes synced.
    private var contentSynced: Set<String> = []
    /// The files renamed over a path without their bytes synced first, by that path: a power cut
    /// leaves each empty, its name durable or not (a file system that delays allocation writes
    /// the name before the data).
    private var hollow: Set<String> = []
    /// The instance was stopped: what its shutdown still does (a killed process's, in the
    /// simulator) reaches no disk.
    private var stopped = false

    /// Starts from `directory` as the instance finds it on the disk (the day's first instance, one
    /// after a power cut or on a lost directory): every journal there is whole and named.
    public init(directory: URL) {
        for name in Self.journals(in: directory) {
            let path = directory.appendingPathComponent(name).path
            named.insert(path)
            lengths[path] = Self.size(path)
        }
    }

    /// Starts from `directory` as a kill or a clean stop left it, a copy of `before`'s directory
    /// (or that directory itself): only what `before` knew to be on the disk is (each journal's
    /// synced length, its name), the rest being the kernel's until the new instance syncs it.
    public init(directory: URL, after before: PowerCut, in previous: URL) {
        let (lengths, named, renamed, hollow) = before.lock.withLock { (before.lengths, before.named, before.renamed, before.hollow) }
        for name in Self.journals(in: directory) {
            let path = directory.appendingPathComponent(name).path, old = previous.appendingPathComponent(name).path
            if named.contains(old) { self.named.insert(path) }
            self.lengths[path] = min(Self.size(path), lengths[old] ?? 0)
        }
        for (old, bytes) in renamed {
            self.renamed[directory.appendingPathComponent((old as NSString).lastPathComponent).path] = bytes
        }
        for old in hollow { self.hollow.insert(directory.appendingPathComponent((old as NSString).lastPathComponent).path) }
    }

    /// Told that `change` reached the disk at `path` (a journal, or a directory for
    /// ``CheckpointStore/DurableChange/named``).
    public func record(_ path: String, _ change: CheckpointStore.DurableChange) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        switch change {
        case .synced(let length): lengths[path] = length
        case .emptied: lengths[path] = 0
        case .named:
            for name in Self.journals(in: URL(fileURLWithPath: path)) { named.insert((path as NSString).appendingPathComponent(name)) }
            renamed = renamed.filter { ($0.key as NSString).deletingLastPathComponent != path }
        case .contentSynced: contentSynced.insert(path)
        case .replaced:
            // The file the disk holds under the name: the one before the first rename not synced
            // (empty where its bytes never were).
            if renamed.index(forKey: path) == nil {
                renamed[path] = .some(hollow.contains(path) ? Data() : FileManager.default.contents(atPath: path))
            }
            if contentSynced.remove(path) != nil { hollow.remove(path) } else { hollow.insert(path) }
        }
    }

    /// The instance is stopped (killed, its power cut): nothing it does from now on is recorded.
    public func stop() {
        lock.withLock { stopped = true }
    }

    /// Cuts the copy `copy` of the directory `original` as the power cut leaves it: each journal
    /// back to its length at its last sync, or (one in two) its unsynced part zeros but its last
    /// line, one whose name never reached the disk gone; each rename not synced undone. Returns
    /// the bytes it lost.
    @discardableResult
    public func cut(_ copy: URL, of original: URL) -> Int {
        lock.lock()
        defer { lock.unlock() }
        var lost = 0
        for (path, bytes) in renamed.sorted(by: { $0.key < $1.key }) where (path as NSString).deletingLastPathComponent == original.path {
            let target = copy.appendingPathComponent((path as NSString).lastPathComponent)
            lost += Self.size(target.path)
            if let bytes { try? bytes.write(to: target) } else { unlink(target.path) }
        }
        // A file renamed into place whose bytes were never synced: its name only.
        for path in hollow.sorted() where (path as NSString).deletingLastPathComponent == original.path && renamed.index(forKey: path) == nil {
            let target = copy.appendingPathComponent((path as NSString).lastPathComponent).path
            lost += Self.size(target)
            _ = truncate(target, 0)
        }
        for name in Self.journals(in: copy) {
            let path = original.appendingPathComponent(name).path
            let target = copy.appendingPathComponent(name).path
            let size = Self.size(target)
            guard named.contains(path) else {
                lost += size
                unlink(target)
                continue
            }
            let kept = min(size, lengths[path] ?? 0)
            guard kept < size else { continue }
            if Self.losesAPage(name, size: size), let hole = Self.zeroBeforeTheLastLine(target, from: kept) {
                lost += hole
            } else {
                lost += size - kept
                _ = truncate(target, off_t(kept))
            }
        }
        return lost
    }

    /// Whether the unsynced part of a journal reached the disk out of order (for one cut journal
    /// in two, by its name and size): its last line's page did, the pages before it did not, and
    /// read back as zeros, as a file system that wrote the file's new size and not all its data
    /// leaves it.
    private static func losesAPage(_ name: String, size: Int) -> Bool {
        (name.utf8.reduce(UInt64(size)) { ($0 &* 31) &+ UInt64($1) }) % 2 == 0
    }

    /// Zeros the bytes of the journal at `path` from `start` to its last line (the newline before
    /// it too), which is kept; returns how many, nil when the unsynced part is that line alone.
    private static func zeroBeforeTheLastLine(_ path: String, from start: Int) -> Int? {
        guard let data = FileManager.default.contents(atPath: path), data.count > start else { return nil }
        let body = data.last == 0x0A ? data.dropLast() : data[...]
        guard let newline = body.lastIndex(of: 0x0A), newline >= start else { return nil }
        var damaged = data
        damaged.replaceSubrange(start...newline, with: Data(repeating: 0, count: newline + 1 - start))
        guard (try? damaged.write(to: URL(fileURLWithPath: path))) != nil else { return nil }
        return newline + 1 - start
    }

    /// The journals' names in `directory`, sorted (`readdir`: every directory sync of a simulated
    /// day lists its directory, and `FileManager`'s listing cost a few per cent of a day).
    private static func journals(in directory: URL) -> [String] {
        guard let stream = opendir(directory.path) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".journal") { names.append(name) }
        }
        return names.sorted()
    }

    private static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

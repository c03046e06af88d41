import Foundation

/// The state directory as a power cut leaves it (``SimulatedDay/Restart/powerCut``): a kill keeps
/// every byte handed to the kernel, a power cut only what was synced. Told by the instance's
/// ``Journal`` of each sync (``CheckpointStore/Durable``), it keeps each journal's length at its
/// last sync (nothing once it was cut after a snapshot) and which journals' names reached the disk.
/// The cut then leaves each journal at that length and loses one whose name never reached it. The
/// rest of the directory (snapshots, the channel directory, the identity) is written whole, synced
/// and renamed within one step of the work, which a cut between two steps never splits.
///
/// Counted on the simulation's one thread: ``SimulationExecutor`` runs every job of the day there.
public final class PowerCut: @unchecked Sendable {
    /// Each journal's length at its last sync, by path.
    private var lengths: [String: Int] = [:]
    /// The journals whose names are durable, by path.
    private var named: Set<String> = []

    /// Starts from `directory` as the instance finds it: every journal there is whole and named.
    public init(directory: URL) {
        for name in Self.journals(in: directory) {
            let path = directory.appendingPathComponent(name).path
            named.insert(path)
            lengths[path] = Self.size(path)
        }
    }

    /// Told that `change` reached the disk at `path` (a journal, or a directory for
    /// ``CheckpointStore/DurableChange/named``).
    public func record(_ path: String, _ change: CheckpointStore.DurableChange) {
        switch change {
        case .synced: lengths[path] = Self.size(path)
        case .emptied: lengths[path] = 0
        case .named:
            for name in Self.journals(in: URL(fileURLWithPath: path)) { named.insert((path as NSString).appendingPathComponent(name)) }
        }
    }

    /// Cuts the copy `copy` of the directory `original` as the power cut leaves it: each journal
    /// back to its length at its last sync, one whose name never reached the disk gone. Returns
    /// the bytes it lost.
    @discardableResult
    public func cut(_ copy: URL, of original: URL) -> Int {
        var lost = 0
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
            if kept < size {
                lost += size - kept
                _ = truncate(target, off_t(kept))
            }
        }
        return lost
    }

    private static func journals(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".journal") }.sorted()
    }

    private static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

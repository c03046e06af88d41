import Foundation

extension GameStatus {
    /// What a state directory holds: each game's status, and the checkpoints that could not
    /// be read.
    public struct Directory: Hashable, Sendable, Codable {
        public var games: [GameStatus] = []
        public var problems: [String] = []
    }

    /// The most a checkpoint or journal may hold to be read (a game's is a few hundred KB).
    public static let largestFile = 64 << 20

    /// Reads every game of the state directory `path` as a restart would (its checkpoint and
    /// its journal, through ``CheckpointStore`` and ``GameSession/read(_:journal:file:)``), without writing
    /// anything and without the lock a running service holds: what it shows is as of the last
    /// sync. Games are in id order.
    public static func read(stateDirectory path: String, now: Date) throws(ScoreFeedError) -> Directory {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ScoreFeedError(.io, "no state directory here", at: .init(file: path))
        }
        let store = try CheckpointStore(directory: URL(fileURLWithPath: path))
        var directory = Directory()
        for entry in try store.readAll(largest: largestFile) {
            let file = entry.file.path
            if let oversized = [entry.file, CheckpointStore.journalURL(of: entry.file)].first(where: { CheckpointStore.size(of: $0) > largestFile }) {
                directory.problems.append("\(oversized.path): larger than \(largestFile >> 20) MB; not read")
                continue
            }
            guard entry.isReadable else {
                directory.problems.append("\(entry.holder.path): cannot read the file")
                continue
            }
            do {
                let session = try GameSession.read(entry.data, journal: entry.journal, file: file)
                directory.games.append(GameStatus(session, now: now))
            } catch {
                directory.problems.append("\(error)")
            }
        }
        directory.games.sort { $0.game < $1.game }
        return directory
    }
}

import Foundation

extension CheckpointStore {
    /// What became of a checkpoint (the snapshot `file` and its journal) read for game `game`
    /// (see ``adopt(_:for:)``).
    public enum Adoption: Sendable, Equatable {
        /// The file has the game's name (``url(for:)``), or was renamed to it with its journal.
        case kept
        /// The game's file under its own name exists too and is the one used; this older one was
        /// renamed `….superseded` (or removed when even that failed).
        case superseded(URL)
    }

    /// Gives a checkpoint (the snapshot `file` and its journal) its game's name: one written under
    /// the name the versions before ``GameID/fileStem(_:)`` made (`game-é%1F600.json`) is renamed,
    /// its journal with it, so the game goes on in the file it will write. When the game's own file exists
    /// too, that one wins and `file` is put aside. A rename that fails leaves the file where it
    /// is: the game's next snapshot goes under its own name, which wins on the next start.
    public func adopt(_ file: URL, for game: String) -> Adoption {
        let target = url(for: game)
        guard file.lastPathComponent != target.lastPathComponent else { return .kept }
        let manager = FileManager.default
        if manager.fileExists(atPath: target.path) {
            let aside = file.appendingPathExtension("superseded")
            try? manager.removeItem(at: aside)
            if (try? manager.moveItem(at: file, to: aside)) == nil { try? manager.removeItem(at: file) }
            let journal = Self.journalURL(of: file)
            if manager.fileExists(atPath: journal.path) {
                try? manager.removeItem(at: journal.appendingPathExtension("superseded"))
                try? manager.moveItem(at: journal, to: journal.appendingPathExtension("superseded"))
            }
            return .superseded(aside)
        }
        let journal = Self.journalURL(of: file)
        if manager.fileExists(atPath: journal.path) { try? manager.moveItem(at: journal, to: Self.journalURL(of: target)) }
        try? manager.moveItem(at: file, to: target)
        return .kept
    }
}

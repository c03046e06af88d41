import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension CheckpointStore {
    /// The file in the state directory that holds its identity.
    public static let identityFileName = "identity"

    /// The state directory's identity: a random UUID written once, when the directory is first
    /// used, into `<dir>/identity`, and read back on every later start. It tells this directory's
    /// broadcast channel creates from those of any other (``BroadcastChannel/owner``): a fresh
    /// directory that replaces one lost with its machine cannot know which channels the lost one
    /// made, and with its own identity none of its creates repeats a request id the lost one sent.
    /// A copy of the directory (a backup put back) is the same directory, identity included.
    ///
    /// Written as a temporary file, synced, then linked to its name (`link(2)` fails when the name
    /// exists), so two starts on one directory cannot each keep another identity. A file that is
    /// not a UUID is an error, not replaced: a create still in flight would otherwise lose its
    /// request id.
    public func identity() throws(ScoreFeedError) -> String {
        let file = directory.appendingPathComponent(Self.identityFileName)
        if let existing = try Self.readIdentity(file) { return existing }
        let made = UUID().uuidString
        let temporary = directory.appendingPathComponent("\(Self.identityFileName).\(made).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            throw ScoreFeedError(.io, "cannot write the state directory's identity: \(ScoreFeedError.errnoText(errno))", at: .init(file: temporary.path))
        }
        var failure = Data("\(made)\n".utf8).withUnsafeBytes { FileWrite.all($0, to: fd).failure }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0, link(temporary.path, file.path) != 0, errno != EEXIST { failure = errno }
        unlink(temporary.path)
        guard failure == 0 else {
            throw ScoreFeedError(.io, "cannot write the state directory's identity: \(ScoreFeedError.errnoText(failure))", at: .init(file: file.path))
        }
        // Its name is the directory's to keep: a start that cannot make it durable says so.
        if let failure = journal.syncDirectory(directoryPath) { throw failure }
        // Ours, or the one another start linked first.
        guard let identity = try Self.readIdentity(file) else {
            throw ScoreFeedError(.io, "the state directory's identity vanished as it was written", at: .init(file: file.path))
        }
        return identity
    }

    /// The identity in `file`, nil when there is no such file.
    private static func readIdentity(_ file: URL) throws(ScoreFeedError) -> String? {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { return nil }
            throw ScoreFeedError(.io, "cannot read the state directory's identity: \(error.localizedDescription)", at: .init(file: file.path))
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let uuid = UUID(uuidString: text) else {
            throw ScoreFeedError(
                .invalidValue,
                "the state directory's identity is not a UUID (\"\(text.prefix(40))\"); it is written once and never edited. "
                    + "Remove the file to give the directory a new identity (a channel create still unanswered may then make a second channel, which the reconciliation of channels finds)",
                at: .init(file: file.path))
        }
        return uuid.uuidString
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One process per state directory: an exclusive `flock(2)` on `<dir>/lock`, which records the
/// holder's PID. Two processes on one directory would send every push twice and spend the
/// priority-10 budget twice, so the second refuses to start. The kernel drops the lock when its
/// holder dies, however it dies, so a lock left by a killed process never blocks a restart
/// (the PID in the file is only for the message).
public final class StateDirectoryLock: Sendable {
    /// The lock file's name inside the state directory.
    public static let fileName = "lock"
    /// The lock file.
    public let file: URL
    private let descriptor: Int32

    /// Takes the lock of `directory` (creating both when missing) or throws at once, naming the
    /// process that holds it. `command` names the taker in the file (`serve`, `poll`).
    public init(directory: URL, command: String) throws(ScoreFeedError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ScoreFeedError(.io, "cannot create the state directory: \(error.localizedDescription)", at: .init(file: directory.path))
        }
        file = directory.appendingPathComponent(Self.fileName)
        let opened = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            throw ScoreFeedError(.io, "cannot open the state directory's lock: \(ScoreFeedError.errnoText(errno))", at: .init(file: file.path))
        }
        var result: Int32
        repeat { result = flock(opened, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let failure = errno
            let holder = Self.holder(opened)
            close(opened)
            if failure == EWOULDBLOCK {
                throw ScoreFeedError(
                    .stateDirectoryInUse,
                    "the state directory is in use by \(holder ?? "another process") (it holds \(file.path)); one serve or poll runs per state dir, so this one stops without sending anything",
                    at: .init(file: directory.path))
            }
            throw ScoreFeedError(.io, "cannot lock the state directory: \(ScoreFeedError.errnoText(failure))", at: .init(file: file.path))
        }
        descriptor = opened
        let record = Data("\(getpid()) \(command)\n".utf8)
        _ = ftruncate(opened, 0)
        _ = record.withUnsafeBytes { pwrite(opened, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        // Unlocked first: a child process forked meanwhile (an embedder's, before its exec closes
        // the inherited copy) shares the lock, which closing alone would leave held until that
        // copy closes. The file stays (removing it would race a taker).
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// "process 1234 (serve)" from the lock file's first line, nil when it says nothing usable.
    private static func holder(_ descriptor: Int32) -> String? {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let words = String(decoding: bytes[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard let pid = words.first.flatMap({ Int32($0) }) else { return nil }
        let command = words.dropFirst().first.map { String($0.prefix(16)).filter { $0.isLetter } } ?? ""
        return "process \(pid)" + (command.isEmpty ? "" : " (\(command))")
    }
}

extension ScoreFeedError.Code {
    /// Another process holds the state directory's lock.
    public static let stateDirectoryInUse = ScoreFeedError.Code(rawValue: "state-dir-in-use")
}

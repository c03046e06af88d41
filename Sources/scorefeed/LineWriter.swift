import Foundation
import ScoreFeed
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole lines to standard output or a file with `write(2)`, no stdio buffer in between:
/// what ``flush()`` returns from is in the reader's pipe or the file. Lines are gathered until
/// ``flush()`` (or 64 KiB), so a paced writer flushes each line and a fast one writes in blocks.
///
/// A reader that goes away (`EPIPE`, with `SIGPIPE` ignored) is not an error: the writes report
/// it and the caller stops.
final class LineWriter {
    /// Where the lines go, for messages.
    let destination: String
    private let descriptor: Int32
    private let closeWhenDone: Bool
    private var buffer = Data()
    /// Whether the reader has gone away; nothing more is written.
    private(set) var readerGone = false

    private static let blockSize = 64 * 1024

    /// Standard output.
    init() {
        destination = "standard output"
        descriptor = STDOUT_FILENO
        closeWhenDone = false
    }

    /// The file at `path`, created (mode 0644) or truncated.
    init(path: String) throws(ScoreFeedError) {
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            throw ScoreFeedError(.io, "cannot open for writing: \(String(cString: strerror(errno)))", at: .init(file: path))
        }
        destination = path
        descriptor = opened
        closeWhenDone = true
    }

    deinit {
        if closeWhenDone { close(descriptor) }
    }

    /// Adds `line` and a newline; writes the gathered lines once they fill a block. Returns false
    /// when the reader has gone away.
    @discardableResult
    func append(_ line: Data) throws(ScoreFeedError) -> Bool {
        buffer.append(line)
        buffer.append(0x0A)
        return buffer.count >= Self.blockSize ? try flush() : !readerGone
    }

    /// Writes every gathered line, retrying short and interrupted writes. Returns false when the
    /// reader has gone away (the lines are dropped).
    @discardableResult
    func flush() throws(ScoreFeedError) -> Bool {
        guard !readerGone else { return false }
        defer { buffer.removeAll(keepingCapacity: true) }
        var failure: Int32 = 0
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written >= 0 {
                    offset += written
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        switch failure {
        case 0: return true
        case EPIPE:
            readerGone = true
            return false
        default:
            throw ScoreFeedError(.io, "writing to \(destination) failed: \(String(cString: strerror(failure)))")
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes each record as one JSON line (DESIGN.md contract 4) with one `write` call, unbuffered,
/// so a push sender reading the stream never waits for a buffer and never sees half a line.
///
/// A file is opened with `O_APPEND`: every line lands at the current end of the file even when
/// several processes append to it, and an existing file is never overwritten. Refused pushes are
/// written as error lines (``PushRefusal/jsonLine()``: an `error` object and `"seq":null`, no
/// `request`), so a reader that only sends lines with a `request` skips them.
public actor JSONLSink: PushSink {
    private let handle: FileHandle
    private let closeOnDeinit: Bool

    /// Lines go to standard output.
    public static func standardOutput() -> JSONLSink {
        JSONLSink(handle: .standardOutput, closeOnDeinit: false)
    }

    /// Lines are appended to the file at `path`, created (mode 0644) when missing.
    public init(path: String) throws(ScoreFeedError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ScoreFeedError(.io, "cannot open \(path) for appending: \(reason)", at: .init(file: path))
        }
        self.init(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: false), closeOnDeinit: true)
    }

    public init(handle: FileHandle, closeOnDeinit: Bool) {
        self.handle = handle
        self.closeOnDeinit = closeOnDeinit
    }

    deinit {
        if closeOnDeinit { try? handle.close() }
    }

    public func send(_ record: PushRecord) async throws {
        var line = record.jsonLine()
        try write(&line, what: "a push record")
    }

    public func refused(_ refusal: PushRefusal) async throws {
        var line = refusal.jsonLine()
        try write(&line, what: "an error record")
    }

    /// Writes the channel request as its line (`"kind":"channel"`); a file has no answer.
    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        var line = request.jsonLine()
        try write(&line, what: "a channel request")
        return nil
    }

    /// Writes `line` and a newline (appended in place: the caller's buffer is not copied).
    /// A reader that went away (`EPIPE`: `SIGPIPE` must be ignored) is a ``ScoreFeedError/Code/readerGone``
    /// error, so the caller can tell it from a failing disk.
    private func write(_ line: inout Data, what: String) throws(ScoreFeedError) {
        line.append(0x0A)
        let descriptor = handle.fileDescriptor
        // One write call per line (retried only when short): with O_APPEND, lines from several
        // writers stay whole.
        let failure = line.withUnsafeBytes { bytes -> Int32 in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #elseif canImport(Musl)
                let written = Musl.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
                if written >= 0 {
                    offset += written
                } else if errno != EINTR {
                    return errno
                }
            }
            return 0
        }
        switch failure {
        case 0: return
        case EPIPE: throw ScoreFeedError(.readerGone, "the reader went away (EPIPE) before \(what) was written")
        default: throw ScoreFeedError(.io, "writing \(what) failed: \(ScoreFeedError.errnoText(failure))")
        }
    }
}

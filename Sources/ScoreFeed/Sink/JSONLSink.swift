import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes each record as one JSON line (the push record: the README's "The push record") with one
/// `write` call per line or per group of whole lines, unbuffered, so a push sender reading the
/// stream never waits for a buffer and never sees half a line.
///
/// A file is opened with `O_APPEND`: every line lands at the current end of the file even when
/// several processes append to it, and an existing file is never overwritten. Refused pushes are
/// written as error lines (``PushRefusal/jsonLine()``: an `error` object and `"seq":null`, no
/// `request`), so a reader that only sends lines with a `request` skips them.
public final class JSONLSink: PushSink, @unchecked Sendable {
    /// When a line reaches the file.
    public enum Writing: Sendable {
        /// Before ``send(_:)`` returns: what a checkpointed run needs, as a push it records as
        /// delivered must be in the file (`serve --state-dir`, replay).
        case immediate
        /// On a thread of its own, soon after: the engines never wait for the output, and lines
        /// that pile up go out in one write. For runs that keep no state (a crash loses what is
        /// in memory either way); ``flush()`` waits for it.
        case background
    }

    private let handle: FileHandle
    private let closeOnDeinit: Bool
    /// Immediate writes, one at a time (and `spare`).
    private let lock = ShortLock()
    /// The buffer immediate writes render their lines into, kept from line to line while no
    /// write holds it (guarded by `lock`).
    private var spare: JSONBytes?
    private let writer: BackgroundWriter?

    /// Lines go to standard output.
    public static func standardOutput(writing: Writing = .immediate) -> JSONLSink {
        JSONLSink(handle: .standardOutput, closeOnDeinit: false, writing: writing)
    }

    /// Lines are appended to the file at `path`, created (mode 0644) when missing.
    public convenience init(path: String, writing: Writing = .immediate) throws(ScoreFeedError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ScoreFeedError(.io, "cannot open \(path) for appending: \(reason)", at: .init(file: path))
        }
        self.init(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: false), closeOnDeinit: true, writing: writing)
    }

    public init(handle: FileHandle, closeOnDeinit: Bool, writing: Writing = .immediate) {
        self.handle = handle
        self.closeOnDeinit = closeOnDeinit
        switch writing {
        case .immediate: writer = nil
        case .background: writer = BackgroundWriter { chunk throws(ScoreFeedError) in try Self.write(chunk, to: handle) }
        }
    }

    deinit {
        let handle = self.handle
        let close: @Sendable () -> Void = { [closeOnDeinit] in if closeOnDeinit { try? handle.close() } }
        if let writer { writer.close(then: close) } else { close() }
    }

    public nonisolated(nonsending) func send(_ record: PushRecord) async throws {
        if let writer { return try await writer.enqueue(.push(record)) }
        try write(.push(record))
    }

    public nonisolated(nonsending) func refused(_ refusal: PushRefusal) async throws {
        if let writer { return try await writer.enqueue(.refusal(refusal)) }
        try write(.refusal(refusal))
    }

    /// Writes the channel request as its line (`"kind":"channel"`); a file has no answer.
    public nonisolated(nonsending) func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        if let writer {
            try await writer.enqueue(.channel(request))
        } else {
            try write(.channel(request))
        }
        return nil
    }

    /// Returns once every line handed over so far is written (at once when writing immediately);
    /// throws a write that failed.
    public nonisolated(nonsending) func flush() async throws {
        try await writer?.flush()
    }

    /// ``flush()``: the lines written in the background are all out.
    public nonisolated(nonsending) func finish() async throws {
        try await flush()
    }

    /// Writes `line` and a newline now. It is rendered before the lock is taken: games that send
    /// side by side wait for each other's write call, not for each other's rendering.
    private func write(_ line: BackgroundWriter.Line) throws(ScoreFeedError) {
        var bytes = takeBuffer()
        line.render(into: &bytes)
        let failure: ScoreFeedError? = bytes.drain { (lines: Data) in
            lock.withLock {
                do throws(ScoreFeedError) { try Self.write(lines, to: handle) } catch { return error }
                return nil
            }
        }
        keep(bytes)
        if let failure { throw failure }
    }

    /// The buffer kept for immediate writes, or a new one while another write holds it.
    private func takeBuffer() -> JSONBytes {
        lock.withLock { spare.take() } ?? JSONBytes(capacity: 4_096)
    }

    /// Keeps `bytes` for the next immediate write, unless another buffer is kept already.
    private func keep(_ bytes: consuming JSONBytes) {
        bytes.removeAll(keepingAtMost: 65_536)
        var kept = Optional(consume bytes)
        lock.withLock {
            guard spare == nil else { return }
            spare = kept.take()
        }
    }

    /// One write call for whole lines (retried only when short): with O_APPEND, lines from
    /// several writers stay whole. A reader that went away (`EPIPE`: `SIGPIPE` must be ignored)
    /// is a ``ScoreFeedError/Code/readerGone`` error, so the caller can tell it from a failing disk.
    private static func write(_ lines: Data, to handle: FileHandle) throws(ScoreFeedError) {
        let failure = lines.withUnsafeBytes { FileWrite.all($0, to: handle.fileDescriptor).failure }
        switch failure {
        case 0: return
        case EPIPE: throw ScoreFeedError(.readerGone, "the reader went away (EPIPE) before the JSON lines were written")
        default: throw ScoreFeedError(.io, "writing to the JSON lines output failed: \(ScoreFeedError.errnoText(failure))")
        }
    }
}

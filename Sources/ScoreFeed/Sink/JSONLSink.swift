import Foundation

/// Writes each record as one JSON line (DESIGN.md contract 4) and flushes it at once, so a
/// push sender reading the stream never waits for a buffer.
public actor JSONLSink: PushSink {
    private let handle: FileHandle
    private let closeOnDeinit: Bool

    /// Lines go to standard output.
    public static func standardOutput() -> JSONLSink {
        JSONLSink(handle: .standardOutput, closeOnDeinit: false)
    }

    /// Lines are appended to the file at `path`, created when missing.
    public init(path: String) throws(ScoreFeedError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw ScoreFeedError(.io, "cannot create \(path)", at: .init(file: path))
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw ScoreFeedError(.io, "cannot open \(path) for writing", at: .init(file: path))
        }
        handle.seekToEndOfFile()
        self.init(handle: handle, closeOnDeinit: true)
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
        line.append(0x0A)
        do {
            // One write call per line: with O_APPEND semantics lines from several writers stay whole.
            try handle.write(contentsOf: line)
        } catch {
            throw ScoreFeedError(.io, "writing a push record failed: \(error)")
        }
    }
}

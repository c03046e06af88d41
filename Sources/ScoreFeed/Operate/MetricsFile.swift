import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `--metrics` file: rewritten whole and atomically (a temporary file in the same directory,
/// then a rename over the old one), so node_exporter's textfile collector never reads half of it.
public struct MetricsFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Replaces the file with `text`. The temporary file is a dot file (the textfile collector
    /// reads only `*.prom`) named after the process, so two writers never share it.
    public func write(_ text: String) throws(ScoreFeedError) {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ScoreFeedError(.io, "cannot write the metrics: \(error.localizedDescription)", at: .init(file: temporary.path))
        }
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw ScoreFeedError(.io, "cannot write the metrics: rename failed (errno \(code))", at: .init(file: path))
        }
    }
}

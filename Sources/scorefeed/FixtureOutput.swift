import Foundation
import ScoreFeed

/// Where `generate` and `import` write their fixture: the file `-o`/`--out` names, or standard
/// output when it names none or `-`.
enum FixtureOutput {
    /// Refuses an empty `-o`/`--out`.
    static func check(_ out: String?) throws(ScoreFeedError) {
        if let out, out.isEmpty { throw ScoreFeedError(.usage, "--out needs a file name") }
    }

    /// Writes `data` to standard output, or atomically to the file `out` names. Returns the file
    /// written, nil for standard output.
    @discardableResult
    static func write(_ data: Data, to out: String?) throws(ScoreFeedError) -> String? {
        guard let out, out != "-" else {
            FileHandle.standardOutput.write(data)
            return nil
        }
        do {
            try data.write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw ScoreFeedError(.io, "cannot write \(out): \(error.localizedDescription)", at: .init(file: out))
        }
        return out
    }
}

import Foundation

/// Reads a game file in any format ScoreFeed knows, deciding by content, not by name.
public enum FeedReader {
    /// Reads and decodes the file at `path`.
    public static func read(path: String) throws(ScoreFeedError) -> FeedDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScoreFeedError(.io, "cannot read the file: \(error.localizedDescription)", at: .init(file: path))
        }
        return try decode(data, file: path)
    }

    /// Decodes bytes in any known format.
    public static func decode(_ data: Data, file: String? = nil) throws(ScoreFeedError) -> FeedDocument {
        try FixtureFormat.decode(data, file: file)
    }
}

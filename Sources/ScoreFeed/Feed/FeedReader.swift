import Foundation

/// Reads a game file in any format ScoreFeed knows, deciding by content, not by name.
public enum FeedReader {
    /// Reads and decodes the file at `path` (`-` for standard input).
    public static func read(path: String) throws(ScoreFeedError) -> FeedDocument {
        let data: Data
        if path == "-" {
            return try decode(FileHandle.standardInput.readDataToEndOfFile(), file: "<stdin>")
        }
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScoreFeedError(.io, "cannot read the file: \(error.localizedDescription)", at: .init(file: path))
        }
        let url = URL(fileURLWithPath: path)
        var boxscore: Data?
        if LiveDataFormat.matches(data), let gameId = gameIdInName(url.lastPathComponent) {
            boxscore = try? Data(contentsOf: url.deletingLastPathComponent().appendingPathComponent("boxscore_\(gameId).json"))
        }
        return try decode(data, file: path, boxscore: boxscore)
    }

    /// `0022400762` from `playbyplay_0022400762.json`.
    static func gameIdInName(_ name: String) -> String? {
        let digits = name.split(whereSeparator: { !$0.isNumber }).map(String.init)
        return digits.first { $0.count == 10 }
    }

    /// Decodes bytes in any known format.
    public static func decode(_ data: Data, file: String? = nil, boxscore: Data? = nil) throws(ScoreFeedError) -> FeedDocument {
        if LiveDataFormat.matches(data) { return try LiveDataFormat.decode(data, file: file, boxscore: boxscore) }
        return try FixtureFormat.decode(data, file: file)
    }
}

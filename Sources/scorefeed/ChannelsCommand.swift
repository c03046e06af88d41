import Foundation
import ScoreFeed

/// `scorefeed channels`: each game's broadcast channel, from a state directory's `channels.json`.
enum ChannelsCommand {
    static let help = """
        OVERVIEW: Show each game's broadcast channel, as serve and poll keep it in the state
        directory's channels.json (game → channel id, state, who made it, when it opened), the
        file your backend serves to the app so it can subscribe with .channel(id).

        USAGE: scorefeed channels --state-dir <dir> [--json]

        OPTIONS:
          --state-dir <dir>       The state directory of serve or poll.
          --json                  Print channels.json itself.
          -h, --help              Show help information.

        States: creating (create sent, no answer yet), open, lingering (the end went out; it is
        deleted after --channel-linger), deleting, deleted, refused (no channel: the game holds
        its pushes; the reason says why), none.

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        guard let dir = try arguments.option("--state-dir") else {
            throw ScoreFeedError(.usage, "channels needs --state-dir <dir>")
        }
        let json = arguments.flag("--json")
        _ = try arguments.positionals(max: 0)
        let file = URL(fileURLWithPath: dir).appendingPathComponent(ChannelDirectory.fileName)
        guard let data = try? Data(contentsOf: file) else {
            throw ScoreFeedError(
                .io, "no \(ChannelDirectory.fileName) in \(dir): no broadcast-mode game has run on this state directory",
                at: .init(file: file.path))
        }
        guard data.count <= 64 << 20 else { throw ScoreFeedError(.io, "\(file.path) is larger than 64 MB", at: .init(file: file.path)) }
        let directory = try ChannelDirectory.decode(data, file: file.path)
        if json {
            FileHandle.standardOutput.write(directory.encoded() + Data("\n".utf8))
            return 0
        }
        print(table(directory), terminator: "")
        return 0
    }

    /// One row per game, in game order: game, state, origin, created (UTC), channel id, reason.
    static func table(_ directory: ChannelDirectory) -> String {
        let rows = directory.games.keys.sorted().map { game -> [String] in
            let entry = directory.games[game]!
            let created = entry.created.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) } ?? "-"
            return [game, entry.state, entry.origin ?? "-", created, entry.channel ?? "-", entry.reason ?? ""]
        }
        let header = ["GAME", "STATE", "ORIGIN", "CREATED", "CHANNEL", "REASON"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { $0.offset == cells.count - 1 ? $0.element : $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
        }
        let open = directory.games.values.filter { ["creating", "open", "lingering", "deleting"].contains($0.state) }.count
        return ([header] + rows).map(line).joined() + "\(directory.games.count) games, \(open) channels at APNs (creating, open, lingering or deleting)\n"
    }
}

import Foundation
import ScoreFeed

/// `scorefeed status`: one line per game from a state directory's checkpoints and journals.
enum StatusCommand {
    static let help = """
        OVERVIEW: Show each game of a state directory as serve or poll left it: state, score,
        period and clock, the age of its newest event, pushes by priority, the priority-10
        budget used in the rolling hour, corrections to the feed's score, and its broadcast
        channel. Reads each game's checkpoint and journal as a restart would, writes nothing
        and takes no lock, so it can run beside a running serve or poll (it shows their last
        sync).

        USAGE: scorefeed status --state-dir <dir> [--json]

        OPTIONS:
          --state-dir <dir>       The state directory of serve or poll.
          --json                  One JSON document for scripts: {"games":[…],"problems":[…]},
                                  each game with the same figures as the line (lastEvent in
                                  seconds since 1970, lastEventAge in seconds).
          -h, --help              Show help information.

        States: pregame (nothing applied yet), live, ended (its end was rendered). A checkpoint
        that cannot be read is a line on stderr; the exit status is then 1.

        """

    /// Everything the command line says.
    struct Options {
        var stateDir: String
        var json: Bool

        init(_ arguments: inout Arguments) throws(ScoreFeedError) {
            guard let dir = try arguments.option("--state-dir") else { throw ScoreFeedError(.usage, "status needs --state-dir <dir>") }
            stateDir = dir
            json = arguments.flag("--json")
            _ = try arguments.positionals(max: 0)
        }
    }

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let options = try Options(&arguments)
        let directory = try GameStatus.read(stateDirectory: options.stateDir, now: Date())
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            FileHandle.standardOutput.write(try encoder.encode(directory) + Data("\n".utf8))
        } else {
            print(directory.games.map(\.line).joined(separator: "\n"), terminator: directory.games.isEmpty ? "" : "\n")
            if directory.games.isEmpty && directory.problems.isEmpty { Console.error("status: no games in \(options.stateDir)") }
        }
        for problem in directory.problems { Console.error("status: \(problem)") }
        return directory.problems.isEmpty ? 0 : 1
    }
}

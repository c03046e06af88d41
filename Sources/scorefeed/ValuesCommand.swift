import Foundation
import ScoreFeed

/// `scorefeed values`: fits the table of what a priority-10 push is worth by kind of moment.
enum ValuesCommand {
    static let help = """
        OVERVIEW: Fit the value table the coalescer prices priority 10 with: for each kind of
        moment (a timeout began, free throws to come, a score in the last 2:00…), how long the
        next score took in the games given. Prints the table, or the Swift source of
        Sources/ScoreFeed/Decide/PushValues+Fitted.swift with --swift.

        USAGE: scorefeed values <file> ... [--swift] [--prior <n>]

        ARGUMENTS:
          <file>                  Game files, in any format replay reads.

        OPTIONS:
          --swift                 Print the table as the Swift source the package ships.
          --prior <n>             Moments of the pooled curve a kind leans on (default 10).
          -h, --help              Show help information.

        EXAMPLES:
          scorefeed values ../shared/nba-pbp/playbyplay_*.json
          scorefeed values ../shared/nba-pbp/{playbyplay,stats,ind}*.json --swift \\
              > Sources/ScoreFeed/Decide/PushValues+Fitted.swift

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let swift = arguments.flag("--swift")
        let prior: Double = try arguments.number("--prior", in: 0...10_000) ?? 10
        let files = try arguments.positionals(max: .max)
        guard !files.isEmpty else { throw ScoreFeedError(.usage, "name the game files to fit on") }
        let games = try files.map { path throws(ScoreFeedError) in GameMoments(events: try FeedReader.read(path: path).events) }
        let values = PushValues.fit(games, prior: prior)
        let names = files.map { URL(fileURLWithPath: $0).lastPathComponent }
        print(swift ? values.swiftSource(fitOn: names) : values.text(), terminator: "")
        return 0
    }
}

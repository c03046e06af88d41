import Foundation
import ScoreFeed
import ScoreFeedModel

/// `scorefeed import`: any game file ScoreFeed reads, converted to the fixture format.
enum ImportCommand {
    static let help = """
        OVERVIEW: Convert a game file in any format ScoreFeed reads (NBA liveData play-by-play,
        stats.nba.com playbyplayv2, playbyplayv3 actions, or a fixture) to the fixture format.
        The fixture replays to the same pushes as the original. A summary (format, actions,
        discrepancies with the feed's score, final) goes to standard error.

        USAGE: scorefeed import <file> [-o <fixture.json>]

        ARGUMENTS:
          <file>                  The game file ('-' reads standard input). The format is told
                                  by content. Beside it, boxscore_<gameId>.json (liveData) or
                                  stats_summary_<gameId>.json (playbyplayv2) is read for team
                                  names, the date and the final when present.

        OPTIONS:
          -o, --out <path>        Write the fixture to <path>, replacing what it held, instead
                                  of writing it on stdout (- means stdout).
          -h, --help              Show help information.

        EXAMPLES:
          scorefeed import ../shared/nba-pbp/playbyplay_0022400762.json -o sac-dal.json
          scorefeed import stats_0021900001.json > nop-tor.json

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let out = try arguments.option("-o", "--out")
        let files = try arguments.positionals(max: 1)
        guard let path = files.first else { throw ScoreFeedError(.usage, "import needs a game file") }
        try FixtureOutput.check(out)
        try OutputGuard.refuse(out, inputs: [path], writing: "the fixture")

        let started = ContinuousClock.now
        let document = try FeedReader.read(path: path)
        let readTime = ContinuousClock.now - started
        let data = FixtureFormat.encode(
            attributes: document.attributes, events: document.events, finalScore: document.finalScore,
            scheduledStart: document.scheduledStart)
        try FixtureOutput.write(data, to: out)
        Console.error(summary(document, file: path, out: out, readTime: readTime))
        return 0
    }

    /// What was read and written, for standard error.
    static func summary(_ document: FeedDocument, file: String, out: String?, readTime: Duration) -> String {
        let a = document.attributes
        let ms = Double(readTime.components.seconds) * 1000 + Double(readTime.components.attoseconds) / 1e15
        var lines = ["Imported \(file) (\(document.format.displayName), read in \(String(format: "%.1f", ms)) ms)"]
        lines.append("  game          \(a.gameId): \(a.away.tricode) at \(a.home.tricode)")
        lines.append("  actions       \(document.actionCount ?? document.events.count) read, "
            + "\(document.events.count) events written, \(document.rejected.count) rejected")
        let discrepancies = document.discrepancies
        lines.append("  discrepancies \(discrepancies.count)"
            + (discrepancies.first.map { " (first: \($0))" } ?? " (the fold matches the feed's score at every action)"))
        if let final = document.finalScore {
            lines.append("  final         \(a.away.tricode) \(final.away) – \(a.home.tricode) \(final.home)")
        }
        for warning in document.warnings { lines.append("  warning: \(warning)") }
        for rejection in document.rejected.prefix(20) { lines.append("  rejected: \(rejection)") }
        if document.rejected.count > 20 { lines.append("  … \(document.rejected.count - 20) more rejected") }
        lines.append(out.map { $0 == "-" ? "  wrote standard output" : "  wrote \($0)" } ?? "  wrote standard output")
        return lines.joined(separator: "\n")
    }
}

import Foundation
import ScoreFeed

/// `scorefeed`: replay recorded games into Live Activity pushes.
@main
enum ScoreFeedCommand {
    static let help = """
        OVERVIEW: Drive Apple Live Activities for live basketball: fold game events into the
        activity's content-state and decide when a push is worth sending.

        USAGE: scorefeed <subcommand>

        SUBCOMMANDS:
          replay                  Replay a recorded game and show (or emit) its pushes.
          generate                Write a realistic generated game in the fixture format.
          freshness               Measure the engine against the baselines and the bound.
          values                  Fit the table that prices priority 10 by kind of moment.
          report                  Write a self-contained HTML report of a replayed game.
          serve                   Run many games live from a stream of JSON lines.
          poll                    Follow live NBA games from the liveData endpoints.
          bench                   Benchmark a season end to end and many live games.
          import                  Convert NBA play-by-play (or any game file) to the fixture format.
          stream                  Write recorded games as the JSON lines serve reads, merged by time.
          channels                Show each game's broadcast channel from a state directory.
          status                  Show each game of a state directory: score, pushes, budget.
          simulate                Simulate whole live days with faults, on virtual time, checked.

          See 'scorefeed help <subcommand>' for detailed help.

        OPTIONS:
          -h, --help              Show help information.

        """

    /// The subcommands: name, help text and entry point.
    static let subcommands: [(name: String, help: String, run: @Sendable ([String]) async throws -> Int32)] = [
        ("replay", ReplayCommand.help, ReplayCommand.run),
        ("generate", GenerateCommand.help, GenerateCommand.run),
        ("freshness", FreshnessCommand.help, FreshnessCommand.run),
        ("values", ValuesCommand.help, ValuesCommand.run),
        ("report", ReportCommand.help, ReportCommand.run),
        ("serve", ServeCommand.help, ServeCommand.run),
        ("poll", PollCommand.help, PollCommand.run),
        ("bench", BenchCommand.help, BenchCommand.run),
        ("import", ImportCommand.help, ImportCommand.run),
        ("stream", StreamCommand.help, StreamCommand.run),
        ("channels", ChannelsCommand.help, ChannelsCommand.run),
        ("status", StatusCommand.help, StatusCommand.run),
        ("simulate", SimulateCommand.help, SimulateCommand.run),
    ]

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let name = arguments.isEmpty ? nil : arguments.removeFirst()
        let code: Int32
        if let subcommand = subcommands.first(where: { $0.name == name }) {
            code = await run(subcommand, arguments)
        } else if name == nil || name == "help" || name == "-h" || name == "--help" {
            print(subcommands.first { $0.name == arguments.first }?.help ?? help, terminator: "")
            code = name == nil ? ExitCode.usage : 0
        } else {
            Console.error("Error: unknown subcommand '\(name!)'\n\n" + help)
            code = ExitCode.usage
        }
        exit(code)
    }

    /// Runs a subcommand, turning usage errors into exit 64 with the help text and other errors
    /// into exit 1 with a message; with `-h` or `--help` anywhere among its arguments, prints its
    /// help instead.
    static func run(
        _ subcommand: (name: String, help: String, run: @Sendable ([String]) async throws -> Int32), _ arguments: [String]
    ) async -> Int32 {
        if arguments.contains("-h") || arguments.contains("--help") {
            print(subcommand.help, terminator: "")
            return 0
        }
        do {
            return try await subcommand.run(arguments)
        } catch let error as ScoreFeedError where error.code == .usage {
            Console.error("Error: \(error.message)\n\n" + subcommand.help)
            return ExitCode.usage
        } catch let error as ScoreFeedError {
            Console.error("Error: \(error)")
            return ExitCode.failure
        } catch {
            Console.error("Error: \(error)")
            return ExitCode.failure
        }
    }
}

/// Exit statuses, as sysexits.h and ArgumentParser use them.
enum ExitCode {
    static let failure: Int32 = 1
    static let usage: Int32 = 64
    /// EX_TEMPFAIL: serve or poll ended with pushes withheld (a checkpoint that cannot be
    /// written, a sink down past its give-up time, a reader of standard output that went away);
    /// a run on the same state dir resumes once the cause is gone.
    static let withheld: Int32 = 75
}

/// Writing to standard error (progress, summaries, messages) so stdout stays machine-readable.
enum Console {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}

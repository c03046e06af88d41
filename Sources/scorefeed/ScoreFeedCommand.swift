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

          See 'scorefeed help <subcommand>' for detailed help.

        OPTIONS:
          -h, --help              Show help information.

        """

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let subcommand = arguments.isEmpty ? nil : arguments.removeFirst()
        let code: Int32
        switch subcommand {
        case "replay", "generate":
            code = await run(subcommand!, arguments)
        case "help", "-h", "--help", nil:
            switch arguments.first {
            case "replay": print(ReplayCommand.help, terminator: "")
            case "generate": print(GenerateCommand.help, terminator: "")
            default: print(help, terminator: "")
            }
            code = subcommand == nil ? ExitCode.usage : 0
        default:
            Console.error("Error: unknown subcommand '\(subcommand!)'\n\n" + help)
            code = ExitCode.usage
        }
        exit(code)
    }

    /// Runs a subcommand, turning usage errors into exit 64 with the help text and other errors
    /// into exit 1 with a message.
    static func run(_ subcommand: String, _ arguments: [String]) async -> Int32 {
        let help = subcommand == "replay" ? ReplayCommand.help : GenerateCommand.help
        do {
            return subcommand == "replay"
                ? try await ReplayCommand.run(arguments) : try await GenerateCommand.run(arguments)
        } catch let error as ScoreFeedError where error.code == .usage {
            Console.error("Error: \(error.message)\n\n" + help)
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
}

/// Writing to standard error (progress, summaries, messages) so stdout stays machine-readable.
enum Console {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}

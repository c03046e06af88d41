import Foundation
import Testing
@testable import scorefeed

/// The help texts say what the commands do: nothing in them is an unexpanded `\(…)`, and the
/// help of `replay`, `serve` and `poll` lists exactly the options the command reads, taken from
/// the parser itself (every name it looks for), not from a list kept by hand.
@Suite("command line: help")
struct CommandHelpTests {
    /// The option names the help's entries start with: `  --name …` or `  -q, --quiet …`, in any
    /// section (OPTIONS, BROADCAST CHANNELS).
    static func listedOptions(_ help: String) -> Set<String> {
        var names: Set<String> = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) where line.hasPrefix("  -") {
            var rest = line.dropFirst(2)
            while rest.hasPrefix("-") {
                let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                names.insert(String(name))
                rest = rest.dropFirst(name.count)
                guard rest.hasPrefix(", -") else { break }
                rest = rest.dropFirst(2)
            }
        }
        return names
    }

    /// The options `command` looked for while reading `argv`.
    static func asked(_ command: String, _ argv: [String]) throws -> Set<String> {
        var arguments = Arguments(argv)
        switch command {
        case "replay": _ = try ReplayCommand.Options(&arguments)
        case "serve": _ = try ServeCommand.Options(&arguments)
        case "poll": _ = try PollCommand.Options(&arguments)
        case "status": _ = try StatusCommand.Options(&arguments)
        default: Issue.record("no parser for \(command)")
        }
        return arguments.asked
    }

    /// Any help text a user can print.
    static var allHelp: [(name: String, help: String)] {
        [("scorefeed", ScoreFeedCommand.help)] + ScoreFeedCommand.subcommands.map { ($0.name, $0.help) }
    }

    @Test func noHelpTextHasAnUnexpandedInterpolation() {
        for (name, help) in Self.allHelp {
            #expect(!help.contains("\\("), "help of \(name)")
            #expect(!help.isEmpty)
        }
    }

    @Test(arguments: [
        ("replay", ["Fixtures/one-point.json"]),
        ("replay", ["--mode", "broadcast", "--channel-id", "dGVzdA==", "--webhook", "http://127.0.0.1:9/x", "-"]),
        ("serve", []),
        ("serve", ["--mode", "broadcast", "--channels", "manage", "--webhook", "http://127.0.0.1:9/x", "--clock", "feed"]),
        ("poll", ["--games", "0022400762"]),
        ("poll", ["--today", "--mode", "broadcast", "--channels", "manage", "--webhook", "http://127.0.0.1:9/x"]),
        ("serve", ["--metrics", "m.prom", "--metrics-interval", "5"]),
        ("status", ["--state-dir", "s"]),
    ])
    func theHelpListsEveryOptionTheCommandReads(command: String, argv: [String]) throws {
        let help = try #require(ScoreFeedCommand.subcommands.first { $0.name == command }?.help)
        let listed = Self.listedOptions(help).subtracting(["-h", "--help"])
        let read = try Self.asked(command, argv)
        #expect(read.subtracting(listed).sorted() == [], "read by \(command) but not in its help")
        #expect(listed.subtracting(read).sorted() == [], "in the help of \(command) but never read")
    }

    @Test func theListedOptionsAreFoundInAnEntry() {
        let help = """
            OPTIONS:
              --games <ids>           The games.
              -q, --quiet             Quiet; see --other in the text.
              --delete-unknown-channels
                                      Long.
              scorefeed poll --not-an-entry
            """
        #expect(Self.listedOptions(help) == ["--games", "-q", "--quiet", "--delete-unknown-channels"])
    }
}

import Foundation
import Testing
import ScoreFeed

/// The command line of `scorefeed`: an option's value is never the next option, `-` and negative
/// numbers stay values, no command writes its output over its own input, and `replay`'s usage
/// names every option it takes.
@Suite("command line", .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
struct CommandLineTests {
    /// The `--options` the help's OPTIONS section describes that its USAGE does not show.
    static func optionsMissingFromUsage(_ help: String) -> [String] {
        func options(in text: Substring) -> Set<String> {
            var found: Set<String> = []
            var scanner = text[...]
            while let range = scanner.range(of: "--") {
                let name = scanner[range.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                if name.count > 2 { found.insert(String(name)) }
                scanner = scanner[range.upperBound...]
            }
            return found
        }
        guard let usageStart = help.range(of: "USAGE:"), let optionsStart = help.range(of: "OPTIONS:") else {
            return ["(no USAGE or OPTIONS section)"]
        }
        let usage = help[usageStart.upperBound..<(help.range(of: "\n\n", range: usageStart.upperBound..<help.endIndex)?.lowerBound ?? help.endIndex)]
        let optionsEnd = help.range(of: "\n\n", range: optionsStart.upperBound..<help.endIndex)?.lowerBound ?? help.endIndex
        let described = options(in: help[optionsStart.upperBound..<optionsEnd]).subtracting(["--help"])
        return described.subtracting(options(in: usage)).sorted()
    }

    /// A copy of a fixture in a new temporary folder, so a command that wrongly writes into its
    /// input spoils only the copy.
    static func copyOfFixture(_ name: String = "overtime.json") throws -> (folder: URL, file: URL) {
        let folder = try ScoreFeedProcess.temporaryFolder()
        let file = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Make.fixtures.appendingPathComponent(name), to: file)
        return (folder, file)
    }

    @Test(arguments: [
        ["replay", "--out", "--quiet", "x.json"],
        ["replay", "Fixtures/overtime.json", "--quiet", "--out"],
        ["replay", "Fixtures/overtime.json", "--out", "-q"],
        ["replay", "Fixtures/overtime.json", "--out", "--", "x.jsonl"],
        ["import", "Fixtures/overtime.json", "-o", "--quiet"],
        ["report", "Fixtures/overtime.json", "--out", "--budget", "15"],
        ["generate", "-o", "--overtime"],
    ])
    func anOptionNeverTakesTheNextOptionAsItsValue(arguments: [String]) async throws {
        let option = arguments.first { $0 == "--out" || $0 == "-o" }!
        let run = try await ScoreFeedProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.standardError.contains("Error: \(option) needs a value"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: Make.packageRoot.appendingPathComponent("--quiet").path))
    }

    @Test func aNegativeNumberIsAValueNotAnOption() async throws {
        let run = try await ScoreFeedProcess.run(["generate", "--seed", "-1"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("--seed must be a number in 0…"), "\(run.standardError)")
    }

    @Test func aDashStaysStandardOutput() async throws {
        let run = try await ScoreFeedProcess.run(["generate", "--seed", "3", "-o", "-"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.output.hasPrefix("{"))
    }

    @Test func replayRefusesToWriteIntoItsInput() async throws {
        let (folder, file) = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: file)
        let link = folder.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let hardLink = folder.appendingPathComponent("hard.json")
        try FileManager.default.linkItem(at: file, to: hardLink)
        let spellings = [
            file.path, folder.appendingPathComponent("./sub/../overtime.json").path, link.path, hardLink.path,
        ]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for out in spellings {
            let run = try await ScoreFeedProcess.run(["replay", file.path, "--out", out, "--quiet"])
            #expect(run.status == 64, "--out \(out)")
            #expect(run.standardError.contains("refusing to write push records into the input file \(file.path)"), "\(run.standardError)")
        }
        let reportJSON = try await ScoreFeedProcess.run(["replay", file.path, "--report-json", link.path, "--quiet"])
        #expect(reportJSON.status == 64)
        #expect(reportJSON.standardError.contains("refusing to write the freshness report into the input file"))
        #expect(try Data(contentsOf: file) == before, "the input is untouched")
    }

    @Test(arguments: [
        (["import", "{file}", "-o", "{file}"], "refusing to write the fixture into the input file {file}"),
        (["report", "{file}", "-o", "{file}"], "refusing to write the report into the input file {file}"),
        (["stream", "Fixtures/one-point.json", "{file}", "--out", "{file}"], "refusing to write the stream into the input file {file}"),
    ])
    func otherCommandsRefuseToWriteIntoTheirInput(arguments: [String], message: String) async throws {
        let (folder, file) = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: file)
        let run = try await ScoreFeedProcess.run(arguments.map { $0 == "{file}" ? file.path : $0 })
        #expect(run.status == 64)
        #expect(run.standardError.contains(message.replacingOccurrences(of: "{file}", with: file.path)), "\(run.standardError)")
        #expect(try Data(contentsOf: file) == before, "the input is untouched")
    }

    @Test func replayWritesToAnotherFile() async throws {
        let (folder, file) = try Self.copyOfFixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("pushes.jsonl")
        let run = try await ScoreFeedProcess.run(["replay", file.path, "--jsonl", "--quiet", "--out", out.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try Data(contentsOf: out) == run.standardOutput, "--out gets the same records as stdout")
    }

    @Test func theDefaultsHedgeTheAssumedDelayAndBudget() async throws {
        let game = "Fixtures/overtime.json"
        let defaults = try await ScoreFeedProcess.run(["replay", game, "--jsonl", "--quiet"])
        let spelled = try await ScoreFeedProcess.run([
            "replay", game, "--jsonl", "--quiet", "--p5-delay", "60", "--p5-shortest", "15", "--keep-uses-share", "0.3",
            "--budget", "15", "--largest-budget", "30",
        ])
        #expect(defaults.status == 0 && spelled.status == 0, "\(spelled.standardError)")
        #expect(!defaults.standardOutput.isEmpty)
        #expect(spelled.standardOutput == defaults.standardOutput, "--p5-delay and --budget make them known; --p5-shortest and --largest-budget bring the hedges back")
        let told = try await ScoreFeedProcess.run(["replay", game, "--jsonl", "--quiet", "--p5-delay", "60"])
        #expect(told.status == 0 && told.standardOutput != defaults.standardOutput, "--p5-delay alone turns the delay hedge off")
        let known = try await ScoreFeedProcess.run(["replay", game, "--jsonl", "--quiet", "--budget", "15"])
        #expect(String(decoding: defaults.standardOutput, as: UTF8.self).contains(Push.beyondBudget), "the default goes beyond 15 at times")
        #expect(known.status == 0 && !String(decoding: known.standardOutput, as: UTF8.self).contains(Push.beyondBudget), "--budget alone makes it known")
        for arguments in [["--keep-uses-share", "1.5"], ["--largest-budget", "30", "--no-copies"]] {
            let wrong = try await ScoreFeedProcess.run(["replay", game] + arguments)
            #expect(wrong.status == 64, "\(arguments): \(wrong.standardError)")
        }
    }

    @Test func replayUsageListsEveryOption() async throws {
        let run = try await ScoreFeedProcess.run(["help", "replay"])
        #expect(run.status == 0)
        #expect(run.output.contains("--speed <x>"))
        #expect(Self.optionsMissingFromUsage(run.output) == [])
    }

    @Test func everyHelpPrintsWithNoUnexpandedInterpolation() async throws {
        let overview = try await ScoreFeedProcess.run(["help"])
        #expect(overview.status == 0)
        #expect(!overview.output.contains("\\("))
        let section = try #require(overview.output.components(separatedBy: "SUBCOMMANDS:\n").last?.components(separatedBy: "\n\n").first)
        let names = section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.count >= 11, "\(names)")
        for name in names {
            let help = try await ScoreFeedProcess.run(["help", name])
            #expect(help.status == 0 && help.output.hasPrefix("OVERVIEW:"), "help \(name)")
            #expect(!help.output.contains("\\("), "help \(name)")
        }
    }

    @Test(arguments: [
        (["serve", "--reorder-window", "5"], "Error: --reorder-window is gone: an event's seq is its identity, not its order"),
        (["serve", "--reorder-window=5"], "Error: --reorder-window is gone"),
        (["replay", "--mode", "tokens"], "Error: --mode takes token or broadcast, not \"tokens\""),
        (["replay", "--policy", "always"], "Error: --policy takes coalesce or every-change, not \"always\""),
        (["serve", "--clock", "wall"], "Error: --clock takes system or feed, not \"wall\""),
    ])
    func aRefusedValueIsOneLineNamingWhatIsAllowed(arguments: [String], message: String) async throws {
        let run = try await ScoreFeedProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.standardError.split(separator: "\n").first.map(String.init)?.hasPrefix(message) == true, "\(run.standardError.prefix(200))")
        #expect(run.standardOutput.isEmpty)
    }
}

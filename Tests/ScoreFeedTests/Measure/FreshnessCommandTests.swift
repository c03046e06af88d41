import Foundation
import Testing

/// `scorefeed freshness`: the coalescer's options apply at every budget it measures.
@Suite("freshness command")
struct FreshnessCommandTests {
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = ["freshness", "--generated", "3", "--budgets", "15,30"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
    func explicitKnobsApplyAtEveryBudget() throws {
        let defaults = try Self.run([])
        let tuned = try Self.run(["--threshold", "0", "--reserve", "1"])
        let engineLines = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("median") } }
        #expect(engineLines(defaults).count == 2)
        for (plain, knobbed) in zip(engineLines(defaults), engineLines(tuned)) {
            #expect(plain != knobbed, "the knobs change the engine's figures at each budget: \(plain) / \(knobbed)")
        }
    }

    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
    func theGridPrintsBothTablesAndMarksTheWorstCell() throws {
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        let fixtures = Make.fixtureFiles().filter { !$0.contains("/") }.prefix(3).map { Make.fixtures.appendingPathComponent($0).path }
        process.arguments = ["freshness", "--grid", "--told", "--grid-budgets", "8,60", "--grid-delays", "15,120"] + fixtures
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("Engine ÷ best simple baseline"))
        #expect(text.contains("feed-information bound"))
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("8/h") || $0.hasPrefix("60/h") }.count == 4, "\(text)")
        #expect(text.components(separatedBy: "*").count == 3, "the legend and one worst cell: \(text)")
        #expect(text.contains("priority-10 pushes past the budget: 0"), "\(text)")
    }

    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
    func theJoinMeasurePrintsEachShareBothDevicesAndTheChoice() throws {
        let fixtures = Make.fixtureFiles().filter { !$0.contains("/") }.prefix(3).map { Make.fixtures.appendingPathComponent($0).path }
        let (status, text) = try Self.exec(["freshness", "--join", "0.25,0.5", "--grid-budgets", "5,60", "--grid-delays", "30"] + fixtures)
        #expect(status == 0)
        for heading in ["Join at 25 % of the span", "Join at 50 % of the span", "device untouched", "device spent", "Least worst-case regret"] {
            #expect(text.contains(heading), "\(heading): \(text)")
        }
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("5/h") || $0.hasPrefix("60/h") }.count == 2 * 2 * 2, "\(text)")
    }

    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason), arguments: ["1.5", "x", ""])
    func aJoinShareOutsideZeroToOneIsAUsageError(share: String) throws {
        let (status, _) = try Self.exec(["freshness", "--join", share, "Fixtures/one-point.json"])
        #expect(status == 64)
    }

    /// Runs scorefeed with `arguments` from the package root: its exit status and stdout.
    static func exec(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.currentDirectoryURL = Make.packageRoot
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

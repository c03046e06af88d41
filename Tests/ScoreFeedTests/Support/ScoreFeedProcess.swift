import Foundation
import Testing

/// One run of the built `scorefeed` executable (``executable``): its exit status, what
/// it wrote on standard output, and its standard error as text.
struct ScoreFeedProcess {
    var status: Int32
    var standardOutput: Data
    var standardError: String

    var output: String { String(decoding: standardOutput, as: UTF8.self) }

    /// The output's lines, without their newlines.
    var lines: [Data] {
        standardOutput.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map { Data($0) }
    }

    /// The `scorefeed` executable built beside the tests.
    static let executable: URL? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("scorefeed"),
            Make.packageRoot.appendingPathComponent(".build/debug/scorefeed"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Whether the executable was built beside the tests, said once when it was not (``Needs``).
    static var available: Bool {
        Needs.check(executable != nil, "the scorefeed executable was not built beside the tests: the tests that run it skip")
    }

    static let absentReason: Comment = "the scorefeed executable was not built beside the tests"

    /// Runs `scorefeed arguments…` in the package's folder to its end (the suites that call it are
    /// enabled only when ``available``). Standard error goes to a
    /// temporary file, so a full pipe can never stall the run. With `closeOutput`, the reading
    /// end of standard output is closed at once: every write of the command finds no reader.
    /// `input` is the file standard input reads (default none). The wait is off the tests' threads
    /// (``OffPool``).
    static func run(_ arguments: [String], closeOutput: Bool = false, input: URL? = nil) async throws -> ScoreFeedProcess {
        let (run, signalled) = try await OffPool.run { try waiting(for: arguments, closeOutput: closeOutput, input: input) }
        #expect(!signalled, "scorefeed \(arguments.joined(separator: " ")) ended by a signal")
        return run
    }

    /// ``run(_:closeOutput:input:)`` waiting on the calling thread: for a value made once, where
    /// nothing can await.
    static func runOnThisThread(_ arguments: [String]) throws -> ScoreFeedProcess {
        let (run, signalled) = try waiting(for: arguments, closeOutput: false, input: nil)
        #expect(!signalled, "scorefeed \(arguments.joined(separator: " ")) ended by a signal")
        return run
    }

    /// Runs the command to its end; whether a signal ended it.
    private static func waiting(for arguments: [String], closeOutput: Bool, input: URL?) throws -> (ScoreFeedProcess, Bool) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Make.packageRoot
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-stderr-\(UUID().uuidString)")
        try Data().write(to: errorFile)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardError = errorHandle
        try process.run()
        try errorHandle.close()
        var data = Data()
        if closeOutput {
            try output.fileHandleForReading.close()
        } else {
            data = output.fileHandleForReading.readDataToEndOfFile()
        }
        process.waitUntilExit()
        let standardError = String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        return (
            ScoreFeedProcess(status: process.terminationStatus, standardOutput: data, standardError: standardError),
            process.terminationReason != .exit
        )
    }

    /// A new, empty temporary folder.
    /// Reads `handle` (a running command's output) until what came contains `text`, or until
    /// its writer closes it; returns what came.
    static func read(_ handle: FileHandle, until text: String) -> String {
        var said = ""
        while !said.contains(text) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        return said
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

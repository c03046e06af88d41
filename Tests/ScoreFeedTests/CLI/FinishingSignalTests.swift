import Foundation
import Testing
@testable import ScoreFeed
@testable import scorefeed
import ScoreFeedModel

/// `serve` stopped by a signal while it finishes, in a suite of its own: its cases are mostly
/// waits (a webhook that is down, 5 s of grace), so they run beside the heavier serialized suites
/// (``ServeUnderPressureTests``) instead of after them.
@Suite("Exit status: a signal while serve finishes")
struct FinishingSignalTests {
    typealias Mode = RealFeedServeTests.Mode

    /// SIGTERM while serve finishes (its input ended; a webhook that is down would keep it
    /// retrying for --webhook-give-up): it stops after 5 s more, says so, keeps what is not
    /// delivered in its checkpoints and exits 75; a run once the webhook is back would send it.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason), .timeLimit(.minutes(1)),
        arguments: [Mode.token, .broadcast])
    func aSignalWhileFinishingStopsIt(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try await StateDirectoryLockTests.stream(mode, into: folder)
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = [
            "serve", "--clock", "feed", "--state-dir", folder.appendingPathComponent("state").path,
            "--webhook", "http://127.0.0.1:9/push", "--webhook-give-up", "600", "--webhook-timeout", "1",
        ] + StateDirectoryLockTests.modeArguments(mode)
        process.standardInput = try FileHandle(forReadingFrom: stream)
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Waits until it says it is delivering what is still waiting (its input is done).
        let (first, rest) = try await OffPool.run {
            let first = ScoreFeedProcess.read(errors.fileHandleForReading, until: "delivering what is still waiting")
            process.terminate()
            let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (first, rest)
        }
        #expect(first.contains("delivering what is still waiting"))
        let said = first + rest
        #expect(process.terminationReason == .exit && process.terminationStatus == ExitCode.withheld, "\(said.suffix(400))")
        #expect(said.contains("serve: stopping: what is due goes out for 5 s more, the rest stays in the checkpoints"))
        #expect(!said.contains("CancellationError"))
        #expect(said.split(separator: "\n").filter { $0.hasPrefix("game ") && $0.contains("pushes not delivered") }.count == 8)
    }
}

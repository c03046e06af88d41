import Foundation
import Testing
@testable import ScoreFeed
@testable import scorefeed
import ScoreFeedModel

/// `serve` under pressure: engines that fall behind the reader of its input. Apart from
/// ``ExitStatusTests`` and ``FinishingSignalTests`` so that the serialized chains of waits run side
/// by side; serialized, as each case holds a whole 6-night stream.
@Suite("Exit status: serve falling behind", .serialized)
struct ServeUnderPressureTests {
    typealias Mode = RealFeedServeTests.Mode

    /// No line is lost when the engines fall behind the reader. serve's stdout is not read until
    /// serve has read the whole of a 6-night stream (48 games, about 6 MB, so six batches of a
    /// megabyte): the first batch's pushes fill the pipe and stop the engines, four batches wait
    /// in the reader's buffer, and the last is turned away until there is room. Every line is
    /// still applied and every game ends. The stream must end in the batch the reader holds
    /// (more than one taken and four waiting, no more than one more): the test says so, rather
    /// than wait for ever, when the reader's sizes change.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fdinfo/0"), "reads the input's position from /proc"),
        .timeLimit(.minutes(1)), arguments: [Mode.token, .broadcast])
    func noLineIsLostWhenTheEnginesFallBehind(_ mode: Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = try await StateDirectoryLockTests.stream(mode, into: folder, copies: 6)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: stream.path)[.size] as? Int)
        let held = (1 + LineReader.batchesAhead) * LineReader.batchBytes
        try #require(
            size > held && size <= held + LineReader.batchBytes,
            "the stream (\(size) bytes) must end in the batch the reader holds: past \(held) bytes, within one batch more")
        let lines = try String(contentsOf: stream, encoding: .utf8).split(separator: "\n").count
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = StateDirectoryLockTests.serveArguments(mode, state: folder.appendingPathComponent("state"))
        process.standardInput = try FileHandle(forReadingFrom: stream)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Waits until serve's reader is at the end of its input, its output unread, looking at its
        // position every 20 ms (the pause is not a timing assertion: only the position counts);
        // a reader stopped short (for good: its buffer full) fails the test after 240 s instead
        // of hanging it.
        let position = "/proc/\(process.processIdentifier)/fdinfo/0"
        let deadline = ContinuousClock.now + .seconds(240)
        var read = ""
        while true {
            read = (try? String(contentsOfFile: position, encoding: .utf8)) ?? ""
            guard process.isRunning, !read.contains("pos:\t\(size)\n"), ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning && !read.contains("pos:\t\(size)\n") {
            process.terminate()
            Issue.record("serve's reader stopped short of the end of its \(size)-byte input: \(read.prefix(40))")
        }
        let (records, said) = try await OffPool.run {
            let records = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (records, said)
        }
        #expect(process.terminationStatus == 0, "\(said.suffix(400))")
        #expect(said.contains("serve: \(lines) lines, 48 headers"), "\(said.suffix(400))")
        #expect(said.split(separator: "\n").filter { $0.hasPrefix("game ") && $0.contains(", ended, final ") }.count == 48)
        // Six copies of what replay sends for the eight games: 1,491 pushes on iOS (token or
        // broadcast); on Android (no priority-5 copies, its own policy) 1,169.
        let perCopy = mode.platform == .ios ? 1491 : 1169
        #expect(records.split(separator: "\n").count == 6 * perCopy)
    }
}

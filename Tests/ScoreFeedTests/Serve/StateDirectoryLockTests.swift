import Foundation
import Testing
@testable import ScoreFeed

/// One process per state directory: a second `serve` or `poll` on a directory another holds
/// refuses at once, names the holder and sends nothing; a holder killed with SIGKILL never
/// blocks a restart.
@Suite("One process per state directory", .serialized)
struct StateDirectoryLockTests {
    @Test func aSecondLockIsRefusedNamingTheHolderAndARestartTakesIt() throws {
        let dir = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var first: StateDirectoryLock? = try StateDirectoryLock(directory: dir, command: "serve")
        #expect(first != nil)
        #expect(throws: ScoreFeedError.self) { try StateDirectoryLock(directory: dir, command: "poll") }
        do {
            _ = try StateDirectoryLock(directory: dir, command: "poll")
        } catch {
            #expect(error.code == .stateDirectoryInUse)
            #expect(error.message.contains("process \(getpid()) (serve)"), "\(error.message)")
        }
        first = nil
        let again = try StateDirectoryLock(directory: dir, command: "poll")
        #expect(try String(contentsOf: again.file, encoding: .utf8) == "\(getpid()) poll\n")
    }

    /// The real games as `serve` reads them (token mode), or with a channel in each header
    /// (broadcast mode, channels from the headers); with `copies`, more nights of the same games
    /// under ids of their own (`<id>-2`, …). Written into `folder`; made once per run for each
    /// mode and count.
    static func stream(_ mode: RealFeedServeTests.Mode, into folder: URL, copies: Int = 1) async throws -> URL {
        let url = folder.appendingPathComponent("\(mode)-\(copies).jsonl")
        try await streams.value("\(mode)-\(copies)") { try await making(mode, copies: copies, scratch: folder) }.write(to: url)
        return url
    }

    private static let streams = RunMemo<String, Data>()

    private static func making(_ mode: RealFeedServeTests.Mode, copies: Int, scratch folder: URL) async throws -> Data {
        let plain = folder.appendingPathComponent("plain.jsonl")
        let files = NBAFiles.games.map(NBAFiles.path)
        let written = try await ScoreFeedProcess.run(["stream"] + files + ["--out", plain.path])
        #expect(written.status == 0, "\(written.standardError)")
        defer { try? FileManager.default.removeItem(at: plain) }
        guard mode.hasChannels || copies > 1 else { return try Data(contentsOf: plain) }
        let night = try String(contentsOf: plain, encoding: .utf8).split(separator: "\n").map(String.init)
        let ids = night.compactMap { line in
            line.contains("\"gameId\"") ? (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["gameId"] as? String : nil
        }
        // Each line names one game: cut around its id once, then each copy is a join.
        let pieces: [(before: Substring, id: String, after: Substring)?] = night.map { line in
            for id in ids {
                if let range = line.range(of: "\"\(id)\"") {
                    return (line[..<range.lowerBound], id, line[range.upperBound...])
                }
            }
            return nil
        }
        var lines = night
        for copy in (1..<copies).map({ $0 + 1 }) {
            lines += zip(night, pieces).map { line, piece in
                piece.map { "\($0.before)\"\($0.id)-\(copy)\"\($0.after)" } ?? line
            }
        }
        if mode.hasChannels {
            lines = lines.map { line in
                guard line.contains("\"gameId\"") else { return line }
                let id = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                let channel = Data("channel-\(id["gameId"]!)".utf8).base64EncodedString()
                return "{\"channel\":\"\(channel)\"," + line.dropFirst()
            }
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func modeArguments(_ mode: RealFeedServeTests.Mode) -> [String] {
        mode.arguments
    }

    /// `serve --clock feed` on `state` in `mode`.
    static func serveArguments(_ mode: RealFeedServeTests.Mode, state: URL) -> [String] {
        ["serve", "--clock", "feed", "--state-dir", state.path] + modeArguments(mode)
    }

    /// `poll` of one game on `state` in `mode`, from an endpoint that refuses: it retries for
    /// ever, holding the dir.
    static func pollArguments(_ mode: RealFeedServeTests.Mode, state: URL) -> [String] {
        ["poll", "--games", "0022400762", "--url-template", "http://127.0.0.1:9/{gameId}", "--state-dir", state.path]
            + mode.arguments + (mode.hasChannels ? ["--channels", "manage", "--webhook", "http://127.0.0.1:9/x"] : [])
    }

    /// A `serve` that holds `state` until killed: it has read the stream's headers and first
    /// event and written that event's push, so it holds the lock when this returns.
    static func holder(_ mode: RealFeedServeTests.Mode, state: URL, stream: URL) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = serveArguments(mode, state: state)
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = try String(contentsOf: stream, encoding: .utf8).split(separator: "\n")
        let first = lines.prefix { $0.contains("\"gameId\"") }.count + 1
        input.fileHandleForWriting.write(Data((lines.prefix(first).joined(separator: "\n") + "\n").utf8))
        let seen = ScoreFeedProcess.read(output.fileHandleForReading, until: "\n")
        #expect(seen.contains("\n"), "the holder wrote its first push")
        return (process, input)
    }

    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: RealFeedServeTests.Mode.withAndroidToken)
    func aSecondServeOrPollStopsAtOnceAndAKilledHolderNeverBlocksARestart(_ mode: RealFeedServeTests.Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let stream = try await Self.stream(mode, into: folder)
        let (holder, input) = try Self.holder(mode, state: state, stream: stream)
        let serveArguments = Self.serveArguments(mode, state: state)

        let second = try await ScoreFeedProcess.run(serveArguments, input: stream)
        #expect(second.status != 0)
        #expect(second.standardOutput.isEmpty, "the second serve sent nothing")
        #expect(second.standardError.contains("in use by process \(holder.processIdentifier) (serve)"), "\(second.standardError)")
        let poll = try await ScoreFeedProcess.run(Self.pollArguments(mode, state: state))
        #expect(poll.status != 0 && poll.standardOutput.isEmpty)
        #expect(poll.standardError.contains("in use by process \(holder.processIdentifier) (serve)"), "\(poll.standardError)")

        kill(holder.processIdentifier, SIGKILL)
        try await OffPool.run { holder.waitUntilExit() }
        try? input.fileHandleForWriting.close()
        let restart = try await ScoreFeedProcess.run(serveArguments, input: stream)
        #expect(restart.status == 0, "\(restart.standardError)")
        #expect(restart.lines.count > 1000, "the restart took the dir and sent the night's pushes")
        #expect(restart.standardError.contains("serve: resumed "), "the killed holder's checkpoints are taken up")
    }

    /// A running `poll` holds its state dir against a `serve`.
    @Test(
        .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
        .enabled(if: NBAFiles.available, NBAFiles.absentReason),
        arguments: RealFeedServeTests.Mode.withAndroidTopic)
    func aServeStopsAtOnceOnTheDirOfARunningPoll(_ mode: RealFeedServeTests.Mode) async throws {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state")
        let stream = try await Self.stream(mode, into: folder)
        let poll = Process()
        poll.executableURL = ScoreFeedProcess.executable
        poll.arguments = Self.pollArguments(mode, state: state)
        let errors = Pipe()
        poll.standardError = errors
        poll.standardOutput = FileHandle.nullDevice
        try poll.run()
        defer {
            kill(poll.processIdentifier, SIGKILL)
            poll.waitUntilExit()
        }
        // "poll: following 1 game…" comes after the lock is taken.
        _ = try await OffPool.run { ScoreFeedProcess.read(errors.fileHandleForReading, until: "following") }
        let serve = try await ScoreFeedProcess.run(Self.serveArguments(mode, state: state), input: stream)
        #expect(serve.status != 0 && serve.standardOutput.isEmpty)
        #expect(serve.standardError.contains("in use by process \(poll.processIdentifier) (poll)"), "\(serve.standardError)")
    }
}

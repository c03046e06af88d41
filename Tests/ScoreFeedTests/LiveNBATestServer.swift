import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `Tests/Support/nba_live_server.py`: real games from `../shared/nba-pbp` served as the
/// NBA's live endpoints at accelerated time, with injectable faults.
final class LiveNBATestServer: Sendable {
    static let script = Make.packageRoot.appendingPathComponent("Tests/Support/nba_live_server.py")

    let port: Int
    private let process: Process

    init(games: [String], speed: Double, failRate: Double = 0, seed: Int = 1, slowSeconds: Double = 3) throws {
        guard let python = WebhookTestServer.python else { throw WebhookTestServer.Failure(description: "python3 is not on the PATH") }
        let process = Process()
        process.executableURL = python
        process.arguments = [
            Self.script.path, "--folder", NBAFiles.folder.path, "--games", games.joined(separator: ","), "--speed", String(speed),
            "--fail-rate", String(failRate), "--seed", String(seed), "--slow-seconds", String(slowSeconds),
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard let line = WebhookTestServer.firstLine(of: output.fileHandleForReading, within: 30), line.hasPrefix("PORT "),
              let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw WebhookTestServer.Failure(description: "the live NBA test server did not start; run \(Self.script.path) by hand to see why")
        }
        self.port = port
        self.process = process
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// `poll`'s options for this server's endpoints.
    var pollArguments: [String] {
        let base = "http://127.0.0.1:\(port)/static/json/liveData"
        return [
            "--url-template", "\(base)/playbyplay/playbyplay_{gameId}.json",
            "--boxscore-template", "\(base)/boxscore/boxscore_{gameId}.json",
        ]
    }
}

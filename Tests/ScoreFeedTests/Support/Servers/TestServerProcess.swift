import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the python test servers' wrappers share: starting one and waiting (bounded) for the
/// "PORT n" line it prints once listening, and stopping it.
enum TestServerProcess {
    /// Runs `python3 script arguments…` (`python`: another interpreter, a venv's) and waits up to
    /// `seconds` for the port it prints; returns the process and its port, or throws naming `what`.
    static func start(_ script: URL, _ arguments: [String], what: String, python: URL? = nil, within seconds: Double = 30) throws -> (Process, Int) {
        guard let python = python ?? Python3.url else { throw WebhookTestServer.Failure(description: "python3 is not on the PATH") }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready once it printed its port; bounded so a broken interpreter cannot hang the tests.
        guard let line = WebhookTestServer.firstLine(of: output.fileHandleForReading, within: seconds), line.hasPrefix("PORT "),
              let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            stop(process)
            throw WebhookTestServer.Failure(description: "\(what) did not start; run \(script.path) by hand to see why")
        }
        return (process, port)
    }

    /// Stops it (SIGKILL: a child may inherit a blocked SIGTERM) and waits for it to exit.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Stops the process `slot` holds, once, and empties it.
    static func stop(_ slot: borrowing Mutex<Process?>) {
        let running = slot.withLock { current -> Process? in
            defer { current = nil }
            return current
        }
        if let running { stop(running) }
    }
}

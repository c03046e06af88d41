import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `Tests/Support/webhook_server.py` (python3, standard library only) on 127.0.0.1 for the
/// webhook fault tests: start it, read what it received, stop or restart it on the same port.
final class WebhookTestServer: Sendable {
    static let script = Make.packageRoot.appendingPathComponent("Tests/Support/webhook_server.py")

    /// One request as the server logged it.
    struct Request: Decodable, Sendable {
        var n: Int
        var path: String
        /// The `Idempotency-Key` header.
        var key: String?
        var contentType: String?
        var authorization: String?
        /// What the server answered: `200`, `500`, `429:7`, `slow:10`, …
        var action: String
        var body: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    let log: URL
    private let process: Mutex<Process?>

    /// Starts a server; `script` lists the answers to requests 1, 2, … of this process, then
    /// `cycle` repeats. `port` 0 picks a free one.
    init(port: Int = 0, script: [String] = [], cycle: [String] = ["200"], token: String? = nil, log: URL? = nil) throws {
        let log = log ?? FileManager.default.temporaryDirectory.appendingPathComponent("webhook-\(UUID().uuidString).jsonl")
        let (process, port) = try Self.launch(port: port, script: script, cycle: cycle, token: token, log: log)
        self.port = port
        self.log = log
        self.process = Mutex(process)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/push?apiKey=query-secret")! }

    /// Stops the server (SIGKILL: a child may inherit a blocked SIGTERM) and waits for it to
    /// exit; the port refuses connections after.
    func stop() {
        TestServerProcess.stop(process)
    }

    /// Starts a new server on the same port and log, with a new fault plan.
    func restart(script: [String] = [], cycle: [String] = ["200"], token: String? = nil) throws {
        stop()
        let (started, _) = try Self.launch(port: port, script: script, cycle: cycle, token: token, log: log)
        process.withLock { $0 = started }
    }

    /// Every request received so far, by every process that used this log, in arrival order.
    func requests() throws -> [Request] {
        guard let data = try? Data(contentsOf: log) else { return [] }
        let decoder = JSONDecoder()
        return try data.split(separator: 0x0A).map { try decoder.decode(Request.self, from: Data($0)) }
    }

    private static func launch(
        port: Int, script: [String], cycle: [String], token: String?, log: URL
    ) throws -> (Process, Int) {
        var arguments = ["--port", String(port), "--log", log.path, "--cycle", cycle.joined(separator: ",")]
        if !script.isEmpty { arguments += ["--script", script.joined(separator: ",")] }
        if let token { arguments += ["--token", token] }
        return try TestServerProcess.start(Self.script, arguments, what: "the test server (port \(port))")
    }

    static func firstLine(of handle: FileHandle, within seconds: Double) -> String? {
        let line = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var data = Data()
            while !data.contains(0x0A) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            line.withLock { $0 = String(decoding: data, as: UTF8.self) }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return line.withLock { $0 }
    }
}

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `Tests/Support/apns_standin.py` (a strict HTTP/2 + TLS stand-in for APNs) with a provider
/// key made for the run, and the senders that talk to it (`apns_send.py` raw over `httpx`,
/// `apns_send_aioapns.py` through `aioapns`), all in the Python venv that `.ci/run` makes from
/// PyPI: `$SCOREFEED_VENV`, else `.build/venv`. Where that venv or a package is missing, the
/// tests that need it are skipped with ``absentReason``.
final class APNsStandIn {
    /// The venv's python, if the venv exists.
    static let python: URL? = {
        let environment = ProcessInfo.processInfo.environment["SCOREFEED_VENV"].flatMap { $0.isEmpty ? nil : $0 }
        let venv = environment.map { URL(fileURLWithPath: $0) } ?? Make.packageRoot.appendingPathComponent(".build/venv")
        let python = venv.appendingPathComponent("bin/python")
        return FileManager.default.isExecutableFile(atPath: python.path) ? python : nil
    }()

    /// Whether the venv's python imports every module in `modules`.
    static func imports(_ modules: [String]) -> Bool {
        guard let python else { return false }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", "import " + modules.joined(separator: ", ")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The stand-in and the raw sender: `h2`, `httpx` (with HTTP/2), `pyjwt`, `cryptography`.
    static let present = imports(["h2", "httpx", "jwt", "cryptography", "h2.connection"])
    /// The client-library sender: `aioapns` too.
    static let aioapnsPresent = present && imports(["aioapns"])

    /// ``present``, said once when it is not (``Needs``).
    static var available: Bool { Needs.check(present, "\(absentReason)") }
    /// ``aioapnsPresent``, said once when it is not.
    static var aioapnsAvailable: Bool { Needs.check(aioapnsPresent, "\(aioapnsAbsentReason)") }

    static let absentReason: Comment = """
        the wire tests' Python venv is missing (h2, httpx[http2], pyjwt, cryptography from PyPI): `bash .ci/run` makes it in \
        .build/venv (or set SCOREFEED_VENV to one); without PyPI it cannot be made, and the plain Swift rules \
        (WireRulesTests) still check every record
        """
    static let aioapnsAbsentReason: Comment = """
        aioapns is not in the wire tests' venv (PyPI unreachable when .ci/run made it?): the client-library wire test \
        cannot run; the raw sender's tests and the plain Swift rules still do
        """

    static let support = Make.packageRoot.appendingPathComponent("Tests/Support")
    static let bundleId = "com.example.scorefeed"
    static let keyID = "SFKEY12345"
    static let teamID = "SFTEAM1234"

    let folder: URL
    let log: URL
    let certificate: URL
    let privateKey: URL
    let port: Int
    private let process: Process

    /// What the stand-in logged for one request.
    struct Entry: Decodable, Sendable {
        var n: Int
        var mode: String?
        var token: String?
        var apnsId: String?
        var status: Int
        var reason: String?
        var bytes: Int
        var event: String?
        var duplicateId: Bool
        var detail: String?
    }

    /// What a sender printed: its summary line, and its exit status.
    struct Sent: Decodable, Sendable {
        var records: Int
        var requests: Int
        var answers: [String: Int]
        var status: Int32 = 0
        var output = ""

        enum CodingKeys: String, CodingKey { case records, requests, answers }

        /// Requests answered 200.
        var ok: Int { answers["200"] ?? 0 }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Makes a provider key and a folder, starts the stand-in; `providerKey` is the public key it
    /// checks tokens against (default: the one made here).
    init(providerKey: URL? = nil) throws {
        guard let python = Self.python else { throw Failure(description: "\(Self.absentReason)") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-wire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keys = folder.appendingPathComponent("keys")
        try Self.run(python, [Self.support.appendingPathComponent("apns_send.py").path, "keygen", keys.path])
        privateKey = keys.appendingPathComponent("AuthKey.p8")
        log = folder.appendingPathComponent("standin.jsonl")
        certificate = folder.appendingPathComponent("cert/cert.pem")
        (process, port) = try TestServerProcess.start(
            Self.support.appendingPathComponent("apns_standin.py"),
            [
                "--log", log.path, "--cert-dir", folder.appendingPathComponent("cert").path,
                "--provider-key", (providerKey ?? keys.appendingPathComponent("AuthKey.pub.pem")).path,
                "--key-id", Self.keyID, "--team-id", Self.teamID, "--bundle-id", Self.bundleId,
            ],
            what: "the APNs stand-in (with the venv's python)", python: python, within: 60)
    }

    deinit {
        TestServerProcess.stop(process)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every request the stand-in answered so far.
    func entries() throws -> [Entry] {
        try Self.entries(log)
    }

    /// The JSON lines of a stand-in's `log`, each decoded (none when it is not written yet).
    static func entries<Logged: Decodable>(_ log: URL) throws -> [Logged] {
        guard let data = try? Data(contentsOf: log) else { return [] }
        return try data.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(Logged.self, from: Data($0)) }
    }

    enum Client: String, Sendable {
        /// `apns_send.py`: each record as it stands, its exact payload bytes, over `httpx`.
        case raw
        /// `apns_send_aioapns.py`: through `aioapns`, which re-serializes the payload.
        case aioapns
    }

    /// Sends every push record in `records` (JSON lines) with `client`, to `devices` device
    /// tokens per token-mode record, signed with `key` (default: the key the stand-in checks).
    func send(_ records: URL, with client: Client, devices: Int = 3, key: URL? = nil) throws -> Sent {
        guard let python = Self.python else { throw Failure(description: "\(Self.absentReason)") }
        let common = [
            "--ca", certificate.path, "--auth-key", (key ?? privateKey).path, "--key-id", Self.keyID, "--team-id", Self.teamID,
            "--devices", String(devices),
        ]
        let arguments: [String]
        switch client {
        case .raw:
            arguments = [Self.support.appendingPathComponent("apns_send.py").path, "send", "--url", "https://localhost:\(port)"]
                + common + [records.path]
        case .aioapns:
            arguments = [Self.support.appendingPathComponent("apns_send_aioapns.py").path, "--host", "localhost", "--port", String(port)]
                + common + ["--wait", "20", records.path]
        }
        return try Self.sending(python, arguments, "\(client.rawValue) sender")
    }

    /// Runs the sender `python arguments…` and reads the summary it prints last; `standardError`:
    /// whether the sender's standard error goes into ``Sent/output`` too.
    static func sending(_ python: URL, _ arguments: [String], _ sender: String, standardError keep: Bool = false) throws -> Sent {
        let (status, output, standardError) = try run(python, arguments, check: false)
        guard let line = output.split(separator: "\n").last,
              var sent = try? JSONDecoder().decode(Sent.self, from: Data(line.utf8))
        else {
            throw Failure(description: "\(sender) printed no summary (status \(status)): \(output.prefix(1000))\n\(standardError.suffix(2000))")
        }
        sent.status = status
        sent.output = String(line) + (keep && !standardError.isEmpty ? "\n" + standardError.prefix(1500) : "")
        return sent
    }

    /// Runs `python arguments…` to its end; its status, standard output and standard error
    /// (which goes to a file, so a full pipe cannot stall it). With `check`, a non-zero status
    /// throws with standard error in the message.
    @discardableResult
    static func run(_ python: URL, _ arguments: [String], check: Bool = true) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = python
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-wire-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardError = errorHandle
        try process.run()
        try errorHandle.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let standardError = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
        if check && process.terminationStatus != 0 {
            throw Failure(description: "\(arguments.first ?? "python") exited \(process.terminationStatus): \(standardError.suffix(2000))")
        }
        return (process.terminationStatus, text, standardError)
    }
}

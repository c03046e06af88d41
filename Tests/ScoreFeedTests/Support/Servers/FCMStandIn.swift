import Foundation
import Testing

/// Runs `Tests/Support/fcm_standin.py` (a strict stand-in for FCM HTTP v1's send, on plain HTTP)
/// for a Firebase project and an OAuth2 access token made for the run, and the senders that talk
/// to it (`fcm_send.py` raw over `httpx`, `fcm_send_admin.py` through Google's `firebase-admin`),
/// all in the Python venv `.ci/run` makes from PyPI (``APNsStandIn/python``: `$SCOREFEED_VENV`,
/// else `.build/venv`). Where that venv or a package is missing, the tests that need it are
/// skipped with ``absentReason``.
final class FCMStandIn {
    /// The raw sender's `httpx` (the stand-in itself is the standard library's).
    static let present = APNsStandIn.imports(["httpx"])
    /// The client-library sender: `firebase_admin` and `google.auth` too.
    static let adminPresent = present && APNsStandIn.imports(["firebase_admin", "firebase_admin.messaging", "google.auth"])

    /// ``present``, said once when it is not (``Needs``).
    static var available: Bool { Needs.check(present, "\(absentReason)") }
    /// ``adminPresent``, said once when it is not.
    static var adminAvailable: Bool { Needs.check(adminPresent, "\(adminAbsentReason)") }

    static let absentReason: Comment = """
        the wire tests' Python venv is missing (httpx from PyPI): `bash .ci/run` makes it in .build/venv (or set \
        SCOREFEED_VENV to one); without PyPI it cannot be made, and the plain Swift rules (FCMRulesTests) still check \
        every Android record
        """
    static let adminAbsentReason: Comment = """
        firebase-admin is not in the wire tests' venv (PyPI unreachable when .ci/run made it?): the client-library FCM \
        wire test cannot run; the raw sender's tests and the plain Swift rules still do
        """

    static let support = Make.packageRoot.appendingPathComponent("Tests/Support")
    /// The project the stand-in serves (the senders put it for `{project}`).
    static let project = "demo-project"

    let folder: URL
    let log: URL
    let port: Int
    let project: String
    /// The access token the stand-in takes (another is answered 401).
    let accessToken: String
    private let process: Process

    /// What the stand-in logged for one request.
    struct Entry: Decodable, Sendable {
        var n: Int
        var status: Int
        var error: String?
        var detail: String?
        var contract: Bool
        var project: String?
        /// "token", "topic", "condition", "fid".
        var target: String?
        /// The token or topic.
        var to: String?
        /// X-Firebase-Client, else User-Agent.
        var client: String?
        /// The message as received, on a 200.
        var message: Message?

        /// "200", or the status and Google's status name ("400 INVALID_ARGUMENT").
        var answer: String { status == 200 ? "200" : "\(status) \(error ?? "")" }
    }

    struct Message: Decodable, Sendable {
        var token: String?
        var topic: String?
        var data: [String: String]?
    }

    typealias Failure = APNsStandIn.Failure

    /// Starts a stand-in for `project`, taking a token made for the run.
    init(project: String = FCMStandIn.project) throws {
        guard let python = APNsStandIn.python else { throw Failure(description: "\(Self.absentReason)") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-fcm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        log = folder.appendingPathComponent("standin.jsonl")
        self.project = project
        accessToken = "ya29.scorefeed-\(UUID().uuidString.lowercased())"
        (process, port) = try TestServerProcess.start(
            Self.support.appendingPathComponent("fcm_standin.py"),
            ["--log", log.path, "--project", project, "--access-token", accessToken],
            what: "the FCM stand-in (with the venv's python)", python: python, within: 60)
    }

    deinit {
        TestServerProcess.stop(process)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every request the stand-in answered so far, in the order it answered them.
    func entries() throws -> [Entry] {
        try APNsStandIn.entries(log)
    }

    enum Client: String, Sendable {
        /// `fcm_send.py`: each payload as it stands, its exact bytes, over `httpx`.
        case raw = "fcm_send.py"
        /// `fcm_send_admin.py`: through `firebase-admin`, which builds and serializes the message again.
        case admin = "fcm_send_admin.py"
    }

    /// Sends every record in `records` (JSON lines) with `client`, each token-mode record to one
    /// registration token, bearing `accessToken` (default: the one the stand-in takes). The
    /// sender's summary: its counts by answer, its exit status and its output.
    func send(_ records: URL, with client: Client, accessToken: String? = nil) throws -> APNsStandIn.Sent {
        guard let python = APNsStandIn.python else { throw Failure(description: "\(Self.absentReason)") }
        let arguments = [
            Self.support.appendingPathComponent(client.rawValue).path, "--url", "http://127.0.0.1:\(port)", "--project", project,
            "--access-token", accessToken ?? self.accessToken, records.path,
        ]
        return try APNsStandIn.sending(python, arguments, client.rawValue, standardError: true)
    }
}

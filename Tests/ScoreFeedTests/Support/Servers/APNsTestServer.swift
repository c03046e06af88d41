import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `Tests/Support/apns_server.py` (python3, standard library only) on 127.0.0.1: APNs as seen
/// through ScoreFeed's webhook. Each POSTed record is answered as APNs would answer it (channel
/// create, delete and list; broadcasts only to open channels; token pushes), with injectable
/// faults; ``requests()`` reads what it received and ``state()`` asks which channels are open.
final class APNsTestServer: Sendable {
    /// python3 is on the PATH: the tests that need the server are disabled without it.
    static var available: Bool { Python3.available }

    static let absentReason = Python3.absentReason

    static let script = Make.packageRoot.appendingPathComponent("Tests/Support/apns_server.py")

    /// One request as the server logged it, once answered.
    struct Request: Decodable, Sendable {
        enum Kind: String, Decodable, Sendable, CaseIterable {
            case create, delete, list, broadcast, push
            /// Not a record the server understands (answered 400 `BadRequest`).
            case bad
        }

        /// Arrival number in this server process (every kind counts).
        var n: Int
        var kind: Kind
        var game: String?
        /// The request's `apns-channel-id` (broadcast, delete) or the channel made (create).
        var channel: String?
        /// A push's event and seq.
        var event: String?
        var seq: Int?
        /// The status answered; nil when the connection was dropped.
        var status: Int?
        /// The `reason` of the answer (`BadChannelId`, `ChannelNotRegistered`, `Injected`, …).
        var reason: String?
        /// The fault action applied: `200`, `503`, `429:1`, `slow:3`, `drop`, `noid`, …
        var action: String
        /// The `Idempotency-Key` header.
        var key: String?
        /// When the server answered, in seconds on its monotonic clock.
        var t: Double?
        /// The request body (the record's JSON line).
        var body: String
    }

    /// A channel the server made.
    struct Created: Decodable, Sendable, Hashable {
        var channel: String
        var game: String
        /// The create's `apns-request-id`.
        var requestId: String?
    }

    /// The server's channels (`GET /state`).
    struct State: Decodable, Sendable {
        /// Open channel id → its game.
        var open: [String: String]
        /// Every channel made, in order.
        var created: [Created]
        /// Every channel closed by a delete, in order.
        var deleted: [String]
        /// Channels made per game.
        var createsByGame: [String: Int]
    }

    let port: Int
    let log: URL
    private let process: Mutex<Process?>

    /// Starts a server on a free port. `script` lists the fault actions of requests 1, 2, … of
    /// the kinds in `faultOn` (nil: every kind), then `cycle` repeats; requests of other kinds are
    /// answered normally. `maxChannels` nil keeps the server's default (10000); `dedupe` makes a
    /// create with an `apns-request-id` seen before return the channel it made then;
    /// `downAfterEnd`: the first push whose event is `end` takes the server down for that many
    /// seconds (every request answered 503, action `down`).
    init(
        script: [String] = [], cycle: [String] = ["200"], faultOn: [Request.Kind]? = nil, maxChannels: Int? = nil,
        dedupe: Bool = false, token: String? = nil, downAfterEnd: Double? = nil
    ) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString).jsonl")
        var arguments = ["--port", "0", "--log", log.path, "--cycle", cycle.joined(separator: ",")]
        if !script.isEmpty { arguments += ["--script", script.joined(separator: ",")] }
        if let faultOn { arguments += ["--fault-on", faultOn.map(\.rawValue).joined(separator: ",")] }
        if let maxChannels { arguments += ["--max-channels", String(maxChannels)] }
        if dedupe { arguments.append("--dedupe-request-ids") }
        if let token { arguments += ["--token", token] }
        if let downAfterEnd { arguments += ["--down-after-end", String(downAfterEnd)] }
        let (process, port) = try TestServerProcess.start(Self.script, arguments, what: "the APNs test server")
        self.port = port
        self.log = log
        self.process = Mutex(process)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// The webhook URL to give ScoreFeed.
    var url: URL { URL(string: "http://127.0.0.1:\(port)/apns")! }

    /// Stops the server (SIGKILL: a child may inherit a blocked SIGTERM) and waits for it to
    /// exit; the port refuses connections after, and its channels are gone.
    func stop() {
        TestServerProcess.stop(process)
    }

    /// Every request answered so far, in the order answered (a `slow:` one is logged after its
    /// wait; ``Request/n`` is the arrival order).
    func requests() throws -> [Request] {
        guard let data = try? Data(contentsOf: log) else { return [] }
        let decoder = JSONDecoder()
        return try data.split(separator: 0x0A).map { try decoder.decode(Request.self, from: Data($0)) }
    }

    /// The server's channels now (the server must be running).
    func state() async throws -> State {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/state")!)
        request.timeoutInterval = 10
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw WebhookTestServer.Failure(description: "GET /state answered \(response)")
        }
        return try JSONDecoder().decode(State.self, from: data)
    }
}

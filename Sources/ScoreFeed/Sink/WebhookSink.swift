import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs each push record, as its JSON line (``PushRecord/jsonLine()``), to your push sender's
/// HTTP endpoint.
///
/// - Headers: `Content-Type: application/json`, `Idempotency-Key: <apns-id>` (a retried record
///   has the same key and the same body, so the receiver can deduplicate; the id covers the
///   body, ``RequestID/uuid(for:)``, so no other record has it, from this instance or from one
///   that numbered the activity's pushes from 1 again) and, when a token is
///   given, `Authorization: Bearer <token>`. The token is never logged, printed or put in an error.
/// - Each attempt is bounded by ``Options/timeout`` (the whole request) and its answer by
///   ``Options/maxAnswer`` (64 KiB). A 5xx, 408, 425 or 429 answer, a time-out
///   or a connection error is retried after an exponential ``Backoff`` with jitter, or after the
///   answer's `Retry-After`, until ``Options/maxAttempts`` attempts or ``Options/maxElapsed``
///   seconds are used up; then `send` throws `sink-unavailable`. 401, 403, 404 and other
///   configuration faults throw `sink-unavailable` at once (retrying now will not help); other
///   4xx answers throw `sink-rejected` (this body will never be accepted).
/// - Wrap it in a ``ResilientSink`` so that an unavailable endpoint does not stop the game: it
///   keeps the newest state per activity and delivers it when the endpoint is back.
///
/// Backoff waits on the injected ``EngineClock``, so tests run it on a ``ManualClock`` against a
/// real local server without waiting.
public actor WebhookSink: PushSink, CustomStringConvertible {
    /// Bounds on one record's delivery.
    public struct Options: Hashable, Sendable {
        /// Seconds one attempt may take, connection to last byte.
        public var timeout: TimeInterval
        /// Attempts per record, the first included.
        public var maxAttempts: Int
        /// Seconds from the first attempt after which no retry starts.
        public var maxElapsed: TimeInterval
        /// Delays between attempts when the answer has no `Retry-After`.
        public var backoff: Backoff
        /// The most decoded bytes of one answer (64 KiB by default): a webhook answers with a
        /// status and a short JSON body, so a longer one is a wrong endpoint; it is dropped at the
        /// cap and the attempt counts as failed.
        public var maxAnswer: Int

        public init(
            timeout: TimeInterval = 10, maxAttempts: Int = 4, maxElapsed: TimeInterval = 30, backoff: Backoff = Backoff(),
            maxAnswer: Int = 64 << 10
        ) {
            self.timeout = timeout
            self.maxAnswer = maxAnswer
            self.maxAttempts = max(1, maxAttempts)
            self.maxElapsed = maxElapsed
            self.backoff = backoff
        }
    }

    /// Counts of what the sink did.
    public struct Statistics: Hashable, Sendable {
        /// HTTP requests started.
        public var attempts = 0
        /// Records answered with 2xx.
        public var delivered = 0
        /// Attempts that were retried.
        public var retries = 0
    }

    /// `scheme://host:port/path` of the endpoint, without credentials or query: safe to print.
    public nonisolated let endpoint: String
    private let url: URL
    private let token: String?
    private let options: Options
    private let clock: any EngineClock
    private let random: @Sendable () -> Double
    private let client: BoundedHTTP
    public private(set) var statistics = Statistics()

    /// - Parameters:
    ///   - url: the push sender's endpoint (http or https).
    ///   - bearerToken: sent as `Authorization: Bearer …`; read it from the environment or a
    ///     secret store, never from a command line.
    ///   - options: timeouts, attempts, backoff and the answer's size cap.
    ///   - clock: where backoff waits (the system clock in production).
    ///   - random: 0..<1 for the jitter; tests pin it.
    public init(
        url: URL, bearerToken: String? = nil, options: Options = Options(), clock: any EngineClock = SystemClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.url = url
        self.token = bearerToken
        self.options = options
        self.clock = clock
        self.random = random
        self.endpoint = Self.safeDescription(of: url)
        self.client = BoundedHTTP(maxBody: options.maxAnswer, timeout: options.timeout)
    }

    public nonisolated var description: String { "WebhookSink(\(endpoint))" }

    public func send(_ record: PushRecord) async throws {
        let key = record.key
        let what = "\(record.activity) seq \(record.seq)"
        try await attempts(record.jsonLine(), key: key, what: what) { exchange throws(ScoreFeedError) -> Attempt<Void> in
            let verdict: Verdict
            switch exchange {
            case .answered(let status, let retryAfter, _, _):
                verdict = Self.verdict(status: status, retryAfter: retryAfter, now: clock.now)
            case .failed(let failure):
                verdict = failure
            }
            switch verdict {
            case .delivered: return .done(())
            case .rejected(let why): throw ScoreFeedError(.sinkRejected, "\(endpoint) refused \(what): \(why)")
            case .unavailable(let why): throw ScoreFeedError(.sinkUnavailable, "\(endpoint) cannot take \(what): \(why)")
            case .retry(let after, let why): return .retry(after: after, why)
            }
        }
    }

    /// Sends a channel request (its JSON line, with `Idempotency-Key: <apns-request-id>`) and
    /// returns APNs' answer as the push sender passes it back: the status, the `apns-channel-id`
    /// header and the body's `reason`. Retried like a push on 5xx, 429 and time-outs, and when a
    /// create's 2xx has no `apns-channel-id`; a 4xx is APNs' answer and is returned (a 404 only
    /// with a JSON `reason`, as APNs gives: a bare 404 is a wrong URL).
    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        let what = request.game.map { "the channel \(request.action.rawValue) of game \($0)" } ?? "the channel \(request.action.rawValue)"
        return try await attempts(request.jsonLine(), key: request.requestID, what: what) { exchange throws(ScoreFeedError) -> Attempt<ChannelAnswer?> in
            switch exchange {
            case .failed(.retry(let after, let why)):
                return .retry(after: after, why)
            case .failed(.unavailable(let why)):
                throw ScoreFeedError(.sinkUnavailable, "\(endpoint) cannot take \(what): \(why)")
            case .failed(let verdict):
                return .retry(after: nil, "\(verdict)")
            case .answered(let status, let retryAfter, let channelID, let data):
                let answer = ChannelAnswer(status: status, channelID: channelID, reason: ChannelAnswer.reason(in: data), body: data)
                switch Self.verdict(status: status, retryAfter: retryAfter, now: clock.now) {
                case .delivered where request.action == .create && (channelID ?? "").isEmpty:
                    return .retry(after: nil, "HTTP \(status) without an apns-channel-id header")
                case .delivered, .rejected:
                    return .done(answer)
                case .unavailable where status == 404 && answer.reason != nil:
                    return .done(answer)
                case .unavailable(let why):
                    throw ScoreFeedError(.sinkUnavailable, "\(endpoint) cannot take \(what): \(why)")
                case .retry(let after, let why):
                    return .retry(after: after, why)
                }
            }
        }
    }

    /// What one attempt's exchange means: done with a value, or worth another attempt.
    private enum Attempt<Value> {
        case done(Value)
        case retry(after: TimeInterval?, String)
    }

    /// POSTs `body` until `judge` says it is done (counted as delivered), throws, or the attempts
    /// or the time run out (waiting the server's `Retry-After`, else the backoff, in between).
    private func attempts<Value>(
        _ body: Data, key: String, what: String, judge: (Exchange) throws(ScoreFeedError) -> Attempt<Value>
    ) async throws -> Value {
        let started = clock.now
        var attempt = 0
        while true {
            try Task.checkCancellation()
            attempt += 1
            statistics.attempts += 1
            switch try judge(await exchange(body, key: key)) {
            case .done(let value):
                statistics.delivered += 1
                return value
            case .retry(let retryAfter, let why):
                let delay = retryAfter ?? options.backoff.delay(afterFailure: attempt, random: random())
                let elapsed = clock.now.timeIntervalSince(started)
                guard attempt < options.maxAttempts, elapsed + delay <= options.maxElapsed else {
                    let asked = retryAfter.map { "; it asked to retry after \(JSONText.number($0)) s" } ?? ""
                    throw ScoreFeedError(
                        .sinkUnavailable,
                        "\(endpoint): gave up on \(what) after \(attempt) attempt\(attempt == 1 ? "" : "s") in \(JSONText.number(elapsed.rounded())) s; last: \(why)\(asked)")
                }
                statistics.retries += 1
                try await clock.sleep(until: clock.now.addingTimeInterval(delay))
            }
        }
    }

    /// What one attempt's outcome means for the record.
    public enum Verdict: Hashable, Sendable {
        /// 2xx.
        case delivered
        /// Worth retrying, after the server's `Retry-After` when it gave one.
        case retry(after: TimeInterval?, String)
        /// The endpoint is misconfigured or unreachable in a way retrying now will not fix.
        case unavailable(String)
        /// The receiver will never accept this body.
        case rejected(String)
    }

    /// Classifies an HTTP answer. `Retry-After` is honoured on any retryable status; an HTTP
    /// date in it is measured against `now`.
    public static func verdict(status: Int, retryAfter: String?, now: Date) -> Verdict {
        let after = retryAfter.flatMap { RetryAfter.seconds($0, now: now) }
        switch status {
        case 200...299:
            return .delivered
        case 408, 425, 429, 500...599:
            return .retry(after: after, "HTTP \(status)")
        case 401, 403, 404, 405, 407:
            return .unavailable("HTTP \(status) (check the URL and the token)")
        case 400...499:
            return .rejected("HTTP \(status)")
        default:
            return .unavailable("unexpected HTTP \(status)")
        }
    }

    /// One HTTP exchange: the answer, or why there was none.
    private enum Exchange {
        /// The status, the `Retry-After` and `apns-channel-id` headers, and the body.
        case answered(status: Int, retryAfter: String?, channelID: String?, body: Data)
        case failed(Verdict)
    }

    private func exchange(_ body: Data, key: String) async -> Exchange {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: options.timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        switch await client.fetch(request) {
        case .success(let answer):
            let http = answer.response
            return .answered(
                status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"),
                channelID: http.value(forHTTPHeaderField: "apns-channel-id"), body: answer.body)
        case .failure(.tooLarge(let limit)):
            return .failed(.retry(after: nil, "an answer over \(limit) bytes (a webhook's answer is a status and a short JSON body)"))
        case .failure(.timedOut), .failure(.transport(.timedOut)):
            return .failed(.retry(after: nil, "no answer within \(JSONText.number(options.timeout)) s"))
        case .failure(.transport(let code)) where code == .badURL || code == .unsupportedURL:
            return .failed(.unavailable("not a usable URL (URL error \(code.rawValue))"))
        case .failure(.transport(let code)):
            return .failed(.retry(after: nil, BoundedHTTP.describe(code)))
        case .failure(.cancelled):
            return .failed(.retry(after: nil, "cancelled"))
        case .failure(.notHTTP):
            return .failed(.retry(after: nil, "not an HTTP response"))
        }
    }

    /// `scheme://host:port/path`: no user, password, query or fragment.
    static func safeDescription(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "webhook" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "webhook"
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a poller gets the live documents: ``LiveFetcher`` over HTTP, or a test's script.
public protocol LiveSource: Sendable {
    /// GETs `url`, conditional on `validators`, which a good answer updates.
    func get(_ url: URL, validators: inout LiveFetcher.Validators) async -> LiveFetcher.Answer
    /// The longest one request may take before it is given up (`--timeout`): what a wait for the
    /// next answer allows besides the time until the request.
    var requestTimeout: TimeInterval { get }
}

extension LiveSource {
    /// ``LiveFetcher``'s default.
    public var requestTimeout: TimeInterval { 10 }
}

/// Conditional GETs of the NBA's live documents: `If-None-Match` and `If-Modified-Since` from the
/// last answer, a timeout for each whole request, a cap on each body (``BoundedHTTP``), and every
/// way an answer can be unusable (status, a body too large, shorter than its `Content-Length`
/// or empty, no whole answer in time) as one error naming the URL.
public final class LiveFetcher: LiveSource {
    /// What one request gave.
    public enum Answer: Sendable {
        case body(Data)
        case notModified
        case failed(ScoreFeedError, retryAfter: TimeInterval?)
    }

    /// The validators of the last good answer of one URL.
    public struct Validators: Hashable, Sendable {
        public var etag: String?
        public var lastModified: String?

        public init() {}
    }

    /// The default cap on one answer's decoded bytes: 4 MiB. The real liveData play-by-plays are
    /// 0.36–0.64 MB (an overtime game's 477 KB, pretty-printed 0.57 MB) and a boxscore ~40 KB, so
    /// a triple-overtime game still has more than twice the room, while a dozen games at the cap
    /// at once hold under 50 MB.
    public static let defaultMaxBody = 4 << 20

    private let client: BoundedHTTP
    private let timeout: TimeInterval
    public var requestTimeout: TimeInterval { timeout }
    /// What a `Retry-After` date is read against.
    private let clock: any EngineClock

    /// - Parameters:
    ///   - timeout: seconds one whole request may take, connection to last byte.
    ///   - maxBody: the most decoded bytes of one answer; a longer one is dropped as a failure.
    ///   - clock: what a `Retry-After` date is read against (the system clock live).
    public init(timeout: TimeInterval = 10, maxBody: Int = LiveFetcher.defaultMaxBody, clock: any EngineClock = SystemClock()) {
        self.timeout = timeout
        self.clock = clock
        client = BoundedHTTP(maxBody: maxBody, timeout: timeout)
    }

    /// GETs `url`, conditional on `validators`, which a good answer updates.
    public func get(_ url: URL, validators: inout Validators) async -> Answer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let etag = validators.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = validators.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        let place = ScoreFeedError.Location(file: url.absoluteString)
        let data: Data
        let http: HTTPURLResponse
        switch await client.fetch(request) {
        case .success(let answer):
            (data, http) = (answer.body, answer.response)
        case .failure(let failure):
            return .failed(Self.error(failure, at: place), retryAfter: nil)
        }
        let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { RetryAfter.seconds($0, now: clock.now) }
        switch http.statusCode {
        case 304:
            return .notModified
        case 200:
            // A compressed answer's Content-Length counts the compressed bytes (URLSession hands
            // them over unpacked); a cut one then fails to decode instead.
            if http.value(forHTTPHeaderField: "Content-Encoding") == nil,
                let length = http.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init), length != data.count
            {
                return .failed(
                    ScoreFeedError(.malformedJSON, "the body was cut: \(data.count) of \(length) bytes", at: place), retryAfter: nil)
            }
            guard !data.isEmpty else {
                return .failed(ScoreFeedError(.malformedJSON, "the answer is empty", at: place), retryAfter: nil)
            }
            validators.etag = http.value(forHTTPHeaderField: "ETag")
            validators.lastModified = http.value(forHTTPHeaderField: "Last-Modified")
            return .body(data)
        default:
            let what = http.statusCode == 429 ? "too many requests" : http.statusCode >= 500 ? "the server failed" : "refused"
            return .failed(
                ScoreFeedError(.io, "HTTP \(http.statusCode) (\(what))" + (retryAfter.map { "; retry after \($0) s" } ?? ""), at: place),
                retryAfter: retryAfter)
        }
    }
}

extension LiveFetcher {
    /// The error line of a request that gave no usable answer.
    static func error(_ failure: BoundedHTTP.Failure, at place: ScoreFeedError.Location) -> ScoreFeedError {
        switch failure {
        case .tooLarge(let limit):
            return ScoreFeedError(.bodyTooLarge, "the answer passed the --max-body cap of \(limit) bytes (decoded) and was dropped", at: place)
        case .timedOut(let seconds):
            return ScoreFeedError(.io, "no whole answer within \(JSONText.number(seconds)) s (--timeout)", at: place)
        case .cancelled:
            return ScoreFeedError(.io, "cancelled (poll is stopping)", at: place)
        case .transport(let code):
            return ScoreFeedError(.io, "no answer: \(BoundedHTTP.describe(code))", at: place)
        case .notHTTP:
            return ScoreFeedError(.io, "not an HTTP answer", at: place)
        }
    }
}

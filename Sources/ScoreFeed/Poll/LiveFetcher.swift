import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a poller gets the live documents: ``LiveFetcher`` over HTTP, or a test's script.
public protocol LiveSource: Sendable {
    /// GETs `url`, conditional on `validators`, which a good answer updates.
    func get(_ url: URL, validators: inout LiveFetcher.Validators) async -> LiveFetcher.Answer
}

/// Conditional GETs of the NBA's live documents: `If-None-Match` and `If-Modified-Since` from the
/// last answer, a timeout per request, and every way an answer can be unusable (status, a body
/// shorter than its `Content-Length`, an empty body) as one error naming the URL.
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

    private let session: URLSession
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 10) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// GETs `url`, conditional on `validators`, which a good answer updates.
    public func get(_ url: URL, validators: inout Validators) async -> Answer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let etag = validators.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = validators.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        let place = ScoreFeedError.Location(file: url.absoluteString)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            return .failed(ScoreFeedError(.io, "no answer: \(error.localizedDescription)", at: place), retryAfter: nil)
        }
        guard let http = response as? HTTPURLResponse else {
            return .failed(ScoreFeedError(.io, "not an HTTP answer", at: place), retryAfter: nil)
        }
        let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { RetryAfter.seconds($0, now: Date()) }
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

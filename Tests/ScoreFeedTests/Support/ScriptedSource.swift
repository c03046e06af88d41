import Foundation
@testable import ScoreFeed

/// A live source that answers from a script, one answer per request of each URL (the last one
/// repeats), for the poller's paths that a real server rarely takes. With `exhausted`, a URL asked
/// again after its whole script is told there once and held (a 304 when the poller is stopped)
/// instead of repeating: a test then stops the poller at a known point.
actor ScriptedSource: LiveSource {
    private var script: [URL: [LiveFetcher.Answer]]
    private(set) var requests: [URL: Int] = [:]
    private let lengths: [URL: Int]
    private let exhausted: AsyncStream<Void>.Continuation?

    init(_ script: [URL: [LiveFetcher.Answer]], exhausted: AsyncStream<Void>.Continuation? = nil) {
        self.script = script
        lengths = script.mapValues(\.count)
        self.exhausted = exhausted
    }

    func get(_ url: URL, validators: inout LiveFetcher.Validators) async -> LiveFetcher.Answer {
        requests[url, default: 0] += 1
        if let exhausted, let length = lengths[url], let asked = requests[url], asked > length {
            if asked == length + 1 { exhausted.yield() }
            try? await Task.sleep(for: .seconds(3600))
            return .notModified
        }
        guard var answers = script[url], let first = answers.first else {
            return .failed(ScoreFeedError(.io, "HTTP 404 (refused)", at: .init(file: url.absoluteString)), retryAfter: nil)
        }
        if answers.count > 1 { answers.removeFirst() }
        script[url] = answers
        return first
    }
}

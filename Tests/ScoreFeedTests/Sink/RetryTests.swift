import Foundation
import Testing
import ScoreFeed

@Suite("Backoff, Retry-After and how webhook answers are classified")
struct RetryTests {
    @Test func backoffGrowsExponentiallyUpToItsMaximum() {
        let backoff = Backoff(initial: 0.5, multiplier: 2, maximum: 4, jitter: 0)
        #expect((1...6).map { backoff.delay(afterFailure: $0, random: 0.7) } == [0.5, 1, 2, 4, 4, 4])
    }

    @Test(arguments: [0.0, 0.25, 0.999])
    func jitterTakesUpToItsShare(random: Double) {
        let backoff = Backoff(initial: 8, maximum: 8, jitter: 0.5)
        let delay = backoff.delay(afterFailure: 1, random: random)
        #expect(delay == 8 * (1 - 0.5 * random))
        #expect((4...8).contains(delay))
    }

    @Test func retryAfterInSecondsOrAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)    // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds(" 7 ", now: now) == 7)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("Wednesday, 21-Oct-15 07:29:00 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Wed Oct 21 07:28:10 2015", now: now) == 10)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == 0, "a past date means now")
        #expect(RetryAfter.seconds("soon", now: now) == nil)
    }

    @Test(arguments: [
        (200, WebhookSink.Verdict.delivered), (204, .delivered),
        (500, .retry(after: nil, "HTTP 500")), (503, .retry(after: nil, "HTTP 503")),
        (408, .retry(after: nil, "HTTP 408")), (429, .retry(after: nil, "HTTP 429")),
        (400, .rejected("HTTP 400")), (422, .rejected("HTTP 422")),
        (401, .unavailable("HTTP 401 (check the URL and the token)")),
        (404, .unavailable("HTTP 404 (check the URL and the token)")),
    ])
    func answersAreClassified(status: Int, verdict: WebhookSink.Verdict) {
        #expect(WebhookSink.verdict(status: status, retryAfter: nil, now: Date()) == verdict)
    }

    @Test func retryAfterIsHonouredOnRetryableAnswers() {
        #expect(WebhookSink.verdict(status: 429, retryAfter: "3", now: Date()) == .retry(after: 3, "HTTP 429"))
        #expect(WebhookSink.verdict(status: 503, retryAfter: "11", now: Date()) == .retry(after: 11, "HTTP 503"))
    }
}

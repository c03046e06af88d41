import Foundation

extension LivePoller {
    /// What the boxscore's own loop has learned, read by the play-by-play's at each of its
    /// requests. The two endpoints are asked side by side, each on its own schedule: a boxscore
    /// that hangs until `--timeout` never slows the play-by-play.
    final class BoxscoreNews: @unchecked Sendable {
        private let lock = NSLock()
        private var latestRead: (bytes: Data, box: LiveBoxscore)?
        /// The newest copy read: an older one is ignored.
        private var newest = NewestCopy()
        private var failures = 0
        private var changed = false
        private var announcedOnly = false
        private var asked = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        /// Returns once the boxscore's first request has its outcome (or the task is cancelled):
        /// the first play-by-play is read against it, as a game's end waits for the boxscore.
        func firstAnswer() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = lock.withLock {
                        if asked || Task.isCancelled { return true }
                        waiting.append(continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                answered()
            }
        }

        /// A boxscore request has its outcome.
        func answered() {
            let waiters = lock.withLock {
                asked = true
                defer { waiting = [] }
                return waiting
            }
            for waiter in waiters { waiter.resume() }
        }

        /// The last boxscore read, its failures in a row since, and whether it changed (or
        /// stopped deciding) since the play-by-play last looked; looking clears that.
        func take() -> (bytes: Data?, box: LiveBoxscore?, failures: Int, changed: Bool) {
            lock.withLock {
                defer { changed = false }
                return (latestRead?.bytes, latestRead?.box, failures, changed)
            }
        }

        /// The last boxscore read (changing nothing).
        var latest: LiveBoxscore? {
            lock.withLock { latestRead?.box }
        }

        /// Keeps `box`, read from `bytes`, as the latest; false (keeping nothing) for a copy older
        /// than one read before. Either way the boxscore answered. `received`: when it came (a
        /// copy said to be written well after that is not ordered by its time:
        /// ``NewestCopy/admit(_:received:)``).
        func read(_ box: LiveBoxscore, bytes: Data, received: Date? = nil) -> Bool {
            lock.withLock {
                failures = 0
                guard newest.admit(box.stamp, received: received) else { return false }
                latestRead = (bytes, box)
                changed = true
                return true
            }
        }

        /// Counts a failure; at ``LivePoller/boxscoreGiveUp`` in a row the boxscore no longer
        /// decides, which the play-by-play must hear about (it reads its last document again).
        func failed() {
            lock.withLock {
                failures += 1
                if failures == LivePoller.boxscoreGiveUp { changed = true }
            }
        }

        func unchanged() {
            lock.withLock { failures = 0 }
        }

        /// The game was started from the scoreboard only (its play-by-play not yet read): a
        /// 403/404 then means not yet published, not worth an error line.
        var isAnnouncedOnly: Bool {
            get { lock.withLock { announcedOnly } }
            set { lock.withLock { announcedOnly = newValue } }
        }
    }

    /// Polls the boxscore on its own schedule until cancelled, telling `news` what it read.
    func pollBoxscore(
        _ boxscore: URL, news: BoxscoreNews, service: GameService, fetcher: some LiveSource, metrics: MetricsRecorder?,
        report: @Sendable (Report) -> Void
    ) async {
        var schedule = self.schedule
        var validators = LiveFetcher.Validators()
        var newestValidators = validators
        var due = Date.distantPast
        await DeadlineLoop(clock: clock).run(next: { due }) { _ in
            var outcome = PollSchedule.Outcome.unchanged
            var label = "304"
            defer { metrics?.countPollRequest(endpoint: "boxscore", outcome: label) }
            switch await fetcher.get(boxscore, validators: &validators) {
            case .body(let data):
                do {
                    let received = clock.now
                    var box = try LiveBoxscore.decode(data, url: boxscore.absoluteString)
                    box.written = box.written.map { NewestCopy.moment(ofWall: $0, near: received) }
                    if news.read(box, bytes: data, received: received) {
                        outcome = .fresh
                        label = "200"
                    } else {
                        // An older copy than one read (a stale CDN edge's): it never turns a final
                        // back into live. An answer, but no news.
                        label = "stale"
                        validators = newestValidators
                        await service.ignoreStaleCopy(game: gameId)
                    }
                    if label == "200" { newestValidators = validators }
                } catch {
                    // Not kept: the next request fetches it whole again.
                    validators = LiveFetcher.Validators()
                    news.failed()
                    report(.problem(Self.named(error, gameId)))
                    outcome = .failed(retryAfter: nil)
                    label = Self.outcome(of: error)
                }
            case .notModified:
                news.unchanged()
            case .failed(let error, let retryAfter):
                label = MetricsRecorder.pollOutcome(of: error)
                news.failed()
                outcome = await failure(error, retryAfter: retryAfter, service: service, news: news, report: report)
            }
            news.answered()
            due = schedule.next(after: outcome, now: clock.now, random: random())
        }
    }
}

import Foundation
import ScoreFeedModel

/// Follows one live game: polls its play-by-play (and boxscore) with conditional GETs, hands
/// each snapshot to the game's engine in a ``GameService``, and stops once the game's `end` is
/// out: with its final, or called off as the ``FeedWatch`` says (postponed, or suspended after
/// ``giveUpAfter`` without news). Keeps no state a restart needs: everything the game has
/// applied is in its engine's checkpoint, and a restarted poller's first full snapshot is mostly
/// repeats, which the engine ignores.
public struct LivePoller: Sendable {
    public var gameId: String
    public var playByPlay: URL
    /// Nil: the play-by-play alone says when the game is over (its end action).
    public var boxscore: URL?
    public var schedule: PollSchedule
    /// The earliest moment to poll (a game followed from the scoreboard starts near tip-off).
    public var notBefore: Date?
    /// The scheduled tip-off (today's scoreboard): a play-by-play that has not appeared
    /// ``giveUpAfter`` after it calls the game off as postponed.
    public var tipOff: Date?
    /// Seconds without news after which the game is given up (``FeedWatch``).
    public var giveUpAfter: TimeInterval = FeedWatch.defaultGiveUpAfter
    /// What the poller reads the time from and sleeps on between requests.
    public var clock: any EngineClock = SystemClock()
    /// 0..<1 for the jitter of the waits between requests (a simulation seeds it).
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Who plays, from today's scoreboard: in broadcast mode the game's channel is made when the
    /// poller starts (ten minutes before tip-off), before the play-by-play exists.
    public var announced: GameAttributes?

    public init(
        gameId: String, playByPlay: URL, boxscore: URL?, interval: TimeInterval, notBefore: Date? = nil,
        announced: GameAttributes? = nil, tipOff: Date? = nil, giveUpAfter: TimeInterval = FeedWatch.defaultGiveUpAfter
    ) {
        self.announced = announced
        self.tipOff = tipOff
        self.giveUpAfter = giveUpAfter
        self.gameId = gameId
        self.playByPlay = playByPlay
        self.boxscore = boxscore
        schedule = PollSchedule(interval: interval)
        self.notBefore = notBefore
    }

    /// What the poller tells people: an error line (game, URL, what was wrong), or news.
    public enum Report: Sendable {
        case problem(ScoreFeedError)
        case started(GameAttributes)
        case ended(String)
        /// The game reached an end that is not a final: (game, phase, why, whether an `end` was
        /// sent: false for a game never started here, which nothing was shown of).
        case calledOff(String, GamePhase, String, ended: Bool)
        /// A game called off earlier (given up, or postponed) brought new actions: followed again.
        case back(String, GamePhase)
        /// A game called off earlier brought nothing new again (game, phase, why): not followed
        /// further, and not ended twice.
        case stillCalledOff(String, GamePhase, String)
    }

    /// Consecutive boxscore failures after which the play-by-play's own end action says the game
    /// is over (a boxscore that went away must not keep a game from ending).
    static let boxscoreGiveUp = 3

    /// A play-by-play copy as it came, and when (its `meta.time` is read beside that moment).
    struct Copy {
        var data: Data
        var received: Date
    }

    /// Polls until the game has ended (or the task is cancelled). The play-by-play and the
    /// boxscore each keep their own schedule, so one failing does not slow the other. `metrics`
    /// is told each request's outcome and when the play-by-play last answered.
    public func run(
        service: GameService, fetcher: some LiveSource, metrics: MetricsRecorder? = nil, report: @Sendable (Report) -> Void
    ) async {
        // A game that ended with its final is done; one called off is followed again, in case
        // its feed comes back (a suspended game completed another day).
        if await service.ending(of: gameId) == .final {
            report(.ended(gameId))
            return
        }
        if let notBefore { try? await clock.sleep(until: notBefore) }
        metrics?.pollAnswered(game: gameId, at: clock.now)
        defer { metrics?.pollStopped(game: gameId) }
        let news = BoxscoreNews()
        // Started from the scoreboard, before its play-by-play exists (broadcast: its channel).
        if let announced, await service.announce(announced) {
            report(.started(announced))
            news.isAnnouncedOnly = true
        } else if announced != nil, case let standing = await service.standing(of: gameId), standing.known, standing.progress == 0,
                  standing.ending == nil {
            // Announced by an instance before this one (restored from its checkpoint) and no
            // play-by-play since: still known only from the scoreboard, so its pregame 404s are
            // asked again at the interval, not backed off from (the tip-off waited up to a minute).
            news.isAnnouncedOnly = true
        }
        // The task group ends before this call returns: `report` does not outlive it.
        await withoutActuallyEscaping(report) { report in
            await withTaskGroup(of: Void.self) { group in
                if let boxscore {
                    group.addTask { await pollBoxscore(boxscore, news: news, service: service, fetcher: fetcher, metrics: metrics, report: report) }
                }
                await pollPlayByPlay(news: news, service: service, fetcher: fetcher, metrics: metrics, report: report)
                // The game is over (or this poller is stopping): the boxscore is not asked again.
                group.cancelAll()
            }
        }
    }

    /// Polls the play-by-play until the game has ended (or the task is cancelled), reading it
    /// against what the boxscore's loop has told `news`.
    private func pollPlayByPlay(
        news: BoxscoreNews, service: GameService, fetcher: some LiveSource, metrics: MetricsRecorder?,
        report: @Sendable (Report) -> Void
    ) async {
        var schedule = self.schedule
        var validators = LiveFetcher.Validators()
        /// The newest copy of the play-by-play seen, and the validators it came with: an older
        /// copy (a stale CDN edge's) is ignored whole, and the next request asks for the newest
        /// again. Its floor is what the game applied in an earlier run.
        var newest = NewestCopy(floor: await service.newestCopy(of: gameId))
        var newestValidators = validators
        /// The newest good play-by-play: a boxscore that turns final while the play-by-play stands
        /// still (304), fails or answers with an older copy is read against it.
        var lastPlayByPlay: Copy?
        /// What the last snapshot handed over (seq → digest): only an optimisation, so repeats do
        /// not each make a trip to the engine; after a restart it is empty and the engine sorts it.
        var handed: [Int: UInt64] = [:]
        var due = Date.distantPast
        /// Play-by-play requests that failed since the boxscore said final.
        var staleAfterFinal = 0
        var ended = false
        var watch = FeedWatch(giveUpAfter: giveUpAfter, started: clock.now, tipOff: tipOff)
        // A game under way before this run (a restart, a game called off before): its silence
        // counts from now.
        let before = await service.standing(of: gameId)
        if before.progress > 0 { watch.news(at: clock.now) }
        /// Where the game stands: only this loop's own calls (start, receive, call-off) move it, so
        /// each hand-over's answer is the next one's start, without a trip to the engine to ask.
        var standing = before
        if boxscore != nil { await news.firstAnswer() }
        /// The last copy's actions: the next copy's repeats are not read again.
        var memo = LiveSnapshot.Memo()
        /// How many leading events of the last snapshot decoded are in `handed` as they are: the
        /// next snapshot's repeats of them are not looked at again.
        var handedPrefix = 0
        /// Old copies of a game new to this instance taken without a decision (``firstCopyWait``);
        /// a game restored while it waited for a fresh copy goes on waiting.
        var oldCopies = before.progress > 0 && before.waitsForParts ? 1 : 0
        /// Copies skipped because they lag a final boxscore (below): that boxscore then decides
        /// the game's end even once it fails.
        var behindFinal = false
        await DeadlineLoop(clock: clock).run(next: { ended ? nil : due }) { _ in
            let box = news.take()
            let deciding = boxscore == nil || (box.failures >= Self.boxscoreGiveUp && !behindFinal) ? nil : box.box
            func decode(_ copy: Copy) throws(ScoreFeedError) -> LiveSnapshot {
                momentOfWriting(
                    try LiveSnapshot.decode(
                        playByPlay: copy.data, url: playByPlay.absoluteString, boxscore: box.bytes, box: deciding, homeTeamId: nil, memo: &memo)
                        .trimming(&handedPrefix),
                    received: copy.received)
            }
            /// Nothing new: the newest copy is the whole game so far, so a boxscore that has just
            /// said final (or gone away) is read against it.
            func standingStill() -> Copy? {
                box.changed || deciding?.status == .final ? lastPlayByPlay : nil
            }
            var snapshot: LiveSnapshot?
            // An edge's copy older than one seen: no news, so no old copy of a wait spent on it.
            var refused = false
            var outcome = PollSchedule.Outcome.unchanged
            var label = "304"
            defer {
                metrics?.countPollRequest(endpoint: "playbyplay", outcome: label)
                if label == "200" || label == "304" || label == "stale" { metrics?.pollAnswered(game: gameId, at: clock.now) }
            }
            do throws(ScoreFeedError) {
                switch await fetcher.get(playByPlay, validators: &validators) {
                case .body(let data):
                    label = "200"
                    let answer = Copy(data: data, received: clock.now)
                    // An edge's older copy, told by its `meta.time` before its actions are read.
                    let older = newest.refuses(
                        written: LiveDataFormat.Root.written(data).map { NewestCopy.moment(ofWall: $0, near: answer.received) })
                    let copy = older ? nil : try decode(answer)
                    if let copy, newest.admit(copy.stamp, received: answer.received) {
                        snapshot = copy
                        lastPlayByPlay = answer
                        newestValidators = validators
                        outcome = .fresh
                        staleAfterFinal = 0
                    } else {
                        // An older copy than one seen: an answer (the game is not silent), but no
                        // news. Nothing of it is applied; the next request asks for the newest.
                        label = "stale"
                        refused = true
                        validators = newestValidators
                        await service.ignoreStaleCopy(game: gameId)
                        snapshot = try standingStill().map(decode)
                    }
                case .notModified:
                    snapshot = try standingStill().map(decode)
                case .failed(let error, let retryAfter):
                    label = MetricsRecorder.pollOutcome(of: error)
                    outcome = await failure(error, retryAfter: retryAfter, service: service, news: news, report: report)
                    // The boxscore says final but the play-by-play cannot be had: a few tries for
                    // the last actions, then the game ends on the boxscore's final anyway.
                    if let final = deciding, final.status == .final {
                        staleAfterFinal += 1
                        if staleAfterFinal >= Self.boxscoreGiveUp {
                            if let last = lastPlayByPlay {
                                snapshot = try decode(last)
                            } else if standing.progress > 0, let score = final.score, let end = await service.endAfterApplied(of: gameId) {
                                snapshot = Self.endOnFinal(score, end: end, game: gameId)
                            }
                        }
                    }
                }
            } catch {
                // Half a document is never folded: the validators are dropped so the next
                // request fetches the whole document again.
                validators = LiveFetcher.Validators()
                report(.problem(Self.named(error, gameId)))
                if label == "200" { label = Self.outcome(of: error) }
                outcome = .failed(retryAfter: nil)
            }
            // A game new to this instance waiting for a fresh copy (``firstCopyWait``): an answer
            // without one hands the last copy again, so the feed failing does not cut the wait
            // short. A 304 counts as one more old copy; a failure is no copy
            // at all and spends none, or an outage longer than the wait would show the old copy in
            // it. An edge's copy older than one already seen holds the wait too: it says nothing of
            // whether the copy waiting is the newest (seed 56, day 125: after three old copies, one
            // older than those ended the wait and 47-36 showed after the lost instance's 47-39).
            // (Not once the boxscore says final: its few tries for the last actions decide then.)
            var failed = false
            if case .failed = outcome { failed = true }
            let waitingForACopy = oldCopies > 0 && oldCopies < Self.oldCopiesWaited
            var spends = !refused
            if snapshot == nil, waitingForACopy, deciding?.status != .final {
                snapshot = try? lastPlayByPlay.map(decode)
                if failed { spends = false }
            }
            // How far off the next answer may be: a wait for a fresh copy outlasts it.
            let nextAnswer = schedule.longestWait(after: outcome) + fetcher.requestTimeout
            // A wait restored open (the instance before stopped in it) has no copy of this
            // instance's to hand again: its engine holds it as long (seed 2, day 367 of 500 on
            // Android: a lost instance's stale copy restored waiting, an edge's older copies
            // refused for a minute, and the wait ran out: 41-48 after 43-48). So does a failed
            // answer, whose copy handed again holds the wait only up to the engine's bound on a
            // catch-up in parts (seed 6, day 60 of 500 at --interval 60: a 12-minute outage after
            // three old copies, and 26-20 showed after the lost instance's 26-21). Once the
            // boxscore says final, through the few tries for the last actions too.
            if waitingForACopy, failed || (snapshot == nil && lastPlayByPlay == nil),
               deciding?.status != .final || staleAfterFinal < Self.boxscoreGiveUp {
                await service.holdCatchUp(of: gameId, for: nextAnswer + Self.freshCopyRoom)
            }
            // A game new to this instance whose play-by-play lags its final boxscore
            // (``LiveSnapshot/playsBehindFinal``): nothing of the copy is taken. Its end would name
            // an older last action than the one a lost instance may have ended the game on, and the
            // actions after it would come after that end. A copy that lists the end decides, or the
            // one after ``oldCopiesWaited`` skipped, so the end is never dropped (an older last
            // action then); meanwhile the final boxscore decides, even once it fails, or the stale
            // copy would be shown live.
            if let copy = snapshot, copy.playsBehindFinal, standing.progress == 0, oldCopies < Self.oldCopiesWaited {
                oldCopies += 1
                behindFinal = true
                snapshot = nil
            }
            if let snapshot {
                let before = standing
                // News counts from when it came, not from when its pushes were sent: the hand-over
                // waits for the sink, one platform's pushes after the other's (a sender that
                // answers in 26 s held it 46 s: seed 99, day 37), and a silent game's give-up
                // counts from its last news.
                let came = clock.now
                if let after = await hand(
                    snapshot, to: service, before: before, handed: &handed, handedPrefix: &handedPrefix, oldCopies: &oldCopies,
                    spends: spends, nextAnswer: nextAnswer, waitingForTeams: news.isAnnouncedOnly, report: report
                ) {
                    standing = after
                    // Only a final ends the poll of a game here; one called off ends when the watch says so.
                    if after.ending == .final {
                        ended = true
                        return
                    }
                    if after.progress != before.progress { watch.news(at: came) }
                }
                if !handed.isEmpty { news.isAnnouncedOnly = false }
            }
            if let tipOff = box.box?.tipOff { watch.heard(tipOff: tipOff) }
            // The boxscore as it stands now (the play-by-play's request may have taken a while).
            let verdict = watch.verdict(now: clock.now, boxscore: news.latest)
            if verdict.phase != nil, let last = lastPlayByPlay,
               let alone = try? momentOfWriting(
                   LiveSnapshot.decode(playByPlay: last.data, url: playByPlay.absoluteString, boxscore: nil, box: nil, homeTeamId: nil, memo: &memo)
                       .trimming(&handedPrefix),
                   received: last.received),
               alone.end != nil {
                // The play-by-play lists the game's end while the boxscore lags: the end decides,
                // with its final.
                if await hand(
                    alone, to: service, before: standing, handed: &handed, handedPrefix: &handedPrefix, oldCopies: &oldCopies,
                    nextAnswer: nextAnswer, waitingForTeams: false, report: report
                )?.ending == .final {
                    ended = true
                    return
                }
            }
            if await giveUp(verdict, service: service, report: report) {
                ended = true
                return
            }
            due = schedule.next(after: outcome, now: clock.now, random: random())
        }
    }

    /// Calls the game off as `verdict` says (nothing when it says follow): a game started here
    /// gets its `end` (postponed, or suspended with the score it had); one never started is only
    /// reported. Returns whether the game is done. A game called off before (a run ago) is not
    /// called off again; it is done too.
    private func giveUp(_ verdict: FeedWatch.Verdict, service: GameService, report: @Sendable (Report) -> Void) async -> Bool {
        guard verdict.phase != nil else { return false }
        let why = verdict.why
        let standing = await service.standing(of: gameId)
        if let earlier = standing.ending {
            if earlier != .final { report(.stillCalledOff(gameId, earlier, why)) }
            return true
        }
        let known = standing.known
        // A game that applied actions was under way: it stops suspended, whatever the verdict's
        // reason; one that never started is postponed.
        let called: GamePhase = standing.progress > 0 ? .suspended : .postponed
        if known, let problem = await service.callOff(called, why: why, game: gameId) { report(.problem(problem)) }
        report(.calledOff(gameId, called, why, ended: known))
        return true
    }

    /// Hands `snapshot` to the game's engine, which stood as `before`: the actions it has not
    /// handed in this form, then the feed's score, then the end. Returns where the game stands
    /// after, or nil when nothing could be handed (its teams not known yet).
    private func hand(
        _ snapshot: LiveSnapshot, to service: GameService, before: GameService.Standing, handed: inout [Int: UInt64],
        handedPrefix: inout Int, oldCopies: inout Int, spends: Bool = true, nextAnswer: TimeInterval, waitingForTeams: Bool,
        report: @Sendable (Report) -> Void
    ) async -> GameService.Standing? {
        let (known, earlier) = (before.known, before.ending)
        // Not before its teams are known (a game started from the scoreboard too); the next whole
        // snapshot brings everything.
        if (!known || waitingForTeams) && !snapshot.teamsKnown { return nil }
        if handed.isEmpty && snapshot.teamsKnown {
            // The game's id is the poller's; the teams are the feed's. A game resumed from its
            // checkpoint is started too (it keeps its state): in broadcast mode, one with no channel
            // yet gets it now.
            var attributes = snapshot.attributes
            attributes.gameId = gameId
            await service.start(attributes)
            if !known { report(.started(attributes)) }
        }
        for problem in snapshot.rejected { report(.problem(Self.named(problem, gameId))) }
        var fresh: [(event: GameEvent, line: Int)] = []
        // The events the last snapshot repeats and handed are not digested again.
        for index in snapshot.events.indices.dropFirst(handedPrefix) {
            let event = snapshot.events[index], digest = event.digest
            guard handed[event.seq] != digest else { continue }
            handed[event.seq] = digest
            fresh.append((event, index + 1))
        }
        handedPrefix = snapshot.events.count
        // The whole snapshot is one moment: its new actions, the feed's score, the end. An action
        // inserted into a period already over is refused (the scoreboard cannot go back); the
        // feed's score still counts its points. Not worth an error line.
        let (problems, after) = await service.receive(
            snapshot: fresh, score: snapshot.score.flatMap { score in snapshot.newest.map { (score, $0) } },
            end: snapshot.end.map { ($0, snapshot.events.count + 1) }, game: gameId, written: snapshot.stamp.written,
            source: playByPlay.absoluteString,
            ignoring: [.periodBackwards], waitingForNext: firstCopyWait(snapshot, after: before, waited: &oldCopies, spends: spends, nextAnswer: nextAnswer))
        for problem in problems { report(.problem(problem)) }
        if let earlier, earlier.isCalledOff, after.ending != earlier { report(.back(gameId, earlier)) }
        if after.ending == .final { report(.ended(gameId)) }
        return after
    }

    /// `snapshot`, its copy's time (`meta.time`, Eastern wall-clock time without a zone) read as
    /// the moment it stands for beside `received`, when the copy came
    /// (``NewestCopy/moment(ofWall:near:)``): a document's copies are compared, and aged, as
    /// moments, the night the clocks go back too. Read again later, one copy's bytes keep the
    /// moment they were first read as.
    func momentOfWriting(_ snapshot: LiveSnapshot, received: Date) -> LiveSnapshot {
        var snapshot = snapshot
        snapshot.stamp.written = snapshot.stamp.written.map { NewestCopy.moment(ofWall: $0, near: received) }
        return snapshot
    }

    /// The game's end on its final boxscore alone, with `score`, after what its engine applied
    /// (`end`: ``GameService/endAfterApplied(of:)``): the give-up after the final when this
    /// instance has no copy of the play-by-play to end it on. An instance restored while it waited
    /// for a fresh copy holds what the instance before it took; had the wait run out, that old
    /// copy's score went out (`simulate --days 250 --seed 19 --interval 60 --platform
    /// ios,android`, day 55: 107-106 after the lost instance's 120-110, the play-by-play down
    /// from before the final for 20 minutes). With nothing of the game's here, no copy is
    /// read: its events are the engine's, and its teams (none are said here: `teamsKnown` false).
    static func endOnFinal(_ score: FinalScore, end: GameEvent, game id: String) -> LiveSnapshot {
        let unsaid = Team(id: "", tricode: "", name: "", city: "", primaryColor: "")
        return LiveSnapshot(
            attributes: GameAttributes(gameId: id, home: unsaid, away: unsaid), events: [], score: score, newest: end.time, end: end,
            rejected: [], teamsKnown: false, stamp: NewestCopy.Stamp(written: nil, newestAction: 0))
    }

    /// How long a copy of a game new to this instance waits for the next one before it is shown.
    /// A copy written more than a poll's interval ago may be a stale edge's (with nothing known of
    /// the game, nothing tells it from a game at a break; `meta.time` is Eastern wall-clock time,
    /// read as a moment by ``momentOfWriting(_:received:)``: read as UTC, every copy was hours
    /// old and every game's first score waited for four answers), and an instance that took over from a
    /// lost one would show a score older than the lost one had shown. So the first copies of a
    /// game whose events the instance does not hold (`before`) wait for the next answer (at most
    /// `nextAnswer` away: ``PollSchedule/longestWait(after:)``, a poll's interval or longer as a
    /// failure backs off or a `Retry-After` asks, up to ten minutes, and the request's time-out,
    /// ``LiveSource/requestTimeout``) and 5 s of room, one catch-up in parts, while they are old,
    /// at most ``oldCopiesWaited`` of them (`waited` counts them, and each 304 meanwhile; a failed
    /// answer, `spends` false, holds the wait without counting: seed 1, day 2120, an outage over two
    /// answers ended the wait and showed 11-10 after the lost instance's 14-12); the first fresh
    /// copy, or the game's end, decides on all of them as one moment.
    /// While the feed fails there is nothing newer to show, and the old copy would take the screen
    /// back: waiting is right. A copy that lists the game's end while the boxscore does not say
    /// final waits so too, however new: the boxscore may be a stale edge's, and the lost instance
    /// may have ended the game on a newer one (the end of the last period shown after it). A
    /// copy behind a live boxscore read with it (``LiveSnapshot/behindBoxscore``) waits too, however
    /// recent its `meta.time`: the edge that served it lags (seen on a simulated day, seed 1, day
    /// 1285: a copy 25 s old showed 19-10 after the lost instance had shown the boxscore's 22-10).
    /// A final boxscore beside a play-by-play that has not reached it is not handed at all
    /// (``LiveSnapshot/playsBehindFinal``).
    /// A game the instance holds refuses older copies by its checkpoint (``GameSession/newestCopy``)
    /// and waits for nothing, but for a wait restored open.
    func firstCopyWait(
        _ snapshot: LiveSnapshot, after before: GameService.Standing, waited: inout Int, spends: Bool = true, nextAnswer: TimeInterval
    ) -> TimeInterval {
        guard waited < Self.oldCopiesWaited, before.progress == 0 || waited > 0, snapshot.end == nil,
              snapshot.endListed || snapshot.behindBoxscore || snapshot.stamp.written.map({ clock.now.timeIntervalSince($0) > schedule.interval }) == true
        else {
            waited = Self.oldCopiesWaited
            return 0
        }
        if spends { waited += 1 }
        return nextAnswer + Self.freshCopyRoom
    }

    /// Seconds a wait for a fresh copy allows past the next answer's latest (``firstCopyWait``).
    static let freshCopyRoom: TimeInterval = 5

    /// The most old copies a game new to the instance waits through (``firstCopyWait``): about two
    /// minutes at a poll every 30 s while the feed answers, a break's length (longer while it
    /// fails: each wait lasts until the next request); then the last of them is shown.
    static let oldCopiesWaited = 4

    /// A request's failure: said, and the next request backed off. A 403 or 404 while the game
    /// is not yet known (or known only from the scoreboard) is not said: before tip-off the NBA's
    /// endpoints do not have the game yet. A 404 without a `Retry-After` is not backed off from
    /// either, as the game may appear at any poll (backed off, its first actions waited up to a
    /// minute more); a 403 (a block) and a server's `Retry-After` still are.
    func failure(
        _ error: ScoreFeedError, retryAfter: TimeInterval?, service: GameService, news: BoxscoreNews, report: @Sendable (Report) -> Void
    ) async -> PollSchedule.Outcome {
        let known = await service.knows(gameId) && !news.isAnnouncedOnly
        let (outcome, said) = Self.failure(error, retryAfter: retryAfter, gameKnown: known)
        if said { report(.problem(Self.named(error, gameId))) }
        return outcome
    }

    /// What a failed request means for the next one, and whether it is said: see
    /// ``failure(_:retryAfter:service:news:report:)``.
    static func failure(_ error: ScoreFeedError, retryAfter: TimeInterval?, gameKnown: Bool) -> (PollSchedule.Outcome, said: Bool) {
        // A 403 or 404: before tip-off the NBA's endpoints do not have the game yet.
        let status = error.httpStatus
        guard gameKnown || (status != 403 && status != 404) else {
            return (retryAfter == nil && status == 404 ? .notYetPublished : .failed(retryAfter: retryAfter), false)
        }
        return (.failed(retryAfter: retryAfter), true)
    }

    /// The outcome label of a body that came (200) but could not be read.
    static func outcome(of error: any Error) -> String {
        (error as? ScoreFeedError).map(MetricsRecorder.pollOutcome) ?? "invalid"
    }

    static func named(_ error: any Error, _ game: String) -> ScoreFeedError {
        var failure = error as? ScoreFeedError ?? ScoreFeedError(.io, "\(error)")
        if !failure.message.hasPrefix("game ") { failure.message = "game \(game): " + failure.message }
        return failure
    }
}

private extension LiveSnapshot {
    /// The snapshot, with `handedPrefix` (the leading events handed as they are) cut to the events
    /// it repeats from the snapshot decoded before it.
    func trimming(_ handedPrefix: inout Int) -> LiveSnapshot {
        handedPrefix = min(handedPrefix, repeated)
        return self
    }
}

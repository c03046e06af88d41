import Foundation
import ScoreFeedModel

/// Follows one live game: polls its play-by-play (and boxscore) with conditional GETs, hands
/// each snapshot to the game's engine in a ``GameService``, and stops once the game's `end` is
/// out. Keeps no state a restart needs: everything the game has applied is in its engine's
/// checkpoint, and a restarted poller's first full snapshot is mostly repeats, which the engine
/// ignores.
public struct LivePoller: Sendable {
    public var gameId: String
    public var playByPlay: URL
    /// Nil: the play-by-play alone says when the game is over (its end action).
    public var boxscore: URL?
    public var schedule: PollSchedule
    /// The earliest moment to poll (a game followed from the scoreboard starts near tip-off).
    public var notBefore: Date?

    public init(gameId: String, playByPlay: URL, boxscore: URL?, interval: TimeInterval, notBefore: Date? = nil) {
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
    }

    /// Polls until the game has ended (or the task is cancelled).
    public func run(service: GameService, fetcher: LiveFetcher, report: @Sendable (Report) -> Void) async {
        var schedule = self.schedule
        var pbpValidators = LiveFetcher.Validators(), boxValidators = LiveFetcher.Validators()
        var boxBytes: Data?
        var box: LiveBoxscore?
        /// What the last snapshot handed over (seq → digest): only an optimisation, so repeats do
        /// not each make a trip to the engine; after a restart it is empty and the engine sorts it.
        var handed: [Int: UInt64] = [:]
        var polls = 0
        var generator = SystemRandomNumberGenerator()
        if let notBefore { await Self.sleep(until: notBefore) }
        while !Task.isCancelled {
            polls += 1
            var outcome = PollSchedule.Outcome.unchanged
            var boxChanged = false
            if let boxscore {
                switch await fetcher.get(boxscore, validators: &boxValidators) {
                case .body(let data):
                    do {
                        box = try LiveBoxscore.decode(data, url: boxscore.absoluteString)
                        boxBytes = data
                        boxChanged = true
                    } catch {
                        report(.problem(Self.named(error, gameId)))
                        outcome = .failed(retryAfter: nil)
                    }
                case .notModified: break
                case .failed(let error, let retryAfter):
                    report(.problem(Self.named(error, gameId)))
                    outcome = .failed(retryAfter: retryAfter)
                }
            }
            switch await fetcher.get(playByPlay, validators: &pbpValidators) {
            case .body(let data):
                do {
                    let snapshot = try LiveSnapshot.decode(
                        playByPlay: data, url: playByPlay.absoluteString, boxscore: boxBytes, box: box, homeTeamId: nil)
                    if await hand(snapshot, to: service, handed: &handed, polls: polls, report: report) { return }
                    if case .failed = outcome {} else { outcome = .fresh }
                } catch {
                    // Half a document is never folded: the validators are dropped so the next
                    // request fetches the whole document again.
                    pbpValidators = LiveFetcher.Validators()
                    report(.problem(Self.named(error, gameId)))
                    outcome = .failed(retryAfter: nil)
                }
            case .notModified:
                // The boxscore may say the game is over while the play-by-play stands still.
                if boxChanged, box?.status == .final {
                    pbpValidators = LiveFetcher.Validators()
                    continue
                }
            case .failed(let error, let retryAfter):
                report(.problem(Self.named(error, gameId)))
                outcome = .failed(retryAfter: max(retryAfter ?? 0, outcome.retryAfter ?? 0))
            }
            let next = schedule.next(after: outcome, now: Date(), random: Double.random(in: 0..<1, using: &generator))
            await Self.sleep(until: next)
        }
    }

    /// Hands `snapshot` to the game's engine: the actions it has not handed in this form, then
    /// the feed's score, then the end. Returns whether the game has ended.
    private func hand(
        _ snapshot: LiveSnapshot, to service: GameService, handed: inout [Int: UInt64], polls: Int,
        report: @Sendable (Report) -> Void
    ) async -> Bool {
        if await !service.knows(gameId) {
            // Not before its teams are known; the next whole snapshot brings everything.
            guard snapshot.teamsKnown else { return false }
            // The game's id is the poller's; the teams are the feed's.
            var attributes = snapshot.attributes
            attributes.gameId = gameId
            await service.start(attributes)
            report(.started(attributes))
        }
        for problem in snapshot.rejected { report(.problem(Self.named(problem, gameId))) }
        for (index, event) in snapshot.events.enumerated() {
            let digest = event.digest
            guard handed[event.seq] != digest else { continue }
            handed[event.seq] = digest
            if let problem = await service.receive(event, game: gameId, line: index + 1, source: playByPlay.absoluteString) {
                report(.problem(problem))
            }
        }
        if let score = snapshot.score, let newest = snapshot.newest {
            if let problem = await service.follow(score, game: gameId, at: newest) { report(.problem(problem)) }
        }
        if let end = snapshot.end {
            if let problem = await service.receive(end, game: gameId, line: snapshot.events.count + 1, source: playByPlay.absoluteString) {
                report(.problem(problem))
            }
        }
        if await service.hasEnded(gameId) || snapshot.end != nil {
            report(.ended(gameId))
            return true
        }
        return false
    }

    private static func named(_ error: any Error, _ game: String) -> ScoreFeedError {
        var failure = error as? ScoreFeedError ?? ScoreFeedError(.io, "\(error)")
        if !failure.message.hasPrefix("game ") { failure.message = "game \(game): " + failure.message }
        return failure
    }

    private static func sleep(until date: Date) async {
        let wait = date.timeIntervalSinceNow
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
    }
}

extension PollSchedule.Outcome {
    var retryAfter: TimeInterval? {
        if case .failed(let after) = self { after } else { nil }
    }
}

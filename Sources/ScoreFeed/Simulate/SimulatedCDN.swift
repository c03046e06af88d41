import Foundation

/// The NBA's CDN for a simulated day: each game's play-by-play and boxscore as they stand on the
/// simulated clock, with the day's faults (outages, timeouts, garbage, a stale edge's older
/// copies, postponed and silent games). Conditional GETs: an unchanged document is a 304.
/// Deterministic: its randomness is seeded and the simulation runs one job at a time.
public final class SimulatedCDN: LiveSource, @unchecked Sendable {
    private let lock = NSLock()
    /// Each game's plan by its two addresses, and whether the address is the boxscore's (found
    /// by the whole address: no URL parsing per request).
    private let games: [String: (plan: SimulatedDay.Game, isBox: Bool)]
    private var random: SeededRandom
    private var clock: SimulatedClock
    /// Answers given, by kind (`200`, `304`, `stale`, `503`, `timeout`, `garbage`, `404`).
    public private(set) var answers: [String: Int] = [:]
    /// How long a request that times out takes (``SimulatedDay/requestTimeout``).
    public let requestTimeout: TimeInterval
    /// By address, until when the instance running now was asked to wait (a 503's
    /// `Retry-After`, up to ``PollSchedule/longestRetryAfter``): its poller asks no sooner.
    private var asked: [String: Date] = [:]
    /// Requests that came sooner than a `Retry-After` asked, said as the checker says a
    /// violation; and how many requests were held to one (each a check).
    public private(set) var tooSoon: [String] = []
    public private(set) var retryAftersChecked = 0
    /// By address, the newest copy the instance running now was given fresh (its `ETag`'s
    /// ``order(ofTag:)``): a request that carries an older copy's validators kept a copy it
    /// should have refused, and asks the edges for the wrong document.
    private var newestGiven: [String: [Int]] = [:]
    /// Requests that carried the validators of a copy older than one their poller was given,
    /// said as the checker says a violation; and how many requests carried validators (each a
    /// check).
    public private(set) var olderValidators: [String] = []
    public private(set) var validatorsChecked = 0
    /// By game, when a fresh play-by-play brought its poller a copy that differs from the last it
    /// was given in its instance (the first of each instance's too), or a stale edge's one that
    /// lists more (`staleGiven`): the latest news a poller can have
    /// seen by a moment.
    public private(set) var playByPlayNews: [String: [Date]] = [:]
    /// By address, the last fresh copy's tag given in the instance running now, or a stale
    /// edge's that listed more.
    private var lastGiven: [String: String] = [:]
    /// By game, when the instance running now was given a play-by-play that lists the game's
    /// last action after a boxscore that says final (a body or a 304 of each), once an instance:
    /// the poll that decides the end (the play-by-play's, after the boxscore's final) has all it
    /// needs.
    public private(set) var finalsKnown: [String: [Date]] = [:]
    /// The games whose final the instance running now was given, and those ``finalsKnown`` noted.
    private var finalsSaid: Set<String> = []
    private var finalsNoted: Set<String> = []
    /// Whether requests' validators are held to the newest copy given: not the night the clocks
    /// go back, when a poller rightly takes a copy of the repeated hour's first pass for a newer
    /// one, or refuses a fresh copy with fewer actions or points (``NewestCopy/admit(_:received:)``).
    private let holdsValidators: Bool
    /// For each game whose play-by-play fails alone across its end
    /// (``SimulatedDay/Game/playByPlayOutages``), the boxscore's final answers and the
    /// play-by-play's failures, in order: what tells how many times the play-by-play had failed
    /// since the boxscore said final.
    public private(set) var endRequests: [String: [EndRequest]] = [:]
    /// Requests of a flaky boxscore (``SimulatedDay/Game/flakyBoxscore``) in its window, by
    /// address: the even ones fail.
    private var flakyRequests: [String: Int] = [:]

    /// A request of a game whose play-by-play fails alone across its end.
    public struct EndRequest: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            /// The boxscore answered, final (a body or a 304 of the final's).
            case boxscoreFinal
            /// The play-by-play failed in its outage.
            case playByPlayFailed
        }

        public var at: Date
        public var kind: Kind
    }

    public init(day: SimulatedDay, clock: SimulatedClock) {
        requestTimeout = day.requestTimeout
        games = Dictionary(
            day.games.flatMap { plan in
                [(Self.playByPlay(plan.game.id).absoluteString, (plan, false)), (Self.boxscore(plan.game.id).absoluteString, (plan, true))]
            }, uniquingKeysWith: { a, _ in a })
        random = SeededRandom(seed: day.seed ^ UInt64(day.index) &* 31 ^ 0xC0FFEE)
        holdsValidators = !day.fallsBack
        self.clock = clock
    }

    /// The clock of the instance running now (each instance has its own after a crash): a new
    /// instance knows nothing of what the last one was asked.
    public func use(_ clock: SimulatedClock) {
        lock.withLock {
            self.clock = clock
            asked = [:]
            newestGiven = [:]
            lastGiven = [:]
            finalsSaid = []
            finalsNoted = []
        }
    }

    /// The `Retry-After`s a drawn day's games ask for in half their 503s
    /// (``SimulatedDay/Game/drawnRetryAfter``), in whole seconds: shorter than the poll's interval
    /// (it changes nothing) up to four intervals.
    public static let drawnRetryAfters: ClosedRange<Int> = 10...120

    public static func playByPlay(_ game: String) -> URL { URL(string: "http://cdn.simulated/playbyplay_\(game).json")! }
    public static func boxscore(_ game: String) -> URL { URL(string: "http://cdn.simulated/boxscore_\(game).json")! }

    public func get(_ url: URL, validators: inout LiveFetcher.Validators) async -> LiveFetcher.Answer {
        let address = url.absoluteString
        let place = ScoreFeedError.Location(file: address)
        let clock = lock.withLock { self.clock }
        let now = clock.now
        guard let (plan, isBox) = games[address] else {
            return count("404", .failed(ScoreFeedError(.io, "HTTP 404", at: place), retryAfter: nil))
        }
        lock.withLock {
            if holdsValidators, let tag = validators.etag, let order = Self.order(ofTag: tag) {
                validatorsChecked += 1
                if let newest = newestGiven[address], order.lexicographicallyPrecedes(newest) {
                    let since = Int(now.timeIntervalSince(plan.tipOff))
                    olderValidators.append(
                        "game \(plan.game.id) (poll): \(isBox ? "the boxscore" : "the play-by-play") asked \(since) s from tip-off with the ETag of a copy (\(tag)) "
                            + "older than one it was given (\(newest.map(String.init).joined(separator: "-"))): a refused copy's validators kept")
                }
            }
            guard let until = asked.removeValue(forKey: address) else { return }
            retryAftersChecked += 1
            // A millisecond's leeway: the poller's wait and the clock's sum of seconds.
            if now.addingTimeInterval(0.001) < until {
                tooSoon.append("game \(plan.game.id) (poll): \(isBox ? "the boxscore" : "the play-by-play") asked again \(JSONText.number(until.timeIntervalSince(now))) s before its 503's Retry-After was over")
            }
        }
        if plan.outages.contains(where: { $0.contains(now) }) || (isBox && plan.boxscoreOutages.contains(where: { $0.contains(now) })) {
            let retry: TimeInterval? = plan.outageRetryAfter ?? (draw { $0.chance(0.5) } ? plan.drawnRetryAfter : nil)
            return unavailable(address, retryAfter: retry, now: now, at: place)
        }
        if !isBox, plan.playByPlayOutages.contains(where: { $0.contains(now) }) {
            note(plan, .playByPlayFailed, at: now)
            return unavailable(address, retryAfter: plan.playByPlayRetryAfter, now: now, at: place)
        }
        // A flaky edge: every other request of the boxscore fails (counted per address, across
        // instances: one request at a time).
        if isBox, let flaky = plan.flakyBoxscore, flaky.contains(now), lock.withLock({ () -> Bool in
            flakyRequests[address, default: 0] += 1
            return flakyRequests[address, default: 0] % 2 == 0
        }) {
            return unavailable(address, retryAfter: nil, now: now, at: place)
        }
        if plan.timeouts.contains(where: { $0.contains(now) }) {
            try? await clock.sleep(until: now.addingTimeInterval(requestTimeout))
            return count("timeout", .failed(ScoreFeedError(.io, "no answer: timed out after \(JSONText.number(requestTimeout)) s", at: place), retryAfter: nil))
        }
        if plan.hostile.contains(where: { $0.contains(now) }) {
            return count("garbage", .body(garbage(plan, now: now, isBox: isBox, validators: &validators)))
        }
        var elapsed = plan.elapsed(at: now)
        // When the copy was made: now, or when the stale edge cached it.
        var made = now
        var label = "200"
        if let window = plan.staleWindows.first(where: { $0.during.contains(now) })
            ?? (isBox ? plan.staleBoxscoreWindows : plan.stalePlayByPlayWindows).first(where: { $0.during.contains(now) }) {
            elapsed = plan.elapsed(at: now.addingTimeInterval(-window.lag))
            made = now.addingTimeInterval(-window.lag)
            label = "stale"
        } else if plan.staleShare > 0, draw({ $0.chance(plan.staleShare) }) {
            // A stale edge: the copy it cached some seconds to minutes ago.
            let lag = draw { $0.double(in: 5...300) }
            elapsed = plan.elapsed(at: now.addingTimeInterval(-lag))
            made = now.addingTimeInterval(-lag)
            label = "stale"
        }
        // A postponed game lists nothing, ever.
        let visible = elapsed < 0 || plan.fate == .postponed ? 0 : plan.game.visible(at: elapsed)
        // A basket listed, then deleted: both documents state its points while it is listed.
        let lists = plan.game.listsDeletedBasket(at: elapsed, visible: visible)
        if isBox {
            let final = plan.finalAt.map { made >= $0 } ?? false
            let (status, text): (Int, String) =
                plan.fate == .postponed ? (1, plan.postponedUnsaid ? "7:00 pm ET" : "PPD") : final ? (3, "Final") : visible == 0 ? (1, "7:00 pm ET") : (2, "Q\(plan.game.period(after: visible))")
            let tag = "\(status)-\(visible)\(lists ? "+" : "")"
            if final {
                note(plan, .boxscoreFinal, at: now)
                _ = lock.withLock { finalsSaid.insert(plan.game.id) }
            }
            if validators.etag == tag { return count("304", .notModified) }
            validators.etag = tag
            if label == "200" { given(tag, order: [status, visible], at: address, newsOf: nil, now: now) }
            let score = final ? plan.game.final : plan.game.score(after: visible, listing: lists)
            let stamp = plan.fate == .postponed
                ? plan.written(at: made, elapsed: elapsed, visible: 0) : plan.written(at: made, elapsed: elapsed, visible: visible, final: final)
            return count(label, .body(plan.game.boxscore(status: status, text: text, score: score, tipOff: plan.tipOff, written: stamp)))
        }
        if plan.fate == .postponed || visible == 0 {
            return count("404", .failed(ScoreFeedError(.io, "HTTP 404 Not Found", at: place), retryAfter: nil))
        }
        let tag = "\(visible)\(lists ? "+" : "")"
        if plan.fate == .plays, visible == plan.game.actions.count { lastActionListed(plan.game.id, at: now) }
        if validators.etag == tag { return count("304", .notModified) }
        validators.etag = tag
        if label == "200" {
            given(tag, order: [visible], at: address, newsOf: plan.game.id, now: now)
        } else {
            staleGiven(tag, order: [visible], at: address, newsOf: plan.game.id, now: now)
        }
        return count(label, .body(plan.game.playByPlay(actions: visible, written: plan.written(at: made, elapsed: elapsed, visible: visible), listing: lists)))
    }

    /// A hostile answer: a document cut short, an error page, random bytes, or the other
    /// endpoint's document. A play-by-play cut short on its way carries the whole document's
    /// `ETag` (the edge's headers were right), which a poller must not keep.
    private func garbage(_ plan: SimulatedDay.Game, now: Date, isBox: Bool, validators: inout LiveFetcher.Validators) -> Data {
        let visible = max(1, plan.game.visible(at: max(0, plan.elapsed(at: now))))
        let whole = plan.game.playByPlay(actions: visible, written: now)
        switch draw({ $0.below(4) }) {
        case 0:
            if !isBox { validators.etag = "\(visible)" }
            return whole.prefix(draw { $0.below(max(1, whole.count - 1)) })
        case 1: return Data("<html><body>502 Bad Gateway</body></html>".utf8)
        case 2: return Data((0..<draw({ $0.int(in: 1...2000) })).map { _ in UInt8(truncatingIfNeeded: draw { $0.next() }) })
        default:
            return isBox ? whole : plan.game.boxscore(status: 2, text: "Q2", score: plan.game.final, tipOff: plan.tipOff, written: now)
        }
    }

    /// A 503, with the `Retry-After` it says (if any), which the instance running now is held to
    /// (``asked``, up to ``PollSchedule/longestRetryAfter``).
    private func unavailable(_ address: String, retryAfter: TimeInterval?, now: Date, at place: ScoreFeedError.Location) -> LiveFetcher.Answer {
        if let retryAfter { lock.withLock { asked[address] = now.addingTimeInterval(min(retryAfter, PollSchedule.longestRetryAfter)) } }
        return count("503", .failed(ScoreFeedError(.io, "HTTP 503 Service Unavailable", at: place), retryAfter: retryAfter))
    }

    /// A tag's place among its document's copies: the boxscore's status and the actions listed
    /// (`2-140`), or the play-by-play's actions listed (`140`); a listed, later deleted basket's
    /// `+` does not order it.
    static func order(ofTag tag: String) -> [Int]? {
        let parts = tag.split(separator: "-").map { Int($0.hasSuffix("+") ? $0.dropLast() : $0) }
        return parts.contains(nil) ? nil : parts.compactMap { $0 }
    }

    /// Notes a fresh copy given at an address (its `tag`, and the `order` of its place): the
    /// newest its poller has, and for a play-by-play (`game`: its game), news at `now` where it
    /// differs from the last one given.
    private func given(_ tag: String, order: [Int], at address: String, newsOf game: String?, now: Date) {
        lock.withLock {
            if newestGiven[address].map({ $0.lexicographicallyPrecedes(order) }) ?? true { newestGiven[address] = order }
            if let game, lastGiven.updateValue(tag, forKey: address) != tag { playByPlayNews[game, default: []].append(now) }
        }
    }

    /// Notes a stale edge's copy of a play-by-play given at an address: news at `now` where it
    /// lists more than the last copy noted in the instance (or is its first), as its poller takes
    /// it (the newest it has). Not the newest fresh copy (``newestGiven``: an older one was).
    /// Unnoted, the last change a stale edge gave late was not news, and a silent game's
    /// give-up was held to a bound counted from the feed's silence (seed 99, day 49 of
    /// `--mode token --platform ios,android`: a stale copy 82 s after the silence listed the
    /// last action, and the end came 3 s past the bound).
    private func staleGiven(_ tag: String, order: [Int], at address: String, newsOf game: String, now: Date) {
        lock.withLock {
            guard lastGiven[address].flatMap(Self.order(ofTag:)).map({ $0.lexicographicallyPrecedes(order) }) ?? true else { return }
            lastGiven[address] = tag
            playByPlayNews[game, default: []].append(now)
        }
    }

    /// Notes that the instance running now was given a play-by-play listing `game`'s last
    /// action: the first after its boxscore's final is when it knows the final (``finalsKnown``).
    private func lastActionListed(_ game: String, at now: Date) {
        lock.withLock {
            guard finalsSaid.contains(game), finalsNoted.insert(game).inserted else { return }
            finalsKnown[game, default: []].append(now)
        }
    }

    /// Notes a request of a game whose play-by-play fails alone across its end (``endRequests``).
    private func note(_ plan: SimulatedDay.Game, _ kind: EndRequest.Kind, at now: Date) {
        guard !plan.playByPlayOutages.isEmpty else { return }
        lock.withLock { endRequests[plan.game.id, default: []].append(EndRequest(at: now, kind: kind)) }
    }

    private func draw<T>(_ body: (inout SeededRandom) -> T) -> T {
        lock.withLock { body(&random) }
    }

    private func count(_ label: String, _ answer: LiveFetcher.Answer) -> LiveFetcher.Answer {
        lock.withLock { answers[label, default: 0] += 1 }
        return answer
    }
}

import Foundation
import ScoreFeedModel

/// One poll of a live game turned into what its engine takes: every action of the snapshot as
/// an event, in the feed's order (the engine's identity rules ignore what it has applied and
/// apply what is new or edited, so no state is kept here), the feed's score now, and the
/// game's end once the feed says the game is over.
///
/// Events go without the feed's score: an action inserted late states the score of its own
/// moment, not of now. The snapshot's current score goes separately (``score``), after the
/// events; deleted actions are corrected by it too. Pure value, built from the bytes of a poll.
public struct LiveSnapshot: Sendable {
    public var attributes: GameAttributes
    /// The snapshot's actions in feed order, without the game's end.
    public var events: [GameEvent]
    /// The feed's running score now: the boxscore's final once the game is over, else the score
    /// the newest action states.
    public var score: FinalScore?
    /// Feed time of the newest action.
    public var newest: Date?
    /// The game's end, once the feed says the game is over (the play-by-play's own end action,
    /// or one made after the last action).
    public var end: GameEvent?
    /// Whether the play-by-play lists the game's own end (its `game end` action), said final by
    /// the boxscore or not yet: a boxscore that still says live may be a stale edge's.
    public var endListed = false
    /// Whether the boxscore says final while the play-by-play does not list the game's end (the
    /// NBA's does, once over): its copy lags the boxscore's (a stale edge's, or written before
    /// the last actions), and its last action may not be the game's. (Without a boxscore only
    /// the listed end makes ``end``.)
    public var playsBehindFinal: Bool { end != nil && !endListed }
    /// Whether a boxscore that says live states more points for a team than the copy's newest
    /// action: the copy lags the feed (a stale edge's), however recent its `meta.time`.
    public var behindBoxscore = false
    /// Actions that could not be read.
    public var rejected: [ScoreFeedError]
    /// Whether home and away are known (from the boxscore, or from baskets already scored): a
    /// game is not started on guessed teams, since its activity would show them all game.
    public var teamsKnown: Bool
    /// How new this copy of the play-by-play is: when the feed wrote it and its highest action
    /// number (``NewestCopy``): a stale CDN edge's older copy is told from a correction by it.
    /// As decoded, its time is `meta.time`'s Eastern wall-clock time read as if it were UTC; a
    /// poller reads it as a moment (``NewestCopy/moment(ofWall:near:)``) before comparing.
    public var stamp: NewestCopy.Stamp

    /// How many leading ``events`` have the digests of the snapshot decoded before this one
    /// with the same ``Memo``: a poller need not look at them again.
    var repeated = 0

    /// Synthetic `seq` of an end the play-by-play does not list.
    public static let endSeq = NBAFeed.syntheticSeqBase - 1

    /// Reads one poll: the play-by-play's bytes and, when fetched, the boxscore's. A body that is
    /// empty, cut or not liveData play-by-play is an error naming `url`, never half a game.
    public static func decode(
        playByPlay data: Data, url: String, boxscore: Data?, box: LiveBoxscore?, homeTeamId: Int?
    ) throws(ScoreFeedError) -> LiveSnapshot {
        var memo = Memo()
        return try decode(playByPlay: data, url: url, boxscore: boxscore, box: box, homeTeamId: homeTeamId, memo: &memo)
    }

    /// ``decode(playByPlay:url:boxscore:box:homeTeamId:)`` of the next copy of a play-by-play
    /// read before with `memo` (a poller's): the actions it repeats byte for byte are not read
    /// again, and when it only adds actions after the last, only those are mapped and folded in.
    /// The snapshot is the same either way.
    static func decode(
        playByPlay data: Data, url: String, boxscore: Data?, box: LiveBoxscore?, homeTeamId: Int?,
        memo: inout Memo
    ) throws(ScoreFeedError) -> LiveSnapshot {
        guard !data.isEmpty else { throw ScoreFeedError(.malformedJSON, "the answer is empty", at: .init(file: url)) }
        // The byte reader first: a document it reads whole, with actions whose first has an
        // `orderNumber` or a `timeActual` or no v3 `actionId` (or with none yet), is taken as
        // liveData play-by-play (``FeedShape`` would also refuse a null `actionId` or a fixture's,
        // stats' or v3's top-level key beside `game.actions`; such a document gives what a plain
        // liveData one with those actions gives). Only another is told by its shape, one more pass
        // over its bytes (a fifth of a poll's time).
        let scanned = LiveDataFormat.Root.scanning(data, memo: &memo.actions)
        let read = scanned?.game?.actions.map { slots in
            slots.first.map { $0.action.map { $0.orderNumber != nil || $0.timeActual != nil || $0.actionId == nil } ?? false } ?? true
        } ?? false
        guard read || FeedShape.of(data) == .liveData else {
            throw ScoreFeedError(
                .unknownFormat, "the answer (\(data.count) bytes) is not liveData play-by-play (cut, garbled or an error page)",
                at: .init(file: url))
        }
        // A document the byte reader declined is read by `JSONDecoder`, not scanned again.
        let root: LiveDataFormat.Root
        if let scanned { root = scanned } else { root = try DecodingErrorText.decode(LiveDataFormat.Root.self, from: data, file: url) }
        let previous = memo.folded.take()
        let feed = try LiveDataFormat.feed(root: root, file: url, boxscore: boxscore, homeTeamId: homeTeamId, memo: &memo.actions)
        // The actions the feed kept from the copy before are folded already, unless their times moved.
        let kept = memo.actions?.lastFeed.map { (count: $0.kept, moved: $0.moved) } ?? (count: 0, moved: false)
        var folded = Folded()
        var repeated = 0
        if kept.count > 0, let previous, previous.actions == kept.count {
            repeated = previous.events.count
            if !kept.moved { folded = previous }
        }
        folded.fold(feed.actions[folded.actions...])
        if memo.actions?.lastFeed != nil { memo.folded = folded }

        var snapshot = LiveSnapshot(
            attributes: feed.attributes, events: folded.events, score: folded.stated, newest: folded.newest, end: nil,
            rejected: feed.rejected,
            teamsKnown: !feed.attributes.home.id.isEmpty && !feed.attributes.away.id.isEmpty
                && feed.attributes.home.id != feed.attributes.away.id,
            stamp: NewestCopy.Stamp(written: feed.written, newestAction: folded.newestAction ?? 0), repeated: repeated)
        snapshot.endListed = folded.ownEnd != nil
        if let box, box.status == .live, let stated = box.score {
            let copy = folded.stated ?? FinalScore(home: 0, away: 0)
            snapshot.behindBoxscore = stated.home > copy.home || stated.away > copy.away
        }
        let over = box.map { $0.status == .final } ?? (folded.ownEnd != nil)
        if over {
            if let final = box?.score { snapshot.score = final }
            let newest = folded.newest
            var end = folded.ownEnd ?? GameEvent(
                seq: endSeq, time: newest ?? Date(timeIntervalSince1970: 0), period: 4, clock: 0, kind: .gameEnd,
                description: "the feed says the game is over")
            end.period = max(end.period, folded.lastPeriod ?? 1)
            end.clock = 0
            if let newest, end.time < newest { end.time = newest }
            snapshot.end = end
        }
        return snapshot
    }

    /// What a poller keeps between the copies of a game's play-by-play it reads.
    struct Memo: Sendable {
        var actions: LiveDataFormat.ActionsMemo?
        /// The last snapshot's actions folded, when the next copy may only add to them.
        fileprivate var folded: Folded?
    }

    /// A feed's actions folded into a snapshot's parts, one after the other in feed order.
    fileprivate struct Folded: Sendable {
        /// How many of the feed's actions are folded in.
        var actions = 0
        var events: [GameEvent] = []
        var ownEnd: GameEvent?
        var stated: FinalScore?
        var newest: Date?
        var newestAction: Int?
        /// The highest period of an event.
        var lastPeriod: Int?

        mutating func fold(_ added: ArraySlice<FeedAction>) {
            if events.isEmpty { events.reserveCapacity(added.count) }
            for action in added {
                var event = action.event
                if event.seq < endSeq { newestAction = max(newestAction ?? event.seq, event.seq) }
                event.feedScore = nil
                if let score = action.feedScore { stated = score }
                if newest.map({ event.time > $0 }) ?? true { newest = event.time }
                if case .gameEnd = event.kind {
                    ownEnd = ownEnd ?? event
                } else {
                    lastPeriod = max(lastPeriod ?? event.period, event.period)
                    events.append(event)
                }
            }
            actions += added.count
        }
    }
}

import Foundation
import ScoreFeedModel

/// Turns successive snapshots of one live game into only what changed.
///
/// The NBA's live endpoint returns the whole game so far on every poll, and between polls it
/// edits actions (a 2 becomes a 3, a make becomes a miss after review, a team is fixed) and
/// deletes some (gaps in `actionNumber`). The differ remembers each action by its sequence
/// number and, for each new snapshot, yields:
///
/// - **added**: actions it has not seen, in feed order; they go to the engine;
/// - **changed**: actions whose content (not just their time) changed; a change that moves the
///   score is sent as a correction of its own (the engine would also take the edited event under
///   its old number, but the differ keeps the points it has sent in step with the feed's score);
/// - **deleted**: actions gone from the feed; a deleted scoring action is a score correction.
///
/// The feed's own score stays authoritative: if, after all that, the points given to the engine
/// differ from the snapshot's running score, one more correction closes the gap. Added actions
/// the engine would refuse (an earlier period than one already sent) are not sent; their points arrive as a correction instead. After the game's end the
/// engine accepts nothing more, so later edits are listed but not sent.
///
/// Pure value type: hand it each poll's body (``next(_:file:)``) or mapped actions
/// (``next(actions:)``), feed ``SnapshotDiff/events`` to the game's ``MatchEngine``.
public struct SnapshotDiffer: Sendable {
    /// The game, from the first snapshot (or the one given).
    public private(set) var attributes: GameAttributes?
    /// The latest version of every action seen and not deleted, by sequence number.
    public private(set) var known: [Int: GameEvent] = [:]
    /// Points sent to the engine so far (events and corrections): what its fold shows.
    public private(set) var score = FinalScore(home: 0, away: 0)
    private var homeTeamId: Int?
    /// Mirrors the engine's validator, so nothing is counted that the engine would refuse.
    private var validator = EventValidator()
    private var period = 0
    private var clock: Double = 720
    private var newest: Date?
    private var nextCorrection = NBAFeed.syntheticSeqBase

    /// A differ for one game; `homeTeamId` (the NBA team id of the home team), when known from
    /// the schedule, fixes home and away before the first basket.
    public init(homeTeamId: Int? = nil) {
        self.homeTeamId = homeTeamId
    }

    /// Decodes one poll's body (NBA liveData, or any NBA format ``FeedReader`` reads) and
    /// returns what changed since the previous one.
    public mutating func next(_ data: Data, file: String? = nil) throws(ScoreFeedError) -> SnapshotDiff {
        let feed: NBAFeed
        switch try FeedReader.decodeAny(data, file: file, homeTeamId: homeTeamId) {
        case .nba(let decoded):
            feed = decoded
        case .fixture(let document):
            throw ScoreFeedError(
                .unknownFormat, "a live snapshot must be NBA play-by-play, not a \(document.format.displayName) file",
                at: .init(file: file))
        }
        // The teams are settled once the home team is known (from the caller, a boxscore, or a basket).
        if attributes == nil || homeTeamId == nil { attributes = feed.attributes }
        if homeTeamId == nil { homeTeamId = feed.homeTeamId }
        var diff = next(actions: feed.actions)
        diff.rejected = feed.rejected
        return diff
    }

    /// The diff for a snapshot given as mapped actions in feed order.
    public mutating func next(actions: [FeedAction]) -> SnapshotDiff {
        var diff = SnapshotDiff()
        var current: [Int: GameEvent] = [:]
        var feedScore: FinalScore?
        var pending: [GameEvent] = []
        for action in actions {
            let event = action.event
            guard current[event.seq] == nil else { continue }
            current[event.seq] = event
            if let stated = action.feedScore { feedScore = stated }
            if let old = known[event.seq] {
                // A time that moved (times never go back, so an inserted action can push later
                // ones) is not a change the engine could act on.
                var same = old
                same.time = event.time
                if same != event {
                    diff.changed.append(event)
                    pending += corrections(from: old, to: event, why: "changed")
                }
            } else {
                diff.added.append(event)
            }
        }
        for (seq, old) in known where current[seq] == nil {
            diff.deleted.append(old)
        }
        diff.deleted.sort { $0.seq < $1.seq }
        for old in diff.deleted { pending += corrections(from: old, to: nil, why: "deleted") }

        // Corrections of the past first, then the new actions; an action the engine would
        // refuse (earlier period, sequence number already used) comes in as a correction.
        for correction in pending { send(correction, into: &diff) }
        for event in diff.added {
            if case .accept = validator.verdict(event, index: 0) {
                send(event, into: &diff)
            } else {
                for correction in corrections(from: nil, to: event, why: "added late") { send(correction, into: &diff) }
            }
        }
        if let feedScore, feedScore != score {
            for (team, delta) in [(TeamSide.home, feedScore.home - score.home), (.away, feedScore.away - score.away)] where delta != 0 {
                send(correction(delta, team: team, description: "feed score correction"), into: &diff)
            }
        }
        known = current
        diff.score = score
        return diff
    }

    /// Hands `event` to the engine's side of the ledger when the engine will accept it.
    private mutating func send(_ event: GameEvent, into diff: inout SnapshotDiff) {
        guard case .accept = validator.check(event, index: 0) else { return }
        diff.events.append(event)
        if case .correction = event.kind { diff.corrections.append(event) }
        if let team = event.team, event.kind.points != 0 {
            if team == .home { score.home += event.kind.points } else { score.away += event.kind.points }
        }
        period = max(period, event.period)
        clock = event.clock
        if newest.map({ event.time > $0 }) ?? true { newest = event.time }
    }

    /// Corrections for an action going from `old` to `new` (either may be nil).
    private mutating func corrections(from old: GameEvent?, to new: GameEvent?, why: String) -> [GameEvent] {
        guard let subject = old ?? new else { return [] }
        return PointsMoved.between(old.map { ($0.team, $0.kind.points) }, new.map { ($0.team, $0.kind.points) }).map {
            correction($0.points, team: $0.team, description: "\(why): seq \(subject.seq) \(subject.description ?? "")")
        }
    }

    private mutating func correction(_ points: Int, team: TeamSide, description: String) -> GameEvent {
        let event = GameEvent(
            seq: nextCorrection, time: newest ?? Date(timeIntervalSince1970: 0), period: max(period, 1), clock: clock,
            kind: .correction(points: points), team: team, description: description)
        nextCorrection += 1
        return event
    }
}

/// What one snapshot changed, from ``SnapshotDiffer``.
public struct SnapshotDiff: Hashable, Sendable {
    /// Actions not in the previous snapshot, in feed order.
    public var added: [GameEvent] = []
    /// Actions whose content changed (their new version), in feed order.
    public var changed: [GameEvent] = []
    /// Actions of the previous snapshot that are gone, by sequence number.
    public var deleted: [GameEvent] = []
    /// Score corrections: for changed and deleted scoring actions, for added actions that could
    /// not be sent as they are, and for any remaining gap to the feed's score.
    public var corrections: [GameEvent] = []
    /// What to hand to the engine, in order: corrections of the past, then the added actions,
    /// then a final correction to the feed's score if one was needed.
    public var events: [GameEvent] = []
    /// The score after ``events``: what the engine's fold shows.
    public var score = FinalScore(home: 0, away: 0)
    /// Actions of the snapshot that could not be read.
    public var rejected: [ScoreFeedError] = []

    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && deleted.isEmpty && corrections.isEmpty }
}

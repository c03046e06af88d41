import Foundation
import ScoreFeedModel

extension NBAFeed {
    /// The feed as a ``FeedDocument``, checked against its own running score.
    ///
    /// The fold computes the score from points; at every action that states the feed's score the
    /// two are compared. The feed is authoritative: where they differ, the displayed score is
    /// brought to the feed's and the discrepancy is counted (the first one kept for the report).
    /// A scoring action the feed scores differently becomes a correction of the feed's points
    /// (so no state shows a score the feed never had); otherwise correction events follow the
    /// action. Times never decrease. A game-end action goes last (liveData can list actions
    /// after it), once.
    func document() -> FeedDocument {
        var check = ScoreCheck(file: file)
        var gameEnd: FeedAction?
        for action in actions {
            if case .gameEnd = action.event.kind {
                if gameEnd == nil { gameEnd = action }
                continue
            }
            check.add(action)
        }
        if var end = gameEnd {
            end.event.period = max(end.event.period, check.period)
            check.add(end)
        }
        var document = FeedDocument(
            attributes: attributes, events: check.events, positions: check.positions, rejected: rejected,
            finalScore: statedFinal ?? check.feedScore, scheduledStart: scheduledStart, file: file)
        document.discrepancies = check.discrepancies
        document.warnings = warnings
        if let statedFinal, let feedScore = check.feedScore, gameEnd != nil || actions.last?.event.kind == .gameEnd,
            statedFinal != feedScore
        {
            document.warnings.append(ScoreFeedError(
                .invalidValue,
                "the companion file's final \(statedFinal) differs from the feed's last score \(feedScore)",
                at: .init(file: file)))
        }
        document.format = format
        document.actionCount = actionCount
        return document
    }

    /// The fold run alongside the mapping, to compare with the feed's score at every action.
    struct ScoreCheck {
        let file: String?
        var events: [GameEvent] = []
        var positions: [Int] = []
        var discrepancies = ScoreDiscrepancies()
        /// The feed's last stated score.
        var feedScore: FinalScore?
        var period = 0
        /// The engine's rules (``GameFold``), so the check predicts what the engine will show.
        private var fold = GameFold()
        private var lastTime: Date?
        private var nextCorrection = NBAFeed.syntheticSeqBase

        init(file: String?) {
            self.file = file
        }

        mutating func add(_ action: FeedAction) {
            var event = action.event
            if let lastTime, event.time < lastTime { event.time = lastTime }
            lastTime = event.time
            guard let feed = action.feedScore else {
                append(event, position: action.position)
                return
            }
            feedScore = feed
            event.feedScore = feed
            let before = fold.state
            let scores = event.kind.points != 0 && event.team != nil && fold.verdict(event, index: action.position) == .accept
            var predicted = FinalScore(home: before.homeScore, away: before.awayScore)
            if scores, let team = event.team {
                if team == .home { predicted.home += event.kind.points } else { predicted.away += event.kind.points }
            }
            guard predicted != feed else {
                append(event, position: action.position)
                return
            }
            discrepancies.count += 1
            if discrepancies.first == nil {
                discrepancies.first = ScoreFeedError(
                    .invalidValue,
                    "the feed's score is \(feed.away)-\(feed.home) (away-home) but the fold has "
                        + "\(predicted.away)-\(predicted.home); the feed wins",
                    at: .init(file: file, eventIndex: action.position, sequence: event.seq))
            }
            // A scoring action the feed scores differently is replaced by the feed's points, so no
            // state ever shows a score the feed did not have; any other action is followed by them.
            var deltas = [(TeamSide.home, feed.home - before.homeScore), (.away, feed.away - before.awayScore)]
                .filter { $0.1 != 0 }
            if !scores {
                append(event, position: action.position)
            } else if let team = event.team, let index = deltas.firstIndex(where: { $0.0 == team }) {
                var replaced = event
                replaced.kind = .correction(points: deltas[index].1)
                replaced.description = "\(event.description ?? event.kind.typeName) (scored as the feed says)"
                append(replaced, position: action.position)
                deltas.remove(at: index)
            } else {
                var nothing = event
                nothing.kind = .other(type: "\(event.kind.typeName) not scored by the feed")
                append(nothing, position: action.position)
            }
            for (team, delta) in deltas {
                var correction = event
                correction.seq = nextCorrection
                nextCorrection += 1
                correction.kind = .correction(points: delta)
                correction.team = team
                correction.player = nil
                correction.description = "feed score correction after seq \(event.seq)"
                append(correction, position: action.position)
            }
        }

        private mutating func append(_ event: GameEvent, position: Int) {
            // A rejected event is kept all the same: the engine rejects it too and reports why.
            if fold.apply(event, index: position, now: event.time).verdict == .accept {
                period = max(period, event.period)
            }
            events.append(event)
            positions.append(position)
        }
    }
}

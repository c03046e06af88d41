import Foundation
import ScoreFeedModel

/// What the liveData and v3 readers share in building an ``NBAFeed``: an `actions` array split
/// into actions and rejections, the teams, and what a companion (a liveData boxscore, a game
/// page's game) states about the start and the final.
extension NBAFeed {
    /// An action with its position in the file's `actions` array.
    typealias IndexedAction = (index: Int, action: NBAAction)

    /// The elements of `actions` that are JSON objects, with their positions (a slice's own
    /// indices), and a rejection for each one that is not.
    static func split<Slots: RandomAccessCollection<NBAActionSlot>>(
        _ slots: Slots, file: String?
    ) -> (actions: [IndexedAction], rejected: [ScoreFeedError]) where Slots.Index == Int {
        var rejected: [ScoreFeedError] = []
        var actions: [IndexedAction] = []
        actions.reserveCapacity(slots.count)
        for (index, slot) in zip(slots.indices, slots) {
            if let action = slot.action {
                actions.append((index, action))
            } else {
                rejected.append(ScoreFeedError(.invalidValue, "the action is not a JSON object", at: .init(file: file, eventIndex: index)))
            }
        }
        return (actions, rejected)
    }

    /// One side's team with id `id`: what `stated` says, the tricode else from the first action
    /// of team `teamId`, the rest from ``team(id:tricode:name:city:home:)``.
    static func team(
        stated: LiveDataFormat.Root.Team?, id: Int?, tricodeOf teamId: Int?, in actions: [IndexedAction], home: Bool
    ) -> Team {
        team(
            id: id, tricode: stated?.teamTricode ?? actions.first { teamId != nil && $0.action.teamId == teamId }?.action.teamTricode,
            name: stated?.teamName, city: stated?.teamCity, home: home)
    }

    /// Takes what a companion states: the scheduled start (its `gameTimeUTC`), and the final
    /// when both teams have a score (else none).
    mutating func adopt(gameTimeUTC: String?, home: LiveDataFormat.Root.Team?, away: LiveDataFormat.Root.Team?) {
        scheduledStart = gameTimeUTC.flatMap(ISOTime.seconds).map { Date(timeIntervalSince1970: $0) }
        statedFinal = Self.score(home: home?.score, away: away?.score)
    }

    /// Stores the rejections in file order (by event index).
    mutating func setRejected(_ errors: [ScoreFeedError]) {
        rejected = errors.sorted { ($0.location.eventIndex ?? 0) < ($1.location.eventIndex ?? 0) }
    }
}

import Foundation
import ScoreFeedModel

extension MatchEngine.Snapshot {
    /// Reads a checkpoint. The policy's state is read leniently: a checkpoint written by another
    /// version of ScoreFeed, whose policy state no longer fits, still resumes the game (scoreboard,
    /// applied events, `seq`, timestamps) with ``policyWasReset`` set.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        attributes = try container.decode(GameAttributes.self, forKey: .attributes)
        validator = try container.decode(EventValidator.self, forKey: .validator)
        board = try container.decode(Scoreboard.self, forKey: .board)
        if container.contains(.coalescer), (try? container.decodeNil(forKey: .coalescer)) != true {
            coalescer = try? container.decode(Coalescer.self, forKey: .coalescer)
            policyWasReset = coalescer == nil
        } else {
            coalescer = nil
        }
        seq = try container.decode(Int.self, forKey: .seq)
        lastTimestamp = try container.decode(Int.self, forKey: .lastTimestamp)
        startPending = try container.decode(Bool.self, forKey: .startPending)
        lastPushed = try container.decode(GameState.self, forKey: .lastPushed)
        unsentEvents = try container.decode(Int.self, forKey: .unsentEvents)
        newestSourceTime = try container.decodeIfPresent(Date.self, forKey: .newestSourceTime)
        ended = try container.decode(Bool.self, forKey: .ended)
        statistics = try container.decode(MatchEngine.Statistics.self, forKey: .statistics)
        clock = try container.decode(Date.self, forKey: .clock)
        highestSeq = try container.decodeIfPresent(Int.self, forKey: .highestSeq) ?? Int.min
    }
}

import Foundation
import ScoreFeedModel

extension GameSession {
    /// A checkpoint as ScoreFeed wrote it before checkpoints had a format number (format 1): the
    /// engine's snapshot, written after each push was sent. It resumes as a format-2 game whose
    /// applied events are known by number only (any event with one of those numbers is a repeat),
    /// with the same scoreboard, policy state, `seq` and timestamps, and an empty outbox.
    struct Format1: Decodable {
        struct Validator: Decodable {
            var seen: Set<Int>
            var period: Int
            var ended: Bool
        }

        var attributes: GameAttributes
        var validator: Validator
        var board: Scoreboard
        var seq: Int
        var lastTimestamp: Int
        var startPending: Bool
        var lastPushed: GameState
        var unsentEvents: Int
        var newestSourceTime: Date?
        var ended: Bool
        var statistics: GameSession.Statistics
        var clock: Date
    }

    /// Reads a format-1 checkpoint; its policy state is read as leniently as format 2's (absent or
    /// unreadable: the budget counts as spent).
    static func decodeFormat1(_ data: Data, file: String) throws(ScoreFeedError) -> GameSession {
        struct Policy: Decodable {
            var coalescer: Coalescer?

            enum Key: String, CodingKey { case coalescer }

            init(from decoder: any Decoder) throws {
                coalescer = try? decoder.container(keyedBy: Key.self).decode(Coalescer.self, forKey: .coalescer)
            }
        }
        let old: Format1
        let policy: Policy
        do {
            old = try JSONDecoder().decode(Format1.self, from: data)
            policy = try JSONDecoder().decode(Policy.self, from: data)
        } catch let error as DecodingError {
            var failure = DecodingErrorText.error(error, data: data, file: file)
            failure.message = "checkpoint format 1 (written by an earlier ScoreFeed): " + failure.message
            throw failure
        } catch {
            throw ScoreFeedError(.invalidValue, "checkpoint format 1: \(error)", at: .init(file: file))
        }
        var session = GameSession(attributes: old.attributes, policy: policy.coalescer ?? Coalescer(), now: old.clock)
        session.fold = GameFold(
            validator: EventValidator(applied: old.validator.seen, period: old.validator.period, ended: old.validator.ended),
            board: old.board, followsFeedScore: false)
        session.lanes[0].renderer.resume(seq: old.seq, lastTimestamp: old.lastTimestamp, startPending: old.startPending)
        session.lanes[0].lastPushed = old.lastPushed
        session.lanes[0].unsentEvents = old.unsentEvents
        session.newestSourceTime = old.newestSourceTime
        session.statistics = old.statistics
        if policy.coalescer == nil { session.takeOverPolicy(lane: 0, ended: old.ended) }
        return session
    }
}

import Foundation
import ScoreFeedModel

/// A ``GameSession`` as written to disk by `serve`: one versioned value holding everything the
/// game has applied, spent and sent, including the pushes rendered but not yet confirmed by the
/// sink (sent again, byte for byte, after a restart).
///
/// Format 3 is this type (format 2 plus the game's broadcast channel); format 2 loads as a game
/// with no channel yet, and format 1 (before checkpoints had a number) still loads. A checkpoint of
/// any other format is refused with a clear error, never read as a game with a fresh budget. The options given at restart apply to the resumed game
/// (the coalescer's knobs and budget limit, the renderer's configuration); what the hour has
/// spent stays spent.
public struct GameCheckpoint: Codable, Sendable {
    /// The format this version of ScoreFeed writes and reads.
    public static let currentFormat = 3

    public var format: Int
    public var attributes: GameAttributes
    var validator: EventValidator
    var board: Scoreboard
    /// Nil when the game's policy is not a ``Coalescer`` (or its state was unreadable).
    var coalescer: Coalescer?
    var seq: Int
    var lastTimestamp: Int
    var startPending: Bool
    var lastPushed: GameState
    var unsentEvents: Int
    var newestSourceTime: Date?
    var ended: Bool
    var followsFeedScore: Bool
    public var statistics: GameSession.Statistics
    /// The game's clock when written (feed time, for games on a feed clock).
    public var now: Date
    /// Pushes rendered but not yet known to be with the sink, oldest first.
    public var outbox: [PushRecord]
    /// The game's broadcast channel (format 3; none before).
    public var channel = BroadcastChannel()
    /// The game's `end` records as handed to the sink, while its channel lingers (format 3).
    public var endRecords: [PushRecord] = []
    /// The policy's state was present but unreadable (written by another version of ScoreFeed):
    /// the game resumes with a fresh policy that counts the hour's budget as spent.
    public internal(set) var policyWasReset = false

    enum CodingKeys: String, CodingKey {
        case format, attributes, validator, board, coalescer, seq, lastTimestamp, startPending, lastPushed
        case unsentEvents, newestSourceTime, ended, followsFeedScore, statistics, now, outbox, channel, endRecords
    }

    /// The sequence numbers the game has applied.
    public var applied: Set<Int> { Set(validator.applied.keys) }

    /// Whether the game's `end` has been rendered.
    public var hasEnded: Bool { ended }

    /// Reads a checkpoint file's bytes; `file` names it in errors.
    public static func decode(_ data: Data, file: String) throws(ScoreFeedError) -> GameCheckpoint {
        let place = ScoreFeedError.Location(file: file)
        struct Header: Decodable { var format: Int? }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw ScoreFeedError(.malformedJSON, "not a checkpoint: the file is not a JSON object (torn or overwritten)", at: place)
        }
        guard let format = header.format else { return try decodeFormat1(data, file: file) }
        guard format == currentFormat || format == 2 else {
            throw ScoreFeedError(
                .unknownFormat,
                "checkpoint format \(format), written by \(format > currentFormat ? "a newer" : "an earlier") ScoreFeed; "
                    + "this version reads formats 1 to \(currentFormat)",
                at: place)
        }
        do {
            return try JSONDecoder().decode(GameCheckpoint.self, from: data)
        } catch let error as DecodingError {
            throw DecodingErrorText.error(error, data: data, file: file)
        } catch {
            throw ScoreFeedError(.invalidValue, "\(error)", at: place)
        }
    }

    /// The checkpoint's bytes (sorted keys: the same game state always writes the same bytes).
    public func encoded() throws -> Data {
        try Self.encoder.encode(self)
    }

    /// Shared: a `JSONEncoder` whose options are not changed after this is safe to share.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}

extension GameCheckpoint {
    /// Reads the policy's state leniently: a coalescer written by another version still resumes
    /// the game (scoreboard, applied events, `seq`, timestamps) with ``policyWasReset`` set.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        attributes = try container.decode(GameAttributes.self, forKey: .attributes)
        validator = try container.decode(EventValidator.self, forKey: .validator)
        board = try container.decode(Scoreboard.self, forKey: .board)
        // `serve` always runs a coalescer: one absent, null or unreadable is a policy whose spending
        // is unknown, so the budget counts as spent.
        coalescer = try? container.decode(Coalescer.self, forKey: .coalescer)
        policyWasReset = coalescer == nil
        seq = try container.decode(Int.self, forKey: .seq)
        lastTimestamp = try container.decode(Int.self, forKey: .lastTimestamp)
        startPending = try container.decode(Bool.self, forKey: .startPending)
        lastPushed = try container.decode(GameState.self, forKey: .lastPushed)
        unsentEvents = try container.decode(Int.self, forKey: .unsentEvents)
        newestSourceTime = try container.decodeIfPresent(Date.self, forKey: .newestSourceTime)
        ended = try container.decode(Bool.self, forKey: .ended)
        followsFeedScore = try container.decodeIfPresent(Bool.self, forKey: .followsFeedScore) ?? false
        statistics = try container.decode(GameSession.Statistics.self, forKey: .statistics)
        now = try container.decode(Date.self, forKey: .now)
        outbox = try container.decode([PushRecord].self, forKey: .outbox)
        channel = try container.decodeIfPresent(BroadcastChannel.self, forKey: .channel) ?? BroadcastChannel()
        endRecords = try container.decodeIfPresent([PushRecord].self, forKey: .endRecords) ?? []
    }
}

import Foundation
import ScoreFeedModel

/// A lane's saved form in a checkpoint's `lanes` (format 5): the fields a format-4 checkpoint
/// keeps at its top for its one lane, by the same names.
extension PlatformLane: Encodable {
    enum CodingKeys: String, CodingKey {
        case coalescer, seq, lastTimestamp, startPending, lastPushed, unsentEvents, ended, outbox, renderer, mayHaveLeft
        /// Format 3's linger, beside the configuration (read, never written).
        case channelLinger
    }

    /// Refusals waiting in the outbox are not kept: they are reports, not pushes.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(policy as? Coalescer, forKey: .coalescer)
        try c.encode(renderer.seq, forKey: .seq)
        try c.encode(renderer.lastTimestamp, forKey: .lastTimestamp)
        try c.encode(renderer.startPending, forKey: .startPending)
        try c.encode(lastPushed, forKey: .lastPushed)
        try c.encode(unsentEvents, forKey: .unsentEvents)
        try c.encode(policy.hasEnded, forKey: .ended)
        try c.encode(Array(outboxPushes), forKey: .outbox)
        try c.encode(renderer.configuration, forKey: .renderer)
        // Absent when empty (every snapshot of a game not restored with pushes waiting reads as before).
        if !mayHaveLeft.isEmpty { try c.encode(mayHaveLeft.sorted(), forKey: .mayHaveLeft) }
    }

    /// A lane as read from a checkpoint (the first lane from the top of any format from 2 on, the
    /// others from format 5's `lanes`); its policy is read leniently (nil: absent or from another
    /// version, replaced by the session).
    struct Saved: Decodable {
        var coalescer: Coalescer?
        var seq: Int
        var lastTimestamp: Int
        var startPending: Bool
        var lastPushed: GameState
        var unsentEvents: Int
        var ended: Bool
        var outbox: [PushRecord]
        var renderer: PushRenderer.Configuration
        var mayHaveLeft: [Int]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            coalescer = try? c.decode(Coalescer.self, forKey: .coalescer)
            seq = try c.decode(Int.self, forKey: .seq)
            lastTimestamp = try c.decode(Int.self, forKey: .lastTimestamp)
            startPending = try c.decode(Bool.self, forKey: .startPending)
            lastPushed = try c.decode(GameState.self, forKey: .lastPushed)
            unsentEvents = try c.decode(Int.self, forKey: .unsentEvents)
            ended = try c.decode(Bool.self, forKey: .ended)
            outbox = try c.decode([PushRecord].self, forKey: .outbox)
            // Absent before format 4; the linger was beside it before it was the renderer's.
            renderer = try c.decodeIfPresent(PushRenderer.Configuration.self, forKey: .renderer) ?? PushRenderer.Configuration()
            if renderer.lingerOption == nil, let linger = try c.decodeIfPresent(TimeInterval.self, forKey: .channelLinger) {
                renderer.channelLinger = linger
            }
            mayHaveLeft = try c.decodeIfPresent([Int].self, forKey: .mayHaveLeft) ?? []
        }
    }

    /// The lane `saved` holds, of the game `attributes` name. Ids are lower-cased as the records
    /// are read: checkpoints written before ids were lower case hold upper-case ones
    /// (``PushRecord/withCanonicalIDs()``).
    init(_ saved: Saved, attributes: GameAttributes) {
        self.init(attributes: attributes, policy: saved.coalescer ?? Coalescer(), renderer: saved.renderer, state: saved.lastPushed)
        renderer.resume(seq: saved.seq, lastTimestamp: saved.lastTimestamp, startPending: saved.startPending)
        unsentEvents = saved.unsentEvents
        outbox = saved.outbox.map { .push($0.withCanonicalIDs()) }
        mayHaveLeft = Set(saved.mayHaveLeft)
    }
}

import Foundation
import ScoreFeedModel

extension GameSession {
    /// The first lane's policy (the only one's, on one platform).
    public var policy: any PushPolicy { lanes[0].policy }

    /// The first lane's renderer (the only one's, on one platform).
    public var renderer: PushRenderer { lanes[0].renderer }

    /// The state in the first lane's last push rendered.
    public var lastPushed: GameState { lanes[0].lastPushed }

    /// Changes since the first lane's last push.
    public var unsentEvents: Int { lanes[0].unsentEvents }

    /// `read` of `lane`, in place: `lanes[i].property` of a property computed on the lane (or
    /// behind a protocol) copies the whole lane first (its policy, renderer and outbox retained),
    /// an inout access does not.
    static func inPlace<T>(_ lane: inout PlatformLane, _ read: (inout PlatformLane) -> T) -> T {
        read(&lane)
    }

    /// The platforms the game is pushed to, in lane order.
    public var platforms: [PushRenderer.Platform] { lanes.map(\.platform) }

    /// Every lane's rendered pushes (and refusals) waiting for the sink, lane by lane, each
    /// oldest first.
    public var outbox: [PushRenderer.Output] {
        lanes.count == 1 ? lanes[0].outbox : lanes.flatMap(\.outbox)
    }

    /// How many outputs wait in all lanes.
    var outboxCount: Int {
        lanes.count == 1 ? lanes[0].outbox.count : lanes.indices.reduce(0) { $0 + lanes[$1].outbox.count }
    }

    /// Whether a lane's policy state was absent or unreadable in the checkpoint this game was
    /// restored from (written by another version): it resumed with a fresh policy that counts
    /// the hour's budget as spent.
    public var policyWasReset: Bool { lanes.indices.contains { lanes[$0].policyWasReset } }

    /// The lane whose pushes go on the game's broadcast channel (iOS broadcast mode with a
    /// channel per game), if any.
    var channelLane: Int? {
        // By index: iterating the lanes would copy each (its policy, renderer and outbox retained).
        lanes.indices.first { lanes[$0].renderer.configuration.hasChannelPerGame }
    }

    /// The next output to hand to the sink and its lane: the first lane's oldest that can go (a
    /// broadcast stamped with its game's channel, only while the channel is open). Once the sink
    /// has it, call ``delivered(lane:now:)`` with the lane. Nil when none can go now;
    /// ``nextChannelRequest`` goes first.
    public var nextLaneOutput: (lane: Int, output: PushRenderer.Output)? {
        for lane in lanes.indices {
            guard let first = lanes[lane].outbox.first else { continue }
            guard lanes[lane].renderer.configuration.hasChannelPerGame, case .push(var record) = first else { return (lane, first) }
            guard let id = channel.sendableID else { continue }
            record.request[header: "apns-channel-id"] = id
            return (lane, .push(record))
        }
        return nil
    }
}

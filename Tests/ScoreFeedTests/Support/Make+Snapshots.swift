import Foundation
@testable import ScoreFeed
import ScoreFeedModel

extension Make {
    /// Every fixture and real game, and generated ones, played into a session with `renderer`
    /// (an Android lane beside it when `android`), handed to `each` every 40 events and at the
    /// end: pushes left in the outbox on every other event, a restart's catch-up window open half
    /// way. The sessions a snapshot holds, for the checkpoint encoder's and decoder's tests.
    static func snapshotSessions(
        _ renderer: PushRenderer.Configuration, android: Bool, _ each: (_ session: GameSession, _ context: String) throws -> Void
    ) throws {
        var documents = try fixtureFiles().map { try FeedReader.read(path: fixtures.appendingPathComponent($0).path) }
        if NBAFiles.available { documents += NBAFiles.games.compactMap { try? FeedReader.read(path: NBAFiles.path($0)) } }
        var games = documents.map { (attributes: $0.attributes, events: $0.events) }
        games += (1...3).map { seed in GameGenerator(seed: UInt64(seed)).generate() }.map { ($0.attributes, $0.events) }
        for game in games {
            guard let first = game.events.first else { continue }
            var session = GameSession(attributes: game.attributes, renderer: renderer, now: first.time)
            if android {
                let lane = PlatformLane.Options.android(beside: renderer)
                session.addLane(policy: Coalescer(configuration: lane.policy), renderer: lane.renderer)
            }
            for (index, event) in game.events.enumerated() {
                session.receive(event, index: index, now: event.time)
                if index == game.events.count / 2 { session.restart(now: event.time, window: 0.5) }
                while let deadline = session.deadline, deadline <= event.time { session.tick(now: deadline) }
                if index % 2 == 0 {
                    // Each lane's outputs, as the engine hands them (not while a channel request waits).
                    while session.nextChannelRequest == nil, let next = session.nextLaneOutput,
                          session.delivered(lane: next.lane, now: event.time) {}
                }
                if index % 40 == 0 || index == game.events.count - 1 { try each(session, "\(game.attributes.gameId) at event \(index)") }
            }
        }
    }

    /// The state fuzz target's committed seeds (`Tests/Fuzz/corpus/state`), each cut at its first
    /// 0x00 byte as the target cuts it: a game's snapshot (empty: none), then its journal.
    static func stateSeeds() throws -> [(name: String, snapshot: Data, journal: Data)] {
        let folder = packageRoot.appendingPathComponent("Tests/Fuzz/corpus/state")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            let cut = bytes.firstIndex(of: 0)
            return (name, Data(cut.map { bytes[bytes.startIndex..<$0] } ?? bytes), Data(cut.map { bytes[($0 + 1)...] } ?? Data()))
        }
    }
}

import Foundation
@testable import ScoreFeed

/// What a session's engine does next to empty its outbox, as one value for tests that walk a
/// session's deliveries by hand: ``GameSession/nextChannelRequest`` first, then
/// ``GameSession/nextOutput``, as ``MatchEngine`` takes them.
extension GameSession {
    enum Delivery: Hashable, Sendable {
        case channel(ChannelRequest)
        case output(PushRenderer.Output)
    }

    var nextDelivery: Delivery? {
        if let request = nextChannelRequest { return .channel(request) }
        return nextOutput.map { .output($0) }
    }
}

import Foundation
import ScoreFeedModel

/// The JSON body of a Live Activity push, with APNs' hyphenated key names.
struct APNsPayload: Encodable {
    var aps: APS

    struct APS: Encodable {
        var timestamp: Int
        var event: String
        var contentState: GameState
        var staleDate: Int?
        var dismissalDate: Int?
        var relevanceScore: Double?
        var alert: Alert?

        enum CodingKeys: String, CodingKey {
            case timestamp, event, alert
            case contentState = "content-state"
            case staleDate = "stale-date"
            case dismissalDate = "dismissal-date"
            case relevanceScore = "relevance-score"
        }
    }

    struct Alert: Encodable, Hashable {
        var title: String
        var body: String
        var sound: String?
    }
}

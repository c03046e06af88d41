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
        /// Push-to-start only: the Swift type name of the app's `ActivityAttributes`.
        var attributesType: String?
        /// Push-to-start only: the activity's static attributes, in their default JSON.
        var attributes: GameAttributes?

        enum CodingKeys: String, CodingKey {
            case timestamp, event, alert, attributes
            case contentState = "content-state"
            case staleDate = "stale-date"
            case dismissalDate = "dismissal-date"
            case relevanceScore = "relevance-score"
            case attributesType = "attributes-type"
        }
    }

    struct Alert: Encodable, Hashable {
        var title: String
        var body: String
        var sound: String?
    }
}

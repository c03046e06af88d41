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
        /// Push-to-start only: `1` asks the device for the started activity's update token
        /// (iOS 18+): ActivityKit hands it to the app in the activity's `pushTokenUpdates`, and the
        /// app sends it to its backend, which sends that activity's updates to it. Without it, an
        /// activity started by push has no token a sender knows of.
        var inputPushToken: Int?

        enum CodingKeys: String, CodingKey {
            case timestamp, event, alert, attributes
            case contentState = "content-state"
            case staleDate = "stale-date"
            case dismissalDate = "dismissal-date"
            case relevanceScore = "relevance-score"
            case attributesType = "attributes-type"
            case inputPushToken = "input-push-token"
        }
    }

    struct Alert: Encodable, Hashable {
        var title: String
        var body: String
        var sound: String?
    }
}

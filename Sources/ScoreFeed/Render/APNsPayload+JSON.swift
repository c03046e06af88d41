import Foundation
import ScoreFeedModel

extension APNsPayload.APS {
    /// The whole payload, `{"aps":{…}}`, written by hand: the bytes a `JSONEncoder` with
    /// `.sortedKeys` and `.withoutEscapingSlashes` gives for ``APNsPayload`` (keys in UTF-8
    /// order, nil fields left out), without its reflection and allocations. Rendering a push
    /// encodes once, and again for each trimming step of the size guard.
    func payloadJSON() throws(JSONBytes.NonFinite) -> Data {
        var out = JSONBytes(capacity: 640)
        out.raw("{\"aps\":{")
        // `content-state` is always there; the optional keys sorting before it end in a comma.
        if let alert {
            out.raw("\"alert\":{\"body\":"); out.string(alert.body)
            if let sound = alert.sound { out.raw(",\"sound\":"); out.string(sound) }
            out.raw(",\"title\":"); out.string(alert.title)
            out.raw("},")
        }
        if let attributes {
            out.raw("\"attributes\":"); out.write(attributes)
            out.byte(UInt8(ascii: ","))
        }
        if let attributesType {
            out.raw("\"attributes-type\":"); out.string(attributesType)
            out.byte(UInt8(ascii: ","))
        }
        out.raw("\"content-state\":"); try out.write(contentState)
        if let dismissalDate { out.raw(",\"dismissal-date\":"); out.int(dismissalDate) }
        out.raw(",\"event\":"); out.string(event)
        if let inputPushToken { out.raw(",\"input-push-token\":"); out.int(inputPushToken) }
        if let relevanceScore { out.raw(",\"relevance-score\":"); try out.double(relevanceScore) }
        if let staleDate { out.raw(",\"stale-date\":"); out.int(staleDate) }
        out.raw(",\"timestamp\":"); out.int(timestamp)
        out.raw("}}")
        return out.data()
    }
}

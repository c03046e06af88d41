import Foundation

/// One request to APNs' channel-management service (`api-manage-broadcast.push.apple.com:2195`,
/// sandbox `api-manage-broadcast.sandbox.push.apple.com:2195`): create, delete or list the
/// app's broadcast channels. It goes through the same sink as the pushes, as one JSON line with
/// `"kind":"channel"` and `"service":"manage-broadcast"`, so a sender can pick the host.
public struct ChannelRequest: Hashable, Sendable {
    public enum Action: String, Hashable, Sendable {
        case create, delete, list
    }

    public var action: Action
    /// The game the request is for (nil for a list).
    public var game: String?
    public var request: PushRecord.Request
    /// The JSON body (a create's storage policy and push type), nil when none.
    public var body: Data?

    /// The APNs service the request is for.
    public static let service = "manage-broadcast"

    /// `POST /1/apps/<bundleId>/channels`: a channel for `game` with the storage policy `storage`.
    public static func create(game: String, bundleId: String, storage: Int, requestID: String) -> ChannelRequest {
        ChannelRequest(
            action: .create, game: game,
            request: .init(method: "POST", path: "/1/apps/\(bundleId)/channels", headers: ["apns-request-id": requestID]),
            body: Data("{\"message-storage-policy\":\(storage),\"push-type\":\"LiveActivity\"}".utf8))
    }

    /// `DELETE /1/apps/<bundleId>/channels` with `apns-channel-id`; by default its request id is
    /// derived from the channel, so the same delete sent again (after a restart) has the same one.
    public static func delete(
        game: String?, bundleId: String, channel: String, requestID: String? = nil
    ) -> ChannelRequest {
        let requestID = requestID ?? RequestID.uuid(activity: "channel-delete:\(channel)", seq: 1)
        return ChannelRequest(
            action: .delete, game: game,
            request: .init(
                method: "DELETE", path: "/1/apps/\(bundleId)/channels",
                headers: ["apns-channel-id": channel, "apns-request-id": requestID]),
            body: nil)
    }

    /// `GET /1/apps/<bundleId>/all-channels`: every channel id of the app.
    public static func list(bundleId: String, requestID: String) -> ChannelRequest {
        ChannelRequest(
            action: .list, game: nil,
            request: .init(method: "GET", path: "/1/apps/\(bundleId)/all-channels", headers: ["apns-request-id": requestID]),
            body: nil)
    }

    /// The request's UUID (`apns-request-id`), also the webhook's `Idempotency-Key`.
    public var requestID: String { request[header: "apns-request-id"] ?? "" }

    /// The request as one line of JSON (no newline), keys in a fixed order:
    /// `{"kind":"channel","action":…,"game":…,"service":"manage-broadcast","request":{…},"body":{…}}`.
    public func jsonLine() -> Data {
        var out = JSONBytes(capacity: 400)
        write(into: &out)
        return out.data()
    }

    /// Appends ``jsonLine()``'s bytes to `out`.
    func write(into out: inout JSONBytes) {
        out.raw("{\"kind\":\"channel\",\"action\":"); out.string(action.rawValue)
        out.raw(",\"game\":")
        if let game { out.string(game) } else { out.raw("null") }
        out.raw(",\"service\":"); out.string(Self.service)
        out.raw(",\"request\":"); out.request(request)
        if let body {
            out.raw(",\"body\":")
            out.raw(body)
        }
        out.byte(UInt8(ascii: "}"))
    }
}

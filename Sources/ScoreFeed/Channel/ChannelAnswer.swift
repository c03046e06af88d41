import Foundation

/// APNs' answer to a ``ChannelRequest``, as a sink that can answer (the webhook, passing back
/// what the push sender got from Apple) hands it back.
public struct ChannelAnswer: Hashable, Sendable, Codable {
    /// The HTTP status.
    public var status: Int
    /// The `apns-channel-id` response header (a create's new channel).
    public var channelID: String?
    /// The `reason` of an error body, such as `ChannelNotRegistered`.
    public var reason: String?
    /// The body (for a list: `{"channels": [...]}`).
    public var body: Data

    public init(status: Int, channelID: String? = nil, reason: String? = nil, body: Data = Data()) {
        self.status = status
        self.channelID = channelID
        self.reason = reason
        self.body = body
    }

    public var isSuccess: Bool { (200...299).contains(status) }

    /// APNs is busy or down (429, 5xx): the request is to be sent again later, not given up.
    public var isTransient: Bool { status == 429 || (500...599).contains(status) }

    /// The channel is already gone: a delete answered this way succeeded earlier (say, just
    /// before a crash).
    public var meansChannelGone: Bool {
        (status == 404 || status == 400 || status == 410) && (reason == "ChannelNotRegistered" || reason == "BadChannelId")
    }

    /// The channel ids a list answer names (`{"channels": [...]}`), nil when the body is not one.
    public var channels: [String]? {
        struct Listing: Decodable { var channels: [String] }
        return (try? JSONDecoder().decode(Listing.self, from: body))?.channels
    }

    /// The `reason` of a JSON error body, if any (bodies past 64 KB are not read).
    public static func reason(in body: Data) -> String? {
        guard body.count <= 65_536 else { return nil }
        struct Failure: Decodable { var reason: String? }
        return (try? JSONDecoder().decode(Failure.self, from: body))?.reason
    }
}

import Foundation

/// APNs' channel-management service played in memory, for tests and simulations: creates get
/// `channel-1`, `channel-2`, … (base64), deletes of a known channel succeed and of an unknown one
/// answer 404 `ChannelNotRegistered`, and a list names the open channels.
public struct ChannelServiceStandIn: Hashable, Sendable {
    /// The channels made and not deleted.
    public private(set) var open: Set<String> = []
    private var made = 0
    /// Whether a create whose `apns-request-id` was answered before is answered with the channel
    /// made for it then, as a sender that deduplicates by it (a webhook's idempotency key)
    /// answers a retry: a game that needs a new channel must then create it under a request id
    /// of its own. Off, as APNs is not known to.
    public var deduplicatesCreates = false
    /// Each create's channel by its `apns-request-id` (while ``deduplicatesCreates``).
    private var madeFor: [String: String] = [:]

    public init(deduplicatesCreates: Bool = false) {
        self.deduplicatesCreates = deduplicatesCreates
    }

    /// APNs' answer to `request`, the service changed as APNs' would be.
    public mutating func answer(_ request: ChannelRequest) -> ChannelAnswer {
        switch request.action {
        case .create:
            let requestID = deduplicatesCreates ? request.request[header: "apns-request-id"] : nil
            if let requestID, let id = madeFor[requestID] { return ChannelAnswer(status: 200, channelID: id) }
            made += 1
            let id = Data("channel-\(made)".utf8).base64EncodedString()
            open.insert(id)
            if let requestID { madeFor[requestID] = id }
            return ChannelAnswer(status: 200, channelID: id)
        case .delete:
            guard let id = request.request[header: "apns-channel-id"], open.remove(id) != nil else {
                return ChannelAnswer(status: 404, reason: "ChannelNotRegistered")
            }
            return ChannelAnswer(status: 200)
        case .list:
            let names = open.sorted().map { "\"\($0)\"" }.joined(separator: ",")
            return ChannelAnswer(status: 200, body: Data("{\"channels\":[\(names)]}".utf8))
        }
    }
}

import Foundation

/// APNs' channel-management service played in memory, for tests and simulations: creates get
/// `channel-1`, `channel-2`, … (base64), deletes of a known channel succeed and of an unknown one
/// answer 404 `ChannelNotRegistered`, and a list names the open channels.
public struct ChannelServiceStandIn: Hashable, Sendable {
    /// The channels made and not deleted.
    public private(set) var open: Set<String> = []
    private var made = 0

    public init() {}

    /// APNs' answer to `request`, the service changed as APNs' would be.
    public mutating func answer(_ request: ChannelRequest) -> ChannelAnswer {
        switch request.action {
        case .create:
            made += 1
            let id = Data("channel-\(made)".utf8).base64EncodedString()
            open.insert(id)
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

import Foundation

/// Keeps every record in memory, for tests and for tools that look at a whole replay.
///
/// It can also play APNs' channel-management service (``init(answeringChannels:deduplicatingCreates:)``): creates get
/// `channel-1`, `channel-2`, … (base64), deletes of a known channel succeed and of an unknown one
/// answer 404 `ChannelNotRegistered`, and a list names the open channels.
public actor RecordingSink: PushSink {
    public private(set) var records: [PushRecord] = []
    /// Pushes the renderer refused, in order.
    public private(set) var refusals: [PushRefusal] = []
    /// Channel requests, in order.
    public private(set) var channelRequests: [ChannelRequest] = []
    /// The channels it made and has not deleted (answering only).
    public var openChannels: Set<String> { channels.open }
    private let answers: Bool
    private var channels = ChannelServiceStandIn()

    /// `answeringChannels`: answer channel requests as APNs would; otherwise return nil.
    /// `deduplicatingCreates`: creates are answered as a sender that deduplicates them by their
    /// `apns-request-id` answers (``ChannelServiceStandIn/deduplicatesCreates``).
    public init(answeringChannels: Bool = false, deduplicatingCreates: Bool = false) {
        answers = answeringChannels
        channels.deduplicatesCreates = deduplicatingCreates
    }

    public func send(_ record: PushRecord) async throws {
        records.append(record)
    }

    public func refused(_ refusal: PushRefusal) async throws {
        refusals.append(refusal)
    }

    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        channelRequests.append(request)
        guard answers else { return nil }
        return channels.answer(request)
    }
}

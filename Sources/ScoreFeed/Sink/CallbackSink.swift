/// A sink made of closures: the quickest way to hand records to your own code (a log line, a
/// queue, a test's expectations) without writing a type.
public struct CallbackSink: PushSink {
    private let onSend: @Sendable (PushRecord) async throws -> Void
    private let onRefused: @Sendable (PushRefusal) async throws -> Void
    private let onManage: @Sendable (ChannelRequest) async throws -> ChannelAnswer?
    private let onPending: @Sendable (String) async -> Int

    /// `send` receives every push record, `refused` every push the size guard refused, `manage`
    /// every channel request (and answers it, or returns nil), `pending` says how many of a
    /// game's records are not yet delivered.
    public init(
        send: @escaping @Sendable (PushRecord) async throws -> Void = { _ in },
        refused: @escaping @Sendable (PushRefusal) async throws -> Void = { _ in },
        manage: @escaping @Sendable (ChannelRequest) async throws -> ChannelAnswer? = { _ in nil },
        pending: @escaping @Sendable (String) async -> Int = { _ in 0 }
    ) {
        onSend = send
        onRefused = refused
        onManage = manage
        onPending = pending
    }

    public func pending(game: String) async -> Int {
        await onPending(game)
    }

    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        try await onManage(request)
    }

    public func send(_ record: PushRecord) async throws {
        try await onSend(record)
    }

    public func refused(_ refusal: PushRefusal) async throws {
        try await onRefused(refusal)
    }
}

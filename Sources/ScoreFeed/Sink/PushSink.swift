/// Where finished push requests go: the push sender, a file, a test. Called in order per
/// activity; a throwing send stops that game's engine with the error (wrap a sink that can fail
/// for a while in ``ResilientSink`` to keep the game going).
public protocol PushSink: Sendable {
    /// Delivers one request. Records of one activity arrive in `seq` order.
    nonisolated(nonsending) func send(_ record: PushRecord) async throws

    /// Delivers `record` as ``send(_:)`` does, and returns the records of its activity it
    /// superseded that were never tried: a sink that keeps only the newest state while its
    /// endpoint is down (``ResilientSink``) drops them, so Apple never counted them, and the
    /// game's engine gives their priority 10 back to the game's budget. The default sends and
    /// supersedes nothing.
    nonisolated(nonsending) func sendReportingSuperseded(_ record: PushRecord) async throws -> [PushRecord]

    /// A push the renderer refused (over the APNs size limit even trimmed). Never a request:
    /// nothing is to be sent. The default ignores it; ``JSONLSink`` writes it as an error line.
    nonisolated(nonsending) func refused(_ refusal: PushRefusal) async throws

    /// Sends a request to APNs' channel-management service and returns APNs' answer, or nil when
    /// this sink cannot answer (it only records the request, as a file does). Throws when the
    /// answer could not be had (the endpoint is down); the request is then tried again later.
    nonisolated(nonsending) func manage(_ request: ChannelRequest) async throws -> ChannelAnswer?

    /// How many of `game`'s records this sink has taken but not yet delivered (a sink that keeps
    /// records in memory while its endpoint is down). A game's channel is deleted only once
    /// none are left, so its `end` goes out first.
    nonisolated(nonsending) func pending(game: String) async -> Int

    /// Delivers what this sink still holds (lines written in the background, records waiting
    /// for an endpoint that was down) before the run ends; throws what could not be.
    /// ``LiveService`` calls it after the drain and, when ScoreFeed manages broadcast channels,
    /// once more after the channels have settled (the deletes that waited for the last `end`s),
    /// so a sink's `finish` must deliver what came since, and be safe to call again.
    nonisolated(nonsending) func finish() async throws

    /// The sink's own work while a live service runs, until the task is cancelled: a
    /// ``ResilientSink`` tries what waits as soon as it is due, not only on the next `send`.
    /// ``LiveService`` runs it beside its games and cancels it once its shutdown is over.
    nonisolated(nonsending) func run() async
}

extension PushSink {
    /// Sends: a sink that delivers or keeps every record supersedes none.
    public nonisolated(nonsending) func sendReportingSuperseded(_ record: PushRecord) async throws -> [PushRecord] {
        try await send(record)
        return []
    }

    /// Ignores the refusal: a push sender has nothing to send for it.
    public nonisolated(nonsending) func refused(_ refusal: PushRefusal) async throws {}

    /// Cannot answer: channel requests need a sink that reaches APNs (``WebhookSink``).
    public nonisolated(nonsending) func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? { nil }

    /// Delivers each record before `send` returns: nothing is pending.
    public nonisolated(nonsending) func pending(game: String) async -> Int { 0 }

    /// Holds nothing: there is nothing to finish.
    public nonisolated(nonsending) func finish() async throws {}

    /// Has no work of its own.
    public nonisolated(nonsending) func run() async {}

    /// Runs `body` with the sink's own work (``run()``) beside it, and stops that work once `body`
    /// has returned: what ``LiveService`` does around its games and their shutdown.
    public nonisolated(nonsending) func whileRunning<T, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withDiscardingTaskGroup { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            do throws(E) { return .success(try await body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

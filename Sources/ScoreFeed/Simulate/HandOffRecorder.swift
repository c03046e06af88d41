/// The push sender's sink as the service holds it (``ResilientSink``), telling the simulated
/// sender when each record was handed to it: the sink's queue keeps only a game's newest state
/// of what waits untried, and ``SimulatedSender/olderStatesSent()`` holds it to that.
struct HandOffRecorder: PushSink {
    let inner: ResilientSink
    let sender: SimulatedSender

    func send(_ record: PushRecord) async throws {
        _ = try await sendReportingSuperseded(record)
    }

    func sendReportingSuperseded(_ record: PushRecord) async throws -> [PushRecord] {
        sender.handed(record)
        return try await inner.sendReportingSuperseded(record)
    }

    func refused(_ refusal: PushRefusal) async throws { try await inner.refused(refusal) }

    func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? { try await inner.manage(request) }

    func pending(game: String) async -> Int { await inner.pending(game: game) }

    func finish() async throws { try await inner.finish() }

    func run() async { await inner.run() }
}

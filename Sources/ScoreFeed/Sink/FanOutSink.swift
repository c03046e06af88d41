/// Delivers each record to several sinks in turn (for example a file and the console).
public struct FanOutSink: PushSink {
    public let sinks: [any PushSink]

    public init(_ sinks: [any PushSink]) {
        self.sinks = sinks
    }

    public func send(_ record: PushRecord) async throws {
        for sink in sinks { try await sink.send(record) }
    }
}

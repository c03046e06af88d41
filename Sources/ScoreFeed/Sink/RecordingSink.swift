/// Keeps every record in memory, for tests and for tools that look at a whole replay.
public actor RecordingSink: PushSink {
    public private(set) var records: [PushRecord] = []

    public init() {}

    public func send(_ record: PushRecord) async throws {
        records.append(record)
    }
}

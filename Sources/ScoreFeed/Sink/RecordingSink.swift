/// Keeps every record in memory, for tests and for tools that look at a whole replay.
public actor RecordingSink: PushSink {
    public private(set) var records: [PushRecord] = []
    /// Pushes the renderer refused, in order.
    public private(set) var refusals: [PushRefusal] = []

    public init() {}

    public func send(_ record: PushRecord) async throws {
        records.append(record)
    }

    public func refused(_ refusal: PushRefusal) async throws {
        refusals.append(refusal)
    }
}

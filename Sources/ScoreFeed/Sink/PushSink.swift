/// Where finished push requests go: the push sender, a file, a test. Called in order per
/// activity; a throwing send stops that game's engine with the error.
public protocol PushSink: Sendable {
    func send(_ record: PushRecord) async throws
}

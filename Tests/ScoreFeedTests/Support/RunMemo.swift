import Synchronization

/// Values made once per test run, by key: the suites read the same real games, streams and clean
/// runs many times. Two tests asking at once may both make a value; either is kept.
final class RunMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[Key: Value]>([:])

    func value(_ key: Key, making make: () throws -> Value) rethrows -> Value {
        if let value = values.withLock({ $0[key] }) { return value }
        let value = try make()
        values.withLock { $0[key] = value }
        return value
    }

    /// ``value(_:making:)-(_,()->Value)`` made by an `async` function.
    func value(_ key: Key, making make: () async throws -> Value) async rethrows -> Value {
        if let value = values.withLock({ $0[key] }) { return value }
        let value = try await make()
        values.withLock { $0[key] = value }
        return value
    }
}

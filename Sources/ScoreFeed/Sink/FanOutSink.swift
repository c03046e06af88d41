/// Delivers each record to several sinks in turn (for example a file, the console and a
/// webhook). One failing sink does not keep the record from the others: every sink is tried,
/// then the first error is thrown.
public struct FanOutSink: PushSink {
    public let sinks: [any PushSink]

    public init(_ sinks: [any PushSink]) {
        self.sinks = sinks
    }

    public func send(_ record: PushRecord) async throws {
        _ = try await sendReportingSuperseded(record)
    }

    /// Sends to every sink in turn and returns what any of them superseded untried, each record
    /// once: a fan-out has one sink that reaches APNs (the push sender); the others record.
    public func sendReportingSuperseded(_ record: PushRecord) async throws -> [PushRecord] {
        var firstError: (any Error)?
        var superseded: [PushRecord] = []
        var seen: Set<String> = []
        for sink in sinks {
            do {
                superseded += try await sink.sendReportingSuperseded(record).filter { seen.insert($0.key).inserted }
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return superseded
    }

    public func refused(_ refusal: PushRefusal) async throws {
        var firstError: (any Error)?
        for sink in sinks {
            do { try await sink.refused(refusal) } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    /// Hands the request to every sink (a file records it) and returns the first answer.
    public func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        var firstError: (any Error)?
        var answer: ChannelAnswer?
        for sink in sinks {
            do {
                let given = try await sink.manage(request)
                answer = answer ?? given
            } catch {
                firstError = firstError ?? error
            }
        }
        if let answer { return answer }
        if let firstError { throw firstError }
        return nil
    }

    /// Finishes every sink in turn (a file's lines, then a webhook's queue), then throws the
    /// first error.
    public func finish() async throws {
        var firstError: (any Error)?
        for sink in sinks {
            do { try await sink.finish() } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    /// Runs every sink's own work side by side, until cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for sink in sinks { group.addTask { await sink.run() } }
        }
    }

    /// What any of the sinks still holds of `game`.
    public func pending(game: String) async -> Int {
        var total = 0
        for sink in sinks { total += await sink.pending(game: game) }
        return total
    }
}

import Foundation
import ScoreFeed

/// Stands between the engines and standard output, and notices when its reader goes away
/// (`serve | head -3`): `SIGPIPE` is ignored, the write fails with `EPIPE`, and this sink keeps,
/// per game, the `seq` it was writing, then wakes ``wentAway()`` so the run stops. The failed
/// push stays in its game's outbox (and checkpoint), as with any sink that fails.
///
/// Not an actor: its calls run on the caller's executor, as ``JSONLSink``'s do, so a push costs
/// no hop. When the lines are written in the background, the write that found no reader surfaces
/// on a later call (or on ``flush()``), and that call's game and seq are the ones named.
final class ReaderGoneSink: PushSink, @unchecked Sendable {
    private let inner: JSONLSink
    private let lock = NSLock()
    /// What each write that found no reader was writing, once per game (its key), in order:
    /// "game G seq N", "game G" (a refusal or a game's channel request), "the channel requests",
    /// "the last lines" (the background writer's last flush, when nothing else was noted).
    private var writing: [(key: String, said: String)] = []
    private let gone: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init(_ inner: JSONLSink) {
        self.inner = inner
        (gone, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Whether a write found no reader.
    var noticed: Bool {
        lock.withLock { !writing.isEmpty }
    }

    /// Returns once a write has found no reader (or the task is cancelled).
    func wentAway() async {
        var iterator = gone.makeAsyncIterator()
        _ = await iterator.next()
    }

    nonisolated(nonsending) func send(_ record: PushRecord) async throws {
        do { try await inner.send(record) } catch { try noting(error, for: record.game, "game \(record.game) seq \(record.seq)") }
    }

    nonisolated(nonsending) func refused(_ refusal: PushRefusal) async throws {
        do { try await inner.refused(refusal) } catch { try noting(error, for: refusal.game, "game \(refusal.game)") }
    }

    nonisolated(nonsending) func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        do { return try await inner.manage(request) } catch {
            try noting(error, for: request.game ?? "(channels)", request.game.map { "game \($0)" } ?? "the channel requests")
        }
    }

    /// Waits for the lines written in the background; a reader gone by then is noted.
    nonisolated(nonsending) func flush() async throws {
        do { try await inner.flush() } catch { try noting(error, for: nil, "the last lines") }
    }

    /// Keeps what a write without a reader was for (`said`, the first time for `key`; with no
    /// key, only when nothing else was), then throws `error` on.
    private func noting(_ error: any Error, for key: String?, _ said: String) throws -> Never {
        if (error as? ScoreFeedError)?.code == .readerGone {
            lock.withLock {
                let first = key.map { key in !writing.contains { $0.key == key } } ?? writing.isEmpty
                if first { writing.append((key ?? "", said)) }
            }
            continuation.yield()
        }
        throw error
    }

    /// What to tell the operator: the games and seqs that were being written, at most `limit`
    /// of them named.
    func message(command: String, resumable: Bool, limit: Int = 5) -> String {
        let writing = lock.withLock { self.writing }
        let named = writing.prefix(limit).map(\.said)
        let more = writing.count > limit ? " and \(writing.count - limit) more games" : ""
        return "\(command): the reader of standard output went away (EPIPE) while \(command) was writing "
            + named.joined(separator: ", ") + more + "; "
            + (resumable
                ? "those pushes and the ones after them are kept in the state dir's checkpoints and go out when \(command) runs again on it"
                : "those pushes and the ones after them were not sent (without --state-dir nothing keeps them)")
            + ". A pipe cannot resume: --out <file> or --webhook <url> gives delivery that can."
    }
}

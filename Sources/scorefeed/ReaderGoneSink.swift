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
    /// Games whose write found no reader, in order, with the seq each was writing (nil: a
    /// refusal, a channel request or the last flush, which have none).
    private var gamesUnwritten: [(game: String, seq: Int?)] = []
    private let gone: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init(_ inner: JSONLSink) {
        self.inner = inner
        (gone, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// The games (and seqs) whose writes found no reader.
    var unwritten: [(game: String, seq: Int?)] {
        lock.lock()
        defer { lock.unlock() }
        return gamesUnwritten
    }

    /// Returns once a write has found no reader (or the task is cancelled).
    func wentAway() async {
        var iterator = gone.makeAsyncIterator()
        _ = await iterator.next()
    }

    nonisolated(nonsending) func send(_ record: PushRecord) async throws {
        do { try await inner.send(record) } catch { try noting(error, game: record.game, seq: record.seq) }
    }

    nonisolated(nonsending) func refused(_ refusal: PushRefusal) async throws {
        do { try await inner.refused(refusal) } catch { try noting(error, game: refusal.game, seq: nil) }
    }

    nonisolated(nonsending) func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? {
        do { return try await inner.manage(request) } catch { try noting(error, game: request.game ?? "(channels)", seq: nil) }
    }

    /// Waits for the lines written in the background; a reader gone by then is noted.
    nonisolated(nonsending) func flush() async throws {
        do { try await inner.flush() } catch { try noting(error, game: nil, seq: nil) }
    }

    /// Keeps the game and seq a write without a reader was for, then throws `error` on.
    private func noting(_ error: any Error, game: String?, seq: Int?) throws -> Never {
        if (error as? ScoreFeedError)?.code == .readerGone {
            lock.lock()
            if let game, !gamesUnwritten.contains(where: { $0.game == game }) { gamesUnwritten.append((game, seq)) }
            if game == nil && gamesUnwritten.isEmpty { gamesUnwritten.append(("(the last lines)", nil)) }
            lock.unlock()
            continuation.yield()
        }
        throw error
    }

    /// What to tell the operator: the games and seqs that were being written, at most `limit`
    /// of them named.
    func message(command: String, resumable: Bool, limit: Int = 5) -> String {
        let unwritten = self.unwritten
        let named = unwritten.prefix(limit).map { $0.game.hasPrefix("(") ? $0.game : "game \($0.game)" + ($0.seq.map { " seq \($0)" } ?? "") }
        let more = unwritten.count > limit ? " and \(unwritten.count - limit) more games" : ""
        return "\(command): the reader of standard output went away (EPIPE) while \(command) was writing "
            + named.joined(separator: ", ") + more + "; "
            + (resumable
                ? "those pushes and the ones after them are kept in the state dir's checkpoints and go out when \(command) runs again on it"
                : "those pushes and the ones after them were not sent (without --state-dir nothing keeps them)")
            + ". A pipe cannot resume: --out <file> or --webhook <url> gives delivery that can."
    }
}

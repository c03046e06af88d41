import Foundation

/// Renders lines and writes them on a thread of its own, so the engines never wait for the
/// output: what ``JSONLSink`` does with ``JSONLSink/Writing/background``. Lines queued while a
/// write is under way go out together in the next single write call, in the order they came.
///
/// The queue is bounded: a producer that gets ahead of a slow reader waits (suspended, not
/// blocking its thread) until the writer has taken what is queued. The first write error is kept
/// and thrown to every later caller.
final class BackgroundWriter: @unchecked Sendable {
    /// What is queued: rendered into its line on the writer's thread.
    enum Line {
        case push(PushRecord)
        // (The rare kinds boxed: a line is one reference wide.)
        indirect case refusal(PushRefusal)
        indirect case channel(ChannelRequest)

        /// Appends the line and its newline to `out`.
        func render(into out: inout JSONBytes) {
            switch self {
            case .push(let record): record.write(into: &out)
            case .refusal(let refusal): refusal.write(into: &out)
            case .channel(let request): request.write(into: &out)
            }
            out.byte(0x0A)
        }
    }

    /// The most lines queued before a producer waits.
    static let capacity = 4_096
    /// Fewer lines than this wait up to ``gather`` seconds for more before they are written.
    static let chunk = 64
    static let gather: TimeInterval = 0.002

    private let condition = NSCondition()
    private var queue: [Line] = []
    /// The writer holds lines it took and has not yet written.
    private var writing = false
    private var started = false
    /// The writer waits for lines (a producer wakes it; otherwise it finds them when it is done).
    private var idle = false
    private var closed = false
    private var failure: ScoreFeedError?
    /// Run when the thread ends (closing the file).
    private var finally: (@Sendable () -> Void)?
    /// Producers waiting for room, and callers of ``flush()`` waiting for the queue to empty.
    private var waitingForRoom: [CheckedContinuation<Void, Never>] = []
    private var waitingForDrain: [CheckedContinuation<Void, Never>] = []
    private let write: @Sendable (Data) throws(ScoreFeedError) -> Void

    /// `write` puts one chunk of whole lines out (it runs on the writer's thread only).
    init(write: @escaping @Sendable (Data) throws(ScoreFeedError) -> Void) {
        self.write = write
    }

    /// Queues `line`; throws the writer's first failure instead, once there is one.
    nonisolated(nonsending) func enqueue(_ line: Line) async throws(ScoreFeedError) {
        while true {
            switch admit(line) {
            case .queued: return
            case .failed(let failure): throw failure
            case .full: await withCheckedContinuation { waitForRoom($0) }
            }
        }
    }

    /// Returns once everything queued so far is written; throws the writer's first failure.
    nonisolated(nonsending) func flush() async throws(ScoreFeedError) {
        await withCheckedContinuation { waitForDrain($0) }
        if let failure = locked({ failure }) { throw failure }
    }

    private enum Admission {
        case queued, full
        case failed(ScoreFeedError)
    }

    private func admit(_ line: Line) -> Admission {
        locked {
            if let failure { return .failed(failure) }
            guard queue.count < Self.capacity else { return .full }
            queue.append(line)
            if !started {
                started = true
                Thread.detachNewThread { [self] in run() }
            }
            if idle { condition.signal() }
            return .queued
        }
    }

    /// Resumes `continuation` once there is room (at once when there is already).
    private func waitForRoom(_ continuation: CheckedContinuation<Void, Never>) {
        let now = locked {
            if queue.count < Self.capacity || failure != nil || closed { return true }
            waitingForRoom.append(continuation)
            return false
        }
        if now { continuation.resume() }
    }

    /// Resumes `continuation` once the queue is written (at once when it is).
    private func waitForDrain(_ continuation: CheckedContinuation<Void, Never>) {
        let now = locked {
            if queue.isEmpty && !writing { return true }
            waitingForDrain.append(continuation)
            return false
        }
        if now { continuation.resume() }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Lets the thread end once the queue is written, then runs `finally` (at once when the
    /// thread never started).
    func close(then finally: (@Sendable () -> Void)? = nil) {
        let now = locked {
            closed = true
            self.finally = finally
            condition.signal()
            return !started
        }
        if now { finally?() }
    }

    private func run() {
        // The lines of a chunk are rendered into one buffer, kept from chunk to chunk.
        var chunk = JSONBytes(capacity: 64 * 1_024)
        condition.lock()
        while true {
            while queue.isEmpty && !closed {
                idle = true
                condition.wait()
                idle = false
            }
            if queue.isEmpty { break }
            // A few lines at a time cost a wake-up each: the writer gives the producers a moment
            // to queue more, so lines go out in chunks (a line waits at most this long).
            if queue.count < Self.chunk && !closed { _ = condition.wait(until: Date().addingTimeInterval(Self.gather)) }
            let lines = queue
            queue.removeAll(keepingCapacity: true)
            writing = true
            let room = waitingForRoom
            waitingForRoom = []
            let failed = failure != nil
            condition.unlock()
            for waiter in room { waiter.resume() }

            var error: ScoreFeedError?
            if !failed {
                for line in lines { line.render(into: &chunk) }
                do { try chunk.drain(write) } catch let failure { error = failure }
            }

            condition.lock()
            writing = false
            if let error, failure == nil { failure = error }
            if queue.isEmpty {
                let drained = waitingForDrain
                waitingForDrain = []
                condition.unlock()
                for waiter in drained { waiter.resume() }
                condition.lock()
            }
        }
        let left = waitingForRoom + waitingForDrain
        waitingForRoom = []
        waitingForDrain = []
        let finally = self.finally
        condition.unlock()
        for waiter in left { waiter.resume() }
        finally?()
    }
}

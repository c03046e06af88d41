import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP requests whose answers are bounded in size and in time, so that no endpoint, however
/// hostile, can make the process grow or hang: the body is read as a stream and dropped once it
/// passes `maxBody` bytes, the whole request (connection to last byte, not only the idle time
/// between bytes) is given up after `timeout` seconds, and cancelling the calling task cancels
/// the request at once.
///
/// The bytes counted are the decoded ones: URLSession (libcurl on Linux) unpacks a gzip answer
/// before handing it over, so a small gzip body that inflates a thousandfold is stopped at the
/// cap like any other.
///
/// Why a delegate on an inline queue, and a session per URL (`Lane`): swift-corelibs-foundation hands each received piece to the
/// delegate queue without waiting, so an `OperationQueue` slower than the network piles up
/// pieces in memory (hundreds of MB from a local endpoint, measured) before the cap is seen. The
/// `InlineQueue` runs the delegate on the transfer's own thread, as the bytes arrive: nothing
/// piles up, and each piece is counted and dropped before the next is read.
public final class BoundedHTTP: Sendable {
    /// A whole answer within the bounds.
    public struct Answer: Sendable {
        public var response: HTTPURLResponse
        public var body: Data
    }

    /// Why there is no answer.
    public enum Failure: Error, Hashable, Sendable {
        /// The body passed `limit` decoded bytes; what came was dropped.
        case tooLarge(limit: Int)
        /// The whole request took longer than `seconds`.
        case timedOut(seconds: TimeInterval)
        /// The calling task was cancelled.
        case cancelled
        /// No answer: the connection failed (the URL error's code).
        case transport(URLError.Code)
        /// Not an HTTP answer.
        case notHTTP
    }

    /// The most decoded bytes of a body that are kept.
    public let maxBody: Int
    /// Seconds one whole request may take.
    public let timeout: TimeInterval
    /// One session per URL (see ``Lane``), made on first use.
    private let lanes = Mutex<[String: Lane]>([:])

    public init(maxBody: Int, timeout: TimeInterval) {
        self.maxBody = maxBody
        self.timeout = timeout
    }

    deinit {
        // Not here: invalidating waits for each session's queue, which a hostile transfer may
        // hold for seconds (libcurl inflating what it has read), and would hold up the exit.
        for lane in lanes.withLock({ Array($0.values) }) { lane.retire() }
    }

    /// Sends `request` and reads its answer within the bounds. Returns as soon as a bound is
    /// passed or the task is cancelled; the transfer is cancelled behind it (libcurl may take a
    /// moment to notice, for instance while it inflates what it has already read).
    public func fetch(_ request: URLRequest) async -> Result<Answer, Failure> {
        if Task.isCancelled { return .failure(.cancelled) }
        let key = request.url?.absoluteString ?? ""
        let lane = lane(for: key)
        let transfer = Transfer(limit: maxBody) { [weak self] in self?.retire(lane, key) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard transfer.attach(continuation) else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [timeout] in
                    _ = transfer.stop(.timedOut(seconds: timeout))
                }
                // Making a task waits for the session's queue: never on the caller's thread. A lane
                // another request retired meanwhile makes none: the request fails as a lost
                // connection (tried again like one).
                DispatchQueue.global().async {
                    let made = lane.makeTask(request) { task in
                        lane.receiver.add(transfer, for: task.taskIdentifier)
                        if !transfer.isSettled { task.resume() }
                    }
                    if !made { transfer.complete(URLError(.networkConnectionLost)) }
                }
            }
        } onCancel: {
            _ = transfer.stop(.cancelled)
        }
    }

    /// The lane of `url`, made on first use.
    private func lane(for url: String) -> Lane {
        lanes.withLock { lanes in
            if let lane = lanes[url] { return lane }
            let lane = Lane(timeout: timeout)
            lanes[url] = lane
            return lane
        }
    }

    /// Drops `lane` after a transfer on it was stopped: its session is cancelled and let go on
    /// another thread (that waits for its queue), and the URL's next request gets a new lane.
    private func retire(_ lane: Lane, _ url: String) {
        lanes.withLock { lanes in
            if lanes[url] === lane { lanes[url] = nil }
        }
        lane.retire()
    }
}

extension BoundedHTTP {
    /// A session of its own for one URL. swift-corelibs-foundation runs all of a session's
    /// transfers on one serial queue, and making a task or cancelling one waits its turn there:
    /// a hostile answer streaming at full speed (or libcurl inflating a gzip bomb) holds it for
    /// seconds (measured). One session per URL keeps each document apart from the others and
    /// keeps its connection alive between polls; a lane whose transfer was stopped is retired
    /// and the next request gets a new one, so nothing ever waits for a hostile transfer.
    final class Lane: @unchecked Sendable {
        let session: URLSession
        let receiver = Receiver()
        /// Set once the lane is retired: no task is made on it after.
        private let retired = Atomic(false)
        /// Held while a task is made, and taken by the retirement before it cancels the session:
        /// swift-corelibs-foundation stops the process when a task is made on a session that is
        /// invalidated, and requests side by side on one URL share its lane.
        private let making = NSLock()

        /// Makes a task for `request` and hands it to `start`, unless the lane is retired (false).
        func makeTask(_ request: URLRequest, start: (URLSessionDataTask) -> Void) -> Bool {
            making.lock()
            defer { making.unlock() }
            guard !retired.load(ordering: .acquiring) else { return false }
            start(session.dataTask(with: request))
            return true
        }

        /// No task is made on it from now on; its session is cancelled and let go on another
        /// thread, once a task being made is (that waits for the session's queue, which a
        /// hostile transfer may hold for seconds: never on the transfer's own thread).
        func retire() {
            guard !retired.exchange(true, ordering: .acquiringAndReleasing) else { return }
            DispatchQueue.global().async { [self] in
                making.lock()
                making.unlock()
                session.invalidateAndCancel()
            }
        }

        init(timeout: TimeInterval) {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.timeoutIntervalForResource = timeout
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpShouldSetCookies = false
            session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: InlineQueue())
        }
    }

    /// What a URL error's code means, in a few words (never the error's own description, which
    /// can carry the URL with its query).
    public static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection lost"
        case .timedOut: return "timed out"
        case .cannotFindHost: return "unknown host"
        case .unknown: return "the connection failed (URL error -1)"
        default: return "URL error \(code.rawValue)"
        }
    }

    /// An operation queue that runs each operation at once on the thread that adds it: the
    /// session's delegate then runs on the transfer's thread, as each piece arrives.
    final class InlineQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }

        override func addOperation(_ operation: Operation) {
            operation.start()
        }
    }

    /// One request's state: the body so far, its result once there is one, and the caller
    /// waiting for it. The first of the answer, a bound passed or a cancel decides the result.
    final class Transfer: Sendable {
        typealias Waiting = CheckedContinuation<Result<Answer, Failure>, Never>

        private struct State {
            var body = Data()
            var response: URLResponse?
            var continuation: Waiting?
            var result: Result<Answer, Failure>?
        }

        let limit: Int
        private let state = Mutex(State())
        /// Called once, when a bound or a cancel stops it: the transfer is to be cancelled.
        private let onStop: @Sendable () -> Void

        init(limit: Int, onStop: @escaping @Sendable () -> Void) {
            self.limit = limit
            self.onStop = onStop
        }

        var isSettled: Bool { state.withLock { $0.result != nil } }

        /// Hands over the waiting caller; false (and the caller resumed) when it is already over.
        func attach(_ continuation: Waiting) -> Bool {
            let finished = state.withLock { state -> Result<Answer, Failure>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let finished { continuation.resume(returning: finished) }
            return finished == nil
        }

        /// Settles it with `result` unless it is settled, runs `first`, and resumes the caller;
        /// false when it was settled before.
        @discardableResult
        private func settle(_ result: Result<Answer, Failure>, first: () -> Void = {}) -> Bool {
            let (settled, waiting) = state.withLock { state -> (Bool, Waiting?) in
                guard state.result == nil else { return (false, nil) }
                state.result = result
                state.body = Data()
                defer { state.continuation = nil }
                return (true, state.continuation)
            }
            guard settled else { return false }
            first()
            waiting?.resume(returning: result)
            return true
        }

        /// Stops it for `reason` unless it is over, calling `onStop` and then resuming the caller
        /// at once; true when this call stopped it. In that order: the caller's next request on
        /// the URL must find the stopped lane retired, not make its task on the session being
        /// cancelled (where it waited out the whole time-out, although answered).
        func stop(_ reason: Failure) -> Bool {
            settle(.failure(reason), first: onStop)
        }

        func received(_ response: URLResponse) {
            state.withLock { $0.response = response }
        }

        /// Keeps `piece` unless the body passes the limit, which stops it.
        func received(_ piece: Data) {
            let passed = state.withLock { state -> Bool in
                guard state.result == nil else { return false }
                guard state.body.count + piece.count <= limit else { return true }
                state.body.append(piece)
                return false
            }
            if passed { _ = stop(.tooLarge(limit: limit)) }
        }

        /// The request is over: resumes the caller with the answer, or why there is none (unless
        /// it was stopped, and resumed, before).
        func complete(_ error: (any Error)?) {
            let answer = state.withLock { state -> Result<Answer, Failure> in
                if let error = error as? URLError {
                    return .failure(error.code == .cancelled ? .cancelled : .transport(error.code))
                } else if error != nil {
                    return .failure(.transport(.unknown))
                } else if let http = state.response as? HTTPURLResponse {
                    return .success(Answer(response: http, body: state.body))
                }
                return .failure(.notHTTP)
            }
            settle(answer)
        }
    }

    /// The session's delegate: hands each task's events to its ``Transfer``.
    final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let transfers = Mutex<[Int: Transfer]>([:])

        func add(_ transfer: Transfer, for task: Int) {
            transfers.withLock { $0[task] = transfer }
        }

        private func transfer(_ task: URLSessionTask) -> Transfer? {
            transfers.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let transfer = transfer(dataTask) else { return completionHandler(.allow) }
            // An answer that says it is over the cap is stopped before its body is read.
            if response.expectedContentLength > Int64(transfer.limit) {
                _ = transfer.stop(.tooLarge(limit: transfer.limit))
                return completionHandler(.cancel)
            }
            transfer.received(response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            transfer(dataTask)?.received(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            transfer?.complete(error)
        }
    }
}

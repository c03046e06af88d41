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
/// Why a delegate on an inline queue: swift-corelibs-foundation hands each received piece to the
/// delegate queue without waiting, so an `OperationQueue` slower than the network piles up
/// pieces in memory (hundreds of MB from a local endpoint, measured) before the cap is seen. The
/// ``InlineQueue`` runs the delegate on the transfer's own thread, as the bytes arrive: nothing
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
    private let session: URLSession
    private let receiver: Receiver

    public init(maxBody: Int, timeout: TimeInterval) {
        self.maxBody = maxBody
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        receiver = Receiver()
        session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: InlineQueue())
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and reads its answer within the bounds.
    public func fetch(_ request: URLRequest) async -> Result<Answer, Failure> {
        if Task.isCancelled { return .failure(.cancelled) }
        let task = session.dataTask(with: request)
        let transfer = Transfer(limit: maxBody)
        receiver.add(transfer, for: task.taskIdentifier)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard transfer.attach(continuation) else { return }
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [timeout] in
                    if transfer.stop(.timedOut(seconds: timeout)) { task.cancel() }
                }
            }
        } onCancel: {
            if transfer.stop(.cancelled) { task.cancel() }
        }
    }
}

extension BoundedHTTP {
    /// What a URL error's code means, in a few words (never the error's own description, which
    /// can carry the URL with its query).
    public static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection lost"
        case .timedOut: return "timed out"
        case .cannotFindHost: return "unknown host"
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

    /// One request's state: the body so far, why it was stopped, and the caller waiting for it.
    final class Transfer: Sendable {
        private struct State {
            var body = Data()
            var response: URLResponse?
            var stopped: Failure?
            var continuation: CheckedContinuation<Result<Answer, Failure>, Never>?
            var result: Result<Answer, Failure>?
        }

        let limit: Int
        private let state = Mutex(State())

        init(limit: Int) {
            self.limit = limit
        }

        /// Hands over the waiting caller; false (and the caller resumed) when it is already over.
        func attach(_ continuation: CheckedContinuation<Result<Answer, Failure>, Never>) -> Bool {
            let finished = state.withLock { state -> Result<Answer, Failure>? in
                if let result = state.result ?? state.stopped.map({ .failure($0) }) {
                    state.result = result
                    return result
                }
                state.continuation = continuation
                return nil
            }
            if let finished { continuation.resume(returning: finished) }
            return finished == nil
        }

        /// Stops it for `reason` unless it is over; true when this call stopped it.
        func stop(_ reason: Failure) -> Bool {
            state.withLock { state in
                guard state.stopped == nil, state.result == nil else { return false }
                state.stopped = reason
                state.body = Data()
                return true
            }
        }

        func received(_ response: URLResponse) {
            state.withLock { $0.response = response }
        }

        /// Keeps `piece` unless the body passes the limit; true when this piece passed it.
        func received(_ piece: Data) -> Bool {
            state.withLock { state in
                guard state.stopped == nil else { return false }
                guard state.body.count + piece.count <= limit else {
                    state.stopped = .tooLarge(limit: limit)
                    state.body = Data()
                    return true
                }
                state.body.append(piece)
                return false
            }
        }

        /// The request is over: resumes the caller with the answer, or why there is none.
        func complete(_ error: (any Error)?) {
            let (continuation, result) = state.withLock { state -> (CheckedContinuation<Result<Answer, Failure>, Never>?, Result<Answer, Failure>) in
                let result: Result<Answer, Failure>
                if let stopped = state.stopped {
                    result = .failure(stopped)
                } else if let error = error as? URLError {
                    result = .failure(error.code == .cancelled ? .cancelled : .transport(error.code))
                } else if error != nil {
                    result = .failure(.transport(.unknown))
                } else if let http = state.response as? HTTPURLResponse {
                    result = .success(Answer(response: http, body: state.body))
                } else {
                    result = .failure(.notHTTP)
                }
                state.body = Data()
                state.result = result
                defer { state.continuation = nil }
                return (state.continuation, result)
            }
            continuation?.resume(returning: result)
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
            transfer(dataTask)?.received(response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let transfer = transfer(dataTask), transfer.received(data) else { return }
            // Not from here: this is the transfer's own thread, which `cancel` waits for.
            DispatchQueue.global().async { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            transfer?.complete(error)
        }
    }
}

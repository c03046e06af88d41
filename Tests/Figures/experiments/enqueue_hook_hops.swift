// Session 38's measurement behind experiments/enqueue-hook.patch: what an actor hop costs a task
// run one job at a time on one thread, (1) with a task executor preference (SimulationExecutor's
// way: every hop is a job of its own) and (2) with Swift's global-enqueue hook taking the thread's
// jobs (hops switch on the thread, as on Swift's pool).
// usage: swiftc -O -parse-as-library -o /tmp/hops Tests/Figures/experiments/enqueue_hook_hops.swift
//        /tmp/hops preference 1000000; /tmp/hops hook 1000000
import Foundation
import Synchronization

typealias Original = @convention(thin) (UnownedJob) -> Void
typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

final class Queue: TaskExecutor, @unchecked Sendable {
    let jobs = Mutex<[UnownedJob]>([])
    var enqueued = 0
    func enqueue(_ job: consuming ExecutorJob) { add(UnownedJob(job)) }
    func add(_ job: UnownedJob) { enqueued += 1; jobs.withLock { $0.append(job) } }
}

final class Shared: @unchecked Sendable {
    var thread = pthread_self()
    var result: Int?
}

let queue = Queue()
let shared = Shared()

actor Counter {
    var n = 0
    func add() -> Int { n += 1; return n }
}

@main struct Hops {
    static func main() async {
        let mode = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "hook"
        let count = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 1_000_000 : 1_000_000
        let counter = Counter()
        let hook = Int(bitPattern: dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook"))
        let thread = Thread {
            shared.thread = pthread_self()
            if mode != "preference" {
                UnsafeMutablePointer<Hook?>(bitPattern: hook)!.pointee = { job, original in
                    if pthread_equal(pthread_self(), shared.thread) != 0 { queue.add(job) } else { original(job) }
                }
            }
            let start = ContinuousClock.now
            let work: @Sendable () async -> Void = {
                var sum = 0
                for _ in 0..<count { sum += await counter.add() }
                shared.result = sum
            }
            if mode == "preference" { _ = Task(executorPreference: queue) { await work() } } else { _ = Task { await work() } }
            let generic = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)
            var ran = 0
            while shared.result == nil {
                var batch: [UnownedJob] = []
                queue.jobs.withLock { swap(&batch, &$0) }
                for job in batch {
                    ran += 1
                    if mode == "preference" { job.runSynchronously(on: queue.asUnownedTaskExecutor()) } else { job.runSynchronously(on: generic) }
                }
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            print("\(mode): \(count) turns, \(queue.enqueued) jobs enqueued, \(ran) run, \(String(format: "%.3f", seconds)) s")
        }
        thread.start()
        while shared.result == nil { try? await Task.sleep(for: .milliseconds(10)) }
        try? await Task.sleep(for: .milliseconds(50))
    }
}

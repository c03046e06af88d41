import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Simulation {
    /// Which days to run, and how.
    public struct Options: Sendable {
        public var days: Int
        public var seed: UInt64
        /// The first day's index (a failure is replayed by its seed and index alone).
        public var firstDay: Int
        public var modes: [PushRenderer.Mode]
        /// The lock screens each day runs for, a run each (iOS's and Android's by default: every
        /// invariant holds for each); `[.ios, .android]` is one run with both lanes.
        public var platforms: [[PushRenderer.Platform]] = [[.ios], [.android]]
        public var pool: SimulatedGamePool
        public var pollInterval: TimeInterval
        /// Games a day holds.
        public var games: ClosedRange<Int>
        /// Whether a restart may come without its state directory (a lost machine; on by
        /// default): the fresh instance then sends each final's end again, once, and never an
        /// older score than the lost one showed.
        public var losingState: Bool
        /// Days run side by side, each on a thread of its own.
        public var threads: Int
        /// Where the run makes its directory for the days' state directories (removed after each
        /// day, and it after the run).
        public var stateRoot: URL
        /// Seconds apart that pushes still count as one moment for the join rule (0: the same
        /// instant; by default ``Simulation/defaultMoment``).
        public var moment: TimeInterval = Simulation.defaultMoment
        /// Whether the tasks ready at one instant run in a seeded order of each day's instead of
        /// the order they became ready (on by default: more of the orders live threads could take).
        public var shuffled = true
        /// Whether a day may draw a kill inside a played game's final's writes, the sender down
        /// across it (``SimulatedDay/Restart/writesOfGame``; on by default). Off, days are drawn as
        /// before that draw came (session 54), as tests that replay a day found earlier need.
        public var killsInFinalWrites = true
        /// Whether some of a day's kills are power cuts (``SimulatedDay/Restart/powerCut``; on by
        /// default). Off, days are drawn as before that draw came (session 56).
        public var powerCuts = true

        public init(
            days: Int, seed: UInt64, firstDay: Int = 0, modes: [PushRenderer.Mode] = [.token, .broadcastPerGame],
            pool: SimulatedGamePool = SimulatedGamePool(), pollInterval: TimeInterval = 30, games: ClosedRange<Int> = 5...15, losingState: Bool = true,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount, stateRoot: URL = Simulation.defaultStateRoot
        ) {
            self.days = days
            self.seed = seed
            self.firstDay = firstDay
            self.modes = modes
            self.pool = pool
            self.pollInterval = pollInterval
            self.games = games
            self.losingState = losingState
            self.threads = max(1, threads)
            self.stateRoot = stateRoot
        }

        /// The day-runs, in the order their outcomes are handed on: by day, then mode, then
        /// platform.
        public var dayRuns: [(day: Int, mode: PushRenderer.Mode, platforms: [PushRenderer.Platform])] {
            (0..<days).flatMap { day in modes.flatMap { mode in platforms.map { (firstDay + day, mode, $0) } } }
        }
    }

    /// Memory-backed where the system has it (`/dev/shm`, else the temporary directory): a day
    /// syncs its journals thousands of times. Each run and each day makes a directory of its own
    /// in it and removes it when done, so nothing is left there.
    public static var defaultStateRoot: URL {
        let shm = URL(fileURLWithPath: "/dev/shm")
        return FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
    }

    /// Runs the days (each in each mode, for each platform) on ``Options/threads`` threads of their
    /// own, off Swift's cooperative pool; returns their outcomes in order (day, then mode, then
    /// platform), whatever order they finished in.
    public static func run(_ options: Options) async -> [Outcome] {
        await run(options, each: nil)
    }

    /// ``run(_:)`` that hands each outcome to `each`, in order (day, then mode), as soon as it and
    /// every one before it are done, and returns them without their records: a long run keeps no
    /// more records than those of the days finished out of order (1,000 days delivered about
    /// 1.1 million). `each` is called on the simulation's threads, one call at a time.
    public static func run(_ options: Options, each: (@Sendable (Outcome) -> Void)?) async -> [Outcome] {
        let work = options.dayRuns
        // A directory of this run's own: runs side by side (tests) never share one.
        let root = options.stateRoot.appendingPathComponent("scorefeed-simulate-\(UUID().uuidString)")
        let results = Results(count: work.count, each: each)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let left = Results.Counter(options.threads)
            for _ in 0..<options.threads {
                let thread = Thread {
                    while let index = results.take(), index < work.count {
                        let (day, mode, platforms) = work[index]
                        var plan = SimulatedDay(
                            index: day, seed: options.seed, mode: mode, platform: platforms[0], pool: options.pool, pollInterval: options.pollInterval,
                            games: options.games, losingState: options.losingState, killsInFinalWrites: options.killsInFinalWrites, powerCuts: options.powerCuts)
                        plan.platforms = platforms
                        results.set(index, run(plan, stateRoot: root, moment: options.moment, shuffled: options.shuffled))
                    }
                    if left.finish() { done.resume() }
                }
                thread.stackSize = 8 << 20
                thread.start()
            }
        }
        try? FileManager.default.removeItem(at: root)
        return results.all
    }

    /// The outcomes as they come in, from several threads.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var outcomes: [Outcome?]
        private let each: (@Sendable (Outcome) -> Void)?
        /// Outcomes handed to ``each`` so far (those before this index).
        private var handed = 0
        /// Whether a thread is handing outcomes to ``each``: the others leave it to that one.
        private var handing = false

        init(count: Int, each: (@Sendable (Outcome) -> Void)?) {
            outcomes = Array(repeating: nil, count: count)
            self.each = each
        }

        func take() -> Int? {
            lock.withLock {
                defer { next += 1 }
                return next < outcomes.count ? next : nil
            }
        }

        /// Keeps `outcome` and hands on, in order, those now ready. `each` runs outside the lock,
        /// so the other threads take their next day meanwhile; one thread hands at a time.
        func set(_ index: Int, _ outcome: Outcome) {
            let hands: Bool = lock.withLock {
                outcomes[index] = outcome
                guard each != nil, !handing else { return false }
                handing = true
                return true
            }
            guard hands, let each else { return }
            while let next: Outcome = lock.withLock({
                guard handed < outcomes.count, let next = outcomes[handed] else {
                    handing = false
                    return nil
                }
                return next
            }) {
                each(next)
                lock.withLock {
                    outcomes[handed]?.records = []
                    handed += 1
                }
            }
        }

        var all: [Outcome] { lock.withLock { outcomes.compactMap { $0 } } }

        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var running: Int

            init(_ count: Int) { running = count }

            /// One thread is done; true for the last.
            func finish() -> Bool { lock.withLock { running -= 1; return running == 0 } }
        }
    }
}

extension Simulation {
    /// The run's figures for people: days, games, faults by kind, checks, pushes, time.
    public static func figures(_ outcomes: [Outcome], seconds: Double, digest: String) -> String {
        var faults: [String: Int] = [:]
        var answers: [String: Int] = [:]
        for outcome in outcomes {
            faults.merge(outcome.faults, uniquingKeysWith: +)
            answers.merge(outcome.answers, uniquingKeysWith: +)
        }
        let broken = outcomes.filter { !$0.violations.isEmpty }.count
        let pushes = outcomes.reduce(0) { $0 + $1.pushes }
        let steps = outcomes.reduce(0) { $0 + $1.steps }
        let hours = outcomes.reduce(0) { $0 + $1.simulatedSeconds } / 3600
        func list(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        return """
            days: \(outcomes.count) (\(broken) broke an invariant), games: \(outcomes.reduce(0) { $0 + $1.games }), \
            instances: \(outcomes.reduce(0) { $0 + $1.instances }), simulated hours: \(Int(hours))
            faults: \(list(faults))
            kills inside a write: \(outcomes.reduce(0) { $0 + $1.killsInsideWrites }), devices failed at a snapshot's rename: \(outcomes.reduce(0) { $0 + $1.devicesFailed })
            CDN answers: \(list(answers))
            checks: \(outcomes.reduce(0) { $0 + $1.checks }), violations: \(outcomes.reduce(0) { $0 + $1.violations.count })
            pushes: \(pushes), records digest: \(digest)
            steps: \(steps) (\(outcomes.isEmpty ? 0 : steps / outcomes.count) a day)
            time: \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", Double(outcomes.count) / max(seconds, 0.001))) days/s)
            """
    }
}

import Foundation
import Synchronization
import Testing
@testable import ScoreFeed

/// The executor that runs a simulation one job at a time on virtual time.
@Suite("SimulationExecutor: one job at a time, time moves when all wait")
struct SimulationExecutorTests {
    /// Tasks sleeping to interleaved deadlines wake in deadline order, on virtual time, the same
    /// way every run.
    @Test func tasksWakeInDeadlineOrderOnVirtualTime() async throws {
        let logs = try await OffPool.run {
            (0..<3).map { _ -> [String] in
                let clock = SimulatedClock(Date(timeIntervalSince1970: 0))
                let log = Log()
                let ending = SimulationExecutor.run(on: clock) {
                    await withTaskGroup(of: Void.self) { group in
                        for (name, step) in [("a", 7.0), ("b", 5.0), ("c", 3.0)] {
                            group.addTask {
                                for turn in 1...3 {
                                    try? await clock.sleep(until: Date(timeIntervalSince1970: step * Double(turn)))
                                    log.add("\(name)@\(Int(clock.now.timeIntervalSince1970))")
                                }
                            }
                        }
                    }
                    return clock.now.timeIntervalSince1970
                }
                guard case .finished(let end) = ending else { return ["not finished"] }
                return log.lines + ["end \(Int(end))"]
            }
        }
        #expect(logs[0] == ["c@3", "b@5", "c@6", "a@7", "c@9", "b@10", "a@14", "b@15", "a@21", "end 21"])
        #expect(Set(logs).count == 1, "the same every run")
    }

    /// Tasks that wake at one instant run in the order they became ready, or with a seed in a
    /// shuffle of it: the same for the same seed, other orders for other seeds (as threads could
    /// take them), so the simulator tries more than one interleaving of one moment.
    @Test func tasksReadyTogetherRunInASeededOrder() async throws {
        let orders = try await OffPool.run {
            ([nil] + [1, 1, 2, 3, 4, 5, 6].map { UInt64($0) }).map { (seed: UInt64?) -> String in
                let clock = SimulatedClock(Date(timeIntervalSince1970: 0))
                let log = Log()
                _ = SimulationExecutor.run(on: clock, shuffling: seed) {
                    await withTaskGroup(of: Void.self) { group in
                        for name in ["a", "b", "c", "d", "e"] {
                            group.addTask {
                                try? await clock.sleep(until: Date(timeIntervalSince1970: 1))
                                log.add(name)
                            }
                        }
                    }
                    return 0
                }
                return log.lines.joined()
            }
        }
        #expect(orders.allSatisfy { $0.count == 5 && Set($0).count == 5 }, "\(orders)")
        #expect(orders[1] == orders[2], "one seed, one order")
        #expect(Set(orders[1...]).count > 1, "other seeds, other orders: \(orders)")
        #expect(Set(orders[1...]).contains { $0 != orders[0] }, "a seed leaves the order they became ready in")
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []

        func add(_ line: String) { lock.withLock { all.append(line) } }
        var lines: [String] { lock.withLock { all } }
    }

    /// Work that waits for something that never comes ends as stuck, not as a hang.
    @Test func workWaitingForNothingIsStuck() async throws {
        let ending = try await OffPool.run {
            SimulationExecutor.run(on: SimulatedClock()) { () async -> Int in
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                return 1
            }
        }
        guard case .stuck = ending else { Issue.record("\(ending)"); return }
    }

    /// Work that never waits (a push sent again and again at one moment) ends as spinning, not
    /// as a hang.
    @Test func workThatNeverWaitsIsSpinning() async throws {
        let ending = try await OffPool.run {
            SimulationExecutor.run(on: SimulatedClock()) { () async -> Int in
                while true { await Task.yield() }
            }
        }
        guard case .spinning = ending else { Issue.record("\(ending)"); return }
    }

    /// At the limit the work is killed: `killed` is told before the work runs on, and the work
    /// is cancelled.
    @Test func aKillLandsAtTheLimit() async throws {
        let (ending, atKill) = try await OffPool.run { () -> (SimulationExecutor.Ending<Int>, Int) in
            let clock = SimulatedClock(Date(timeIntervalSince1970: 0))
            let ticks = Log()
            var atKill = -1
            let ending = SimulationExecutor.run(on: clock, until: Date(timeIntervalSince1970: 35), killed: { atKill = ticks.lines.count }) {
                while !Task.isCancelled {
                    try? await clock.sleep(until: clock.now.addingTimeInterval(10))
                    if !Task.isCancelled { ticks.add("tick") }
                }
                return ticks.lines.count
            }
            return (ending, atKill)
        }
        #expect(atKill == 3, "woken at 10, 20 and 30 s before the kill at 35 s")
        guard case .timedOut(let ticks, let at) = ending else { Issue.record("\(ending)"); return }
        #expect(ticks == 3 && at == Date(timeIntervalSince1970: 35))
    }

    /// A device that fails at a snapshot's rename counts only its game's renames (not its
    /// journal's lines, nor the snapshot's bytes in their `.tmp`), fails at the chosen one and lets
    /// it go, lets the change after it go too (the journal's cut the rename let go), and dies
    /// before the next.
    @Test func aDeviceFailsAtItsRenameAndDiesTwoChangesLater() {
        let clock = SimulatedClock(Date(timeIntervalSince1970: 100))
        let killed = Mutex(0)
        let device = DiskStepKill(
            from: Date(timeIntervalSince1970: 50), step: 1, game: "0001", failsTheDevice: true, clock: clock) { killed.withLock { $0 += 1 } }
        let steps = [
            "/s/game-0001.journal", "/s/game-0001.json.tmp", "/s/game-0001.json", "/s/game-0002.json",
            "/s/game-0001.json.tmp", "/s/game-0001.journal",
        ]
        for path in steps { device.diskStep(path) }
        #expect(!device.deviceFailed && killed.withLock { $0 } == 0, "its first rename is step 0; another game's is not counted")
        device.diskStep("/s/game-0001.json")
        #expect(device.deviceFailed && device.firedAt == nil, "the second rename goes through, the device failing")
        device.diskStep("/s/game-0001.journal")
        #expect(killed.withLock { $0 } == 0, "the change after it (the journal's cut) goes too")
        device.diskStep("/s/game-0001.journal")
        #expect(killed.withLock { $0 } == 1 && device.firedAt == clock.now, "it dies before the next")
        device.diskStep("/s/game-0001.journal")
        #expect(killed.withLock { $0 } == 1, "once")
    }

    /// A kill placed at a change to the disk waits from the limit for its step (counted from 0,
    /// two per tick here) and lands inside the job that makes it: the step before it went to
    /// the disk, the step itself and all after did not, and the work is cancelled at that moment.
    /// With no step within its wait, it lands at the wait's end, as a kill at a moment does.
    @Test(arguments: [(step: 3, within: 120.0), (step: 3, within: 12.0)])
    func aKillAtADiskStepLandsInsideTheJobThatMakesIt(step: Int, within: TimeInterval) async throws {
        let (ending, log) = try await OffPool.run { () -> (SimulationExecutor.Ending<Int>, [String]) in
            let clock = SimulatedClock(Date(timeIntervalSince1970: 0))
            let log = Log()
            var steps = 0
            let kill = DiskStepKill(from: Date(timeIntervalSince1970: 25), step: step, within: within, clock: clock) { log.add("killed") }
            let ending = SimulationExecutor.run(
                on: clock, until: Date(timeIntervalSince1970: 25), steps: &steps, atDiskStep: kill, killed: { log.add("killed at a moment") }
            ) {
                var written = 0
                while !Task.isCancelled {
                    try? await clock.sleep(until: clock.now.addingTimeInterval(10))
                    // Ten seconds of rest and one write at each tick, in two steps (its bytes, its rename).
                    for part in ["bytes", "rename"] {
                        kill.diskStep("/state/game-0001.json")
                        log.add("\(part) @\(Int(clock.now.timeIntervalSince1970))")
                    }
                    written += 1
                }
                return written
            }
            return (ending, log.lines)
        }
        guard case .timedOut(_, let at) = ending else { Issue.record("\(ending)"); return }
        if within > 20 {
            // Steps 0 and 1 at 30 s, 2 at 40 s; it dies before the rename at 40 s.
            #expect(at == Date(timeIntervalSince1970: 40))
            #expect(log.prefix(6) == ["bytes @10", "rename @10", "bytes @20", "rename @20", "bytes @30", "rename @30"], "\(log)")
            #expect(log.dropFirst(6).prefix(2) == ["bytes @40", "killed"], "\(log)")
            #expect(!log.contains("killed at a moment"))
        } else {
            // No fourth step by 37 s (25 s and its 12 s wait): killed at a moment then.
            #expect(at == Date(timeIntervalSince1970: 37))
            #expect(log.filter { $0.hasPrefix("killed") } == ["killed at a moment"], "\(log)")
        }
    }
}

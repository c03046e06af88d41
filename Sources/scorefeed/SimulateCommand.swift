import Foundation
import ScoreFeed

/// `scorefeed simulate`: whole live days on virtual time, with what goes wrong live, checked.
enum SimulateCommand {
    static let help = """
        OVERVIEW: Simulate whole live days in process on virtual time: 5–15 games a day (generated,
        and real ones with --games), polled from a simulated CDN or read as serve's input, while
        feeds fail (now and then, or for minutes), time out, answer garbage or older copies, list a basket and then delete it,
        games are postponed (their boxscore saying so or not), go silent or come back, the instance is killed (a journal torn, a state directory lost) or asked to stop (SIGTERM, a deploy) and restarted, the
        state directory's disk fills up or fails (EIO), and the push sender fails or stalls (for every game, for
        one game's pushes alone, or for one platform's; one day in five, all at once: a storm).
        After each day it checks what must hold (the final ends each game once, at priority 10
        while the budget has one and living 4 h, no score goes back, no apns-id names
        two bodies, priority 10 within the budget (and beyond it only once the hour's is spent;
        the policy's own book holding every one that left),
        a priority 10 unbacked has its priority-5 copy, a copy never goes alone,
        each push's timestamp after the last, each push's bytes what its record says (its diff
        from the push before it), a game whose boxscore failed across its end ended on its
        play-by-play a poll after the give-up (and one whose play-by-play failed across it not on
        its final boxscore before the play-by-play's third failure since, nor long after it where
        that boxscore failed only now and then), a score not
        stale as it comes, a final's end within 10 s of what ends it, no push spent on a decided period's end the final follows at once, a final kept 15 min to 4 h with its alert (on Android too, HIGH), an
        activity started before anything shows on it, an update's alert for what just happened
        (and a late lead change's first push at priority 10 with its alert), a poller waiting out
        a 503's Retry-After and asking with its newest copy's validators, a silent game given up on time and a postponed one called off, no update sent once a newer state of its game waited behind it, a failing sender tried on a backoff (a push or a channel create failed
        alone tried again soon after, every failed push at once after the outage), a channel kept its linger after its end, no push that
        APNs or a device refuses, a broadcast update delivered before its timestamp, a join sends
        at most 2 pushes, a restart sends what was left at once and a final missed while down
        first, a run after one that stopped on its own (or on a SIGTERM, its sender answering
        at once) with room on its disk sends nothing of what that one delivered again, news is on a push delivered
        within a poll's interval and 10 s (of the end of any trouble around it), a game's channel
        kept until its end, no channel left open, no more open at once than --max-channels and a waiting game's create once fewer are, no push to a channel not open, a restart restores all its checkpoints hold (each read and written again the same bytes), a drain
        waits out the sender's and the disk's trouble until its timeout, the day finishes).
        The same seed gives the same pushes, byte for byte.

        USAGE: scorefeed simulate [--days <n>] [--seed <n>] [--day <k>] [--mode <mode>] [--platform <platform>]
                                  [--games <dir>] [--interval <s>] [--per-day <lo-hi>] [--pool <n>] [--keep-state]
                                  [--moment <ms>] [--in-order]
                                  [--threads <n>] [--records <path>] [--stuck-after <s>]

        OPTIONS:
          --days <n>              Days to simulate (default 40).
          --seed <n>              Seed of the whole run (default 1).
          --day <k>               The first day's index (default 0): with --days 1, one day
                                  replayed alone, as a failure's line says.
          --mode <mode>           token, broadcast (a channel per game) or both (default both).
          --platform <platform>   ios (APNs), android (FCM: a topic per game in broadcast
                                  mode), both (each day runs for each), ios,android (each
                                  day runs once with both lanes of one fold, each lane's
                                  records checked as its platform's alone), or all (the
                                  three; the default).
          --games <dir>           Real games to draw from besides generated ones:
                                  playbyplay_<id>.json with boxscore_<id>.json beside it.
          --interval <s>          Seconds between a poller's requests (default 30).
          --per-day <lo-hi>       Games a day holds (default 5-15).
          --pool <n>              Different generated games the days draw from (default 300).
          --keep-state            No restart comes without its state directory (by default
                                  15 % do, as after a lost machine; see the manual).
          --moment <ms>           Pushes this many milliseconds apart still count as one
                                  moment for the join rule (default 10: serve's backlog
                                  split in batches is one catch-up; 0: the same instant).
          --in-order              Tasks ready at one instant run in the order they became
                                  ready (default: a seeded order of the day's, as threads
                                  could take them).
          --threads <n>           Days run side by side (default: the cores).
          --records <path>        Write every delivered push record (JSONL, day by day).
          --stuck-after <s>       Seconds of wall time without a day-run finishing before
                                  the run is called stuck and stopped, exit status 1
                                  (default 60: a day-run takes seconds; a live layer that
                                  loops without suspending never returns).
          -h, --help              Show help information.

        OUTPUT: a line per day that broke an invariant (with the command that replays it), then
        the figures: days, games, faults injected by kind, checks made, pushes, the record
        stream's digest. Exit status 1 when an invariant broke, or a day-run was stuck.

        EXAMPLES:
          scorefeed simulate --days 1000 --seed 7
          scorefeed simulate --seed 7 --day 412 --days 1 --mode broadcast --platform ios --records day.jsonl

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let days: Int = try arguments.number("--days", in: 1...1_000_000) ?? 40
        let seed: UInt64 = try arguments.number("--seed", in: 0...UInt64.max) ?? 1
        let first: Int = try arguments.number("--day", in: 0...1_000_000_000) ?? 0
        let modeName = try arguments.option("--mode") ?? "both"
        let platformName = try arguments.option("--platform") ?? "all"
        let games = try arguments.option("--games")
        let interval: Double = try arguments.number("--interval", in: 1...3600) ?? 30
        let threads: Int = try arguments.number("--threads", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        let recordsPath = try arguments.option("--records")
        let stuckAfter: Double = try arguments.number("--stuck-after", in: 0.1...86_400) ?? 60
        let generated: Int = try arguments.number("--pool", in: 1...100_000) ?? 300
        // Lost state directories are in the schedule unless told otherwise (`--lose-state`, their
        // switch before they were, is still taken).
        let keepingState = arguments.flag("--keep-state")
        let losing = arguments.flag("--lose-state")
        let losingState = !keepingState || losing
        let inOrder = arguments.flag("--in-order")
        let defaultMoment = Int((Simulation.defaultMoment * 1000).rounded())
        let moment: Int = try arguments.number("--moment", in: 0...60_000) ?? defaultMoment
        let perDay = try arguments.option("--per-day").map { text throws(ScoreFeedError) -> ClosedRange<Int> in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 1, parts[0] <= parts[1], parts[1] <= 100 else {
                throw ScoreFeedError(.usage, "--per-day takes LO-HI games, 1 to 100, not '\(text)'")
            }
            return parts[0]...parts[1]
        } ?? 5...15
        _ = try arguments.positionals(max: 0)
        let modes: [PushRenderer.Mode]
        switch modeName {
        case "token": modes = [.token]
        case "broadcast": modes = [.broadcastPerGame]
        case "both": modes = [.token, .broadcastPerGame]
        default: throw ScoreFeedError(.usage, "--mode must be token, broadcast or both, not '\(modeName)'")
        }
        let platforms: [[PushRenderer.Platform]]
        switch platformName {
        case "both": platforms = [[.ios], [.android]]
        case "ios,android": platforms = [[.ios, .android]]
        case "all": platforms = [[.ios], [.android], [.ios, .android]]
        default:
            guard let platform = PushRenderer.Platform(rawValue: platformName) else {
                throw ScoreFeedError(.usage, "--platform must be ios, android, both, ios,android or all, not '\(platformName)'")
            }
            platforms = [[platform]]
        }
        let real = try games.map { path throws(ScoreFeedError) in try SimulatedGamePool.realGames(in: URL(fileURLWithPath: path)) } ?? []
        if games != nil && real.isEmpty { throw ScoreFeedError(.usage, "--games \(games!): no playbyplay_<id>.json in it") }
        var options = Simulation.Options(
            days: days, seed: seed, firstDay: first, modes: modes, pool: SimulatedGamePool(real: real, generated: generated), pollInterval: interval,
            games: perDay, losingState: losingState, threads: threads)
        options.platforms = platforms
        options.moment = Double(moment) / 1000
        options.shuffled = !inOrder
        let stream = try RecordStream(path: recordsPath)
        let began = Date()
        /// A day-run as its lines name it, and the line that replays it.
        @Sendable func named(day: Int, mode: PushRenderer.Mode, platforms: [PushRenderer.Platform]) -> (day: String, replay: String) {
            let (modeName, platform) = (mode == .token ? "token" : "broadcast", platforms.map(\.rawValue).joined(separator: ","))
            let extra = games.map { " --games \($0)" } ?? ""
            return ("day \(day) (\(modeName), \(platform))",
                    "  replay: scorefeed simulate --seed \(seed) --day \(day) --days 1 --mode \(modeName) --platform \(platform)\(extra) --interval \(Int(interval)) --per-day \(perDay.lowerBound)-\(perDay.upperBound) --pool \(generated)\(losingState ? "" : " --keep-state")\(moment != defaultMoment ? " --moment \(moment)" : "")\(inOrder ? " --in-order" : "")")
        }
        let order = options.dayRuns
        let watchdog = DayWatchdog(limit: stuckAfter)
        watchdog.start { index, waited in
            let run = order[min(index, order.count - 1)]
            let name = named(day: run.day, mode: run.mode, platforms: run.platforms)
            print("\(name.day) has not finished after \(String(format: "%.1f", waited)) s of wall time (a day-run takes seconds): the live layer loops without suspending; stopped")
            print(name.replay)
            exit(ExitCode.failure)
        }
        // Each day's records are digested (and written) in order as the days finish, then let go.
        let outcomes = await Simulation.run(options) { outcome in
            stream.add(outcome.records)
            watchdog.handedOne()
        }
        let seconds = Date().timeIntervalSince(began)
        try stream.finish()
        let broken = outcomes.filter { !$0.violations.isEmpty }
        for outcome in broken {
            let name = named(day: outcome.day, mode: outcome.mode, platforms: outcome.platforms)
            print("\(name.day) broke \(outcome.violations.count) invariant(s):")
            for violation in outcome.violations.prefix(5) { print("  \(violation)") }
            print(name.replay)
        }
        print(Simulation.figures(outcomes, seconds: seconds, digest: stream.digest))
        return broken.isEmpty ? 0 : ExitCode.failure
    }

    /// The run's records as they come, day by day in order: their digest, and with `--records`
    /// their lines written to the file (the first write that fails is reported at the end).
    final class RecordStream: @unchecked Sendable {
        private let lock = NSLock()
        private var value = Digest()
        private let path: String?
        private let file: FileHandle?
        private var failure: String?

        init(path: String?) throws(ScoreFeedError) {
            self.path = path
            guard let path else {
                file = nil
                return
            }
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw ScoreFeedError(.io, "cannot write the records: the file cannot be made", at: .init(file: path))
            }
            file = handle
        }

        func add(_ records: [PushRecord]) {
            var lines = Data()
            lock.withLock {
                for record in records {
                    let line = record.jsonLine()
                    value.add(line)
                    if file != nil {
                        lines.append(line)
                        lines.append(UInt8(ascii: "\n"))
                    }
                }
                guard let file, failure == nil, !lines.isEmpty else { return }
                do { try file.write(contentsOf: lines) } catch { failure = error.localizedDescription }
            }
        }

        var digest: String { lock.withLock { value.hex } }

        func finish() throws(ScoreFeedError) {
            try? file?.close()
            if let failure, let path { throw ScoreFeedError(.io, "cannot write the records: \(failure)", at: .init(file: path)) }
        }
    }

    /// FNV-1a 64 of the record lines, in order.
    struct Digest {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add(_ line: Data) {
            line.withUnsafeBytes { bytes in
                for byte in bytes {
                    value ^= UInt64(byte)
                    value &*= 0x100_0000_01b3
                }
            }
            value ^= 0x0a
            value &*= 0x100_0000_01b3
        }

        var hex: String { String(value, radix: 16) }
    }
}

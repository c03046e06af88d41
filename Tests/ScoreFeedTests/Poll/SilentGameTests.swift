import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// A game whose feed goes silent while its boxscore says live, through the in-process poll path
/// on simulated time: the hour and a half of silence before it is given up takes no real time.
@Suite("poll: a silent game ends suspended (simulated time)", .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct SilentGameTests {
    typealias Mode = RealFeedServeTests.Mode

    /// The game that goes silent at 68 % of its feed while its boxscore says live, on simulated
    /// time: its CDN, its copies, and when its last action before the silence came.
    struct Silence {
        static let start = Date(timeIntervalSince1970: 1_739_240_000)
        let game: String
        let clock = SimulatedClock(start)
        let cdn: ClockedCDN
        let copies: GameCopies
        let lastAction: Date

        init() throws {
            let file = "playbyplay_0022400762.json"
            game = try #require(NBAFiles.gameId(in: file))
            cdn = try ClockedCDN(file: file, clock: clock, holdAt: 0.68)
            copies = try GameCopies.of(file)
            let holdMoment = copies.first + 0.68 * copies.span
            lastAction = Self.start.addingTimeInterval((copies.times.filter { $0 <= holdMoment }.max() ?? copies.first) - copies.first)
        }

        /// Polls the game every 30 s into `service` until its poller is done, then shuts the
        /// service down.
        func poll(into service: GameService, report: @escaping @Sendable (LivePoller.Report) -> Void = { _ in }) async {
            var poller = LivePoller(
                gameId: game, playByPlay: URL(string: "http://cdn.test/playbyplay.json")!,
                boxscore: URL(string: "http://cdn.test/boxscore.json")!, interval: 30)
            poller.clock = clock
            await clock.run(whenAsleep: 2) { [poller, cdn] in await poller.run(service: service, fetcher: cdn, report: report) }
            await service.shutDown()
        }
    }

    @Test(arguments: Mode.withAndroidTopic)
    func aGameSilentWhileLiveEndsSuspendedAtItsScore(_ mode: Mode) async throws {
        let silence = try Silence()
        let sink = mode.sink()
        let reports = Reports()
        await silence.poll(into: try mode.service(clock: .feed, sink: sink)) { reports.add($0) }

        let records = await sink.records
        let last = try #require(records.last)
        let held = silence.copies.visible(at: 0.68)
        // The feed's score where it went silent: the newest action's, in the feed's order.
        let stated = held.filter { $0["scoreHome"] != nil }.max { ($0["orderNumber"] as? Int ?? 0) < ($1["orderNumber"] as? Int ?? 0) }
        #expect(last.event == .end && last.state.phase == .suspended, "\(last.event) \(last.state.phase)")
        #expect(last.state.homeScore == Int(stated?["scoreHome"] as? String ?? "") && last.state.awayScore == Int(stated?["scoreAway"] as? String ?? ""))
        let ends = records.filter { $0.event == .end }
        #expect(ends.filter { $0.priority == 10 }.count == 1 && Set(ends.map(\.state)).count == 1, "one end (and its priority-5 copy)")
        // Given up an hour and a half after its last action was seen (a poll every 30 s), not before.
        let silentFor = silence.clock.now.timeIntervalSince(silence.lastAction)
        #expect(silentFor >= FeedWatch.defaultGiveUpAfter && silentFor <= FeedWatch.defaultGiveUpAfter + 60, "\(silentFor)")
        #expect(reports.lines.contains { $0.hasPrefix("calledOff suspended") }, "\(reports.lines.suffix(3))")
    }

    /// A sender that takes 100 s to answer each push from the game's last action on holds the
    /// hand-over of its last news (a priority 10 and its priority-5 copy): the give-up still
    /// counts from when that news came, not from when its pushes were sent (seed 99, day 37 of
    /// the simulator: 46 s late).
    @Test(arguments: Mode.withAndroidTopic)
    func aSlowSenderDoesNotPutOffTheGiveUp(_ mode: Mode) async throws {
        let silence = try Silence()
        let sink = SlowSink(inner: mode.sink(), clock: silence.clock, answersIn: 100, from: silence.lastAction)
        await silence.poll(into: try mode.service(clock: .feed, sink: sink))

        let handed = sink.handed
        #expect(handed.contains { $0.at >= silence.lastAction && $0.phase == .live }, "the last news went to the slow sender")
        let end = try #require(handed.first { $0.event == .end && $0.phase == .suspended })
        let silentFor = end.at.timeIntervalSince(silence.lastAction)
        #expect(silentFor >= FeedWatch.defaultGiveUpAfter && silentFor <= FeedWatch.defaultGiveUpAfter + 60, "\(silentFor)")
    }

    /// A sink that answers each push handed to it from `from` on `answersIn` seconds of `clock`
    /// later, and notes when each was handed.
    final class SlowSink: PushSink, @unchecked Sendable {
        let inner: any PushSink
        let clock: SimulatedClock
        let answersIn: TimeInterval
        let from: Date
        private let lock = NSLock()
        private var all: [(event: Push.Event, phase: GamePhase, at: Date)] = []

        init(inner: any PushSink, clock: SimulatedClock, answersIn: TimeInterval, from: Date) {
            (self.inner, self.clock, self.answersIn, self.from) = (inner, clock, answersIn, from)
        }

        var handed: [(event: Push.Event, phase: GamePhase, at: Date)] { lock.withLock { all } }

        func send(_ record: PushRecord) async throws {
            let now = clock.now
            lock.withLock { all.append((record.event, record.state.phase, now)) }
            if now >= from { try await clock.sleep(until: now.addingTimeInterval(answersIn)) }
            try await inner.send(record)
        }

        func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? { try await inner.manage(request) }

        func finish() async throws { try await inner.finish() }
    }

    /// What the poller told, one line each.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []

        func add(_ report: LivePoller.Report) {
            let line: String
            switch report {
            case .calledOff(_, let phase, let why, _): line = "calledOff \(phase.rawValue) \(why)"
            case .problem(let error): line = "problem \(error)"
            default: line = "\(report)"
            }
            lock.withLock { all.append(line) }
        }

        var lines: [String] { lock.withLock { all } }
    }
}

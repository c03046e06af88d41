import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// A game whose feed goes silent while its boxscore says live, through the in-process poll path
/// on simulated time: the hour and a half of silence before it is given up takes no real time.
@Suite("poll: a silent game ends suspended (simulated time)", .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct SilentGameTests {
    typealias Mode = RealFeedServeTests.Mode

    @Test(arguments: Mode.withAndroidTopic)
    func aGameSilentWhileLiveEndsSuspendedAtItsScore(_ mode: Mode) async throws {
        let file = "playbyplay_0022400762.json"
        let game = try #require(NBAFiles.gameId(in: file))
        let clock = SimulatedClock(Date(timeIntervalSince1970: 1_739_240_000))
        let cdn = try ClockedCDN(file: file, clock: clock, holdAt: 0.68)
        let sink = mode.sink()
        let service = try mode.service(clock: .feed, sink: sink)
        var poller = LivePoller(
            gameId: game, playByPlay: URL(string: "http://cdn.test/playbyplay.json")!,
            boxscore: URL(string: "http://cdn.test/boxscore.json")!, interval: 30)
        poller.clock = clock
        let reports = Reports()
        await clock.run(whenAsleep: 2) { [poller] in await poller.run(service: service, fetcher: cdn) { reports.add($0) } }
        await service.shutDown()

        let records = await sink.records
        let last = try #require(records.last)
        let copies = try GameCopies.of(file)
        let holdMoment = copies.first + 0.68 * copies.span
        let held = copies.visible(at: 0.68)
        // The feed's score where it went silent: the newest action's, in the feed's order.
        let stated = held.filter { $0["scoreHome"] != nil }.max { ($0["orderNumber"] as? Int ?? 0) < ($1["orderNumber"] as? Int ?? 0) }
        #expect(last.event == .end && last.state.phase == .suspended, "\(last.event) \(last.state.phase)")
        #expect(last.state.homeScore == Int(stated?["scoreHome"] as? String ?? "") && last.state.awayScore == Int(stated?["scoreAway"] as? String ?? ""))
        let ends = records.filter { $0.event == .end }
        #expect(ends.filter { $0.priority == 10 }.count == 1 && Set(ends.map(\.state)).count == 1, "one end (and its priority-5 copy)")
        // Given up an hour and a half after its last action was seen (a poll every 30 s), not before.
        let lastAction = Date(timeIntervalSince1970: 1_739_240_000 + (copies.times.filter { $0 <= holdMoment }.max() ?? copies.first) - copies.first)
        let silentFor = clock.now.timeIntervalSince(lastAction)
        #expect(silentFor >= FeedWatch.defaultGiveUpAfter && silentFor <= FeedWatch.defaultGiveUpAfter + 60, "\(silentFor)")
        #expect(reports.lines.contains { $0.hasPrefix("calledOff suspended") }, "\(reports.lines.suffix(3))")
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

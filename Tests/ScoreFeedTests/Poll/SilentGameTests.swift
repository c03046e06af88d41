import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// A real game served live on a ``SimulatedClock``: its play-by-play holds the actions whose time
/// has come (the game's first action at the clock's start), its boxscore says live until the
/// game is over; held at a fraction of its span, the feed goes silent there while the boxscore
/// still says live. A request whose document has not changed since this source last answered it
/// is a 304, as a conditional GET would be.
actor ClockedCDN: LiveSource {
    let clock: SimulatedClock
    let copies: GameCopies
    let box: [String: Any]
    let start: Date
    let holdAt: Double?
    private var lastVisible: [URL: Int] = [:]
    private(set) var requests = 0

    init(file: String, clock: SimulatedClock, holdAt: Double?) throws {
        self.clock = clock
        copies = try GameCopies(file: file)
        let boxData = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file.replacingOccurrences(of: "playbyplay", with: "boxscore"))))
        box = try #require(try JSONSerialization.jsonObject(with: boxData) as? [String: Any])
        start = clock.now
        self.holdAt = holdAt
    }

    /// How far into its span the game stands now.
    var fraction: Double {
        let elapsed = clock.now.timeIntervalSince(start) / max(1, copies.span)
        return min(elapsed, holdAt ?? .infinity)
    }

    func get(_ url: URL, validators: inout LiveFetcher.Validators) async -> LiveFetcher.Answer {
        requests += 1
        let fraction = fraction
        let moment = copies.first + fraction * copies.span
        let shown = fraction >= 1 ? copies.actions : zip(copies.actions, copies.times).filter { $0.1 <= moment }.map(\.0)
        let visible = shown.count
        // The same document as this client's last answer: 304.
        let key = visible * 2 + (fraction >= 1 ? 1 : 0)
        if lastVisible[url] == key { return .notModified }
        lastVisible[url] = key
        do {
            if url.path.contains("boxscore") {
                var root = box
                var game = root["game"] as? [String: Any] ?? [:]
                let last = shown.last
                if fraction < 1 {
                    game["gameStatus"] = visible == 0 ? 1 : 2
                    game["gameStatusText"] = visible == 0 ? "7:30 pm ET" : "Q\((last?["period"] as? Int) ?? 1)"
                    for (side, key) in [("homeTeam", "scoreHome"), ("awayTeam", "scoreAway")] {
                        var team = game[side] as? [String: Any] ?? [:]
                        team["score"] = Int(last?[key] as? String ?? "0") ?? 0
                        game[side] = team
                    }
                }
                root["game"] = game
                return .body(try JSONSerialization.data(withJSONObject: root))
            }
            return .body(try copies.document(actions: shown, written: moment))
        } catch {
            return .failed(ScoreFeedError(.io, "\(error)"), retryAfter: nil)
        }
    }
}

/// A game whose feed goes silent while its boxscore says live, through the in-process poll path
/// on simulated time: the hour and a half of silence before it is given up takes no real time.
@Suite("poll: a silent game ends suspended (simulated time)", .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct SilentGameTests {
    typealias Mode = RealFeedServeTests.Mode

    @Test(arguments: Mode.allCases)
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
        await service.drain()

        let records = await sink.records
        let last = try #require(records.last)
        let copies = try GameCopies(file: file)
        let holdMoment = copies.first + 0.68 * copies.span
        let held = zip(copies.actions, copies.times).filter { $0.1 <= holdMoment }.map(\.0)
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

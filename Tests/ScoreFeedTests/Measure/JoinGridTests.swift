import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The join measure (`scorefeed freshness --join`): its device, timeline and baseline, a replay
/// met in progress, and the grid on generated games always and on the real games when present.
@Suite("Join measure")
struct JoinGridTests {
    static let t0 = Make.start

    static func sent(_ at: Double, priority: Int, timestamp: Int, home: Int) -> DeviceModel.Sent {
        DeviceModel.Sent(
            sentAt: t0.addingTimeInterval(at), priority: priority, timestamp: timestamp,
            score: FinalScore(home: home, away: 0), sourceTime: t0.addingTimeInterval(at), isEnd: false)
    }

    /// A device whose hour an earlier run spent drops priority 10 until an hour after those
    /// pushes, and shows priority 5 as any device does.
    @Test(arguments: [
        (JoinGrid.Device.untouched, [10.0, 90, 3700]),
        (.spent, [90, 3700]),
    ])
    func aSpentHourDropsPriority10UntilItComesBack(device: JoinGrid.Device, shownAt: [Double]) {
        let model = device.model(budget: 2, delay: 30, join: Self.t0)
        let screen = model.screen([
            Self.sent(10, priority: 10, timestamp: 1, home: 2),
            Self.sent(60, priority: 5, timestamp: 2, home: 4),
            Self.sent(3700, priority: 10, timestamp: 3, home: 6),
        ])
        // The priority 5 sent at 60 s arrives at 90 s; spent, the priority 10 of 10 s is dropped.
        #expect(screen.map { $0.time.timeIntervalSince(Self.t0) } == shownAt)
    }

    @Test func aJoinedTimelineStartsWithThePresent() {
        let timeline = ScoreTimeline(
            changes: [
                .init(time: Self.t0.addingTimeInterval(10), score: FinalScore(home: 2, away: 0)),
                .init(time: Self.t0.addingTimeInterval(20), score: FinalScore(home: 2, away: 3)),
                .init(time: Self.t0.addingTimeInterval(90), score: FinalScore(home: 4, away: 3)),
            ],
            start: Self.t0, end: Self.t0.addingTimeInterval(100), gameEnd: Self.t0.addingTimeInterval(100))
        let joined = timeline.joined(at: Self.t0.addingTimeInterval(50))
        #expect(joined.start == Self.t0.addingTimeInterval(50) && joined.end == timeline.end)
        #expect(joined.changes.map(\.score) == [FinalScore(home: 2, away: 3), FinalScore(home: 4, away: 3)])
        #expect(joined.changes.first?.time == joined.start)
        // A screen that shows nothing new is wrong from the join until a push reaches it.
        #expect(Freshness.wrongShare(screen: [], timeline: joined) == 1)
    }

    /// The baseline sends the newest state alone at the join, at priority 10 with its copy, and
    /// the simple baseline's pushes after it.
    @Test func pushingOnlyTheNewestStateAtTheJoin() {
        let timeline = ScoreTimeline(
            changes: (1...30).map { .init(time: Self.t0.addingTimeInterval(Double($0) * 60), score: FinalScore(home: 2 * $0, away: 0)) },
            start: Self.t0, end: Self.t0.addingTimeInterval(1900), gameEnd: Self.t0.addingTimeInterval(1900))
        let join = Self.t0.addingTimeInterval(615)
        let joined = timeline.joined(at: join)
        for (name, pushes) in Baselines.afterJoin(joined, budget: 15) {
            #expect(pushes.count >= 3, "\(name)")
            #expect(pushes[0].sentAt == join && pushes[0].priority == 10 && pushes[0].score == FinalScore(home: 20, away: 0), "\(name)")
            #expect(pushes[1].sentAt == join && pushes[1].priority == 5 && pushes[1].score == pushes[0].score, "\(name)")
            #expect(pushes.dropFirst(2).allSatisfy { $0.sentAt > join }, "\(name): one pair at the join")
            #expect(zip(pushes, pushes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp }, "\(name)")
            #expect(pushes.last?.isEnd == true && pushes.last?.score == timeline.final, "\(name)")
        }
    }

    /// Joined in progress, the engine's first pushes come at the join: one state, the present
    /// (a priority 10 and its copy, or one priority 5), no alert; then the game goes on.
    @Test(arguments: [0.25, 0.5, 0.75])
    func aReplayJoinedInProgressPushesThePresentOnce(fraction: Double) async throws {
        let game = GameGenerator(seed: 7).generate()
        let document = FeedDocument(attributes: game.attributes, events: game.events, finalScore: game.finalScore)
        let timeline = ScoreTimeline(events: game.events)
        let join = JoinGrid.joinTime(timeline, fraction: fraction)
        let sink = RecordingSink()
        let summary = try await Replay().run(document, joiningAt: join, sink: sink)
        let records = await sink.records
        let atJoin = records.filter { $0.sentAt == join }
        let present = timeline.joined(at: join).changes[0].score
        #expect(atJoin.count == 1 || (atJoin.count == 2 && atJoin[0].priority == 10 && atJoin[1].priority == 5), "\(atJoin.map(\.priority))")
        #expect(atJoin.allSatisfy { FinalScore(home: $0.state.homeScore, away: $0.state.awayScore) == present })
        #expect(atJoin.allSatisfy { (try? Make.aps($0))?["alert"] == nil })
        #expect(records.allSatisfy { $0.sentAt >= join })
        #expect(summary.finalMatches && summary.ended)
        Make.expectOneFinal(records)
    }

    /// Every score goes out at once, at least at priority 5, whatever the assumption and the
    /// device: never worse than the newest state at priority 5 at the join and priority 5 on
    /// every change after it.
    @Test func generatedGamesAreNeverWorseThanPriority5() async throws {
        let grid = JoinGrid(fractions: [0.3, 0.6], budgets: [5, 15, 60], delays: [15, 120])
        let cells = try await grid.measure(FreshnessGridTests.generated)
        #expect(cells.count == 2 * 3 * 2 * 2)
        for cell in cells {
            for (game, result) in zip(FreshnessGridTests.generated, cell.results) {
                let join = JoinGrid.joinTime(game.moments.timeline, fraction: cell.fraction)
                let joined = game.moments.timeline.joined(at: join)
                let model = cell.device.model(budget: cell.budget, delay: cell.delay, join: join)
                let p5 = Freshness.wrongShare(screen: model.screen(Baselines.priority5EveryChange(joined)), timeline: joined)
                for assumption in Coalescer.JoinBudget.allCases {
                    let wrong = try #require(result.engine[assumption])
                    #expect(wrong <= p5 + 1e-9, "\(game.name) \(cell.fraction) \(cell.budget)/h \(cell.delay) s \(cell.device) \(assumption)")
                }
            }
        }
    }

    /// The default is the measured choice: on the real games, the assumption whose worst regret
    /// over both devices (every share, budget and delay of `freshness --join`'s defaults) is least.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func theDefaultHasTheLeastWorstCaseRegretOnRealGames() async throws {
        let files = NBAFiles.games.filter { $0.hasPrefix("playbyplay_") }
        let documents = try files.map { (name: $0, document: try FeedReader.read(path: NBAFiles.path($0))) }
        let others = try NBAFiles.games.filter { !$0.hasPrefix("playbyplay_") }.map { GameMoments(events: try FeedReader.read(path: NBAFiles.path($0)).events) }
        let games = FreshnessGrid.Game.leaveOneOut(documents, fitAlso: others)
        let grid = JoinGrid(fractions: [0.25, 0.5, 0.75], budgets: [5, 10, 15, 30, 60], delays: [15, 30, 60, 120])
        let cells = try await grid.measure(games)
        let standard = JoinGrid.worstRegret(cells, .standard).regret
        for assumption in Coalescer.JoinBudget.allCases {
            #expect(standard <= JoinGrid.worstRegret(cells, assumption).regret + 1e-9, "\(assumption)")
        }
        #expect(standard < 0.06, "the default costs little on either device: \(standard)")
    }
}

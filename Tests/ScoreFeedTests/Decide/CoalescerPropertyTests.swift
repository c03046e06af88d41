import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// Properties of the engine with the coalescer over many generated games.
@Suite("Coalescer properties over generated games")
struct CoalescerPropertyTests {
    static let cases: [(seed: UInt64, budget: Int)] = (1...30).flatMap { seed in [(UInt64(seed), 15), (UInt64(seed), 60)] }
        + [(31, 4), (32, 1), (33, 0)]

    @Test(arguments: cases)
    func replayHoldsEveryPromise(seed: UInt64, budget: Int) async throws {
        let game = GameGenerator(seed: seed).generate()
        let document = FeedDocument(attributes: game.attributes, events: game.events, finalScore: game.finalScore)
        let sink = RecordingSink()
        let configuration = Coalescer.Configuration.standard.withBudget(budget)
        _ = try await Replay(policy: Coalescer(configuration: configuration)).run(document, sink: sink)
        let records = await sink.records

        // No rolling hour exceeds the priority-10 budget.
        let tens = records.filter { $0.priority == 10 }.map(\.sentAt)
        for t in tens {
            #expect(tens.filter { $0 > t.addingTimeInterval(-3600) && $0 <= t }.count <= budget)
        }
        // Timestamps strictly increase; no alert on priority 5.
        for (a, b) in zip(records, records.dropFirst()) { #expect(a.timestamp < b.timestamp) }
        #expect(records.filter { $0.priority == 5 }.allSatisfy { record in
            let aps = (try? JSONSerialization.jsonObject(with: record.payload) as? [String: Any])?["aps"] as? [String: Any]
            return aps?["alert"] == nil
        })
        // The last push is the end, with the final score, at the game's end.
        let last = try #require(records.last)
        #expect(last.event == .end)
        Make.expectOneFinal(records)
        #expect(last.state.homeScore == game.finalScore.home && last.state.awayScore == game.finalScore.away)
        let gameEnd = try #require(game.events.last { if case .gameEnd = $0.kind { true } else { false } })
        let firstEnd = try #require(records.first { $0.event == .end })
        #expect(firstEnd.sentAt.timeIntervalSince(gameEnd.time) <= 0.001)
        // Every score change is eventually shown under the device model, and whatever the
        // device's true budget (the one assumed, half of it, one, none), the final reaches the
        // screen within one priority-5 delay.
        let timeline = ScoreTimeline(events: game.events)
        let freshness = Freshness(
            policy: "engine", pushes: records.map(DeviceModel.Sent.init), timeline: timeline,
            model: DeviceModel(budget: budget))
        #expect(freshness.unshownChanges == 0)
        #expect(freshness.budgetOverruns == 0)
        for trueBudget in [budget, budget / 2, 1, 0] {
            let device = DeviceModel(budget: trueBudget, priority5Delay: 120)
            let seen = Freshness(policy: "engine", pushes: records.map(DeviceModel.Sent.init), timeline: timeline, model: device)
            #expect((seen.finalLag ?? .infinity) <= device.priority5Delay, "true budget \(trueBudget)")
            #expect(seen.unshownChanges == 0, "true budget \(trueBudget)")
        }
    }

    @Test(arguments: 1...12)
    func theHedgedDefaultsGoBeyondTheBudgetOnlyWithACopyAndWithinTheLargest(seed: UInt64) async throws {
        let game = GameGenerator(seed: seed).generate()
        let document = FeedDocument(attributes: game.attributes, events: game.events, finalScore: game.finalScore)
        let sink = RecordingSink()
        let configuration = Coalescer.Configuration.standard
        _ = try await Replay(policy: Coalescer(configuration: configuration)).run(document, sink: sink)
        let records = await sink.records
        let tens = records.filter { $0.priority == 10 }
        let beyond = tens.filter { $0.reason.contains(Push.beyondBudget) }
        #expect(!beyond.isEmpty, "a generated game fills some hour of its assumed budget")
        func inAnyHour(_ times: [Date]) -> Int {
            times.map { t in times.filter { $0 > t.addingTimeInterval(-3600) && $0 <= t }.count }.max() ?? 0
        }
        #expect(inAnyHour(tens.filter { !beyond.contains($0) }.map(\.sentAt)) <= configuration.budget)
        #expect(inAnyHour(tens.map(\.sentAt)) <= configuration.largestBudget)
        for push in beyond {
            #expect(records.contains { $0.priority == 5 && $0.sentAt == push.sentAt && $0.state == push.state }, "its copy at \(push.sentAt)")
        }
        // Whatever the true budget and delay, every score is shown and the final within one delay.
        let timeline = ScoreTimeline(events: game.events)
        for trueBudget in [30, 15, 8, 0] {
            for delay in [15.0, 300] {
                let device = DeviceModel(budget: trueBudget, priority5Delay: delay)
                let seen = Freshness(policy: "engine", pushes: records.map(DeviceModel.Sent.init), timeline: timeline, model: device)
                #expect((seen.finalLag ?? .infinity) <= delay, "true budget \(trueBudget), delay \(delay)")
                #expect(seen.unshownChanges == 0, "true budget \(trueBudget), delay \(delay)")
            }
        }
    }
}

@Suite("Freshness measurement")
struct FreshnessTests {
    static func change(_ t: Double, _ home: Int, _ away: Int) -> ScoreTimeline.Change {
        ScoreTimeline.Change(time: Make.start.addingTimeInterval(t), score: FinalScore(home: home, away: away))
    }

    static func sent(_ t: Double, _ priority: Int, _ home: Int, _ away: Int, stamp: Int? = nil, end: Bool = false) -> DeviceModel.Sent {
        DeviceModel.Sent(
            sentAt: Make.start.addingTimeInterval(t), priority: priority,
            timestamp: stamp ?? Int(Make.start.timeIntervalSince1970 + t), score: FinalScore(home: home, away: away),
            sourceTime: Make.start.addingTimeInterval(t), isEnd: end)
    }

    /// Two baskets in a 1000-second game, then the end at 1000.
    static let timeline = ScoreTimeline(
        changes: [change(100, 2, 0), change(400, 2, 3)], start: Make.start,
        end: Make.start.addingTimeInterval(1000), gameEnd: Make.start.addingTimeInterval(1000))

    @Test func priorityTenIsInstantPriorityFiveIsLate() {
        let model = DeviceModel(budget: 15, priority5Delay: 120)
        let instant = Freshness(policy: "x", pushes: [Self.sent(100, 10, 2, 0), Self.sent(400, 10, 2, 3)], timeline: Self.timeline, model: model)
        #expect(instant.wrongShare == 0)
        #expect(instant.lagMax == 0)
        let late = Freshness(policy: "x", pushes: [Self.sent(100, 5, 2, 0), Self.sent(400, 5, 2, 3)], timeline: Self.timeline, model: model)
        #expect(abs(late.wrongShare - 0.24) < 1e-9, "wrong for 120 s after each basket")
        #expect(late.lagP95 == 120)
    }

    @Test func pastTheBudgetPriorityTenIsDropped() {
        let model = DeviceModel(budget: 1)
        let freshness = Freshness(policy: "x", pushes: [Self.sent(100, 10, 2, 0), Self.sent(400, 10, 2, 3)], timeline: Self.timeline, model: model)
        #expect(freshness.budgetOverruns == 1)
        #expect(freshness.unshownChanges == 1)
        #expect(abs(freshness.wrongShare - 0.6) < 1e-9, "the second basket is never shown")
    }

    @Test func anOlderUpdateIsIgnored() {
        // A priority 5 sent before a priority 10 arrives after it and must not roll the screen back.
        let model = DeviceModel(budget: 15, priority5Delay: 120)
        let screen = model.screen([Self.sent(100, 5, 2, 0), Self.sent(110, 10, 2, 0)])
        #expect(screen.count == 1)
        #expect(screen.first?.push.priority == 10)
    }

    @Test func clairvoyantBoundTakesTheBiggestGaps() {
        // Gaps: 300 s after the first basket, 600 s after the second; p5 loses 120 each.
        let none = Baselines.clairvoyantBound(Self.timeline, budget: 0, priority5Delay: 120)
        #expect(abs(none.wrongShare - 0.24) < 1e-9)
        let one = Baselines.clairvoyantBound(Self.timeline, budget: 4, priority5Delay: 120)
        #expect(one.priority10 == 1)
        #expect(abs(one.wrongShare - 0.12) < 1e-9)
    }

    @Test func baselinesSpendAsDocumented() {
        let every = Baselines.everyChange(Self.timeline)
        #expect(every.map(\.priority) == [10, 10, 10])
        #expect(every.last?.isEnd == true)
        let hourly = Baselines.budgetThenFive(Self.timeline, budget: 1)
        #expect(hourly.map(\.priority) == [10, 5, 5])
        let fixed = Baselines.fixedInterval(Self.timeline, budget: 12)  // every 300 s
        #expect(fixed.map { $0.sentAt.timeIntervalSince(Make.start) } == [300, 600, 1000], "no push when nothing changed")
        #expect(fixed.map(\.score) == [FinalScore(home: 2, away: 0), FinalScore(home: 2, away: 3), FinalScore(home: 2, away: 3)])
    }
}

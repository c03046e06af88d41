import Foundation
import ScoreFeedModel
import Testing

@testable import ScoreFeed

/// What arrives together is one moment: the pure rule of arrivals, on the session and the
/// policies, without actors or clocks.
@Suite("Arrivals: what arrives together is one moment")
struct ArrivalTests {
    /// A game's events up to `share` of them, taken as one arrival at `now`.
    static func joined(
        _ file: String, share: Double, policy: any PushPolicy = Coalescer(), renderer: PushRenderer.Configuration = .init()
    ) throws -> (session: GameSession, pushes: [PushRecord]) {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        let events = Self.events(document, share: share)
        let now = events.last!.time.addingTimeInterval(2)
        var session = GameSession(attributes: document.attributes, policy: policy, renderer: renderer, now: now)
        session.beginArrival()
        for (index, event) in events.enumerated() { session.receive(event, index: index, now: now) }
        session.endArrival(now: now)
        let pushes = session.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
        return (session, pushes)
    }

    static func events(_ document: FeedDocument, share: Double) -> [GameEvent] {
        Array(document.events.prefix(max(1, Int(Double(document.events.count) * share))))
    }

    static let shares: [Double] = [0.1, 0.25, 0.5, 0.75, 0.95, 1.0]

    /// Joined anywhere, the past costs one push (and its priority-5 copy) of the present state,
    /// with no alert: the `end` once if the game ended in it.
    @Test(arguments: ["one-point.json", "overtime.json", "regulation-blowout.json", "correction.json"], shares)
    func theJoinCostsOnePushOfThePresent(file: String, share: Double) throws {
        let (session, pushes) = try Self.joined(file, share: share)
        #expect(!pushes.isEmpty, "the present is pushed")
        #expect(pushes.count <= 2, "\(file) at \(share): \(pushes.map { "\($0.event) p\($0.priority)" })")
        #expect(pushes.filter { $0.priority == 10 }.count <= 1)
        #expect(pushes.allSatisfy { $0.state == session.state }, "every push carries the present state")
        if session.fold.sawGameEnd {
            #expect(pushes.first?.event == .end, "the end, once")
            #expect(pushes.filter { $0.event == .end && $0.priority == 10 }.count <= 1)
        } else if try pushes.contains(where: { try Make.aps($0)["alert"] != nil }) {
            // An alert only for the present: the last score change, moments before the newest event.
            let events = Self.events(try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path), share: share)
            var fold = GameFold()
            var lastScore: Date?
            for (index, event) in events.enumerated() where fold.apply(event, index: index, now: event.time).change?.changesScore == true {
                lastScore = event.time
            }
            let newest = try #require(events.map(\.time).max())
            #expect(try #require(lastScore) >= newest.addingTimeInterval(-Coalescer.arrivalAlertWindow), "no alert for moments already past")
        }
    }

    /// The same events one at a time, each its own moment (replay), push the past too: what the
    /// arrival saves.
    @Test func eachEventItsOwnMomentPushesThePast() throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("one-point.json").path)
        let events = Array(document.events.prefix(document.events.count / 2))
        let now = events.last!.time
        var session = GameSession(attributes: document.attributes, now: now)
        for (index, event) in events.enumerated() { session.receive(event, index: index, now: now) }
        let (_, joined) = try Self.joined("one-point.json", share: 0.5)
        #expect(session.outbox.count > joined.count, "\(session.outbox.count) one at a time, \(joined.count) as one arrival")
    }

    /// Every policy decides once per arrival: the sample app's policy too.
    @Test func everyChangeDecidesOncePerArrival() throws {
        let (session, pushes) = try Self.joined("overtime.json", share: 0.5, policy: EveryChangePolicy())
        #expect(pushes.count == 1)
        #expect(pushes.first?.state == session.state)
        let (_, ended) = try Self.joined("overtime.json", share: 1, policy: EveryChangePolicy())
        #expect(ended.map(\.event) == [.end])
    }

    /// With push-to-start, the start carries the present state and nothing follows it.
    @Test(arguments: shares.filter { $0 < 1 })
    func theStartCarriesThePresent(share: Double) throws {
        let (session, pushes) = try Self.joined("regulation-blowout.json", share: share, renderer: .init(start: true))
        #expect(pushes.map(\.event) == [.start])
        #expect(pushes.first?.state == session.state)
        #expect(pushes.first?.priority == 10)
    }

    /// An arrival of nothing new decides nothing.
    @Test func anArrivalOfRepeatsDecidesNothing() throws {
        let joined = try Self.joined("one-point.json", share: 0.5)
        var session = joined.session
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("one-point.json").path)
        let later = session.now.addingTimeInterval(120)
        session.beginArrival()
        for (index, event) in document.events.prefix(10).enumerated() { session.receive(event, index: index, now: later) }
        session.endArrival(now: later)
        #expect(session.outbox.count == joined.pushes.count)
        #expect(session.arrival == nil)
    }

    /// A critical moment of an arrival is news only while it is the present.
    @Test(arguments: [
        // (seconds between the lead change and the arrival's newest event, a score after it, alert kept)
        (0.0, false, true),
        (20.0, false, true),
        (45.0, false, false),
        (5.0, true, false),
    ])
    func aCriticalMomentIsNewsOnlyWhileItIsThePresent(gap: Double, scoreAfter: Bool, kept: Bool) {
        var policy = Coalescer()
        // The 4th quarter's last two minutes, the home side up by one; then the away side leads.
        var before = GameState(period: 4, phase: .live, clock: .stopped(seconds: 100))
        before.homeScore = 100
        before.awayScore = 99
        _ = policy.observe(StateChange(event: Make.event(1, .other(type: "start")), before: GameState(), after: before), now: Make.start)
        let t = Make.start.addingTimeInterval(600)
        var lead = before
        lead.awayScore = 102
        policy.absorb(
            StateChange(event: Make.event(2, .fieldGoal(points: 3, made: true), team: .away, period: 4, clock: 90, at: 600),
                        before: before, after: lead),
            now: t)
        var last = lead
        if scoreAfter {
            last.homeScore = 101
            policy.absorb(
                StateChange(event: Make.event(3, .freeThrow(attempt: 1, of: 2, made: true, points: 1), team: .home, period: 4, clock: 85, at: 600 + gap),
                            before: lead, after: last),
                now: t)
        } else {
            policy.absorb(
                StateChange(event: Make.event(3, .rebound(offensive: false), team: .home, period: 4, clock: 85, at: 600 + gap),
                            before: lead, after: lead),
                now: t)
        }
        guard case .push(let push) = policy.decide(now: t.addingTimeInterval(gap)) else {
            Issue.record("the present is pushed")
            return
        }
        #expect((push.alert != nil) == kept, "\(push)")
    }

    /// The feed's score that ends a catch-up moves the fold's own: a basket it waved off a
    /// quarter before (liveData states the lower score but scores no event for it) leaves the fold
    /// two points up, so the join's late plays show a lead the feed never had, and the feed's
    /// score brings the side that led all along back ahead. That is no lead change to alert for
    /// (seed 13, day 1: "Lead change" with 41.7 left on a join's first push). In a live moment of
    /// seconds, a feed's score that turns the lead still alerts.
    @Test func theFeedsScoreEndingACatchUpIsNoLeadChange() throws {
        let events = [
            Make.event(1, .periodStart, period: 1, clock: 720, at: 0),
            Make.event(2, .fieldGoal(points: 2, made: true), team: .away, period: 2, clock: 300, at: 1500),
            Make.event(3, .periodStart, period: 4, clock: 720, at: 3500),
            Make.event(4, .fieldGoal(points: 3, made: true), team: .home, period: 4, clock: 300, at: 4000),
            Make.event(5, .fieldGoal(points: 2, made: true), team: .away, period: 4, clock: 80, at: 4100),
            Make.event(6, .rebound(offensive: false), team: .home, period: 4, clock: 40, at: 4200),
        ]
        let now = Make.start.addingTimeInterval(4202)
        var session = GameSession(attributes: Make.attributes, now: now)
        session.beginArrival()
        for (index, event) in events.enumerated() { session.receive(event, index: index, now: now) }
        session.follow(FinalScore(home: 3, away: 2), now: now)
        session.endArrival(now: now)
        let joined = session.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }
        #expect(session.state.homeScore == 3 && session.state.awayScore == 2)
        #expect(!joined.isEmpty && joined.allSatisfy { $0.state == session.state })
        #expect(try joined.allSatisfy { try Make.aps($0)["alert"] == nil }, "\(joined.map(\.reason))")

        // A live moment: a rebound seconds later, and the feed's score now has the away side ahead.
        let later = now.addingTimeInterval(30)
        session.beginArrival()
        session.receive(Make.event(7, .rebound(offensive: false), team: .away, period: 4, clock: 30, at: 4230), index: events.count, now: later)
        session.follow(FinalScore(home: 3, away: 5), now: later)
        session.endArrival(now: later)
        let live = session.outbox.compactMap { if case .push(let record) = $0 { record } else { nil } }.dropFirst(joined.count)
        #expect(try live.contains { try Make.aps($0)["alert"] != nil }, "\(live.map(\.reason))")
    }

    /// Journaled, an arrival replays to the same session: its begin and end are inputs.
    @Test func anArrivalReplaysFromItsInputs() throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("overtime.json").path)
        let now = document.events[200].time
        var session = GameSession(attributes: document.attributes, now: now)
        session.recordsInputs = true
        let start = session
        session.beginArrival()
        for (index, event) in document.events.prefix(200).enumerated() { session.receive(event, index: index, now: now) }
        session.endArrival(now: now)
        let inputs = session.takeUnjournaled()
        #expect(inputs.first == .beginArrival && inputs.last == .endArrival(now: now))
        var replayed = start
        for input in inputs { replayed.apply(input) }
        #expect(replayed.outbox == session.outbox)
        #expect(replayed.state == session.state)
        #expect(replayed.arrival == nil)
    }
}

import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// Issue 32 in the pure core: a game called off (postponed, or suspended with the score it had)
/// ends on the lock screen with an `end` that says so, never "Final"; a game that comes back is
/// followed again.
@Suite("Calling a game off: postponed and suspended")
struct CallOffTests {
    static func document() throws -> FeedDocument {
        try FeedReader.read(path: Make.fixtures.appendingPathComponent("overtime.json").path)
    }

    /// A session (coalescer, token mode with push-to-start) that has received the first `count`
    /// events, each at its own time; the outbox emptied into `records`.
    static func session(_ document: FeedDocument, first count: Int, records: inout [PushRecord]) -> GameSession {
        var session = GameSession(
            attributes: document.attributes, renderer: .init(start: true), now: document.events[0].time)
        for (index, event) in document.events.prefix(count).enumerated() {
            session.receive(event, index: index, now: event.time)
            take(&session, into: &records)
        }
        return session
    }

    static func take(_ session: inout GameSession, into records: inout [PushRecord]) {
        while let output = session.outbox.first {
            if case .push(let record) = output { records.append(record) }
            session.delivered()
        }
    }

    static func alert(_ record: PushRecord) throws -> [String: Any]? {
        try Make.aps(record)["alert"] as? [String: Any]
    }

    @Test func aSuspendedGameEndsWithTheScoreItHadAndNoFinal() throws {
        let document = try Self.document()
        var records: [PushRecord] = []
        var session = Self.session(document, first: 300, records: &records)
        let shown = session.state
        let now = document.events[299].time.addingTimeInterval(1800)
        session.callOff(.suspended, why: "no new action for 1800 s", now: now)
        var ends: [PushRecord] = []
        Self.take(&session, into: &ends)
        #expect(session.hasEnded)
        let end = try #require(ends.first, "an end goes out")
        #expect(end.event == .end && end.state.phase == .suspended)
        #expect(end.state.homeScore == shown.homeScore && end.state.awayScore == shown.awayScore, "the score it had")
        let lastEvent = document.events[299].time
        #expect(end.state.clock == .stopped(seconds: shown.clock.secondsRemaining(at: lastEvent)), "the clock stopped where it stood when the feed went silent")
        #expect(end.reason == "suspended")
        let alert = try #require(try Self.alert(end), "a priority 10 end says it")
        #expect((alert["title"] as? String)?.hasPrefix("Suspended: ") == true)
        #expect(!end.payload.contains(Data("Final".utf8)), "no Final for a game that is not final")
        #expect(try Make.aps(end)["dismissal-date"] != nil)
        // Called off again, or later, nothing more.
        session.callOff(.suspended, why: "again", now: now.addingTimeInterval(60))
        session.callOff(.postponed, why: "again", now: now.addingTimeInterval(60))
        #expect(session.outbox.isEmpty)
    }

    @Test func aPostponedGameEndsWithoutAScoreAndWithoutAStart() throws {
        let document = try Self.document()
        let now = document.events[0].time
        var session = GameSession(attributes: document.attributes, renderer: .init(start: true), now: now)
        session.callOff(.postponed, why: "the boxscore says \"PPD\"", now: now)
        var records: [PushRecord] = []
        Self.take(&session, into: &records)
        #expect(records.filter { $0.priority == 10 }.map(\.event) == [.end], "one end, and its priority-5 copy: \(records.map(\.event))")
        #expect(!records.contains { $0.event == .start || $0.event == .update }, "no start, no update")
        let end = try #require(records.first)
        #expect(end.state.phase == .postponed && end.reason == "postponed")
        let alert = try #require(try Self.alert(end))
        #expect((alert["title"] as? String)?.hasPrefix("Postponed: ") == true)
        #expect(alert["sound"] == nil, "a postponement is not urgent news")
    }

    @Test func aFinalIsNeverCalledOff() throws {
        let document = try Self.document()
        var records: [PushRecord] = []
        var session = Self.session(document, first: document.events.count, records: &records)
        #expect(session.hasEnded && session.state.phase == .final)
        session.callOff(.suspended, why: "late", now: document.events.last!.time.addingTimeInterval(9999))
        #expect(session.outbox.isEmpty && session.state.phase == .final)
    }

    @Test(arguments: [PushRenderer.Mode.token, .broadcast(channelId: "Y29tZWJhY2s=")])
    func aGameThatComesBackIsFollowedToItsFinal(_ mode: PushRenderer.Mode) throws {
        let document = try Self.document()
        var records: [PushRecord] = []
        var session = GameSession(
            attributes: document.attributes, renderer: .init(mode: mode, start: mode == .token), now: document.events[0].time)
        let cut = 300
        for (index, event) in document.events.prefix(cut).enumerated() {
            session.receive(event, index: index, now: event.time)
            Self.take(&session, into: &records)
        }
        let suspendedAt = document.events[cut - 1].time.addingTimeInterval(600)
        session.callOff(.suspended, why: "silent", now: suspendedAt)
        Self.take(&session, into: &records)
        let ended = records.count
        // The rest of the game, a day later (a suspended game completed another day).
        let later: TimeInterval = 86_400
        for (index, event) in document.events.enumerated().dropFirst(cut) {
            let now = event.time.addingTimeInterval(later)
            while let deadline = session.deadline, deadline <= now {
                session.tick(now: deadline)
                Self.take(&session, into: &records)
            }
            session.receive(event, index: index, now: now)
            Self.take(&session, into: &records)
        }
        session.finish(now: document.events.last!.time.addingTimeInterval(later + 60))
        Self.take(&session, into: &records)
        let after = Array(records.dropFirst(ended))
        #expect(session.statistics.reopened == 1)
        if mode == .token { #expect(after.first?.event == .start, "a new activity starts: \(after.first.map { "\($0.event)" } ?? "none")") }
        let last = try #require(after.last)
        #expect(last.event == .end && last.state.phase == .final)
        let final = try #require(document.finalScore)
        #expect(last.state.homeScore == final.home && last.state.awayScore == final.away, "the final is never dropped")
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.seq < $1.seq }, "seq keeps rising")
    }

    @Test func aGameBackWithANonPlayEventIsLiveAndCanBeCalledOffAgain() throws {
        let document = try Self.document()
        var records: [PushRecord] = []
        var session = Self.session(document, first: 300, records: &records)
        let t = document.events[299].time
        session.callOff(.suspended, why: "silent", now: t.addingTimeInterval(600))
        Self.take(&session, into: &records)
        let substitution = GameEvent(seq: 90_001, time: t.addingTimeInterval(700), period: session.state.period, clock: 300,
                                     kind: .substitution(out: nil), team: .home, player: "A. Player")
        session.receive(substitution, index: 300, now: t.addingTimeInterval(700))
        #expect(session.state.phase == .live, "live again, whatever the event")
        #expect(!session.hasEnded)
        session.callOff(.suspended, why: "silent again", now: t.addingTimeInterval(2000))
        var again: [PushRecord] = []
        Self.take(&session, into: &again)
        #expect(session.hasEnded, "called off again, it ends again")
        #expect(again.contains { $0.event == .end && $0.state.phase == .suspended })
    }

    @Test func aGameBackWithItsWholeEndInOneArrivalStartsItsActivityWithTheFinal() throws {
        let document = try Self.document()
        var records: [PushRecord] = []
        var session = Self.session(document, first: 300, records: &records)
        session.callOff(.suspended, why: "silent", now: document.events[299].time.addingTimeInterval(600))
        Self.take(&session, into: &records)
        let now = document.events.last!.time.addingTimeInterval(86_400)
        session.beginArrival()
        for (index, event) in document.events.enumerated().dropFirst(300) { session.receive(event, index: index, now: now) }
        session.endArrival(now: now)
        var back: [PushRecord] = []
        Self.take(&session, into: &back)
        #expect(back.first?.event == .start && back.first?.state.phase == .final, "a start with the final first: \(back.map { "\($0.event)" })")
        #expect(back.contains { $0.event == .end && $0.state.phase == .final }, "then the end")
        #expect(try Self.alert(back[0])?["sound"] == nil, "the start before an end is silent")
    }

    /// A broadcast game on a channel of its own that lingers `linger` seconds after its end,
    /// through 300 events and called off 600 s after the last, its end delivered: the game's
    /// document, its session and the moment of the call-off.
    static func calledOffOnItsChannel(linger: TimeInterval) throws -> (document: FeedDocument, session: GameSession, at: Date) {
        let document = try Self.document()
        var session = GameSession(
            attributes: document.attributes, renderer: PushRenderer.Configuration(mode: .broadcastPerGame).lingering(linger), now: document.events[0].time)
        session.createChannel(storage: 0)
        session.channelAnswered(ChannelAnswer(status: 201, channelID: "bGluZ2Vy"), now: document.events[0].time)
        for (index, event) in document.events.prefix(300).enumerated() {
            session.receive(event, index: index, now: event.time)
            while !session.outbox.isEmpty { session.delivered(now: event.time) }
        }
        let t = document.events[299].time.addingTimeInterval(600)
        session.callOff(.suspended, why: "silent", now: t)
        while !session.outbox.isEmpty { session.delivered(now: t) }
        return (document, session, t)
    }

    /// ``calledOffOnItsChannel(linger:)`` with a 2-minute linger, past it: the channel's delete is due.
    static func deletingItsChannel() throws -> (document: FeedDocument, session: GameSession, at: Date, id: String) {
        let calledOff = try calledOffOnItsChannel(linger: 120)
        var session = calledOff.session
        session.beginDelete(now: calledOff.at.addingTimeInterval(200))
        guard case .deleting(let id) = session.channel.phase else {
            throw ScoreFeedError(.channel, "the delete is due after the linger: \(session.channel.phase)")
        }
        return (calledOff.document, session, calledOff.at, id)
    }

    @Test func aGameBackWhileItsChannelLingersKeepsIt() throws {
        let calledOff = try Self.calledOffOnItsChannel(linger: 900)
        let document = calledOff.document, t = calledOff.at
        var session = calledOff.session
        guard case .lingering(let id, _) = session.channel.phase else {
            Issue.record("the channel lingers after the end: \(session.channel.phase)")
            return
        }
        session.receive(document.events[300], index: 300, now: t.addingTimeInterval(60))
        #expect(session.channel.phase == .open(id: id), "the same channel, open again")
        // Past the linger and deleted, a game back gets a new channel, with a new create.
        session.callOff(.suspended, why: "silent", now: t.addingTimeInterval(120))
        while !session.outbox.isEmpty { session.delivered(now: t.addingTimeInterval(120)) }
        session.beginDelete(now: t.addingTimeInterval(2000))
        let firstCreate = session.channel.createRequestID(game: document.attributes.gameId)
        session.channelAnswered(ChannelAnswer(status: 204), now: t.addingTimeInterval(2001))
        #expect(session.channel.phase == .deleted(id: id))
        session.receive(document.events[301], index: 301, now: t.addingTimeInterval(3000))
        #expect(session.channel.phase == .none && session.channel.creates == 1, "no channel, to be made again")
        session.createChannel(storage: 0)
        #expect(session.channel.phase == .creating)
        #expect(session.channel.createRequestID(game: document.attributes.gameId) != firstCreate, "a new request id for the new create")
    }

    /// Seed 2, day 358 (broadcast, iOS and Android): the channel's delete failed (APNs' channel
    /// service down) and the game came back meanwhile. The delete waited for an empty outbox, the
    /// iOS pushes for a channel: neither went, and the final never reached iOS.
    @Test func aGameBackWhileItsChannelsDeleteIsUnansweredSendsTheDeleteThenGetsANewChannel() throws {
        let deleting = try Self.deletingItsChannel()
        let document = deleting.document, t = deleting.at, id = deleting.id
        var session = deleting.session
        // The delete is not answered; the game comes back, and is called off again.
        session.receive(document.events[300], index: 300, now: t.addingTimeInterval(300))
        session.callOff(.suspended, why: "silent", now: t.addingTimeInterval(900))
        #expect(session.nextOutput == nil && !session.outbox.isEmpty, "its pushes wait for a channel")
        #expect(session.nextChannelRequest?.action == .delete, "the delete goes all the same")
        session.channelAnswered(ChannelAnswer(status: 204), now: t.addingTimeInterval(1000))
        #expect(session.channel.phase == .none && session.channel.creates == 1, "no channel, to be made again: \(session.channel.phase)")
        session.createChannel(storage: 0)
        session.channelAnswered(ChannelAnswer(status: 201, channelID: "bmV3"), now: t.addingTimeInterval(1001))
        guard case .push(let first) = session.nextOutput else {
            Issue.record("the held pushes go on the new channel")
            return
        }
        #expect(first.request[header: "apns-channel-id"] == "bmV3" && id != "bmV3")
        #expect(session.outbox.contains { if case .push(let record) = $0 { record.event == .end } else { false } }, "the end among them")
    }

    /// A delete APNs refuses for good (not "gone", not busy) leaves the channel at APNs, its
    /// devices subscribed: a game back goes on on it, whether the refusal came while it was live
    /// again or before, instead of holding its pushes (its final among them) for good.
    @Test(arguments: [true, false])
    func aGameBackWhoseDeleteAPNsRefusedGoesOnOnItsChannel(_ backBeforeTheAnswer: Bool) throws {
        let deleting = try Self.deletingItsChannel()
        let document = deleting.document, t = deleting.at, id = deleting.id
        var session = deleting.session
        let refusal = ChannelAnswer(status: 403, reason: "Forbidden")
        if backBeforeTheAnswer {
            session.receive(document.events[300], index: 300, now: t.addingTimeInterval(300))
            session.callOff(.suspended, why: "silent", now: t.addingTimeInterval(900))
            #expect(session.nextChannelRequest?.action == .delete, "the delete goes")
            let outcome = session.channelAnswered(refusal, now: t.addingTimeInterval(1000))
            #expect(outcome == .takenBack(id, reason: "APNs refused to delete channel \(id): HTTP 403 Forbidden"), "\(outcome)")
        } else {
            let outcome = session.channelAnswered(refusal, now: t.addingTimeInterval(250))
            #expect(outcome == .refused("APNs refused to delete channel \(id): HTTP 403 Forbidden"), "an ended game keeps nothing to send")
            #expect(session.channel.isLive && session.channel.sendableID == nil, "the channel still exists, unused")
            session.receive(document.events[300], index: 300, now: t.addingTimeInterval(300))
            session.callOff(.suspended, why: "silent", now: t.addingTimeInterval(900))
        }
        #expect(session.channel.phase == .open(id: id) && session.channel.creates == 1, "the same channel, no new create: \(session.channel.phase)")
        #expect(!session.isHolding)
        var sent: [PushRecord] = []
        while case .push(let record) = session.nextOutput {
            sent.append(record)
            session.delivered(now: t.addingTimeInterval(1001))
        }
        #expect(!sent.isEmpty && sent.allSatisfy { $0.request[header: "apns-channel-id"] == id })
        #expect(sent.contains { $0.event == .end }, "the end among them")
    }

    @Test func aCallOffReplaysFromItsInputs() throws {
        let document = try Self.document()
        let now = document.events[100].time
        var session = GameSession(attributes: document.attributes, now: document.events[0].time)
        session.recordsInputs = true
        let start = session
        for (index, event) in document.events.prefix(100).enumerated() { session.receive(event, index: index, now: event.time) }
        session.callOff(.suspended, why: "silent", now: now.addingTimeInterval(300))
        session.receive(document.events[100], index: 100, now: now.addingTimeInterval(900))
        let inputs = session.takeUnjournaled()
        #expect(inputs.contains(.callOff(.suspended, why: "silent", now: now.addingTimeInterval(300))))
        var replayed = start
        for input in inputs { replayed.apply(input) }
        #expect(replayed.outbox == session.outbox)
        #expect(replayed.state == session.state)
        #expect(replayed.statistics == session.statistics)
        // Through the journal's JSON too.
        let coded = try JSONDecoder().decode([GameSession.Input].self, from: JSONEncoder().encode(inputs))
        #expect(coded == inputs)
    }

    @Test(arguments: GamePhase.allCases)
    func everyPhaseIsWrittenAsItsCodableForm(_ phase: GamePhase) throws {
        var state = GameState()
        state.phase = phase
        var bytes = JSONBytes()
        try bytes.write(state)
        let decoded = try JSONDecoder().decode(GameState.self, from: bytes.data())
        #expect(decoded.phase == phase)
    }
}

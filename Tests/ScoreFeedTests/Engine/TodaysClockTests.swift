import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// Issue 31, item 5: recordings on today's clock. A recording played today (a recorded stream into
/// `serve` or `poll` on the system clock, `replay --speed` for a demo on a device) stamps every
/// date a device reads on the wall clock; instant replay keeps the recorded times.
@Suite("Recordings on today's clock")
struct TodaysClockTests {
    /// A day long after every recording: the system clock of a run today.
    static let today = Date(timeIntervalSince1970: 1_795_651_200)  // 2026-11-25

    // MARK: - The game clock of a feed whose times are not today's

    /// (How far the game's clock is past the feed's newest time, the shift.) Feed times ahead of
    /// the game's clock (a clock behind) are kept.
    static let lags: [(TimeInterval, TimeInterval)] = [
        (0, 0), (5, 0), (90, 0), (600, 0), (601, 601), (10_800, 10_800), (57_024_000, 57_024_000), (-30, 0),
    ]

    @Test(arguments: lags)
    func aFeedFarBehindTheGamesClockIsARecording(lag: TimeInterval, shift: TimeInterval) {
        let newest = Self.today
        #expect(GameFold.clockShift(eventTime: newest, newest: newest, now: newest.addingTimeInterval(lag)) == shift)
    }

    @Test func anEventOlderThanTheNewestMovesWithIt() {
        // The feed clock's now is its newest time: an older event (an insertion) moves nothing.
        let newest = Self.today, older = Self.today.addingTimeInterval(-3600)
        #expect(GameFold.clockShift(eventTime: older, newest: newest, now: newest) == 0)
        // Played a day later, it moves by the newest time's lag, so its clock keeps its place.
        #expect(GameFold.clockShift(eventTime: older, newest: newest, now: newest.addingTimeInterval(86_400)) == 86_400)
    }

    /// Folded on today's clock as they would arrive at their own pace, a recording's events give the
    /// states they give on the feed clock, with every running clock moved to today.
    @Test(arguments: Make.fixtureFiles().filter { !$0.hasPrefix("edge/") })
    func aRecordingPlayedTodayRunsItsClockFromToday(file: String) throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        let first = try #require(document.events.first?.time)
        let offset = Self.today.timeIntervalSince(first)
        var recorded = GameFold(), played = GameFold()
        var newest: Date?
        for (index, event) in document.events.enumerated() {
            // The game's moment: the newest feed time so far (the feed clock), or that moved to today.
            let feedNow = max(newest ?? event.time, event.time), now = feedNow.addingTimeInterval(offset)
            recorded.apply(event, index: index, now: feedNow)
            let shift = GameFold.clockShift(eventTime: event.time, newest: newest, now: now)
            #expect(shift == offset)
            _ = played.apply(event, judged: played.verdict(event, index: index), now: now, clockShift: shift)
            newest = max(newest ?? event.time, event.time)
            var expected = recorded.state
            if case .running(let endsAt) = expected.clock { expected.clock = .running(endsAt: endsAt.addingTimeInterval(offset)) }
            try #require(played.state == expected, "\(file): event \(index) (seq \(event.seq))")
        }
    }

    /// A session handed a recording on today's clock (as `serve` and `poll` on the system clock
    /// do) sends records whose every date is today's.
    @Test(arguments: Make.fixtureFiles().filter { !$0.hasPrefix("edge/") }, [PushRenderer.Mode.token, .broadcast(channelId: "dG9kYXk=")])
    func aSessionOnTodaysClockStampsToday(file: String, mode: PushRenderer.Mode) throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        let first = try #require(document.events.first?.time)
        let offset = Self.today.timeIntervalSince(first)
        var configuration = PushRenderer.Configuration(mode: mode, start: mode == .token)
        configuration.headStart = PushRenderer.Configuration.failoverHeadStart
        var session = GameSession(attributes: document.attributes, renderer: configuration, now: Self.today)
        var lines: [Data] = []
        func take() {
            while let output = session.outbox.first {
                if case .push(let record) = output { lines.append(record.jsonLine()) }
                session.delivered()
            }
        }
        var now = Self.today
        for (index, event) in document.events.enumerated() {
            now = max(now, event.time.addingTimeInterval(offset))
            while let deadline = session.deadline, deadline <= now {
                session.tick(now: deadline)
                take()
            }
            session.receive(event, index: index, now: now)
            take()
        }
        session.finish(now: now)
        take()
        let checked = DeviceDates.expectToday(lines, since: Self.today, until: now, what: "\(file) \(mode.name)")
        #expect(checked > 10, "\(file): a whole game's records")
        #expect(lines.compactMap(DeviceDates.init(line:)).contains { $0.endsAt != nil }, "\(file): some records show a running clock")
    }

    // MARK: - replay --speed

    /// Paced against the real clock, a replay decides as instant replay does (the same records,
    /// `sentAt` on the engine's clock) and dates what a device reads on the wall clock.
    @Test(arguments: Make.fixtureFiles().filter { !$0.hasPrefix("edge/") }, [1.0, 60, 600])
    func aPacedReplayStampsTheWallClock(file: String, speed: Double) async throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
        let first = try #require(document.events.first?.time)
        let pacing = PushRenderer.Pacing(feedStart: first, wallStart: Self.today, speed: speed)
        let instant = RecordingSink(), paced = RecordingSink()
        _ = try await Replay(renderer: .init(start: true)).run(document, sink: instant)
        var configuration = PushRenderer.Configuration(start: true)
        configuration.pacing = pacing
        _ = try await Replay(renderer: configuration).run(document, sink: paced)
        let recorded = await instant.records, played = await paced.records
        try #require(recorded.count == played.count, "\(file) at \(speed)x: as many records as instant replay")
        var lead = 0
        for (old, new) in zip(recorded, played) {
            let name = "\(file) at \(speed)x, seq \(new.seq)"
            #expect(old.seq == new.seq && old.event == new.event && old.priority == new.priority && old.reason == new.reason, "\(name): the same decision")
            #expect(old.sentAt == new.sentAt, "\(name): sentAt stays the engine's clock")
            #expect(old.state.homeScore == new.state.homeScore && old.state.awayScore == new.state.awayScore, "\(name): the same score")
            let moment = pacing.wall(new.sentAt)
            let second = Int(moment.timeIntervalSince1970.rounded(.down))
            #expect(new.timestamp >= second, "\(name): aps.timestamp \(new.timestamp) is not before its wall second \(second)")
            lead = max(lead, new.timestamp - second)
            let aps = try Make.aps(new)
            if new.event == .end {
                #expect(aps["dismissal-date"] as? Int == second + 900, "\(name): dismissal-date on the wall clock")
                #expect(new.request.headers["apns-expiration"] == String(second + 4 * 3600), "\(name): apns-expiration on the wall clock")
            } else {
                #expect(aps["stale-date"] as? Int == second + 300, "\(name): stale-date on the wall clock")
                #expect(new.request.headers["apns-expiration"] == String(second + 3600), "\(name): apns-expiration on the wall clock")
            }
            switch (old.state.clock, new.state.clock) {
            case (.running(let recordedEnd), .running(let playedEnd)):
                let left = recordedEnd.timeIntervalSince(old.sentAt), shown = playedEnd.timeIntervalSince(moment)
                #expect(abs(left - shown) < 0.001, "\(name): the clock shows \(shown) s left, the game had \(left)")
            case (.stopped(let a), .stopped(let b)):
                #expect(a == b, "\(name): the same stopped clock")
            default:
                Issue.record("\(name): the clock changed kind: \(old.state.clock) → \(new.state.clock)")
            }
        }
        #expect(lead <= played.count, "\(file) at \(speed)x: the timestamps' lead over the wall clock")
        print("today's clock: \(file) at \(speed)x: \(played.count) records, largest aps.timestamp lead over the wall second \(lead) s")
    }

    @Test func instantReplayKeepsTheRecordedTimes() async throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("one-point.json").path)
        let sink = RecordingSink()
        _ = try await Replay().run(document, sink: sink)
        for record in await sink.records {
            #expect(record.timestamp >= Int(record.sentAt.timeIntervalSince1970.rounded(.down)), "seq \(record.seq): stamped from its send")
            #expect(record.sentAt < Self.today.addingTimeInterval(-86_400 * 30), "seq \(record.seq): the recording's own time")
        }
    }

    @Test(.enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason))
    func replayWithSpeedPrintsTodaysDates() async throws {
        let since = Date()
        let run = try await ScoreFeedProcess.run(["replay", "Fixtures/one-point.json", "--speed", "100000", "--jsonl", "--start", "-q"])
        let until = Date()
        #expect(run.status == 0, "replay --speed exits 0: \(run.standardError.suffix(300))")
        let checked = DeviceDates.expectToday(run.lines, since: since, until: until, what: "replay --speed 100000")
        #expect(checked > 10, "a whole game's records")
    }
}

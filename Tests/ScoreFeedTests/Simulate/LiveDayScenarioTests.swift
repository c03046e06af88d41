import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The live layer's scenarios on the real games in `../shared/nba-pbp`, in process on virtual
/// time: scripted days (``SimulatedDay/init(scripted:mode:platform:seed:restarts:sink:pollInterval:)``) run
/// through `GameService`, `LiveService`, the pollers and the sinks as `poll` and `serve` run them,
/// in token and broadcast mode (channels made and deleted by ScoreFeed). Issue 30's joins and
/// catch-ups (one push for the present), issue 32's days where games go silent or are postponed
/// (every game ends), kill -9 with torn journals, a lost state directory, a stale CDN edge. Each
/// scenario also keeps every invariant of ``SimulationInvariants``. The binary against the Python
/// servers keeps one smoke test per command (`PollLiveTests`, `EveryGameEndsTests`).
@Suite("live days on the real games, on virtual time", .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct LiveDayScenarioTests {
    /// Both iOS modes and one of Android's, taken in turn by the scenarios: each runs for both
    /// platforms, and the suite in every mode of each, at three runs a scenario instead of four
    /// (Android's two modes differ only in each message's target). The sweeps (a scenario at five
    /// moments of a game, on both paths) take Android's topics.
    static let withAndroidToken: [Lane] = [Lane(.token, .ios), Lane(.broadcastPerGame, .ios), Lane(.token, .android)]
    static let withAndroidTopic: [Lane] = [Lane(.token, .ios), Lane(.broadcastPerGame, .ios), Lane(.broadcastPerGame, .android)]

    /// A mode on a platform.
    struct Lane: Sendable, CustomTestStringConvertible, CustomStringConvertible {
        var mode: PushRenderer.Mode
        var platform: PushRenderer.Platform

        init(_ mode: PushRenderer.Mode, _ platform: PushRenderer.Platform) {
            self.mode = mode
            self.platform = platform
        }

        /// Whether games have channels ScoreFeed makes (iOS broadcast).
        var hasChannels: Bool { platform == .ios && mode.isPerGame }
        var description: String { "\(mode.name) \(platform.rawValue)" }
        var testDescription: String { description }
    }

    /// Every liveData game beside the package.
    static let real: [SimulatedGame] = (try? NBAFiles.simulated.get()) ?? []

    /// 2025-01-01 00:00 UTC, 7 pm Eastern: the first tip-off.
    static let evening = Date(timeIntervalSince1970: 1_735_689_600)

    /// Every real game on `path`, tipping off `apart` seconds after the one before.
    static func games(_ path: SimulatedDay.Path = .poll, apart: TimeInterval = 1800) -> [SimulatedDay.Game] {
        real.enumerated().map { index, game in
            SimulatedDay.Game(game, path: path, tipOff: evening.addingTimeInterval(Double(index) * apart))
        }
    }

    static func run(_ day: SimulatedDay) async throws -> Simulation.Outcome {
        #expect(real.count >= 5, "the real liveData games beside the package")
        let outcome = try await SimulationTests.run(day)
        #expect(outcome.records.count > day.games.count, "the day sent its games' pushes")
        return outcome
    }

    /// Runs `games` through `restarts` (each game's, taken in order: each must come after the one
    /// before is over) at a poll every `pollInterval` s in `mode`, and checks every invariant and
    /// each game's final (`seq` may start again: a state directory may be lost).
    static func run(
        _ games: [SimulatedDay.Game], restarts: [SimulatedDay.Restart], _ mode: Lane, pollInterval: TimeInterval,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (day: SimulatedDay, outcome: Simulation.Outcome) {
        let restarts = restarts.sorted { $0.at < $1.at }
        let apart = zip(restarts, restarts.dropFirst()).allSatisfy { $0.at.addingTimeInterval($0.downFor) < $1.at }
        try #require(apart, "each game's restarts come after the ones before are over", sourceLocation: sourceLocation)
        let day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, restarts: restarts, pollInterval: pollInterval)
        let outcome = try await run(day)
        checkInvariants(outcome, sourceLocation: sourceLocation)
        checkFinals(outcome, games, seqRises: false, sourceLocation: sourceLocation)
        return (day, outcome)
    }

    static func score(_ record: PushRecord?) -> FinalScore? {
        record.map { FinalScore(home: $0.state.homeScore, away: $0.state.awayScore) }
    }

    /// A pause between two of a game's consecutive actions, as its feed shows them.
    struct Pause {
        var start: Date
        var end: Date
        var length: TimeInterval { end.timeIntervalSince(start) }
    }

    /// The pauses between `plan`'s consecutive actions, in order.
    static func pauses(_ plan: SimulatedDay.Game) -> [Pause] {
        let times = plan.game.actions.compactMap { plan.date(at: $0.offset) }
        return zip(times, times.dropFirst()).map { Pause(start: $0, end: $1) }
    }

    /// The scores the feed of `plan` stated between two moments (both included).
    static func stated(_ plan: SimulatedDay.Game, from: Date, to: Date) -> [FinalScore] {
        let game = plan.game
        let first = game.visible(at: plan.elapsed(at: from)), last = game.visible(at: plan.elapsed(at: to))
        return (first...max(first, last)).map(game.score(after:))
    }

    /// What `serve`'s lines of `plan` stated by `date` (its header aside).
    static func statedByLines(_ plan: SimulatedDay.Game, at date: Date) -> FinalScore? {
        var score: FinalScore?
        for (offset, line) in plan.game.lines.dropFirst() where plan.firstAction.addingTimeInterval(offset) <= date {
            let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any]
            if let stated = object?["score"] as? [String: Any], let home = stated["home"] as? Int, let away = stated["away"] as? Int {
                score = FinalScore(home: home, away: away)
            }
        }
        return score
    }

    /// Issue 30's bound on one moment of a game (its first record's): at most 2 records (the
    /// present and its priority-5 copy) and 1 priority 10. Returns the moment's records.
    @discardableResult
    static func checkMoment(_ records: [PushRecord], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> [PushRecord] {
        guard let first = records.first?.sentAt else {
            Issue.record("\(what): nothing was sent", sourceLocation: sourceLocation)
            return []
        }
        let moment = records.filter { $0.sentAt == first }
        let urgent = moment.filter { $0.priority == 10 }.count
        #expect(moment.count <= 2, "\(what): \(moment.count) pushes for one moment", sourceLocation: sourceLocation)
        #expect(urgent <= 1, "\(what): \(urgent) priority 10s for one moment", sourceLocation: sourceLocation)
        return moment
    }

    /// Each game's last record is its final end, with the feed's final; `seq` never falls (repeats
    /// of a record aside).
    static func checkFinals(
        _ outcome: Simulation.Outcome, _ games: [SimulatedDay.Game], seqRises: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for plan in games {
            let mine = outcome.records.filter { $0.game == plan.game.id }
            #expect(mine.last?.event == .end && mine.last?.state.phase == .final && score(mine.last) == plan.game.final,
                    "\(plan.game.id) ends with its final \(plan.game.final): \(mine.last.map { "\($0.event) \($0.state.phase) \($0.state.homeScore)-\($0.state.awayScore)" } ?? "nothing")",
                    sourceLocation: sourceLocation)
            // A record delivered again after a crash (its apns-id seen before) is a repeat, not news.
            var seen: Set<String> = []
            let news = mine.filter { seen.insert($0.key).inserted }
            guard seqRises else { continue }
            let falls = zip(news, news.dropFirst()).filter { $1.seq < $0.seq }.count
            #expect(falls == 0, "\(plan.game.id): seq fell \(falls) times", sourceLocation: sourceLocation)
        }
    }

    static func checkInvariants(_ outcome: Simulation.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.violations.isEmpty, "\(outcome.mode): \(outcome.violations.prefix(4))", sourceLocation: sourceLocation)
    }

    // MARK: - Joins and catch-ups (issue 30)

    /// Followed from the middle of each game (a poller started late; serve handed each game's
    /// lines up to then at once): one push for the present, not a burst of the past.
    @Test(arguments: withAndroidToken, [SimulatedDay.Path.poll, .serve])
    func aJoinMidGameSendsThePresentOnce(_ mode: Lane, _ path: SimulatedDay.Path) async throws {
        var games = Self.games(path)
        for index in games.indices { games[index].join = games[index].moment(0.5) }
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        for plan in games {
            let mine = outcome.records.filter { $0.game == plan.game.id }
            let join = try #require(plan.join)
            #expect(mine.allSatisfy { $0.sentAt >= join }, "\(plan.game.id): nothing before the join")
            let moment = Self.checkMoment(mine, "\(mode) \(path) \(plan.game.id) joined at 0.5")
            let feed = path == .poll ? Self.stated(plan, from: join, to: join).last : Self.statedByLines(plan, at: join)
            #expect(Self.score(moment.last) == feed, "\(plan.game.id): the join shows the feed's score then")
        }
    }

    /// Followed from ten minutes before tip-off, when the NBA's endpoints answer 404: the first
    /// action is on a push within one poll's interval (the pregame 404s are not failures to back
    /// off from; backed off, the first actions waited up to a minute more). Also when the
    /// instance is killed before each tip-off: the next one restores the games announced
    /// from the scoreboard (broadcast: their channels) and still asks at the interval (it used to
    /// take them for games whose play-by-play had gone, and back off).
    @Test(arguments: withAndroidTopic, [false, true])
    func aGameFollowedBeforeTipOffShowsItsFirstActionWithinAPoll(_ mode: Lane, killedBeforeTipOff: Bool) async throws {
        let games = Self.games(.poll)
        let restarts = !killedBeforeTipOff ? [] : games.map { SimulatedDay.Restart(at: $0.tipOff.addingTimeInterval(-240)) }
        let outcome = try await Self.run(
            SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, restarts: restarts, pollInterval: 30))
        Self.checkInvariants(outcome)
        #expect(outcome.answers["404", default: 0] > games.count, "the endpoints had no game before tip-off")
        for plan in games {
            // Android's start shows the game as any message does (it takes the first update's place).
            let first = try #require(outcome.records.first { $0.game == plan.game.id && ($0.event != .start || mode.platform == .android) })
            let late = first.sentAt.timeIntervalSince(plan.firstAction)
            #expect(late >= 0 && late <= 30, "\(plan.game.id): its first push came \(Int(late)) s after its first action")
        }
    }

    /// As above in May, in daylight-saving time, where `meta.time` (Eastern wall-clock time) is
    /// four hours behind UTC, not five. Read as UTC, every copy was hours old, and a game's first
    /// action waited through four answers for a fresh copy: two minutes at a 30 s interval (the
    /// simulated CDN stamped its copies in UTC then, and no check saw it).
    @Test(arguments: withAndroidTopic)
    func aGameInDaylightTimeShowsItsFirstActionWithinAPoll(_ mode: Lane) async throws {
        let may = Self.evening.addingTimeInterval(130 * 86_400)
        let games = Self.games(.poll).map { plan in
            SimulatedDay.Game(plan.game, path: .poll, tipOff: plan.tipOff.addingTimeInterval(may.timeIntervalSince(Self.evening)))
        }
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30))
        Self.checkInvariants(outcome)
        for plan in games {
            let first = try #require(outcome.records.first { $0.game == plan.game.id && ($0.event != .start || mode.platform == .android) })
            let late = first.sentAt.timeIntervalSince(plan.firstAction)
            #expect(late >= 0 && late <= 30, "\(plan.game.id): its first push came \(Int(late)) s after its first action")
        }
    }

    /// Live across the night the clocks go back (2026-11-01, 2 a.m. EDT is 1 a.m. EST):
    /// `meta.time` repeats the hour from 1 a.m., and a poller that read it as
    /// daylight time took every copy of the second pass for one an hour older than the first's
    /// last, refused it as a stale edge's, and froze each game's lock screen for up to an hour.
    /// The freshness check (news on a push within a poll and 10 s) holds it.
    @Test(arguments: withAndroidTopic)
    func aGameLiveWhenTheClocksGoBackStaysFresh(_ mode: Lane) async throws {
        // 00:10 EDT; the games tip off half an hour apart: the first four are live across the
        // change, the fifth (at 01:10 EST) in the second pass alone.
        let fallBack = Date(timeIntervalSince1970: try #require(ISOTime.seconds("2026-11-01T04:10:00Z")))
        let games = Self.games(.poll).map { plan in
            SimulatedDay.Game(plan.game, path: .poll, tipOff: plan.tipOff.addingTimeInterval(fallBack.timeIntervalSince(Self.evening)))
        }
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        let change = try #require(ISOTime.seconds("2026-11-01T06:00:00Z"))
        #expect(outcome.records.contains { $0.sentAt.timeIntervalSince1970 > change + 60 && $0.sentAt.timeIntervalSince1970 < change + 3540 },
                "pushes in the repeated hour's second pass")
    }

    /// Live across the night the clocks go back, on a CDN that stamps a copy when it last
    /// changed: 20 minutes into the repeated hour's second pass, every game's edge answers for
    /// a minute with its copy of `lag` before, from the first pass, whose `meta.time` reads as
    /// the second pass: 57 minutes old, 3 minutes ahead; 59 min 55 s old, 5 s before it came.
    /// Ordered by that time it was news and took the score back (`simulate --days 500 --seed 1
    /// --platform ios`, day 52, broadcast: 80-77, then 78-77; `simulate --days 250 --seed 23
    /// --interval 60 --platform ios,android`, day 212: 89-81, then 89-79); ordered by its actions
    /// it is refused, and every invariant holds.
    @Test(arguments: withAndroidTopic, [57 * 60, 3595] as [TimeInterval])
    func aFirstPassCopyReadAsTheSecondPassTakesNoScoreBack(_ mode: Lane, lag: TimeInterval) async throws {
        let fallBack = Date(timeIntervalSince1970: try #require(ISOTime.seconds("2026-11-01T04:10:00Z")))
        let stale = Date(timeIntervalSince1970: try #require(ISOTime.seconds("2026-11-01T06:20:00Z")))
        var games = Self.games(.poll).map { plan in
            SimulatedDay.Game(plan.game, path: .poll, tipOff: plan.tipOff.addingTimeInterval(fallBack.timeIntervalSince(Self.evening)))
        }
        for index in games.indices {
            games[index].stampsWhenWritten = true
            games[index].staleWindows = [(stale..<stale.addingTimeInterval(60), lag)]
        }
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.answers["stale", default: 0] >= games.count, "\(outcome.answers)")
        // The games live through the stale minute, whose scores changed in the `lag` before it.
        let live = games.filter { plan in
            let before = Self.stated(plan, from: stale.addingTimeInterval(-lag), to: stale)
            return plan.firstAction < stale.addingTimeInterval(-lag) && (plan.lastAction ?? .distantPast) > stale && Set(before).count > 1
        }
        #expect(live.count >= 2, "games live across the stale minute: \(live.map(\.game.id))")
        // Every invariant held (above): no push shows a score older than one shown before, but
        // where the feed corrected it.
    }

    /// The real games on `serve`, each joined at its middle, its backlog handed in four parts a
    /// millisecond apart.
    static func joinedInParts() -> [SimulatedDay.Game] {
        var games = Self.games(.serve)
        for index in games.indices {
            games[index].join = games[index].moment(0.5)
            games[index].backlogBatches = 4
        }
        return games
    }

    /// `serve` handed each game's lines up to the middle in four parts a millisecond apart (a
    /// pipe's pieces): still one moment, pushes up to 10 ms apart counted as one (decided part by
    /// part, the parts were pushed 5 to 7 times).
    @Test(arguments: withAndroidToken)
    func aBacklogInPartsSendsThePresentOnce(_ mode: Lane) async throws {
        let games = Self.joinedInParts()
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        for plan in games {
            let mine = outcome.records.filter { $0.game == plan.game.id }
            let first = try #require(mine.first, "\(plan.game.id) sent nothing")
            let moment = mine.filter { $0.sentAt.timeIntervalSince(first.sentAt) <= 0.01 }
            #expect(moment.count <= 2 && moment.filter { $0.priority == 10 }.count <= 1,
                    "\(mode) \(plan.game.id): \(moment.count) pushes for the backlog in parts")
            #expect(Self.score(moment.last) == Self.statedByLines(plan, at: try #require(plan.join)), "\(plan.game.id): the present")
        }
    }

    /// `serve`'s input stalls across a late lead change or tie of each game and flushes once a
    /// play more than 45 s of feed time after it is in, with no score change between: one
    /// arrival, not a join, whose moment is past. Its moment shows the present, and no push
    /// alerts for the lead change (the alert check holds the rest). Built with the coalescer's
    /// alert window at an hour, the flushes alert for moments a minute old.
    @Test(arguments: withAndroidToken + [Lane(.broadcastPerGame, .android)])
    func aStalledInputsFlushAlertsForNoMomentPast(_ mode: Lane) async throws {
        var games: [SimulatedDay.Game] = []
        for var plan in Self.games(.serve) {
            let offsets = plan.game.lines.dropFirst().map(\.offset)
            // The last decisive moment with a play 45 s after it and no score change in between.
            let chosen = plan.game.decisiveMoments.reversed().lazy.compactMap { moment -> (Double, Double)? in
                guard let later = offsets.first(where: { $0 > moment + 45 }) else { return nil }
                let at = { (offset: Double) in plan.firstAction.addingTimeInterval(offset) }
                return Self.statedByLines(plan, at: at(moment)) == Self.statedByLines(plan, at: at(later + 1)) ? (moment, later) : nil
            }.first
            guard let (moment, later) = chosen else { continue }
            plan.stalls = [plan.firstAction.addingTimeInterval(moment - 5)..<plan.firstAction.addingTimeInterval(later + 1)]
            games.append(plan)
        }
        try #require(!games.isEmpty, "real games with a late lead change or tie and a play 45 s after it, no score between")
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        for plan in games {
            let flushed = plan.stalls[0].upperBound
            let mine = outcome.records.filter { $0.game == plan.game.id && $0.sentAt >= flushed }
            let moment = Self.checkMoment(mine, "\(mode) \(plan.game.id) at the flush")
            #expect(Self.score(moment.last) == Self.statedByLines(plan, at: flushed), "\(plan.game.id): the present")
            let alerted = moment.filter { String(decoding: $0.payload, as: UTF8.self).contains("Lead change: ") }
            let past = Int(flushed.timeIntervalSince(plan.stalls[0].lowerBound)) - 6
            #expect(alerted.isEmpty, "\(mode) \(plan.game.id): the flush alerts for a lead change \(past) s past")
        }
    }

    /// The instance is killed between the parts of each game's join backlog and restarted a
    /// minute later: the catch-up it left waiting for its parts (its wait over while no instance
    /// ran) waits again for the input the restart reads, and the two are one moment. It used to be
    /// decided alone as the instance started, and the rest of the backlog right after it: four
    /// pushes at once. (Found on `poll`, killed in a join's wait for a fresh copy: `simulate
    /// --seed 28 --day 16 --days 1 --mode token --platform ios --games ../shared/nba-pbp`.)
    @Test(arguments: withAndroidToken)
    func aCatchUpLeftWaitingByAKillIsOneMomentWithTheRestart(_ mode: Lane) async throws {
        let games = Self.joinedInParts()
        let restarts = games.map { SimulatedDay.Restart(at: $0.moment(0.5).addingTimeInterval(0.0015), downFor: 60) }
        let outcome = try await Self.run(
            SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, restarts: restarts, pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        for (plan, restart) in zip(games, restarts) {
            let started = restart.at.addingTimeInterval(restart.downFor)
            let mine = outcome.records.filter { $0.game == plan.game.id }
            #expect(!mine.contains { $0.sentAt > plan.join! && $0.sentAt < started }, "\(plan.game.id): the catch-up waited for its parts")
            let moment = Self.checkMoment(mine.filter { $0.sentAt >= started }, "\(mode) \(plan.game.id) after the restart")
            #expect(Self.score(moment.last) == Self.statedByLines(plan, at: started), "\(plan.game.id): the present")
        }
    }

    /// `poll` follows each game from its middle, and its first answer is a stale edge's copy of
    /// two minutes before, so the join waits for a fresh one; the instance is killed in that wait
    /// and back two minutes later, its first answer stale again. The restored game goes on
    /// waiting for a fresh copy, and shows the present in one moment, not the stale copy's score
    /// (the restarted poller took the game for one it knew and decided on the stale copy).
    @Test(arguments: withAndroidTopic)
    func aJoinsWaitForAFreshCopyGoesOnAfterARestart(_ mode: Lane) async throws {
        var games = Self.games()
        var restarts: [SimulatedDay.Restart] = []
        for index in games.indices {
            let join = games[index].moment(0.5)
            let kill = SimulatedDay.Restart(at: join.addingTimeInterval(10), downFor: 120)
            let back = kill.at.addingTimeInterval(kill.downFor)
            games[index].join = join
            games[index].staleWindows = [(join..<join.addingTimeInterval(1), 120), (back..<back.addingTimeInterval(1), 120)]
            restarts.append(kill)
        }
        let outcome = try await Self.run(
            SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, restarts: restarts, pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.answers["stale", default: 0] >= 2 * games.count, "\(outcome.answers)")
        for (plan, kill) in zip(games, restarts) {
            let back = kill.at.addingTimeInterval(kill.downFor)
            let mine = outcome.records.filter { $0.game == plan.game.id }
            #expect(!mine.contains { $0.sentAt < back }, "\(plan.game.id): nothing before the fresh copy")
            let moment = Self.checkMoment(mine, "\(mode) \(plan.game.id) after the restart")
            let shown = try #require(moment.last)
            #expect(shown.sentAt > back, "\(plan.game.id): decided on the fresh copy after the stale one")
            #expect(Self.score(shown) == Self.stated(plan, from: shown.sentAt, to: shown.sentAt).last, "\(plan.game.id): the present")
        }
    }

    /// Each game's endpoints answer 503 from 0.4 to 0.7 of the game: once they answer again, one
    /// push for the present.
    @Test(arguments: withAndroidTopic)
    func anOutageIsCaughtUpWithOnePush(_ mode: Lane) async throws {
        var games = Self.games()
        for index in games.indices { games[index].outages = [games[index].moment(0.4)..<games[index].moment(0.7)] }
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.answers.contains { $0.key.contains("503") && $0.value > 0 }, "the endpoints were down: \(outcome.answers)")
        for plan in games {
            let back = plan.outages[0].upperBound
            let after = outcome.records.filter { $0.game == plan.game.id && $0.sentAt >= back }
            let moment = Self.checkMoment(after, "\(mode) \(plan.game.id) after its outage")
            let shown = try #require(Self.score(moment.last))
            let since = Self.stated(plan, from: back, to: moment.last?.sentAt ?? back)
            #expect(since.contains(shown),
                    "\(plan.game.id): the catch-up shows \(shown), a score the feed stated since it came back")
        }
    }

    /// The machine is lost at half time of every game and another starts on an empty state
    /// directory (serve, each game's lines from the start again): no `apns-id` names two bodies,
    /// and every game ends with its final.
    @Test(arguments: withAndroidToken)
    func aFailoverToAFreshStateDirNeverNamesAnotherBodyWithAnID(_ mode: Lane) async throws {
        let games = Self.games(.serve, apart: 0)
        let kill = try #require(games.map { $0.moment(0.5) }.min())
        let outcome = try await Self.run(SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform, restarts: [SimulatedDay.Restart(at: kill, downFor: 30, lostState: true)], pollInterval: 120))
        #expect(outcome.instances == 2)
        #expect(!outcome.violations.contains { $0.contains("names two bodies") }, "\(outcome.violations.prefix(4))")
        #expect(!outcome.violations.contains { $0.contains("shows") && $0.contains("after") }, "no score backwards: \(outcome.violations.prefix(4))")
        // The new machine numbers its pushes from 1 again: it cannot know the lost one's seq.
        Self.checkFinals(outcome, games, seqRises: false)
        for plan in games {
            let mine = outcome.records.filter { $0.game == plan.game.id }
            #expect(mine.contains { $0.sentAt < kill } && mine.contains { $0.sentAt > kill }, "\(plan.game.id): pushed by both machines")
        }
    }

    /// The day a sweep with lost state directories found (`simulate --seed 3 --day 5 --days 1
    /// --mode broadcast --platform ios --games ../shared/nba-pbp --lose-state`): the instance that
    /// starts on an empty directory reads every game's lines again, its first batch waits 21 s on
    /// the channel creates of a slow sender while the rest of the lines wait behind it, and each
    /// catch-up's half-second wait for its next part ran out meanwhile: three games showed the
    /// first part's score, older than the lost instance had shown, for 21 s. A catch-up now waits
    /// for the input to be taken; and the fresh directory sends each final's end again, once.
    @Test(arguments: [PushRenderer.Mode.broadcastPerGame, .token])
    func aFreshStateDirBehindASlowSenderShowsNoOlderScore(_ mode: PushRenderer.Mode) async throws {
        let pool = SimulatedGamePool(real: Self.real, generated: 300)
        let day = SimulatedDay(index: 5, seed: 3, mode: mode, platform: .ios, pool: pool, pollInterval: 30, games: 5...15, losingState: true, killsInFinalWrites: false, powerCuts: false, lossesInBreaks: false)
        #expect(day.restarts.contains(where: \.lostState) && day.sink.slowest > 0, "the day loses a state directory and has a slow sender")
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
    }

    // MARK: - Every game ends (issue 32)

    /// A day where one game is played, one's feed goes silent at 68 % for good, and one is
    /// postponed: each ends on the lock screen (final; suspended at the feed's score; postponed
    /// only) and the day finishes by itself.
    @Test(arguments: withAndroidTopic)
    func aDayWithASilentAndAPostponedGameFinishesByItself(_ mode: Lane) async throws {
        try #require(Self.real.count >= 3)
        var games = Array(Self.games().prefix(3))
        games[1].fate = .silent(at: 0.68)
        games[2].fate = .postponed
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, [games[0]])
        let silent = outcome.records.filter { $0.game == games[1].game.id }
        let held = Self.stated(games[1], from: games[1].moment(0.68), to: games[1].moment(0.68)).last
        #expect(silent.last?.event == .end && silent.last?.state.phase == .suspended && Self.score(silent.last) == held,
                "the silent game ends suspended at the feed's \(held.map { "\($0)" } ?? "?")")
        #expect(!silent.contains { $0.state.phase == .final }, "no final for the silent game")
        let postponed = outcome.records.filter { $0.game == games[2].game.id }
        #expect(postponed.allSatisfy { $0.event != .update && $0.state.phase == .postponed }, "the postponed game: only its postponement")
        let told = outcome.reports.map(\.report)
        #expect(told.contains { if case .calledOff(games[2].game.id, .postponed, _, _) = $0 { true } else { false } }, "the postponement is told")
        #expect(told.contains { if case .calledOff(games[1].game.id, .suspended, _, ended: true) = $0 { true } else { false } }, "the give-up is told")
        if mode.hasChannels {
            #expect(outcome.channelsMade[games[1].game.id] == 1, "the silent game had one channel: \(outcome.channelsMade)")
        }
    }

    /// Real games, iOS broadcast (the mode with channels to delete), polled (the give-up for
    /// silence is the poller's ``FeedWatch``): one goes silent, is given up, its channel's delete
    /// is refused for good by APNs (403), and it comes back; it goes on on that channel to its
    /// final (``BroadcastChannel/takeBack()``), with no second channel made, and every game ends.
    @Test func aGameBackWhoseDeleteWasRefusedEndsOnItsChannel() async throws {
        try #require(Self.real.count >= 2)
        var games = Array(Self.games(apart: 0).prefix(2))
        let silentAt = games[1].moment(0.6)
        let after = FeedWatch.defaultGiveUpAfter + SimulatedSender.expectedLinger + 1800
        games[1].fate = .comeback(at: 0.6, after: after)
        // `poll --today` ends once every game has; an operator's run once the feed is back follows it.
        var day = SimulatedDay(
            scripted: games, mode: .broadcastPerGame, restarts: [SimulatedDay.Restart(at: silentAt.addingTimeInterval(after + 600))],
            pollInterval: 120)
        day.sink.deleteRefusals = [day.start..<silentAt.addingTimeInterval(86_400)]
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        let back = outcome.records.filter { $0.game == games[1].game.id }
        #expect(Set(back.compactMap { $0.request[header: "apns-channel-id"] }).count == 1, "one channel, taken back")
        #expect(outcome.channelsMade[games[1].game.id] == 1, "\(outcome.channelsMade)")
        #expect(back.contains { $0.event == .end && $0.state.phase == .suspended }, "given up first")
    }

    /// The instance is killed (a journal torn) once the silent game's end is out, while a late
    /// game keeps it busy; the next one does not end the silent game twice; a third, once the feed is back (a suspended game completed
    /// later), follows it to its final, on a new activity in token mode and a new channel in
    /// broadcast mode, and leaves the game that ended alone.
    @Test(arguments: withAndroidToken)
    func aKillWhileAGameIsGivenUpThenItsComeback(_ mode: Lane) async throws {
        try #require(Self.real.count >= 3)
        var games = Array(Self.games(apart: 0).prefix(3))
        let giveUp = FeedWatch.defaultGiveUpAfter
        let silentAt = games[1].moment(0.68)
        let kill = silentAt.addingTimeInterval(giveUp + 600)
        let back = kill.addingTimeInterval(giveUp + 1200)
        games[1].fate = .comeback(at: 0.68, after: back.timeIntervalSince(silentAt))
        // A late game keeps the first instance busy, so the kill finds it running.
        games[2].tipOff = kill.addingTimeInterval(-3600)
        let again = back.addingTimeInterval(600)
        var day = SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform, restarts: [SimulatedDay.Restart(at: kill, tornJournal: true), SimulatedDay.Restart(at: again)],
            pollInterval: 120)
        day.startsActivities = true
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        #expect(outcome.instances == 3, "killed, run again, run once the feed was back")
        Self.checkFinals(outcome, games)
        let silent = outcome.records.filter { $0.game == games[1].game.id }
        let suspended = silent.filter { $0.event == .end && $0.state.phase == .suspended }
        #expect(Set(suspended.map(\.key)).count <= 2, "one suspended end and its priority-5 copy, not \(Set(suspended.map(\.key)).count)")
        #expect(Set(suspended.map(\.state)).count == 1 && !suspended.isEmpty, "one suspended end")
        let starts = outcome.instanceStarts
        #expect(outcome.records.contains { $0.game == games[2].game.id && $0.sentAt < kill && $0.sentAt > kill.addingTimeInterval(-3000) },
                "the first instance was running when it was killed")
        let second = outcome.records.filter { $0.game != games[2].game.id && $0.sentAt >= starts[1] && $0.sentAt < starts[2] }
        #expect(second.isEmpty, "the second instance sends nothing of the first two games: \(second.map { "\($0.game) \($0.event)" })")
        let told = outcome.reports
        #expect(told.contains { if $0.instance == 2, case .stillCalledOff(games[1].game.id, .suspended, _) = $0.report { true } else { false } },
                "the second instance says the game was given up before")
        #expect(told.contains { if $0.instance == 3, case .back(games[1].game.id, .suspended) = $0.report { true } else { false } },
                "the third says the game is back")
        let resumed = silent.filter { $0.sentAt >= starts[2] }
        if let seq = suspended.map(\.seq).max() { #expect(resumed.allSatisfy { $0.seq > seq }, "seq keeps rising after the suspended end") }
        if mode.mode == .token || mode.platform == .android {
            #expect(resumed.first?.event == .start, "a new activity starts for the game that came back")
        }
        #expect(!outcome.records.contains { $0.game == games[0].game.id && $0.sentAt >= starts[2] }, "the ended game is left alone")
        if mode.hasChannels { #expect(outcome.channelsMade[games[1].game.id] == 2, "a new channel for the game that came back") }
    }

    // MARK: - Crashes, a stale edge, faults

    /// kill -9 three times (two journals torn mid-line), polled and served games alike: each
    /// instance restores what the one before had applied, sent and spent; every final once.
    @Test(arguments: withAndroidTopic)
    func killNineAndRestartLosesAndChangesNothing(_ mode: Lane) async throws {
        var games = Self.games(apart: 900)
        for index in games.indices where index % 2 == 1 { games[index].path = .serve }
        let middle = games[games.count / 2]
        let outcome = try await Self.run(SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform,
            restarts: [
                SimulatedDay.Restart(at: middle.moment(0.25), tornJournal: true), SimulatedDay.Restart(at: middle.moment(0.5)),
                SimulatedDay.Restart(at: middle.moment(0.8), downFor: 600, tornJournal: true),
            ], pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.instances == 4)
    }

    /// kill -9 twice mid-day, polled and served games alike, and each restart finds one game's
    /// checkpoint damaged (half its bytes): that game starts afresh as after a lost state
    /// directory, alone (its numbering past the lost file's, its hour's budget counted as spent),
    /// and every invariant holds for it as for a fresh instance's games, the others' as restored.
    @Test(arguments: withAndroidToken)
    func aDamagedCheckpointStartsItsGameAfreshAlone(_ mode: Lane) async throws {
        var games = Self.games(apart: 600)
        for index in games.indices where index % 2 == 1 { games[index].path = .serve }
        let middle = games[games.count / 2]
        let day = SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform,
            restarts: [
                SimulatedDay.Restart(at: middle.moment(0.3), damagedCheckpoint: true),
                SimulatedDay.Restart(at: middle.moment(0.7), downFor: 300, tornJournal: true, damagedCheckpoint: true),
            ], pollInterval: 60)
        #expect(day.faults["damaged checkpoint"] == 2)
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.instances == 3)
        #expect(outcome.damagedCheckpoints.map(\.count) == [0, 1, 1], "each restart found one game's checkpoint damaged")
        // Broadcast: the game goes on on the channel its devices subscribed to (`channels.json`
        // still named it), made once.
        guard mode.mode == .broadcastPerGame, mode.platform == .ios else { return }
        for game in outcome.damagedCheckpoints.joined() {
            let channels = Set(outcome.records.filter { $0.game == game }.compactMap { $0.request[header: "apns-channel-id"] })
            #expect(channels.count == 1, "game \(game): its pushes went to \(channels.sorted())")
        }
    }

    /// Both lock screens from one fold (`--platform ios,android`), through the same three kills
    /// (two journals torn), a join, polled and served games, in both iOS modes: each lane keeps
    /// every invariant as its platform's alone, and every game ends with its final on both.
    @Test(arguments: [PushRenderer.Mode.token, .broadcastPerGame])
    func bothPlatformsThroughKillsAndAJoin(_ mode: PushRenderer.Mode) async throws {
        var games = Self.games(apart: 900)
        for index in games.indices where index % 2 == 1 { games[index].path = .serve }
        games[0].join = games[0].moment(0.5)
        let middle = games[games.count / 2]
        var day = SimulatedDay(
            scripted: games, mode: mode, platform: .ios,
            restarts: [
                SimulatedDay.Restart(at: middle.moment(0.25), tornJournal: true), SimulatedDay.Restart(at: middle.moment(0.5)),
                SimulatedDay.Restart(at: middle.moment(0.8), downFor: 600, tornJournal: true),
            ], pollInterval: 120)
        day.platforms = [.ios, .android]
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        #expect(outcome.instances == 4)
        for platform in PushRenderer.Platform.allCases {
            var lane = outcome
            lane.records = outcome.records.filter { $0.platform == platform }
            #expect(lane.records.count > games.count, "\(platform)'s records")
            Self.checkFinals(lane, games)
        }
    }

    /// Each game alone, its instance killed between the last period's end and the game's end
    /// (a few seconds apart in the feed, while the policy holds the period's end for the final)
    /// and back once the game is final, polled or served (`serve` reads its input again from the
    /// start, so its first arrival may be repeats only): the restart's first moment is one
    /// catch-up, the `end` and its priority-5 copy. Before a restart waited for its first
    /// arrival, the held push went out alone at once and the `end` right after it: 4 pushes, 2 of
    /// priority 10.
    @Test(arguments: withAndroidTopic, [SimulatedDay.Path.poll, .serve].flatMap { path in (0..<5).map { Placed(path: path, which: $0) } })
    func aRestartAfterTheFinalSendsTheEndAsOneMoment(_ mode: Lane, _ placed: Placed) async throws {
        var plan = try #require(Self.games(placed.path).dropFirst(placed.which).first)
        // Read again in four parts a millisecond apart: the first ones are repeats only.
        if placed.path == .serve { plan.backlogBatches = 4 }
        let actions = plan.game.actions
        let periodEnd = try #require(actions.last { $0.offset < plan.game.span - 2 }?.offset)
        let kill = plan.firstAction.addingTimeInterval((periodEnd + plan.game.span) / 2)
        let over = try #require(plan.finalAt).addingTimeInterval(60)
        // Followed from ten minutes before the last period's end (its catch-up one moment of its
        // own, long before the kill; `serve`: its lines up to then in one backlog): a poll a
        // second through the whole game cost a second of CPU a case and tested nothing more.
        plan.join = plan.firstAction.addingTimeInterval(max(0, periodEnd - 600))
        let outcome = try await Self.run(SimulatedDay(
            scripted: [plan], mode: mode.mode, platform: mode.platform, restarts: [SimulatedDay.Restart(at: kill, downFor: over.timeIntervalSince(kill))],
            pollInterval: 1))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, [plan])
        #expect(outcome.instances == 2)
        let back = try #require(outcome.instanceStarts.last)
        let after = outcome.records.filter { $0.sentAt >= back }
        let moment = Self.checkMoment(after, "\(mode) \(plan.game.id) restarted after its final")
        #expect(moment.first?.event == .end, "\(plan.game.id): the restart's first push is the end")
    }

    /// Each game alone, its push sender down from two minutes before the final to a quarter of an
    /// hour after it, and the instance killed five minutes after the final, while the sender's
    /// queue (``ResilientSink``, in memory) still holds the `end`: the restart sends the end
    /// again, and every game ends with its final. Before the end was kept until the sink had
    /// delivered it, token mode lost it with the queue: the last push was an update short of the
    /// final (`simulate --seed 21 --day 7 --mode token --games ../shared/nba-pbp`; tried).
    @Test(arguments: withAndroidTopic, [SimulatedDay.Path.poll, .serve].flatMap { path in (0..<5).map { Placed(path: path, which: $0) } })
    func aKillWhileTheSenderHoldsTheEndStillEndsTheGame(_ mode: Lane, _ placed: Placed) async throws {
        let plan = try #require(Self.games(placed.path).dropFirst(placed.which).first)
        let final = try #require(plan.finalAt)
        let outcome = try await Self.run(SimulatedDay(
            scripted: [plan], mode: mode.mode, platform: mode.platform, restarts: [SimulatedDay.Restart(at: final.addingTimeInterval(300), downFor: 60)],
            sink: SimulatedDay.SinkFaults(failing: [final.addingTimeInterval(-120)..<final.addingTimeInterval(900)]), pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, [plan])
        #expect(outcome.instances == 2)
    }

    /// Every real game half an hour apart, its activity started by a push (Android's always are;
    /// iOS token mode with `--start`), the push sender down from before the first tip-off until
    /// after the instance is killed mid-way through the first game: the sender's queue (in
    /// memory) held each game's start, and the restart sends it again before anything else, so
    /// every game's first delivered push is its start. Before a start was kept until the sink had
    /// delivered it, the restart sent only updates, to an activity no device had (the simulator's
    /// default run, days 3 and 16 on Android; tried).
    @Test(arguments: [Lane(.token, .ios), Lane(.token, .android), Lane(.broadcastPerGame, .android)])
    func aKillWhileTheSenderHoldsTheStartsStillStartsEveryActivity(_ mode: Lane) async throws {
        let games = Self.games(apart: 1800)
        let first = try #require(games.first)
        let kill = first.firstAction.addingTimeInterval(600)
        var day = SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform, restarts: [SimulatedDay.Restart(at: kill, downFor: 60)],
            sink: SimulatedDay.SinkFaults(failing: [first.tipOff.addingTimeInterval(-600)..<kill.addingTimeInterval(300)]), pollInterval: 30)
        day.startsActivities = true
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games, seqRises: false)
        #expect(outcome.instances == 2)
        for plan in games {
            let mine = outcome.records.filter { $0.game == plan.game.id }
            #expect(mine.first?.event == .start, "\(plan.game.id): the first push delivered is \(mine.first.map { "\($0.event) seq \($0.seq)" } ?? "none"), not its start")
        }
    }

    /// Each game alone, its push sender down from a minute before the final to two hours after
    /// it, so the day's run stops (its sink gives up after ten minutes) with the `end` unsent:
    /// the end stays in the state directory, and the next run on it, once the sender is back,
    /// sends it. Before the simulator ran the service again, such a day broke as a dropped final
    /// (`simulate --seed 2 --day 305 --days 1 --mode token`, a silent game called off).
    @Test(arguments: withAndroidTopic, [SimulatedDay.Path.poll, .serve].flatMap { path in (0..<5).map { Placed(path: path, which: $0) } })
    func aSenderDownAtTheDaysEndSendsTheFinalOnTheNextRun(_ mode: Lane, _ placed: Placed) async throws {
        let plan = try #require(Self.games(placed.path).dropFirst(placed.which).first)
        // The last action (serve's final line) or the boxscore's final, whichever comes first.
        let final = min(try #require(plan.finalAt), plan.firstAction.addingTimeInterval(plan.game.span))
        let outcome = try await Self.run(SimulatedDay(
            scripted: [plan], mode: mode.mode, platform: mode.platform, sink: SimulatedDay.SinkFaults(failing: [final.addingTimeInterval(-60)..<final.addingTimeInterval(7200)]),
            pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, [plan])
        #expect(outcome.instances == 2, "the day's run, and the next once the sender is back")
    }

    /// A real game (by its place among them) on a path.
    struct Placed: Sendable, CustomTestStringConvertible {
        var path: SimulatedDay.Path
        var which: Int
        var testDescription: String { "\(path.rawValue) #\(which)" }
    }

    /// A stale CDN edge answers 40 % of the requests with an older copy: no push goes back, every
    /// final is right, and the older copies were served.
    @Test(arguments: withAndroidToken)
    func aStaleEdgeNeverTakesTheScreenBack(_ mode: Lane) async throws {
        var games = Self.games()
        for index in games.indices { games[index].staleShare = 0.4 }
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.answers.contains { $0.key.contains("stale") && $0.value > 0 }, "older copies were served: \(outcome.answers)")
        for plan in games {
            let shown = outcome.records.filter { $0.game == plan.game.id }.map { $0.state.homeScore + $0.state.awayScore }
            let falls = zip(shown, shown.dropFirst()).filter { $1 < $0 }.count
            #expect(plan.game.corrects || falls == 0, "\(plan.game.id): \(falls) pushes went back")
        }
    }

    /// The instance is lost with its state directory in the middle of each game, and the fresh
    /// one's first answer for the game is a stale edge's copy of two minutes before; then the
    /// endpoint times out for a minute. The fresh instance waits through the time-outs for a fresh
    /// copy, and shows no score older than the lost one had. It used to wait for one answer only
    /// and show the old copy when that one timed out (`simulate --seed 23 --day 9 --days 1 --mode
    /// broadcast --platform ios,android --games ../shared/nba-pbp`: 90-86 after 90-88).
    @Test(arguments: withAndroidTopic)
    func aFreshStateDirWaitsThroughTimeOutsForAFreshCopy(_ mode: Lane) async throws {
        try await freshStateDirMeetsAStaleEdge(mode, pollInterval: 30) { game, back in
            game.timeouts = [back.addingTimeInterval(1)..<back.addingTimeInterval(75)]
        }
    }

    /// As above, with requests that take a minute to time out (`--timeout 60`): the wait outlasts
    /// the request. It used to allow 15 s for it: the old copy was shown 45 s after it came, while
    /// the next request still waited for its answer.
    @Test(arguments: withAndroidTopic)
    func aFreshStateDirWaitsThroughLongTimeOutsForAFreshCopy(_ mode: Lane) async throws {
        try await freshStateDirMeetsAStaleEdge(mode, pollInterval: 30, requestTimeout: 60) { game, back in
            game.timeouts = [back.addingTimeInterval(1)..<back.addingTimeInterval(75)]
        }
    }

    /// As above, polled every 5 s, and after the stale copy the endpoint answers 503 with a
    /// `Retry-After` of 40 s for a minute: the next request comes after the 5 s interval's wait
    /// for a fresh copy would have run out. The wait now lasts until the next request; it used to
    /// be the interval's and 15 s: the 503 handed the old copy again with 20 s to wait, and it
    /// was shown 25 s after it came, 20 s before the next request.
    @Test(arguments: withAndroidTopic)
    func aFreshStateDirWaitsThroughARetryAfterForAFreshCopy(_ mode: Lane) async throws {
        try await freshStateDirMeetsAStaleEdge(mode, pollInterval: 5) { game, back in
            game.outages = [back.addingTimeInterval(1)..<back.addingTimeInterval(60)]
            game.outageRetryAfter = 40
        }
    }

    /// The instance is lost with its state directory 5 s before each game's last score ahead of
    /// its longest pause (halftime), and comes back a minute into the pause, on a CDN that stamps
    /// a copy when its document last changed: the fresh instance's first copies are a minute old
    /// and more, and it cannot tell them from a stale edge's. It waits through them (at most
    /// `LivePoller.oldCopiesWaited`), then shows the last, with the score it missed; the
    /// freshness check excuses that wait. The check called the news late
    /// (`simulate --seed 4141 --days 60 --games ../shared/nba-pbp`, day 52: 236 s, the fresh
    /// instance back in a timeout; day 30: a join after an outage).
    @Test(arguments: withAndroidTopic)
    func aFreshStateDirInAPauseWaitsThroughItsOldCopies(_ mode: Lane) async throws {
        try await backInAPause(mode, lostState: true) { plan, pauses in
            let pause = try #require(pauses.max { $0.length < $1.length })
            let scored = try #require(plan.game.pollScores.last { plan.date(at: $0.offset).map { $0 <= pause.start } ?? false })
            return (try #require(plan.date(at: scored.offset)).addingTimeInterval(-5), pause.start)
        }
    }

    /// The instance is killed 10 s before each game's tip-off and comes back a minute into the
    /// game's first pause of two minutes: its state directory holds nothing of the game, whose
    /// first copies are old. It waits through them as a fresh state directory does (`simulate
    /// --seed 6161 --days 60 --games ../shared/nba-pbp`, day 9: the check called the news 662 s
    /// late, 10 s past the restart's room).
    @Test(arguments: withAndroidTopic)
    func anInstanceBackAfterATipOffItMissedWaitsThroughItsOldCopies(_ mode: Lane) async throws {
        try await backInAPause(mode, lostState: false) { plan, pauses in
            let scored = try #require(plan.game.pollScores.first.flatMap { plan.date(at: $0.offset) })
            let pause = try #require(pauses.first { $0.start > scored && $0.length >= 120 })
            return (plan.firstAction.addingTimeInterval(-10), pause.start)
        }
    }

    /// Each game is joined in an outage of its endpoints that ends a minute into the game's
    /// longest pause in its second half (joined 45 s before
    /// the pause, in an outage from 90 s before it); its copies are stamped when they last changed, so the
    /// first answers after the outage are old. The poller, new to the game, waits through them
    /// for a fresh copy, then shows the present as one moment (`simulate --seed 4141 --days 60
    /// --games ../shared/nba-pbp`, day 30: the check called that news late, the wait not excused
    /// for a join).
    @Test(arguments: withAndroidTopic)
    func aJoinInAnOutageWaitsThroughItsOldCopies(_ mode: Lane) async throws {
        var games = Self.games()
        var backs: [Date] = []
        for index in games.indices {
            games[index].stampsWhenWritten = true
            let plan = games[index]
            let pause = try #require(Self.pauses(plan).filter { $0.start > plan.moment(0.5) }.max { $0.length < $1.length })
            try #require(pause.length >= 150, "\(plan.game.id): a pause of 150 s in its second half")
            let back = pause.start.addingTimeInterval(60)
            games[index].outages = [pause.start.addingTimeInterval(-90)..<back]
            games[index].join = pause.start.addingTimeInterval(-45)
            backs.append(back)
        }
        let day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30)
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        for (plan, back) in zip(games, backs) {
            let join = try #require(plan.join)
            let mine = outcome.records.filter { $0.game == plan.game.id }
            #expect(!mine.contains { $0.sentAt < back }, "\(mode) \(plan.game.id): nothing while the endpoints were down")
            let first = try #require(mine.first, "\(plan.game.id): the join showed it")
            #expect(first.sentAt.timeIntervalSince(back) > day.pollInterval + SimulationInvariants.freshnessSlack,
                    "\(mode) \(plan.game.id): the join waited through its old copies (showed the game \(first.sentAt.timeIntervalSince(back)) s after the outage)")
            Self.checkMoment(mine, "\(mode) \(plan.game.id): the join's moment")
            let shown = try #require(Self.score(first))
            #expect(Self.stated(plan, from: join, to: first.sentAt).contains(shown),
                    "\(mode) \(plan.game.id): it showed \(shown.away)-\(shown.home), a score the feed stated since the join")
        }
    }

    /// Each game's answers are garbage from just before its first action to a minute into its
    /// first pause of 200 s: the instance that ran all along meets the game first in that
    /// pause, on an old copy, and waits through its old copies as any poller new to a game does
    /// (`simulate --days 500 --seed 1 --platform ios`, day 46: the check called that news late,
    /// the wait not excused for an instance that had never had an answer of the game).
    @Test(arguments: withAndroidTopic)
    func garbageFromTipOffIntoAPauseWaitsThroughItsOldCopies(_ mode: Lane) async throws {
        var games = Self.games()
        var backs: [Date] = []
        for index in games.indices {
            games[index].stampsWhenWritten = true
            let plan = games[index]
            let scored = try #require(plan.game.pollScores.first.flatMap { plan.date(at: $0.offset) })
            let pause = try #require(Self.pauses(plan).first { $0.start > scored && $0.length >= 200 })
            let back = pause.start.addingTimeInterval(60)
            games[index].hostile = [plan.firstAction.addingTimeInterval(-1)..<back]
            backs.append(back)
        }
        let day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30)
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.answers["garbage", default: 0] >= games.count, "\(outcome.answers)")
        for (plan, back) in zip(games, backs) {
            let mine = outcome.records.filter { $0.game == plan.game.id && $0.sentAt >= plan.firstAction }
            let first = try #require(mine.first, "\(plan.game.id): shown after the garbage")
            #expect(first.sentAt.timeIntervalSince(back) > day.pollInterval + SimulationInvariants.freshnessSlack,
                    "\(mode) \(plan.game.id): the instance waited through its old copies (showed the game \(first.sentAt.timeIntervalSince(back)) s after the garbage)")
            Self.checkMoment(mine, "\(mode) \(plan.game.id): the moment after the wait")
        }
    }

    /// Each game's state directory is lost 35 s into a pause of 75 s or more before its longest
    /// pause, and the fresh instance is killed 15 s later, in its wait through that pause's old
    /// copies; the next instance, on that directory, comes back a minute into the longest pause,
    /// having missed the scores between, and waits on (the wait is restored open), then shows
    /// them as one moment (`simulate --days 500 --seed 1 --platform ios`, day 261: the check
    /// excused the fresh instance's wait, not the next one's).
    @Test(arguments: withAndroidTopic)
    func aWaitForAFreshCopyGoesOnAfterAKill(_ mode: Lane) async throws {
        var games = Self.games()
        var restarts: [SimulatedDay.Restart] = []
        var backs: [Date] = []
        for index in games.indices {
            games[index].stampsWhenWritten = true
            let plan = games[index]
            let pauses = Self.pauses(plan)
            let longest = try #require(pauses.max { $0.length < $1.length })
            try #require(longest.length >= 300, "\(plan.game.id): a pause of 5 minutes")
            let scores = plan.game.pollScores.compactMap { plan.date(at: $0.offset) }
            let before = try #require(pauses.last { pause in
                pause.length >= 75 && pause.end < longest.start && scores.contains { pause.end <= $0 && $0 <= longest.start }
            }, "\(plan.game.id): a pause of 75 s before its longest, scores between")
            restarts.append(SimulatedDay.Restart(at: before.start.addingTimeInterval(35), downFor: 5, lostState: true))
            let back = longest.start.addingTimeInterval(60)
            let kill = before.start.addingTimeInterval(50)
            restarts.append(SimulatedDay.Restart(at: kill, downFor: back.timeIntervalSince(kill)))
            backs.append(back)
        }
        let (day, outcome) = try await Self.run(games, restarts: restarts, mode, pollInterval: 30)
        for (plan, back) in zip(games, backs) {
            let mine = outcome.records.filter { $0.game == plan.game.id && $0.sentAt >= back }
            let first = try #require(mine.first, "\(plan.game.id): shown after the last restart")
            #expect(first.sentAt.timeIntervalSince(back) > day.pollInterval + SimulationInvariants.freshnessSlack,
                    "\(mode) \(plan.game.id): the instance back waited on (showed the game \(first.sentAt.timeIntervalSince(back)) s after it started)")
            Self.checkMoment(mine, "\(mode) \(plan.game.id): the moment after the wait")
        }
    }

    /// Each game's state directory is lost 20 s into its longest pause (halftime), in an outage
    /// of its endpoints from 10 s before its last score ahead of the pause, so no instance showed
    /// that score. The fresh instance's first answers after the outage are old copies, and a
    /// second outage of four minutes comes after two or three of them. Its failures hold the
    /// wait without counting: the copies left come after it, the last with its whole wait, and
    /// then the score goes out as one moment (`simulate --days 500 --seed 11 --platform
    /// android`, day 453: the check counted the wait from the first copy on and called that
    /// news 10 s late).
    @Test(arguments: withAndroidTopic)
    func anOutageInAWaitForAFreshCopyHoldsIt(_ mode: Lane) async throws {
        var games = Self.games()
        var restarts: [SimulatedDay.Restart] = []
        var seconds: [Range<Date>] = []
        for index in games.indices {
            games[index].stampsWhenWritten = true
            let plan = games[index]
            let pause = try #require(Self.pauses(plan).max { $0.length < $1.length })
            try #require(pause.length >= 600, "\(plan.game.id): a pause of 10 minutes")
            let scored = try #require(plan.game.pollScores.last { plan.date(at: $0.offset).map { $0 <= pause.start } ?? false })
            let news = try #require(plan.date(at: scored.offset))
            let back = pause.start.addingTimeInterval(90)
            let second = back.addingTimeInterval(80)..<back.addingTimeInterval(320)
            games[index].outages = [news.addingTimeInterval(-10)..<back, second]
            restarts.append(SimulatedDay.Restart(at: pause.start.addingTimeInterval(20), downFor: 10, lostState: true))
            seconds.append(second)
        }
        let (_, outcome) = try await Self.run(games, restarts: restarts, mode, pollInterval: 30)
        for (plan, second) in zip(games, seconds) {
            let mine = outcome.records.filter { $0.game == plan.game.id && $0.sentAt >= second.lowerBound.addingTimeInterval(-80) }
            let first = try #require(mine.first, "\(plan.game.id): shown after the loss")
            #expect(first.sentAt > second.upperBound,
                    "\(mode) \(plan.game.id): the wait held through the second outage (showed the game \(first.sentAt.timeIntervalSince(second.upperBound)) s after it)")
            Self.checkMoment(mine, "\(mode) \(plan.game.id): the moment after the wait")
        }
    }

    /// Each game's state directory is lost 10 minutes before its last action, and the fresh
    /// instance's first answers come from a stale edge (the copies of 7 minutes before): it waits
    /// through them for a fresh copy, and is killed 25 s later; the next instance restores that
    /// wait open. From then the play-by-play fails alone (503, `Retry-After` 241 s) until 20
    /// minutes after the final, while the boxscore says final: at the play-by-play's third
    /// failure since, the game ends on its final boxscore, though this instance has no copy of
    /// the play-by-play to end it on. Without one, nothing ended it: the restored wait ran out and
    /// showed the old copy's score after the lost instance's newer one, and the end came once the
    /// play-by-play was back (`simulate --days 250 --seed 19 --interval 60 --platform
    /// ios,android`, day 55: 107-106 after 120-110).
    @Test(arguments: withAndroidTopic)
    func aRestoredWaitEndsOnTheFinalBoxscoreWithoutACopy(_ mode: Lane) async throws {
        var games = Self.games()
        var restarts: [SimulatedDay.Restart] = []
        var backs: [Date] = []
        for index in games.indices {
            let plan = games[index]
            let last = try #require(plan.lastAction), final = try #require(plan.finalAt)
            let lost = SimulatedDay.Restart(at: last.addingTimeInterval(-600), downFor: 5, lostState: true)
            let fresh = lost.at.addingTimeInterval(lost.downFor)
            games[index].staleWindows = [(fresh..<fresh.addingTimeInterval(1), 420)]
            let kill = SimulatedDay.Restart(at: fresh.addingTimeInterval(25), downFor: 4)
            let back = kill.at.addingTimeInterval(kill.downFor)
            games[index].playByPlayOutages = [back..<final.addingTimeInterval(1200)]
            games[index].playByPlayRetryAfter = 241
            restarts += [lost, kill]
            backs.append(final.addingTimeInterval(1200))
        }
        let (_, outcome) = try await Self.run(games, restarts: restarts, mode, pollInterval: 60)
        #expect(outcome.answers["stale", default: 0] >= games.count, "\(outcome.answers)")
        for (plan, back) in zip(games, backs) {
            let end = try #require(outcome.records.first { $0.game == plan.game.id && $0.event == .end }, "\(plan.game.id) ended")
            #expect(end.sentAt < back, "\(mode) \(plan.game.id): ended on its final boxscore, before the play-by-play was back (\(end.sentAt.timeIntervalSince(back)) s)")
        }
    }

    /// Each game's instance stopped at the moment `choose` returns (the game's pauses between
    /// two actions given, in order), back a minute into the pause that begins at the other: the
    /// score it missed (or a newer one, the pause over meanwhile) is shown after a wait through
    /// old copies, as one moment (at most 2 pushes and 1 priority 10), every invariant kept.
    private func backInAPause(
        _ mode: Lane, lostState: Bool, choose: (SimulatedDay.Game, [Pause]) throws -> (kill: Date, pause: Date)
    ) async throws {
        var games = Self.games()
        var restarts: [SimulatedDay.Restart] = []
        var backs: [Date] = []
        for index in games.indices {
            games[index].stampsWhenWritten = true
            let plan = games[index]
            let (kill, pause) = try choose(plan, Self.pauses(plan))
            let back = pause.addingTimeInterval(60)
            restarts.append(SimulatedDay.Restart(at: kill, downFor: back.timeIntervalSince(kill), lostState: lostState))
            backs.append(back)
        }
        let day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, restarts: restarts, pollInterval: 30)
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games, seqRises: false)
        for (plan, (lost, back)) in zip(games, zip(restarts, backs)) {
            let mine = outcome.records.filter { $0.game == plan.game.id }
            let missed = try #require(Self.stated(plan, from: lost.at, to: back).last)
            let first = try #require(mine.first { $0.sentAt >= back }, "\(plan.game.id): the instance back showed it")
            #expect(first.sentAt.timeIntervalSince(back) > day.pollInterval + SimulationInvariants.freshnessSlack,
                    "\(mode) \(plan.game.id): the instance back waited through its old copies (showed the game \(first.sentAt.timeIntervalSince(back)) s after it started)")
            // What the wait ends on is one moment: at most 2 pushes and 1 priority 10.
            Self.checkMoment(mine.filter { $0.sentAt >= first.sentAt }, "\(mode) \(plan.game.id): the moment after the wait")
            let shown = try #require(Self.score(first))
            #expect(Self.stated(plan, from: lost.at, to: first.sentAt).contains(shown) && shown.home + shown.away >= missed.home + missed.away,
                    "\(mode) \(plan.game.id): it showed \(shown.away)-\(shown.home), the score it missed (\(missed.away)-\(missed.home)) or a newer one")
        }
    }

    /// Each game's instance lost with its state directory just after it sent the game's end;
    /// the fresh one's first boxscore is a stale edge's, from before the game was final, while
    /// the play-by-play already lists the game's end. The fresh instance waits for the next
    /// answer and sends the end again, nothing else: it showed the end of the fourth period,
    /// live, after the end (`scorefeed simulate --days 500 --seed 1 --platform ios`, days 67 and
    /// 476: "2 pushes after its final end").
    @Test(arguments: withAndroidTopic)
    func aFreshStateDirAfterTheEndWaitsOutALaggingBoxscore(_ mode: Lane) async throws {
        let (outcome, losses) = try await freshStateDirAfterTheEnd(mode) { game, back in
            game.staleBoxscoreWindows = [(back..<back.addingTimeInterval(1), 120)]
        }
        for (game, lost) in losses {
            let mine = outcome.records.filter { $0.game == game }
            #expect(mine.contains { $0.sentAt < lost && $0.event == .end }, "\(game): the lost instance ended the game")
            let after = mine.filter { $0.sentAt > lost }
            #expect(!after.isEmpty && after.allSatisfy { $0.event == .end || $0.event == .start }, "\(mode) \(game): \(after.map(\.event))")
        }
    }

    /// Each game's instance lost with its state directory just after it sent the game's end; the
    /// fresh one's boxscore says final, but its first play-by-play is a stale edge's, from before
    /// the last points. The fresh instance takes nothing of that copy and ends the game on the
    /// next one, as the lost instance did: it sent an end naming an older last action
    /// (`scorefeed simulate --days 500 --seed 1 --platform ios`, day 67: "2 different final ends").
    @Test(arguments: withAndroidTopic)
    func aFreshStateDirAfterTheEndWaitsOutALaggingPlayByPlay(_ mode: Lane) async throws {
        let (outcome, losses) = try await freshStateDirAfterTheEnd(mode) { game, back in
            game.stalePlayByPlayWindows = [(back..<back.addingTimeInterval(1), 900)]
        }
        for (game, lost) in losses {
            let ends = outcome.records.filter { $0.game == game && $0.event == .end }
            let first = try #require(ends.first { $0.sentAt < lost }, "\(game): the lost instance ended the game")
            let again = try #require(ends.first { $0.sentAt > lost }, "\(game): the fresh instance ended it again")
            #expect(again.state == first.state, "\(mode) \(game): \(again.state.lastPlay ?? "") after \(first.state.lastPlay ?? "")")
        }
    }

    /// As above, the play-by-play's edge lagging for 100 s, and the boxscore failing from the
    /// fresh instance's second second for three minutes: the game still ends once more, as the
    /// lost instance ended it. While copies are skipped the final boxscore read first keeps
    /// deciding, as a boxscore given up after 3 failures would let a stale copy be taken as live.
    /// Here that copy is minutes old and would wait anyway (``LivePoller``'s wait for a fresh
    /// copy): the scenario passes without the keep too (tried); it holds the two rules together.
    @Test(arguments: withAndroidTopic)
    func aFreshStateDirAfterTheEndKeepsItsFinalWhileTheBoxscoreFails(_ mode: Lane) async throws {
        let (outcome, losses) = try await freshStateDirAfterTheEnd(mode) { game, back in
            game.stalePlayByPlayWindows = [(back..<back.addingTimeInterval(100), 900)]
            game.boxscoreOutages = [back.addingTimeInterval(1)..<back.addingTimeInterval(180)]
        }
        #expect(outcome.answers["503", default: 0] >= 3 * losses.count, "\(outcome.answers)")
        for (game, lost) in losses {
            let ends = outcome.records.filter { $0.game == game && $0.event == .end }
            let first = try #require(ends.first { $0.sentAt < lost }, "\(game): the lost instance ended the game")
            let again = try #require(ends.first { $0.sentAt > lost }, "\(game): the fresh instance ended it again")
            #expect(again.state == first.state, "\(mode) \(game): \(again.state.lastPlay ?? "") after \(first.state.lastPlay ?? "")")
        }
    }

    /// Each game's instance lost with its state directory a minute after the game's final, the
    /// fresh one back 20 s later, each game's `lag` set for that moment (its first second): the
    /// day, checked (its invariants, the finals, a stale answer per game), and each game's id
    /// with when its instance was lost.
    private func freshStateDirAfterTheEnd(
        _ mode: Lane, lag: (inout SimulatedDay.Game, Date) -> Void
    ) async throws -> (Simulation.Outcome, [(game: String, lost: Date)]) {
        var games = Self.games()
        var restarts: [SimulatedDay.Restart] = []
        for index in games.indices {
            let final = try #require(games[index].finalAt)
            let lost = SimulatedDay.Restart(at: final.addingTimeInterval(60), downFor: 20, lostState: true)
            lag(&games[index], lost.at.addingTimeInterval(lost.downFor))
            restarts.append(lost)
        }
        let outcome = try await Self.run(SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, restarts: restarts))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games, seqRises: false)
        #expect(outcome.answers["stale", default: 0] >= games.count, "\(outcome.answers)")
        return (outcome, zip(games, restarts).map { ($0.game.id, $1.at) })
    }

    /// Each game's instance lost with its state directory in the middle of the game; the fresh
    /// one's first answer is a stale edge's copy of two minutes before, then `fault` from then on.
    /// The fresh instance shows no score older than the lost one had.
    private func freshStateDirMeetsAStaleEdge(
        _ mode: Lane, pollInterval: TimeInterval, requestTimeout: TimeInterval = 10, fault: (inout SimulatedDay.Game, Date) -> Void
    ) async throws {
        var games = Self.games()
        var restarts: [SimulatedDay.Restart] = []
        for index in games.indices {
            let lost = SimulatedDay.Restart(at: games[index].moment(0.5), downFor: 20, lostState: true)
            let back = lost.at.addingTimeInterval(lost.downFor)
            games[index].staleWindows = [(back..<back.addingTimeInterval(1), 120)]
            fault(&games[index], back)
            restarts.append(lost)
        }
        var day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, restarts: restarts, pollInterval: pollInterval)
        day.requestTimeout = requestTimeout
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games, seqRises: false)
        let failures = outcome.answers["timeout", default: 0] + outcome.answers["503", default: 0]
        #expect(outcome.answers["stale", default: 0] >= games.count && failures >= games.count, "\(outcome.answers)")
        for (plan, lost) in zip(games, restarts) {
            let mine = outcome.records.filter { $0.game == plan.game.id }
            let before = mine.filter { $0.sentAt < lost.at }.map { $0.state.homeScore + $0.state.awayScore }.max() ?? 0
            let first = try #require(mine.first { $0.sentAt > lost.at }, "\(plan.game.id): the fresh instance showed it")
            #expect(plan.game.corrects || first.state.homeScore + first.state.awayScore >= before,
                    "\(mode) \(plan.game.id): the fresh instance first showed \(first.state.awayScore)-\(first.state.homeScore)")
        }
    }

    /// Every real game tipping off at once, and a push sender that takes up to 10 s per request all
    /// day: each game's held pushes still go when they come due (the deadline invariant, to 10 ms
    /// of virtual time). With the timer waiting for each game's send in turn, `serve`'s catch-up
    /// decisions went 6.7 s late behind another game's request (tried).
    @Test(arguments: withAndroidTopic, [SimulatedDay.Path.poll, .serve])
    func aSlowSenderHoldsNoOtherGamesPush(_ mode: Lane, _ path: SimulatedDay.Path) async throws {
        let games = Self.games(path, apart: 0)
        let outcome = try await Self.run(SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform, sink: SimulatedDay.SinkFaults(slowest: 10), pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
    }

    /// Every real game ending within seconds of the others, the day's last moments, and a push
    /// sender that takes up to 10 s per request: after the input's end each game still acts on
    /// its own deadlines when they come due (in broadcast mode its channel's linger, then the
    /// delete). The drain at the input's end waited for every game's tick before the next
    /// deadline, so one game's slow delete held another's linger (1.5 s late, on a storm day of
    /// the 1,000 day-runs: `simulate --seed 1 --day 497 --days 1 --mode broadcast --platform
    /// ios`; tried).
    @Test(arguments: withAndroidTopic)
    func aSlowSenderHoldsNoOtherGamesDeadlineAfterTheInput(_ mode: Lane) async throws {
        let end = Self.evening.addingTimeInterval(4 * 3600)
        let games = try Self.games(apart: 0).enumerated().map { index, plan in
            let length = try #require(plan.finalAt).timeIntervalSince(plan.tipOff)
            return SimulatedDay.Game(plan.game, tipOff: end.addingTimeInterval(Double(index) * 0.5 - length))
        }
        let outcome = try await Self.run(SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform,
            sink: SimulatedDay.SinkFaults(failing: [end.addingTimeInterval(-60)..<end.addingTimeInterval(7200)], slowest: 10), pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.instances == 2, "the day's run, and the next once the sender is back")
    }

    /// Every real game at once, a push sender that takes up to 30 s per request, and the instance
    /// lost with its state directory halfway through and replaced 20 s later (a failover, whose
    /// catch-ups of every game reach the sender at once): each game's broadcast updates reach the
    /// sender before their timestamps (the broadcast invariant), all day and after the failover.
    /// With one queue for every game's records (``ResilientSink`` before it sent each activity's
    /// side by side) each game's pushes waited behind the others': 149 updates past their stamps'
    /// 60 s lead, up to 125 s (tried).
    @Test(arguments: withAndroidTopic)
    func aFailoverBehindASlowSenderDeliversEveryCatchUpInTime(_ mode: Lane) async throws {
        let games = Self.games(apart: 0)
        let lost = SimulatedDay.Restart(at: try #require(games.first).moment(0.5), downFor: 20, lostState: true)
        let outcome = try await Self.run(SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform, restarts: [lost], sink: SimulatedDay.SinkFaults(slowest: 30),
            pollInterval: 30))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games, seqRises: false)
        #expect(outcome.instances == 2)
    }

    /// Every real game twenty minutes apart, with room for two channels (`--max-channels 2`): a
    /// game past the cap holds its pushes until an earlier game's channel is deleted after its
    /// linger, then goes on, and every game ends with its final; the timer sleeps meanwhile. The
    /// timer that granted freed channels in a child of its own woke itself for each grant that
    /// found the cap still full, and looked again at once: virtual time stood still (tried).
    @Test(arguments: withAndroidTopic)
    func gamesPastTheChannelCapWaitAndEnd(_ mode: Lane) async throws {
        let games = Self.games(apart: 1200)
        var day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30)
        day.maxChannels = 2
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        if mode.hasChannels, games.count >= 3 {
            // The third game tips off while the first two hold both channels: it waits for the
            // first one's final (and linger).
            let third = try #require(outcome.records.first { $0.game == games[2].game.id })
            #expect(third.sentAt > (try #require(games[0].finalAt)), "the third game waited for a channel")
        }
    }

    /// Every real game, ten minutes apart (each ends while the next still plays), a push sender
    /// that takes up to a minute per request, and the instance killed between each game's last
    /// period's end and its final (the policy holds the period's end a few seconds for the final):
    /// after each restart and at the input's end, each held push is decided when it comes due (the
    /// deadline invariant), whatever the other games' outboxes cost the sender. The restore sent
    /// each game's outbox in turn after the restart's window for an earlier game's first arrival
    /// had begun (52.8 s late; `simulate --seed 1 --day 213 --days 1 --mode token`, 0.8 s), and
    /// the drain at the input's end ticked the games in turn (`serve`: 311 s late). Both tried.
    @Test(arguments: withAndroidTopic, [SimulatedDay.Path.poll, .serve])
    func aRestartWithASlowSenderActsOnTime(_ mode: Lane, _ path: SimulatedDay.Path) async throws {
        var games = Self.games(path, apart: 600)
        let kills = try games.map { plan in
            let periodEnd = try #require(plan.game.actions.last { $0.offset < plan.game.span - 2 }?.offset)
            return SimulatedDay.Restart(at: plan.firstAction.addingTimeInterval((periodEnd + plan.game.span) / 2), downFor: 30)
        }.sorted { $0.at < $1.at }
        // Polled from twenty minutes before the first kill (each game's catch-up a moment of its
        // own, the slow sender behind from then on): a poll a second through whole games cost
        // most of the test's CPU and tested nothing more. `serve` reads every line from the start.
        let join = try #require(kills.first).at.addingTimeInterval(-1200)
        for index in games.indices where path == .poll && games[index].firstAction < join { games[index].join = join }
        let outcome = try await Self.run(SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform, restarts: kills, sink: SimulatedDay.SinkFaults(slowest: 60), pollInterval: 1))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.instances == kills.count + 1)
    }

    /// Every real game five minutes apart, half polled and half served, and a push sender that
    /// fails every push of the first game for twenty minutes mid-game (a body it cannot take)
    /// while it takes the others': every other game's news still goes out within a poll's
    /// interval and 10 s (the freshness invariant excuses only the failing game), and the failing
    /// game catches up and ends with its final. Before an activity failing alone backed off on its
    /// own, its retries went first and each failure backed off every game further: on all three
    /// lanes another game's news went out up to 65 s late, and priority-5 copies were superseded
    /// while they waited (tried).
    @Test(arguments: withAndroidTopic)
    func oneGameFailingAloneHoldsNoOtherGame(_ mode: Lane) async throws {
        var games = Self.games(apart: 300)
        for index in games.indices where index % 2 == 1 { games[index].path = .serve }
        let from = games[0].moment(0.3)
        var day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30)
        day.sink.gameFailing = [.init(game: games[0].game.id, during: from..<from.addingTimeInterval(1200))]
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.faults["one game's pushes failing"] == 1)
        // Of the failing game's pushes made in its window only the newest waiting went, once the
        // sender took it again (the others were superseded while they waited); the other games'
        // pushes of the window all went.
        let during = outcome.records.filter { (from..<from.addingTimeInterval(1200)).contains($0.sentAt) }
        let failing = during.filter { $0.game == games[0].game.id }.count
        #expect(failing <= 2 && during.count - failing > 20, "\(failing) of the failing game's, \(during.count - failing) of the others'")
    }

    /// Every real game alone in its evening (one after another, none overlapping), half polled
    /// and half served, and the push sender down from just before each game's end until five
    /// minutes after it: each final goes once the sender is back (within its retries' longest
    /// wait, the freshness check's bound), though no game sends anything more to carry it. Before
    /// ``ResilientSink`` tried what waits as soon as it is due, each final waited for the next
    /// game's first push, hours later (6,358 s on the first game, in token mode and on Android;
    /// a broadcast iOS game's channel delete asks the sink for the game's records, which tried
    /// them).
    @Test(arguments: withAndroidTopic)
    func aFinalMadeWhileTheSenderIsDownGoesWhenItIsBack(_ mode: Lane) async throws {
        var games = Self.games(apart: 4 * 3600)
        for index in games.indices where index % 2 == 1 { games[index].path = .serve }
        var day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30)
        day.sink.failing = games.map { $0.moment(0.995)..<$0.moment(1).addingTimeInterval(300) }
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.faults["sink outage"] == games.count)
    }

    /// Every real game alone in its evening, half polled and half served, and the state
    /// directory's disk full from just before each game's end until five minutes after it: no
    /// push can be kept, so none goes, and each final goes once the disk has room, within the
    /// checkpoint retries' longest wait (the freshness check's bound), though no game has more
    /// input to carry it. Before a failed checkpoint was tried again on its own backoff
    /// (``MatchEngine/checkpointRetry``), it waited for the game's next input or deadline: a
    /// final made while the disk was full waited past the day's end.
    @Test(arguments: withAndroidTopic)
    func aFinalMadeWhileTheDiskIsFullGoesWhenItHasRoom(_ mode: Lane) async throws {
        var games = Self.games(apart: 4 * 3600)
        for index in games.indices where index % 2 == 1 { games[index].path = .serve }
        var day = SimulatedDay(scripted: games, mode: mode.mode, platform: mode.platform, pollInterval: 30)
        day.diskFull = games.map { $0.moment(0.995)..<$0.moment(1).addingTimeInterval(300) }
        let outcome = try await Self.run(day)
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        #expect(outcome.faults["full disk"] == games.count)
        for (plan, full) in zip(games, day.diskFull) {
            let end = try #require(outcome.records.last { $0.game == plan.game.id && $0.event == .end })
            #expect(full.contains(end.sentAt), "\(plan.game.id): its end was decided while the disk was full (at \(end.sentAt), full \(full))")
        }
    }

    /// Every kind of endpoint fault on each game (503s, timeouts, hostile answers: cut documents,
    /// error pages, random bytes, the other endpoint's document) and a push sender down for ten
    /// minutes: each is a failed request and the games still end with their finals.
    @Test(arguments: withAndroidToken)
    func faultyEndpointsAndSenderStillEndEveryGame(_ mode: Lane) async throws {
        var games = Self.games()
        for index in games.indices {
            games[index].outages = [games[index].moment(0.1)..<games[index].moment(0.15)]
            games[index].timeouts = [games[index].moment(0.3)..<games[index].moment(0.35)]
            games[index].hostile = [games[index].moment(0.6)..<games[index].moment(0.65)]
        }
        let down = games[0].moment(0.9)
        let outcome = try await Self.run(SimulatedDay(
            scripted: games, mode: mode.mode, platform: mode.platform, sink: SimulatedDay.SinkFaults(failing: [down..<down.addingTimeInterval(600)], slowest: 2),
            pollInterval: 120))
        Self.checkInvariants(outcome)
        Self.checkFinals(outcome, games)
        let problems = outcome.reports.filter { if case .problem = $0.report { true } else { false } }
        #expect(problems.count >= games.count, "each game's failed requests are told")
    }
}

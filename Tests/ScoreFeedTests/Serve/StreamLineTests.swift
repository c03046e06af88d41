import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// `StreamLine.parse` reads each `serve` line with one JSON parse instead of two or three; it
/// must give the same results and the same messages as before. And with the system clock,
/// `GameService` schedules each game's wake-ups once instead of after every line: held pushes
/// must still go out.
@Suite("serve: parsing lines and firing held pushes")
struct StreamLineTests {
    /// The first implementation of ``StreamLine/parse(_:number:source:)``, kept as the reference,
    /// with what was added since: an event's error names its game, and its `seq` when it is a number.
    static func referenceParse(_ line: Data, number: Int, source: String?) throws(ScoreFeedError) -> StreamLine {
        struct Envelope: Decodable {
            var game: String?
            var home: Team?
            var away: Team?
        }
        let location = ScoreFeedError.Location(file: source, line: number)
        guard line.first == UInt8(ascii: "{") else {
            throw ScoreFeedError(.malformedJSON, "not a JSON object (\(StreamLine.preview(line)))", at: location)
        }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: line)
        } catch let error as DecodingError {
            var failure = DecodingErrorText.error(error, data: line, file: source)
            failure.location.line = number
            throw failure
        } catch {
            throw ScoreFeedError(.malformedJSON, "\(error)", at: location)
        }
        if envelope.home != nil || envelope.away != nil {
            do {
                return .header(try JSONDecoder().decode(GameAttributes.self, from: line))
            } catch let error as DecodingError {
                var failure = DecodingErrorText.eventError(error)
                failure.location = location
                failure.message = "game header: " + failure.message
                throw failure
            } catch {
                throw ScoreFeedError(.invalidValue, "game header: \(error)", at: location)
            }
        }
        guard let game = envelope.game else {
            throw ScoreFeedError(.missingField, "neither a game header (home, away) nor an event (game)", at: location)
        }
        do {
            let raw = try JSONDecoder().decode(RawEvent.self, from: line)
            var event = try raw.event(index: number - 1)
            event.description = event.description.map { String($0.prefix(500)) }
            return .event(game: game, event, line: number)
        } catch var error as ScoreFeedError {
            error.location = ScoreFeedError.Location(file: source, line: number, sequence: error.location.sequence)
            error.message = "game \(game): " + error.message
            throw error
        } catch let error as DecodingError {
            var failure = DecodingErrorText.eventError(error)
            failure.location = location
            failure.location.sequence = (try? JSONSerialization.jsonObject(with: line) as? [String: Any])?["seq"] as? Int
            failure.message = "game \(game): " + failure.message
            throw failure
        } catch {
            throw ScoreFeedError(.invalidValue, "game \(game): \(error)", at: location)
        }
    }

    static func outcome(_ parse: () throws(ScoreFeedError) -> StreamLine) -> String {
        do {
            switch try parse() {
            case .header(let attributes, _): return "header \(attributes)"
            case .event(let game, let event, let line): return "event \(game) \(event) line \(line)"
            case .blank: return "blank"
            case .bad(let error): return "bad \(error.code) \(error.message) \(error.location)"
            }
        } catch {
            return "error \(error.code) \(error.message) \(error.location)"
        }
    }

    static let team = ##"{"id":"1610612742","tricode":"DAL","name":"Mavericks","city":"Dallas","primaryColor":"#00538C"}"##

    static let lines: [String] = [
        #"{"gameId":"G1","league":"NBA","home":\#(team),"away":\#(team)}"#,
        #"{"gameId":"G1","home":\#(team),"away":\#(team)}"#,
        #"{"gameId":"G1","league":"NBA","home":\#(team)}"#,
        #"{"gameId":"G1","league":"NBA","home":{"id":1},"away":\#(team)}"#,
        #"{"gameId":"G1","league":"NBA","home":\#(team),"away":null}"#,
        #"{"game":"G1","seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}"#,
        #"{"game":"G1","seq":2,"time":1739240003.5,"period":1,"clock":"11:57","type":"jumpBall","team":"away","description":"Jump ball"}"#,
        #"{"game":"G1","seq":3,"time":1739240010,"period":1,"clock":"11:50","type":"fieldGoal","team":"home","points":3,"made":true,"player":"L. Dončić"}"#,
        #"{"game":"G1","seq":3,"time":1739240010,"period":1,"clock":"11:50","type":"fieldGoal","team":"home","made":true}"#,
        #"{"game":"G1","seq":"x","time":1,"period":1,"clock":"12:00","type":"block"}"#,
        #"{"game":"G1","seq":4,"time":1,"period":1,"clock":"soon","type":"block"}"#,
        #"{"game":"G1","seq":4,"time":1,"period":1,"clock":"1:00","type":"dunk"}"#,
        #"{"game":"G1","seq":4,"time":1,"period":1,"clock":"1:00","type":"foul","team":"both","kind":"personal"}"#,
        #"{"game":"G1","time":1,"period":1,"clock":"1:00","type":"block"}"#,
        #"{"game":5,"seq":1}"#,
        #"{"game":null,"seq":1}"#,
        #"{"seq":5}"#,
        #"{}"#,
        #"{not json"#,
        #"{"game":"G1","seq":1,"time":1,"period":1,"clock":"1:00","type":"block"} trailing"#,
        "[1,2,3]",
        "\u{1}\u{2}binary\u{FF}",
        "",
        #"{"game":"G1","seq":9,"time":1739240000,"period":1,"clock":"12:00","type":"other","description":"\#(String(repeating: "é", count: 700))"}"#,
    ]

    @Test func sameResultsAndMessagesAsTwoParses() {
        for (index, line) in Self.lines.enumerated() {
            let data = Data(line.utf8)
            for source in [nil, "stdin"] as [String?] {
                let new = Self.outcome { () throws(ScoreFeedError) in try StreamLine.parse(data, number: index + 1, source: source) }
                let old = Self.outcome { () throws(ScoreFeedError) in try Self.referenceParse(data, number: index + 1, source: source) }
                #expect(new == old, "line \(index + 1): \(line)")
            }
        }
    }

    /// The event line `scorefeed stream` writes parses back to the same event and game.
    static func roundTrip(_ event: GameEvent, game: String) throws -> GameEvent? {
        let line = StreamLine.eventLine(event, game: game)
        #expect(line.last != UInt8(ascii: "\n"), "one line, no newline")
        #expect(!line.contains(UInt8(ascii: "\n")))
        guard case .event(let parsedGame, let parsed, _) = try StreamLine.parse(line, number: 1) else {
            Issue.record("an event line parsed as a header: \(String(decoding: line, as: UTF8.self))")
            return nil
        }
        #expect(parsedGame == game)
        return parsed
    }

    @Test func everyEventOfAFixtureRoundTrips() throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent("overtime.json").path)
        #expect(document.events.count > 400)
        for event in document.events {
            let parsed = try Self.roundTrip(event, game: document.attributes.gameId)
            #expect(parsed == event, "seq \(event.seq)")
        }
    }

    /// Every kind, with every optional field set, fractional times and clocks and the feed's score.
    @Test func everyKindWithEveryFieldRoundTrips() throws {
        let kinds: [GameEvent.Kind] = [
            .periodStart, .periodEnd, .jumpBall, .fieldGoal(points: 3, made: true), .fieldGoal(points: 2, made: false),
            .freeThrow(attempt: 1, of: 2, made: true, points: 1), .freeThrow(attempt: 1, of: 1, made: false, points: 2),
            .rebound(offensive: true), .rebound(offensive: false), .turnover(kind: "bad pass"), .turnover(kind: nil),
            .steal, .block, .foul(.personal), .foul(.technical), .violation(kind: "kicked ball"), .violation(kind: nil),
            .timeout(.full), .timeout(.official), .substitution(out: "A. Out"), .substitution(out: nil),
            .replay(ruling: "overturned", challenge: true), .replay(ruling: nil, challenge: false),
            .correction(points: -2), .gameEnd, .other(type: "ejection"),
        ]
        for (index, kind) in kinds.enumerated() {
            var event = Make.event(index + 1, kind, team: index % 2 == 0 ? .home : .away, clock: 83.4, player: "L. Dončić / \"Luka\"")
            // Unix seconds, as every reader makes times: the line spells them so, and they come
            // back exact (arithmetic on a `Date` may not: it is kept in seconds since 2001).
            event.time = Date(timeIntervalSince1970: 1_739_240_000.123 + Double(index) * 7.25)
            event.description = "Play #\(index) é ✓"
            event.feedScore = FinalScore(home: index, away: 2 * index)
            #expect(try Self.roundTrip(event, game: "0022400762") == event, "\(kind)")
            var bare = Make.event(index + 1, kind)
            bare.time = Make.start
            #expect(try Self.roundTrip(bare, game: "G") == bare, "\(kind) without optional fields")
        }
    }

    @Test func headerRoundTripsWithSortedKeys() throws {
        let line = StreamLine.headerLine(Make.attributes)
        let text = String(decoding: line, as: UTF8.self)
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix(#"{"away":{"city":"Sacramento","id":"#), "sorted keys: \(text)")
        guard case .header(let attributes, _) = try StreamLine.parse(line, number: 1) else {
            Issue.record("a header line parsed as an event: \(text)")
            return
        }
        #expect(attributes == Make.attributes)
    }

    @Test func eventLineHasSortedKeysAndTheGame() throws {
        let event = Make.event(7, .fieldGoal(points: 2, made: true), team: .home)
        let text = String(decoding: StreamLine.eventLine(event, game: "G1"), as: UTF8.self)
        #expect(text == #"{"clock":"10:00","game":"G1","made":true,"period":1,"points":2,"seq":7,"team":"home","time":1739240070,"type":"fieldGoal"}"#)
    }

    /// The event line is written byte by byte, not by `JSONEncoder`: the same bytes as the encoder
    /// writes, for every event of generated games (stating the feed's score, a long accented name),
    /// of the real games in `../shared/nba-pbp` when they are there, and for strings and times
    /// that need escaping or an exponent.
    @Test func eventLinesAreTheEncodersBytes() throws {
        var events: [(GameEvent, String)] = []
        if NBAFiles.available {
            for game in NBAFiles.games {
                let document = try FeedReader.read(path: NBAFiles.path(game))
                events += document.events.map { ($0, document.attributes.gameId) }
            }
        }
        for seed in 1...12 {
            let game = GameGenerator(seed: UInt64(seed)).generate()
            for event in game.events {
                events.append((event, game.attributes.gameId))
                events.append((SimulatedGame.stating(FinalScore(home: event.seq, away: 2 * event.seq), event), "0022400762"))
            }
        }
        let strings = ["", "a/b", "\"quoted\" \\ back", "tab\tnew\nline\r\u{08}\u{0C}\u{01}\u{1F}", "Dončić ✓ 🏀", String(repeating: "é", count: 900)]
        let times: [Double] = [0, -1.5, 1_739_240_000.123, 1_739_240_000.1234567, 1e15, 1e16, 123_456_789_012_345.6, 0.0001, -0.0]
        for (index, text) in strings.enumerated() {
            var event = Make.event(index + 1, .substitution(out: text), team: .away, player: text)
            event.description = text
            events.append((event, text))
            for time in times {
                event.time = Date(timeIntervalSince1970: time)
                events.append((event, "G"))
            }
        }
        for (event, game) in events {
            let line = StreamLine.eventLine(event, game: game)
            let encoded = StreamLine.encodedEventLine(RawEvent(event), game: game)
            #expect(line == encoded, "\(String(decoding: line, as: UTF8.self)) against the encoder's \(String(decoding: encoded, as: UTF8.self))")
        }
        #expect(events.count > 5_000)
    }

    /// The service's timer on a simulated wall clock: each held push goes out when time reaches
    /// its deadline, and not before.
    @Test func heldPushesGoOutOnTheWallClockWhenTheyAreDue() async throws {
        let sink = RecordingSink()
        let configuration = Coalescer.Configuration(minInterval: 30)
        let clock = SimulatedClock(Date(timeIntervalSince1970: 1_739_240_000))
        var options = GameService.Options(clock: .system, coalescer: configuration, wallClock: clock)
        // Each game's first lines are its tip-off here, not a catch-up to wait for
        // (`CatchUpInPartsTests` has those): decided at once, so the tip-off push starts the interval.
        options.catchUpWindow = 0
        let service = try GameService(options: options, sink: sink)
        let encoder = JSONEncoder()
        var number = 0
        /// Each line arrives live, at its own feed time.
        func send(_ line: String, at time: Double) async throws {
            clock.advance(to: Date(timeIntervalSince1970: time))
            number += 1
            if let error = await service.handle(.line(Data(line.utf8), number: number)) { throw error }
        }
        let games = ["S1", "S2", "S3"]
        for game in games {
            var attributes = Make.attributes
            attributes.gameId = game
            number += 1
            _ = await service.handle(.line(try encoder.encode(attributes), number: number))
        }
        for game in games {
            try await send(#"{"game":"\#(game)","seq":1,"time":1739240000,"period":1,"clock":"12:00","type":"periodStart"}"#, at: 1_739_240_000)
            try await send(#"{"game":"\#(game)","seq":2,"time":1739240003,"period":1,"clock":"11:57","type":"jumpBall","team":"away"}"#, at: 1_739_240_003)
        }
        // The baskets come within the minimum interval after each game's tip-off push: held until
        // it is over, S2's second one with its first.
        for game in games {
            try await send(#"{"game":"\#(game)","seq":3,"time":1739240010,"period":1,"clock":"11:50","type":"fieldGoal","team":"home","points":2,"made":true}"#, at: 1_739_240_010)
        }
        let due = try #require(await service.nextDeadline)
        try await send(#"{"game":"S2","seq":4,"time":1739240020,"period":1,"clock":"11:40","type":"fieldGoal","team":"away","points":3,"made":true}"#, at: 1_739_240_020)
        let held = await sink.records.filter { $0.state.homeScore == 2 || $0.state.awayScore == 3 }.count
        let timer = Task { await service.runTimer() }
        var outAt: [String: Date] = [:]
        // The timer wakes at each deadline and once a minute at least: until everything went out.
        var steps = 0
        while outAt.count < games.count + 1, steps < 1000 {
            steps += 1
            await clock.sleepers(atLeast: 1)
            for record in await sink.records {
                if record.state.homeScore == 2, outAt[record.game] == nil { outAt[record.game] = clock.now }
                if record.state.awayScore == 3, outAt["S2 second"] == nil { outAt["S2 second"] = clock.now }
            }
            clock.advanceToNextDeadline()
        }
        timer.cancel()
        await timer.value
        #expect(held == 0, "the baskets are held first (within the minimum interval after the tip-off)")
        for game in games { #expect(outAt[game].map { $0 >= due } == true, "\(game)'s basket went out when due") }
        #expect(outAt["S2 second"] != nil, "S2's second basket went out")
        let records = await sink.records
        for game in games {
            #expect(records.contains { $0.game == game && $0.state.homeScore == 2 }, "\(game)'s basket went out")
        }
        #expect(records.contains { $0.game == "S2" && $0.state.awayScore == 3 }, "S2's second basket went out")
    }

    /// The timer sleeps until the next deadline (idle, once a minute at most), and an event that
    /// holds a push due sooner wakes it: the push goes out when due, not at the end of the sleep.
    /// On the simulation executor: one job at a time, time moving only when every task waits.
    @Test func theTimerSleepsUntilItsDeadlineAndASoonerOneWakesIt() async throws {
        let sink = RecordingSink()
        let start = Date(timeIntervalSince1970: 1_739_240_000)
        let clock = SimulatedClock(start)
        var options = GameService.Options(clock: .system, coalescer: Coalescer.Configuration(minInterval: 0.25), wallClock: clock)
        options.catchUpWindow = 0
        let service = try GameService(options: options, sink: sink)
        // Idle for ten minutes: the timer looks once a minute (it looked ten times a second, then
        // once a second, before).
        var looks = 0
        let timer = Task { await service.runTimer() }
        while clock.now < start.addingTimeInterval(600) {
            await clock.sleepers(atLeast: 1)
            clock.advanceToNextDeadline()
            looks += 1
        }
        timer.cancel()
        await timer.value
        #expect(looks == 10)
        // A basket right after the tip-off push is held for the minimum interval, a quarter of a
        // second, while the timer sleeps until a second from now: it is woken for it.
        let ending = try await OffPool.run {
            SimulationExecutor.run(on: clock) { () async -> Date? in
                await withTaskGroup(of: Date?.self) { group in
                    group.addTask {
                        await service.runTimer()
                        return nil
                    }
                    group.addTask {
                        try? await clock.sleep(until: clock.now.addingTimeInterval(0.5))
                        let now = clock.now
                        var attributes = Make.attributes
                        attributes.gameId = "W1"
                        _ = await service.handle(.line((try? JSONEncoder().encode(attributes)) ?? Data(), number: 1))
                        let time = Int(now.timeIntervalSince1970)
                        for (number, line) in [
                            #"{"game":"W1","seq":1,"time":\#(time),"period":1,"clock":"12:00","type":"periodStart"}"#,
                            #"{"game":"W1","seq":2,"time":\#(time),"period":1,"clock":"11:59","type":"fieldGoal","team":"home","points":2,"made":true}"#,
                        ].enumerated() {
                            _ = await service.handle(.line(Data(line.utf8), number: number + 2))
                        }
                        try? await clock.sleep(until: now.addingTimeInterval(0.9))
                        return now
                    }
                    let now = await group.next() ?? nil
                    group.cancelAll()
                    return now
                }
            }
        }
        guard case .finished(let handled?) = ending else {
            Issue.record("the simulation ended as \(ending)")
            return
        }
        let basket = await sink.records.first { $0.state.homeScore == 2 }
        #expect(basket?.sentAt == handled.addingTimeInterval(0.25), "the held push goes out when due, a quarter of a second later")
    }
}

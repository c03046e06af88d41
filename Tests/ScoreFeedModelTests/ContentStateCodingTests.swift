import Foundation
import Testing
import ScoreFeedModel

@Suite("Content-state JSON as ActivityKit decodes it")
struct ContentStateCodingTests {
    let state = GameState(
        homeScore: 88, awayScore: 91, period: 3, phase: .live,
        clock: .running(endsAt: Date(timeIntervalSinceReferenceDate: 760_000_000.5)),
        possession: .home, homeFouls: 4, awayFouls: 2, homeInBonus: false, awayInBonus: true,
        homeTimeouts: 3, awayTimeouts: 5, lastPlay: "D. Fox 3PT", lastScorer: .away)

    @Test func roundTripsWithDefaultCoders() throws {
        let data = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(GameState.self, from: data)
        #expect(decoded == state)
    }

    @Test func requiredKeysAreIntegers() throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any]
        #expect(object?["homeScore"] as? Int == 88)
        #expect(object?["awayScore"] as? Int == 91)
        #expect(object?["period"] as? Int == 3)
    }

    @Test func datesAreSecondsSince2001() throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any]
        let clock = object?["clock"] as? [String: Any]
        let running = clock?["running"] as? [String: Any]
        #expect(running?["endsAt"] as? Double == 760_000_000.5)
    }

    @Test func decodesWhatAWidgetWouldReceive() throws {
        let json = """
            {"homeScore":10,"awayScore":12,"period":5,"phase":"endOfPeriod",
             "clock":{"stopped":{"seconds":0}},"homeFouls":0,"awayFouls":0,
             "homeInBonus":false,"awayInBonus":false,"homeTimeouts":2,"awayTimeouts":2}
            """
        let decoded = try JSONDecoder().decode(GameState.self, from: Data(json.utf8))
        #expect(decoded.period == 5)
        #expect(decoded.periodLabel == "OT")
        #expect(decoded.clock == .stopped(seconds: 0))
        #expect(decoded.possession == nil)
        #expect(decoded.lastPlay == nil)
    }

    @Test func attributesRoundTrip() throws {
        let attributes = GameAttributes(
            gameId: "0022400762",
            home: Team(id: "1610612742", tricode: "DAL", name: "Mavericks", city: "Dallas", primaryColor: "#00538C"),
            away: Team(id: "1610612758", tricode: "SAC", name: "Kings", city: "Sacramento", primaryColor: "#5A2D81"))
        let decoded = try JSONDecoder().decode(GameAttributes.self, from: JSONEncoder().encode(attributes))
        #expect(decoded == attributes)
        #expect(decoded.team(.away).tricode == "SAC")
    }

    @Test(arguments: [
        (720.0, "12:00"), (65.0, "1:05"), (59.94, "59.9"), (0.0, "0.0"), (-3.0, "0.0"),
    ])
    func clockText(seconds: Double, text: String) {
        #expect(GameState.clockText(seconds) == text)
    }

    @Test(arguments: [(1, "Q1"), (4, "Q4"), (5, "OT"), (6, "2OT"), (8, "4OT")])
    func periodLabel(period: Int, label: String) {
        #expect(GameState.periodLabel(period) == label)
    }

    @Test func runningClockCountsDownByItself() {
        let zero = Date(timeIntervalSince1970: 1000)
        let clock = GameClock.running(endsAt: zero)
        #expect(clock.secondsRemaining(at: Date(timeIntervalSince1970: 970)) == 30)
        #expect(clock.secondsRemaining(at: Date(timeIntervalSince1970: 1010)) == 0)
        #expect(clock.isRunning)
        #expect(!GameClock.stopped(seconds: 5).isRunning)
    }
}

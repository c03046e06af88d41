import Foundation
import ScoreFeedModel

/// The engine behind ``GameGenerator``: plays one game possession by possession and writes the
/// feed events as it goes.
///
/// Time is kept in tenths of a second, both the game clock and the wall clock, so live play can
/// advance both by exactly the same amount while stoppages (fouls, free throws, timeouts,
/// reviews, period breaks) advance only the wall clock. Team and player state is indexed 0 for
/// home and 1 for away.
struct GameSimulation {
    var rng: SeededRandom
    /// Thirteen player names per team: starters, rotation, end of bench.
    let names: [[String]]
    /// Team nicknames, for descriptions ("Kings Timeout").
    let teamNames: [String]
    /// Plant a score correction even when chance would not.
    let forceCorrection: Bool

    private(set) var events: [GameEvent] = []
    private var seq = 0
    /// Wall clock, tenths of a second since 1970.
    var wall: Int
    var period = 0
    /// Game clock: tenths of a second left in `period`. Whole seconds above 1:00, as NBA clocks show.
    var clock = 0
    /// Game time played since the opening tip, tenths; measures players' stints and rest.
    var elapsed = 0
    var possession: TeamSide = .home
    var openingTip: TeamSide = .home
    /// How the coming possession starts, which shapes how fast the offense shoots.
    var start: PossessionStart = .inbound
    /// Shot clock of the team with the ball, tenths.
    var shotClock = 240

    var score = [0, 0]
    var teamFouls = [0, 0]
    /// Team fouls in the last 2:00 of the current period.
    var lateFouls = [0, 0]
    var timeouts = [Scoreboard.regulationTimeouts, Scoreboard.regulationTimeouts]
    /// Team and official timeouts so far this period (for the mandatory TV timeouts).
    var timeoutsThisPeriod = 0
    /// Game clock marks (tenths left) at which each team means to call its next timeouts.
    var plannedTimeouts: [[Int]] = [[], []]
    var challengesUsed = [0, 0]
    var challengeWon = [false, false]
    /// Consecutive points by one team, for "stop the run" timeouts.
    var run: (side: TeamSide, points: Int) = (.home, 0)

    /// Roster slots on the floor, per team.
    var lineup: [[Int]] = [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]
    /// For players on the floor, when they came in; for the bench, when they went out.
    var since: [[Int]] = Array(repeating: Array(repeating: 0, count: 13), count: 2)
    /// How long each player on the floor stays before he is due for a rest, tenths.
    var stintLimit: [[Int]] = Array(repeating: Array(repeating: 4800, count: 13), count: 2)
    var personalFouls: [[Int]] = Array(repeating: Array(repeating: 0, count: 13), count: 2)
    var points: [[Int]] = Array(repeating: Array(repeating: 0, count: 13), count: 2)
    var offensiveRebounds: [[Int]] = Array(repeating: Array(repeating: 0, count: 13), count: 2)
    var defensiveRebounds: [[Int]] = Array(repeating: Array(repeating: 0, count: 13), count: 2)
    /// How well each team shoots tonight (multiplies make probabilities).
    var form: [Double] = [1, 1]

    /// Where and when a review will take points back or give them (a score correction).
    var correctionPlan: (period: Int, clock: Int)?
    var pendingCorrection: PendingCorrection?

    enum PossessionStart {
        case inbound, defensiveRebound, steal, offensiveRebound, sideOut
    }

    /// A made basket that a review at the next stoppage will change.
    struct PendingCorrection {
        var team: TeamSide
        var points: Int
        var review: String
        var reason: String
    }

    init(rng: SeededRandom, names: [[String]], teamNames: [String], tipOff: Date, forceCorrection: Bool) {
        self.rng = rng
        self.names = names
        self.teamNames = teamNames
        self.forceCorrection = forceCorrection
        wall = Int(tipOff.timeIntervalSince1970.rounded()) * 10
        events.reserveCapacity(640)
    }

    // MARK: - The game

    /// Whether the game has ended (the `gameEnd` event is written).
    private(set) var isOver = false
    /// Whether a period is under way (between its `periodStart` and `periodEnd`).
    private(set) var inPeriod = false

    /// Plays the rest of the game: four quarters, then overtimes until someone leads.
    mutating func play() {
        while !isOver { advance() }
    }

    /// Plays on until the last two minutes of the 4th quarter begin, or the game ends. The
    /// generator copies the state there to try several endings of one game.
    mutating func playToCrunchTime() {
        while !isOver && !(inPeriod && period == 4 && clock <= 1200) { advance() }
    }

    /// One step of the game: a period starts, the team with the ball acts, or a period ends.
    mutating func advance() {
        guard !isOver else { return }
        if !inPeriod {
            if period == 0 { setUp() }
            beginPeriod(period + 1)
        } else if clock > 0 {
            step()
        } else {
            endPeriod()
        }
    }

    /// Tonight's shooting form of both teams, and whether a review will correct the score.
    private mutating func setUp() {
        let edge = rng.double(in: -0.03...0.03)
        form = [1.0 + 0.01 + edge + rng.double(in: -0.02...0.02), 1.0 - edge + rng.double(in: -0.02...0.02)]
        if forceCorrection || rng.chance(0.04) {
            correctionPlan = (rng.int(in: 1...3), rng.int(in: 600...6600))
        }
    }

    private mutating func beginPeriod(_ number: Int) {
        inPeriod = true
        period = number
        clock = number <= 4 ? 7200 : 3000
        teamFouls = [0, 0]
        lateFouls = [0, 0]
        timeoutsThisPeriod = 0
        if number >= 5 { timeouts = [Scoreboard.overtimeTimeouts, Scoreboard.overtimeTimeouts] }
        if number == 1 || number == 3 || number >= 5 { startersIn() }
        planTimeouts()
        emit(.periodStart, description: "Start of \(Self.periodName(number))")
        if number == 1 || number >= 5 {
            let winner: TeamSide = rng.chance(0.5) ? .home : .away
            let jumper = [center(.home), center(.away)]
            let tippedTo = pickPlayer(winner) { $0 == jumper[Self.index(winner)] ? 0 : Self.reboundWeight($0) }
            emit(.jumpBall, team: winner, player: name(winner, jumper[Self.index(winner)]),
                 description: "Jump Ball \(name(.home, jumper[0])) vs. \(name(.away, jumper[1])): Tip to \(name(winner, tippedTo))")
            if number == 1 { openingTip = winner }
            changePossession(to: winner, .inbound)
        } else {
            // The loser of the opening tip starts the 2nd and 3rd quarters, the winner the 4th.
            changePossession(to: number == 4 ? openingTip : openingTip.opponent, .inbound)
        }
    }

    private mutating func endPeriod() {
        if pendingCorrection != nil { review() }
        emit(.periodEnd, description: "End of \(Self.periodName(period))")
        inPeriod = false
        if period >= 4 && score[0] != score[1] {
            waitWall(0...2)
            emit(.gameEnd, description: "Game End")
            isOver = true
            return
        }
        // Period breaks: about 2:15 between quarters, 15:00 at halftime, 2:00 before overtime.
        switch period {
        case 2: waitWall(900...990)
        case 4...: waitWall(115...150)
        default: waitWall(125...165)
        }
    }

    // MARK: - Time

    /// Live play: the game clock and the wall clock run together. Above one minute the clock
    /// stays on whole seconds. Returns the tenths actually run.
    @discardableResult
    mutating func runClock(_ tenths: Int) -> Int {
        var target = max(0, clock - max(0, tenths))
        if target >= 600 { target -= target % 10 }
        let ran = clock - target
        clock = target
        wall += ran
        elapsed += ran
        return ran
    }

    /// A stoppage: wall time passes, the game clock does not. `seconds` is a range of seconds.
    mutating func waitWall(_ seconds: ClosedRange<Int>) {
        wall += rng.int(in: seconds.lowerBound * 10...seconds.upperBound * 10)
    }

    /// Whether the clock-stopping rules of the last two minutes of the 4th and overtime apply.
    var isCrunchTime: Bool { period >= 4 && clock <= 1200 }

    // MARK: - Events

    /// Appends an event at the current wall time and game clock. Sequence numbers usually rise by
    /// one; now and then a few are skipped, as in real feeds where actions get deleted.
    mutating func emit(
        _ kind: GameEvent.Kind, team: TeamSide? = nil, player: String? = nil, description: String
    ) {
        seq += rng.chance(0.04) ? rng.int(in: 2...4) : 1
        events.append(GameEvent(
            seq: seq, time: Date(timeIntervalSince1970: Double(wall / 10)), period: period,
            clock: Double(clock) / 10, kind: kind, team: team, player: player, description: description))
    }

    static func periodName(_ period: Int) -> String {
        if period <= 4 { return ["1st", "2nd", "3rd", "4th"][period - 1] + " Quarter" }
        let n = period - 4
        return n == 1 ? "Overtime" : "\(ordinal(n)) Overtime"
    }

    static func ordinal(_ n: Int) -> String {
        switch (n % 10, n % 100) {
        case (1, let h) where h != 11: "\(n)st"
        case (2, let h) where h != 12: "\(n)nd"
        case (3, let h) where h != 13: "\(n)rd"
        default: "\(n)th"
        }
    }
}

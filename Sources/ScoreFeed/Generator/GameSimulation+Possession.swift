import ScoreFeedModel

/// Live play: one step of the team with the ball at a time. A step ends in a shot, a turnover,
/// a foul, or the clock running out; the state says who has the ball next and how.
extension GameSimulation {
    /// Plays the next action of the team in possession.
    mutating func step() {
        let o = possession, d = o.opponent
        if wantsToFoul(d) {
            let ran = runClock(min(rng.int(in: 10...40), clock - 5))
            shotClock -= ran
            commonFoul(by: d, kind: .personal, intentional: true)
            return
        }
        var t: Int
        let desperate = clock < minimumActionTime()
        if clock <= shotClock {
            // The shot clock is off: the leader in the 4th dribbles out; otherwise hold for a last shot.
            if period >= 4 && score[Self.index(o)] > score[Self.index(d)] {
                runClock(clock)
                return
            }
            let holds = rng.chance(period >= 4 ? 0.95 : 0.75)
            t = holds ? clock - rng.int(in: 0...min(clock, 35)) : actionTime()
            // Getting the ball up the floor takes time: with too little left, a heave at the horn.
            t = min(max(t, minimumActionTime()), clock)
        } else {
            if rng.chance(0.011) {
                shotClock -= runClock(shotClock)
                emit(.turnover(kind: "shot clock"), team: o, description: "\(teamName(o)) Shot Clock Turnover")
                deadBallTurnover(o)
                return
            }
            t = actionTime()
            if isCrunchTime && score[Self.index(o)] > score[Self.index(d)] && start != .offensiveRebound {
                // Protecting a late lead: milk the shot clock.
                t = max(t, shotClock - rng.int(in: 15...50))
            }
        }
        let downThreeLate = period >= 4 && clock <= 400
            && score[Self.index(d)] - score[Self.index(o)] == 3
        let putback = start == .offensiveRebound && t <= 30 && !downThreeLate
        shotClock -= runClock(t)
        if clock == 0 {
            shoot(o, putback: false, heave: desperate)
            return
        }
        let roll = rng.unit()
        switch roll {
        case ..<0.117: turnover(o)
        case ..<0.195: commonFoul(by: d, kind: .personal, intentional: false)
        case ..<0.21: commonFoul(by: rng.chance(0.7) ? d : o, kind: .looseBall, intentional: false)
        case ..<0.214: violation(o)
        case ..<0.2165: heldBall(o)
        case ..<0.2175: flagrantFoul(o)
        default: shoot(o, putback: putback, heave: false)
        }
    }

    /// Game clock (tenths) the offense uses before its next action, shaped by how it got the ball.
    mutating func actionTime() -> Int {
        func tri(_ n: Int) -> Int { (rng.int(in: 0...n) + rng.int(in: 0...n)) / 2 }
        let t: Int
        switch start {
        case .offensiveRebound: t = rng.chance(0.4) ? rng.int(in: 5...30) : rng.int(in: 30...110)
        case .steal: t = rng.chance(0.4) ? rng.int(in: 20...60) : 40 + tri(140)
        case .defensiveRebound: t = rng.chance(0.17) ? rng.int(in: 25...70) : 40 + tri(150)
        case .inbound: t = 50 + tri(150)
        case .sideOut: t = 15 + tri(max(10, min(shotClock - 30, 150)))
        }
        return max(3, min(t, shotClock - rng.int(in: 2...20)))
    }

    /// The least game clock (tenths) before any shot: inbounding and crossing half court take a
    /// moment, a putback hardly any.
    func minimumActionTime() -> Int {
        switch start {
        case .inbound: 25
        case .defensiveRebound: 15
        case .steal: 10
        case .sideOut: 8
        case .offensiveRebound: 3
        }
    }

    /// The ball changes hands.
    mutating func changePossession(to side: TeamSide, _ how: PossessionStart) {
        possession = side
        start = how
        shotClock = 240
    }

    /// The offense keeps the ball after a dead ball: the shot clock resets to at least 14.
    mutating func sideOut() {
        start = .sideOut
        shotClock = max(shotClock, 140)
    }

    // MARK: - Shots

    private struct Shot {
        var text: String
        var feet: ClosedRange<Int>
        var make: Double
        var foul: Double
        var block: Double
    }

    private static let threes = [
        Shot(text: "3PT Jump Shot", feet: 23...26, make: 0.355, foul: 0.03, block: 0.04),
        Shot(text: "3PT Pullup Jump Shot", feet: 24...27, make: 0.34, foul: 0.035, block: 0.04),
        Shot(text: "3PT Step Back Jump Shot", feet: 24...28, make: 0.335, foul: 0.04, block: 0.035),
        Shot(text: "3PT Jump Shot", feet: 22...22, make: 0.38, foul: 0.02, block: 0.05),
    ]
    private static let twos = [
        Shot(text: "Driving Layup", feet: 1...3, make: 0.555, foul: 0.23, block: 0.3),
        Shot(text: "Cutting Layup Shot", feet: 1...2, make: 0.635, foul: 0.15, block: 0.2),
        Shot(text: "Dunk", feet: 0...1, make: 0.89, foul: 0.11, block: 0.14),
        Shot(text: "Driving Floating Jump Shot", feet: 5...12, make: 0.455, foul: 0.08, block: 0.19),
        Shot(text: "Pullup Jump Shot", feet: 12...20, make: 0.415, foul: 0.045, block: 0.08),
        Shot(text: "Turnaround Fadeaway Jumper", feet: 10...18, make: 0.435, foul: 0.045, block: 0.1),
        Shot(text: "Hook Shot", feet: 3...8, make: 0.505, foul: 0.1, block: 0.2),
    ]
    private static let putbacks = [
        Shot(text: "Tip Layup Shot", feet: 0...2, make: 0.59, foul: 0.12, block: 0.2),
        Shot(text: "Putback Dunk", feet: 0...1, make: 0.84, foul: 0.11, block: 0.1),
    ]

    /// Which two-point shots a position takes, as weights over `twos`.
    private static func twoWeights(_ position: Int) -> [Double] {
        switch position {
        case 0, 1: [3, 1, 0.3, 2, 2.5, 1, 0.1]
        case 2: [2.5, 1.5, 1, 1.5, 2, 1.5, 0.3]
        default: [1.5, 2, 2.5, 0.7, 0.7, 1, 2]
        }
    }

    /// A field-goal attempt by `o`: made, missed (then block and rebound), or fouled.
    /// A `heave` is a desperation shot from far out at the horn.
    mutating func shoot(_ o: TeamSide, putback: Bool, heave forced: Bool) {
        let d = o.opponent
        let behind = score[Self.index(d)] - score[Self.index(o)]
        let shooter = pickPlayer(o, weights: Self.usageWeight)
        var threeRate = Self.threeRate(shooter)
        if period >= 4 && clock <= 400 {
            // Down three late: a three ties. Down two: usually play for the tie at the rim.
            if (3...8).contains(behind) { threeRate = behind == 3 ? 0.92 : 0.7 }
            if behind == 2 { threeRate = 0.25 }
        }
        let three = !putback && rng.chance(threeRate)
        var shot: Shot
        if putback {
            shot = Self.putbacks[rng.weighted([Self.position(shooter) >= 3 ? 1 : 2, Self.position(shooter) >= 3 ? 1 : 0.2])]
        } else if three {
            shot = Self.threes[rng.weighted([3, 1.5, 1, 1.2])]
        } else {
            shot = Self.twos[rng.weighted(Self.twoWeights(Self.position(shooter)))]
        }
        if forced { shot = Shot(text: "3PT Jump Shot", feet: 30...60, make: 0.1, foul: 0, block: 0) }
        let points = three || forced ? 3 : 2
        let feet = rng.int(in: shot.feet)
        let text = (feet > 0 ? "\(feet)' " : "") + shot.text

        if rng.chance(shot.foul) {
            let andOne = rng.chance(three ? 0.1 : 0.27)
            if andOne && rng.chance(shot.make * form[Self.index(o)] + 0.15) {
                madeFieldGoal(o, shooter, points: points, text: text, feet: feet)
                let fouler = pickPlayer(d, weights: Self.foulWeight)
                registerFoul(d, fouler, .shooting)
                if challenge(by: d) { return }
                stoppage(eligible: [.home, .away])
                freeThrows(o, shooter, count: 1, kind: .regular)
            } else {
                let fouler = pickPlayer(d, weights: Self.foulWeight)
                registerFoul(d, fouler, .shooting)
                if challenge(by: d) { return }
                stoppage(eligible: [.home, .away])
                freeThrows(o, shooter, count: points, kind: .regular)
            }
            return
        }
        if rng.chance(min(0.97, shot.make * form[Self.index(o)])) {
            madeFieldGoal(o, shooter, points: points, text: text, feet: feet)
            afterScore(by: o)
            return
        }
        emit(.fieldGoal(points: points, made: false), team: o, player: name(o, shooter),
             description: "MISS \(name(o, shooter)) \(text)")
        if rng.chance(shot.block) {
            let blocker = pickPlayer(d, weights: Self.blockWeight)
            emit(.block, team: d, player: name(d, blocker), description: "\(name(d, blocker)) BLOCK")
        }
        rebound(after: o, freeThrow: false)
    }

    /// Credits a made basket and plants a pending score correction when one is planned.
    mutating func madeFieldGoal(_ o: TeamSide, _ shooter: Int, points made: Int, text: String, feet: Int) {
        let i = Self.index(o)
        score[i] += made
        points[i][shooter] += made
        noteRun(o, made)
        emit(.fieldGoal(points: made, made: true), team: o, player: name(o, shooter),
             description: "\(name(o, shooter)) \(text) (\(points[i][shooter]) PTS)")
        planCorrection(after: o, points: made, feet: feet)
    }

    /// After a made basket or last free throw the other team inbounds; in the last two minutes
    /// of the 4th and overtime the clock stops, and the inbounding team may call timeout.
    mutating func afterScore(by o: TeamSide) {
        changePossession(to: o.opponent, .inbound)
        if isCrunchTime { waitWall(3...9) }
        stoppage(eligible: [o.opponent], deadBall: false)
    }

    /// The rebound of a missed shot or last free throw (none when the period just ended).
    mutating func rebound(after o: TeamSide, freeThrow: Bool) {
        guard clock > 0 else { return }
        let d = o.opponent
        runClock(rng.int(in: 5...25))
        let roll = rng.unit()
        let teamRate = freeThrow ? 0.03 : 0.06
        let offensiveRate = freeThrow ? 0.12 : 0.235
        if roll < teamRate {
            // Out of bounds off a player: a team rebound and a dead ball.
            let side = rng.chance(0.45) ? o : d
            emit(.rebound(offensive: side == o), team: side, description: "\(teamName(side)) Rebound")
            waitWall(10...20)
            if side == o { sideOut() } else { changePossession(to: d, .inbound) }
            stoppage(eligible: [.home, .away])
        } else if roll < teamRate + offensiveRate {
            let player = pickPlayer(o, weights: Self.reboundWeight)
            offensiveRebounds[Self.index(o)][player] += 1
            emit(.rebound(offensive: true), team: o, player: name(o, player),
                 description: "\(name(o, player)) REBOUND \(reboundTally(o, player))")
            start = .offensiveRebound
            shotClock = 140
        } else {
            let player = pickPlayer(d, weights: Self.reboundWeight)
            defensiveRebounds[Self.index(d)][player] += 1
            emit(.rebound(offensive: false), team: d, player: name(d, player),
                 description: "\(name(d, player)) REBOUND \(reboundTally(d, player))")
            changePossession(to: d, .defensiveRebound)
        }
    }

    private func reboundTally(_ side: TeamSide, _ player: Int) -> String {
        let i = Self.index(side)
        return "(Off:\(offensiveRebounds[i][player]) Def:\(defensiveRebounds[i][player]))"
    }

    // MARK: - Free throws

    enum FreeThrowKind { case regular, technical, flagrant }

    /// `count` free throws by `shooter` of `side`; then the ball goes to the other team (made
    /// last), is rebounded (missed last), or stays (technical, flagrant).
    mutating func freeThrows(_ side: TeamSide, _ shooter: Int, count: Int, kind: FreeThrowKind) {
        let i = Self.index(side)
        waitWall(32...55)
        var madeLast = false
        for attempt in 1...count {
            if attempt > 1 { waitWall(8...16) }
            let made = rng.chance(Self.freeThrowPercentage(shooter))
            if made {
                score[i] += 1
                points[i][shooter] += 1
                noteRun(side, 1)
            }
            let label = kind == .technical ? "Free Throw Technical" : kind == .flagrant
                ? "Free Throw Flagrant \(attempt) of \(count)" : "Free Throw \(attempt) of \(count)"
            emit(.freeThrow(attempt: attempt, of: count, made: made, points: 1), team: side,
                 player: name(side, shooter),
                 description: made ? "\(name(side, shooter)) \(label) (\(points[i][shooter]) PTS)"
                    : "MISS \(name(side, shooter)) \(label)")
            madeLast = made
            if !made && attempt < count {
                // A missed free throw that is not the last: the feed books a dead-ball team rebound.
                emit(.rebound(offensive: true), team: side, description: "\(teamName(side)) Rebound")
            }
        }
        switch kind {
        case .technical:
            break
        case .flagrant:
            waitWall(5...12)
            changePossession(to: side, .sideOut)
        case .regular:
            if madeLast { afterScore(by: side) } else { rebound(after: side, freeThrow: true) }
        }
    }

    // MARK: - Turnovers, fouls, violations

    private static let turnoverKinds: [(kind: String, text: String, weight: Double, steal: Double)] = [
        ("bad pass", "Bad Pass", 0.36, 0.75),
        ("lost ball", "Lost Ball", 0.24, 0.9),
        ("traveling", "Traveling", 0.11, 0),
        ("out-of-bounds", "Out of Bounds - Bad Pass", 0.08, 0),
        ("step out of bounds", "Step Out of Bounds", 0.04, 0),
        ("offensive foul", "Offensive Foul", 0.13, 0),
        ("3 second", "3 Second Violation", 0.03, 0),
        ("double dribble", "Double Dribble", 0.01, 0),
        ("backcourt", "Backcourt", 0.01, 0),
    ]

    /// `o` loses the ball: a steal (live ball) or a dead-ball turnover.
    mutating func turnover(_ o: TeamSide) {
        let d = o.opponent
        let kind = Self.turnoverKinds[rng.weighted(Self.turnoverKinds.map(\.weight))]
        let player = pickPlayer(o, weights: Self.usageWeight)
        if kind.kind == "offensive foul" {
            registerFoul(o, player, .offensive)
        }
        emit(.turnover(kind: kind.kind), team: o, player: name(o, player),
             description: "\(name(o, player)) \(kind.text) Turnover")
        if rng.chance(kind.steal) {
            let thief = pickPlayer(d, weights: Self.stealWeight)
            emit(.steal, team: d, player: name(d, thief), description: "\(name(d, thief)) STEAL")
            changePossession(to: d, .steal)
            return
        }
        if kind.kind == "offensive foul" && challenge(by: o) { return }
        if kind.kind.contains("out") && rng.chance(isCrunchTime ? 0.3 : 0.03) {
            // The officials review who touched the ball last.
            waitWall(15...25)
            let overturned = rng.chance(0.35)
            waitWall(40...100)
            emit(.replay(ruling: overturned ? "overturned" : "upheld", challenge: false),
                 description: "Instant Replay: Out of Bounds, Ruling \(overturned ? "Overturned" : "Stands")")
            if overturned {
                sideOut()
                stoppage(eligible: [.home, .away])
                return
            }
        }
        deadBallTurnover(o)
    }

    /// The other team inbounds after a dead-ball turnover by `o`.
    mutating func deadBallTurnover(_ o: TeamSide) {
        changePossession(to: o.opponent, .inbound)
        waitWall(15...28)
        stoppage(eligible: [.home, .away])
    }

    /// A personal or loose-ball foul away from a shot, by `fouling`. In the penalty the fouled
    /// team shoots two; otherwise it inbounds.
    mutating func commonFoul(by fouling: TeamSide, kind: GameEvent.FoulKind, intentional: Bool) {
        let fouled = fouling.opponent
        let fouler = pickPlayer(fouling, weights: Self.foulWeight)
        let penalty = registerFoul(fouling, fouler, kind)
        if !intentional && challenge(by: fouling) { return }
        let victim = intentional || rng.chance(0.3) ? bestFreeThrowShooter(fouled) : pickPlayer(fouled, weights: Self.usageWeight)
        if fouled != possession { changePossession(to: fouled, .inbound) }
        if penalty {
            stoppage(eligible: [.home, .away])
            freeThrows(fouled, victim, count: 2, kind: .regular)
        } else {
            waitWall(18...32)
            sideOut()
            stoppage(eligible: [.home, .away])
        }
    }

    /// Records a foul (team and player counts) and says whether it puts the fouled team on the
    /// line: NBA penalty after 4 team fouls in a quarter (3 in overtime), or on the second
    /// team foul in the last 2:00 of a period. Offensive and technical fouls are not team fouls.
    @discardableResult
    mutating func registerFoul(_ side: TeamSide, _ player: Int?, _ kind: GameEvent.FoulKind) -> Bool {
        let i = Self.index(side)
        let teamFoul = kind != .offensive && kind != .technical
        let quota = period <= 4 ? 4 : 3
        let penalty = teamFoul && (teamFouls[i] >= quota || (clock <= 1200 && lateFouls[i] >= 1))
        if teamFoul {
            teamFouls[i] += 1
            if clock <= 1200 { lateFouls[i] += 1 }
        }
        guard let player else {
            emit(.foul(kind), team: side, description: "\(teamName(side)) Coach T.FOUL")
            return penalty
        }
        if kind != .technical { personalFouls[i][player] += 1 }
        let label = switch kind {
        case .personal: "P.FOUL"
        case .shooting: "S.FOUL"
        case .looseBall: "L.B.FOUL"
        case .offensive: "OFF.FOUL"
        case .technical: "T.FOUL"
        case .flagrant: "FLAGRANT.FOUL.TYPE1"
        }
        emit(.foul(kind), team: side, player: name(side, player),
             description: "\(name(side, player)) \(label) (P\(personalFouls[i][player]).T\(teamFouls[i]))")
        if personalFouls[i][player] == 6 { substitute(side, out: player) }
        return penalty
    }

    /// A rare violation: a kicked ball or delay of game by the defense (offense keeps the ball),
    /// or defensive goaltending (the basket counts).
    mutating func violation(_ o: TeamSide) {
        let d = o.opponent
        let roll = rng.unit()
        if roll < 0.2 {
            let shooter = pickPlayer(o, weights: Self.usageWeight)
            madeFieldGoal(o, shooter, points: 2, text: "Layup (Goaltending)", feet: 2)
            let player = pickPlayer(d, weights: Self.blockWeight)
            emit(.violation(kind: "goaltending"), team: d, player: name(d, player),
                 description: "\(name(d, player)) Violation: Defensive Goaltending")
            afterScore(by: o)
            return
        }
        if roll < 0.4 {
            emit(.violation(kind: "delay of game"), team: d, description: "\(teamName(d)) Violation: Delay of Game")
        } else {
            let player = pickPlayer(d, weights: { _ in 1 })
            emit(.violation(kind: "kicked ball"), team: d, player: name(d, player),
                 description: "\(name(d, player)) Violation: Kicked Ball")
        }
        waitWall(10...20)
        sideOut()
        stoppage(eligible: [.home, .away])
    }

    /// Two players tie up the ball: a jump ball decides who keeps it.
    mutating func heldBall(_ o: TeamSide) {
        waitWall(10...22)
        jumpBall(after: o)
    }

    /// A jump ball at the spot; `o` had the ball.
    mutating func jumpBall(after o: TeamSide) {
        let a = pickPlayer(.home, weights: Self.reboundWeight)
        let b = pickPlayer(.away, weights: Self.reboundWeight)
        let winner: TeamSide = rng.chance(0.5) ? .home : .away
        let tippedTo = pickPlayer(winner) { $0 == (winner == .home ? a : b) ? 0 : 1 }
        emit(.jumpBall, team: winner, player: name(winner, winner == .home ? a : b),
             description: "Jump Ball \(name(.home, a)) vs. \(name(.away, b)): Tip to \(name(winner, tippedTo))")
        if winner == o { sideOut() } else { changePossession(to: winner, .steal) }
    }

    /// A flagrant foul on a drive: reviewed, two shots, and the fouled team keeps the ball.
    mutating func flagrantFoul(_ o: TeamSide) {
        let d = o.opponent
        let fouler = pickPlayer(d, weights: Self.foulWeight)
        registerFoul(d, fouler, .flagrant)
        waitWall(30...60)
        waitWall(40...110)
        emit(.replay(ruling: "upheld", challenge: false),
             description: "Instant Replay: Flagrant Foul Review, Flagrant 1 Ruling Stands")
        stoppage(eligible: [.home, .away])
        freeThrows(o, pickPlayer(o, weights: Self.usageWeight), count: 2, kind: .flagrant)
    }

    /// Late in the 4th or overtime, whether the trailing defense `d` fouls at once to stop the clock.
    func wantsToFoul(_ d: TeamSide) -> Bool {
        guard period >= 4, clock > 25 else { return false }
        let behind = score[Self.index(d.opponent)] - score[Self.index(d)]
        switch behind {
        case 4...10: return clock <= 600
        case 1...3: return clock <= min(240, shotClock + 30)
        default: return false
        }
    }

    /// Keeps the current run (consecutive points by one team) for "stop the run" timeouts.
    mutating func noteRun(_ side: TeamSide, _ points: Int) {
        if run.side == side { run.points += points } else { run = (side, points) }
    }
}

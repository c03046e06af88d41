import ScoreFeedModel

/// Dead balls: timeouts (team, official, challenge), substitutions, reviews, score corrections
/// and technical fouls.
extension GameSimulation {
    /// What may happen while the ball is dead. `eligible` are the teams allowed to call timeout
    /// (after a score only the inbounding team); substitutions need a real dead ball or a timeout.
    mutating func stoppage(eligible: [TeamSide], deadBall: Bool = true) {
        if pendingCorrection != nil { review() }
        var called = false
        let order = eligible.count == 2 && rng.chance(0.5) ? eligible.reversed() : eligible
        for side in order where !called && wantsTimeout(side) {
            callTimeout(side)
            called = true
        }
        if !called && deadBall && period <= 4
            && ((timeoutsThisPeriod == 0 && clock < 4190) || (timeoutsThisPeriod < 2 && clock < 1790)) {
            // Mandatory TV timeout: none taken before 6:59 (or a second one before 2:59).
            emit(.timeout(.official), description: "Official Timeout (TV)")
            timeoutsThisPeriod += 1
            waitWall(160...190)
            called = true
        }
        if deadBall || called {
            considerSubstitutions(.home, chance: called ? 0.9 : 0.5)
            considerSubstitutions(.away, chance: called ? 0.9 : 0.5)
        }
        if deadBall && rng.chance(0.006) { technicalFoul() }
    }

    /// Timeouts `side` may still call now. NBA: 7 per game, at most 4 in the 4th quarter and 2
    /// in its last 3:00; 2 per overtime. Mirrors ``Scoreboard``'s caps.
    func available(_ side: TeamSide) -> Int {
        let left = timeouts[Self.index(side)]
        return period == 4 ? min(left, clock <= 1800 ? 2 : 4) : left
    }

    /// Decides when each team means to call its timeouts this period.
    mutating func planTimeouts() {
        for i in 0..<2 {
            let side: TeamSide = i == 0 ? .home : .away
            let count: Int
            let marks: ClosedRange<Int>
            switch period {
            case 1...3:
                count = min(rng.weighted([0.1, 0.5, 0.4]), max(0, timeouts[i] - 3))
                marks = 450...6600
            case 4:
                count = min(available(side), rng.int(in: 1...3))
                marks = 1200...6600
            default:
                count = min(available(side), rng.int(in: 0...1))
                marks = 200...2700
            }
            plannedTimeouts[i] = (0..<count).map { _ in rng.int(in: marks) / 10 * 10 }.sorted(by: >)
        }
    }

    /// Whether `side` calls timeout now: a planned one is due, the opponent is on a run, or the
    /// game is close at the end.
    mutating func wantsTimeout(_ side: TeamSide) -> Bool {
        let i = Self.index(side)
        guard available(side) > 0 else { return false }
        if let mark = plannedTimeouts[i].first, clock <= mark {
            plannedTimeouts[i].removeFirst()
            return true
        }
        if run.side != side && run.points >= 8 && (period >= 4 || available(side) > 3) && rng.chance(0.5) {
            if !plannedTimeouts[i].isEmpty { plannedTimeouts[i].removeFirst() }
            return true
        }
        if isCrunchTime && clock > 0 && abs(score[0] - score[1]) <= 6 && score[i] <= score[1 - i] {
            return rng.chance(0.3)
        }
        return false
    }

    /// `side` calls a full timeout; the first two stoppages of a quarter are long TV breaks.
    mutating func callTimeout(_ side: TeamSide) {
        let i = Self.index(side)
        timeouts[i] = available(side) - 1
        timeoutsThisPeriod += 1
        run = (side, 0)
        emit(.timeout(.full), team: side,
             description: "\(teamName(side)) Timeout: Full (\(timeouts[i]) left)")
        if period <= 4 && timeoutsThisPeriod <= 2 { waitWall(160...190) } else { waitWall(95...125) }
    }

    /// Maybe `side`'s coach challenges the foul just called on it: a challenge timeout, then the
    /// ruling. Overturned (the timeout comes back) ends in a jump ball. Returns whether overturned.
    mutating func challenge(by side: TeamSide) -> Bool {
        let i = Self.index(side)
        let allowed = challengesUsed[i] == 0 || (challengesUsed[i] == 1 && challengeWon[i])
        guard allowed, available(side) > 0, clock > 0, rng.chance(0.025) else { return false }
        waitWall(8...20)
        timeouts[i] = available(side) - 1
        timeoutsThisPeriod += 1
        emit(.timeout(.challenge), team: side, description: "\(teamName(side)) Timeout: Challenge")
        waitWall(80...150)
        let overturned = rng.chance(0.45)
        challengesUsed[i] += 1
        emit(.replay(ruling: overturned ? "overturned" : "upheld", challenge: true), team: side,
             description: "Instant Replay: Coach's Challenge (\(teamName(side))) \(overturned ? "Overturned Ruling" : "Ruling Stands")")
        guard overturned else { return false }
        challengeWon[i] = true
        let limit = period >= 5 ? Scoreboard.overtimeTimeouts : Scoreboard.regulationTimeouts
        timeouts[i] = min(limit, available(side) + 1)
        waitWall(10...25)
        jumpBall(after: possession)
        considerSubstitutions(.home, chance: 0.3)
        considerSubstitutions(.away, chance: 0.3)
        return true
    }

    /// A technical foul on a player or coach; the other team shoots one and play resumes as it was.
    mutating func technicalFoul() {
        let side: TeamSide = rng.chance(0.5) ? .home : .away
        let player: Int? = rng.chance(0.25) ? nil : pickPlayer(side, weights: { _ in 1 })
        let keep = (possession, start, shotClock)
        registerFoul(side, player, .technical)
        let shooter = bestFreeThrowShooter(side.opponent)
        freeThrows(side.opponent, shooter, count: 1, kind: .technical)
        (possession, start, shotClock) = keep
    }

    // MARK: - Score corrections

    /// Once the planned moment has passed, the next made basket gets reviewed at the following
    /// stoppage: a two upgraded to a three, a three downgraded, or the basket waved off.
    mutating func planCorrection(after side: TeamSide, points made: Int, feet: Int) {
        guard let plan = correctionPlan, pendingCorrection == nil,
            period > plan.period || (period == plan.period && clock <= plan.clock)
        else { return }
        correctionPlan = nil
        if made == 2 && feet >= 16 && rng.chance(0.7) {
            pendingCorrection = PendingCorrection(
                team: side, points: 1, review: "Two or Three Point Review",
                reason: "2PT field goal upgraded to 3PT after review")
        } else if made == 3 && rng.chance(0.5) {
            pendingCorrection = PendingCorrection(
                team: side, points: -1, review: "Two or Three Point Review",
                reason: "3PT field goal changed to 2PT after review (foot on the line)")
        } else {
            pendingCorrection = PendingCorrection(
                team: side, points: -made, review: "Shot Clock Review",
                reason: "basket waved off after review (shot clock violation)")
        }
    }

    /// The officials review the pending basket and the scorer corrects the score.
    mutating func review() {
        guard let pending = pendingCorrection else { return }
        pendingCorrection = nil
        waitWall(45...110)
        emit(.replay(ruling: "overturned", challenge: false), team: pending.team,
             description: "Instant Replay: \(pending.review), Ruling Overturned")
        waitWall(0...3)
        score[Self.index(pending.team)] += pending.points
        let signed = pending.points > 0 ? "+\(pending.points)" : "\(pending.points)"
        emit(.correction(points: pending.points), team: pending.team,
             description: "Score correction \(teamName(pending.team)) \(signed): \(pending.reason)")
    }
}

import ScoreFeedModel

/// Who is on the floor, who takes the shot, grabs the rebound, commits the foul, and who comes
/// off the bench.
extension GameSimulation {
    /// 0 for home, 1 for away: the index of per-team state.
    static func index(_ side: TeamSide) -> Int { side == .home ? 0 : 1 }

    func name(_ side: TeamSide, _ slot: Int) -> String {
        names[Self.index(side)][slot]
    }

    /// The team's nickname, "Kings".
    func teamName(_ side: TeamSide) -> String {
        teamNames[Self.index(side)]
    }

    // MARK: - Positions and tendencies

    /// 0 point guard, 1 shooting guard, 2 small forward, 3 power forward, 4 center. Slots 0–4
    /// start, 5–9 back them up in the same order, 10–12 are a guard, a forward and a center.
    static func position(_ slot: Int) -> Int {
        slot < 10 ? slot % 5 : [1, 3, 4][slot - 10]
    }

    /// How much of the offense runs through a player: starters most, end of bench least.
    static func usageWeight(_ slot: Int) -> Double {
        [1.7, 1.35, 1.2, 1.0, 1.0, 0.95, 0.85, 0.8, 0.7, 0.65, 0.5, 0.45, 0.45][slot]
    }

    static func reboundWeight(_ slot: Int) -> Double { [0.6, 0.7, 1.0, 1.5, 2.1][position(slot)] }
    static func foulWeight(_ slot: Int) -> Double { [0.8, 0.9, 1.0, 1.3, 1.5][position(slot)] }
    static func stealWeight(_ slot: Int) -> Double { [1.4, 1.3, 1.1, 0.8, 0.6][position(slot)] }
    static func blockWeight(_ slot: Int) -> Double { [0.3, 0.4, 0.8, 1.5, 2.6][position(slot)] }
    /// Share of a player's shots that are threes.
    static func threeRate(_ slot: Int) -> Double { [0.47, 0.52, 0.44, 0.36, 0.14][position(slot)] }
    static func freeThrowPercentage(_ slot: Int) -> Double { [0.87, 0.84, 0.80, 0.76, 0.68][position(slot)] }

    /// A player on the floor for `side`, chosen by `weights`.
    mutating func pickPlayer(_ side: TeamSide, weights: (Int) -> Double) -> Int {
        let five = lineup[Self.index(side)]
        return five[rng.weighted(five.map(weights))]
    }

    /// The team's tallest player on the floor, who jumps at center.
    func center(_ side: TeamSide) -> Int {
        let five = lineup[Self.index(side)]
        return five.max { Self.position($0) < Self.position($1) } ?? five[0]
    }

    /// The best free-throw shooter on the floor, whom a team gets the ball to late in games.
    func bestFreeThrowShooter(_ side: TeamSide) -> Int {
        let five = lineup[Self.index(side)]
        return five.max { Self.freeThrowPercentage($0) < Self.freeThrowPercentage($1) } ?? five[0]
    }

    // MARK: - Substitutions

    /// A 20-point margin with 8:00 or less left in the 4th or later: starters come out, the end
    /// of the bench goes in.
    var garbageTime: Bool {
        period >= 4 && abs(score[0] - score[1]) >= 20 && clock <= 4800
    }

    /// The starters take the floor (start of the game, the 3rd quarter, overtimes), or the best
    /// players left when some fouled out. Not reported in the feed, as in NBA play-by-play.
    mutating func startersIn() {
        for i in 0..<2 {
            let eligible = (0..<13).filter { personalFouls[i][$0] < 6 }
            let five = Array(eligible.prefix(5))
            for slot in lineup[i] where !five.contains(slot) { since[i][slot] = elapsed }
            for slot in five where !lineup[i].contains(slot) { since[i][slot] = elapsed }
            for slot in five { stintLimit[i][slot] = rng.int(in: 3300...5400) }
            lineup[i] = five
        }
    }

    /// At a dead ball, send in fresh legs for `side`: each player past his planned stint length
    /// comes out with probability `chance`, and now and then a coach changes a lineup early.
    mutating func considerSubstitutions(_ side: TeamSide, chance: Double) {
        let i = Self.index(side)
        var done = 0
        for slot in lineup[i] where done < 3 {
            let limit = garbageTime && slot < 5 ? 0 : stintLimit[i][slot]
            if elapsed - since[i][slot] >= limit && rng.chance(chance) {
                substitute(side, out: slot)
                done += 1
            }
        }
        if done == 0 && rng.chance(chance * 0.08) { substitute(side, out: nil) }
    }

    /// One substitution for `side`; `out` forces who leaves (a player who fouled out).
    mutating func substitute(_ side: TeamSide, out forced: Int?) {
        let i = Self.index(side)
        let five = lineup[i]
        let out: Int
        if let forced {
            out = forced
        } else {
            out = five[rng.weighted(five.map { slot in
                let stint = Double(elapsed - since[i][slot]) / 600
                return 0.2 + stint * stint * (garbageTime && slot < 5 ? 6 : 1)
            })]
        }
        let bench = (0..<13).filter { !five.contains($0) && personalFouls[i][$0] < 6 }
        guard !bench.isEmpty else { return }
        let incoming = bench[rng.weighted(bench.map { slot in
            let rest = min(1, Double(elapsed - since[i][slot]) / 2400)
            let tier: Double
            switch slot {
            case 0..<5: tier = garbageTime ? 0.05 : 3
            case 5..<9: tier = 2
            case 9: tier = 1
            default: tier = garbageTime ? 3 : 0.06
            }
            // Coaches keep players in foul trouble on the bench.
            let fouls = personalFouls[i][slot]
            let trouble = fouls >= 5 ? 0.05 : fouls >= 4 && period <= 3 ? 0.2 : 1
            return tier * trouble * (0.05 + rest * rest)
        })]
        waitWall(2...6)
        lineup[i][five.firstIndex(of: out)!] = incoming
        since[i][out] = elapsed
        since[i][incoming] = elapsed
        // Starters play stints of 5½–9 minutes, the rotation 3½–6½, the end of the bench 3–6.
        stintLimit[i][incoming] = incoming < 5 ? rng.int(in: 3300...5400)
            : incoming < 10 ? rng.int(in: 2100...3900) : rng.int(in: 1800...3600)
        emit(.substitution(out: name(side, out)), team: side, player: name(side, incoming),
             description: "SUB: \(name(side, incoming)) FOR \(name(side, out))")
    }
}

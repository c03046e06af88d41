import Foundation
import ScoreFeed
import ScoreFeedModel
import Testing

@Suite("Game generator")
struct GameGeneratorTests {
    static let seeds: [UInt64] = Array(1...50)

    // MARK: - Determinism

    @Test func theRandomSequenceIsFixedForASeed() {
        // Pinned values: a change here changes every generated game and fixture.
        var rng = SeededRandom(seed: 0)
        #expect(rng.next() == 0x99EC_5F36_CB75_F2B4)
        #expect(rng.next() == 0xBF6E_1F78_4956_452A)
        var other = SeededRandom(seed: 7)
        let values = (0..<1000).map { _ in other.int(in: 3...9) }
        #expect(values.allSatisfy { (3...9).contains($0) })
        #expect(Set(values).count == 7)
    }

    @Test func theSameSeedGivesTheSameGame() {
        #expect(GameGenerator(seed: 42).generate() == GameGenerator(seed: 42).generate())
        let options = GameGenerator.Options(requirements: [.overtime, .scoreCorrection])
        #expect(GameGenerator(seed: 9, options: options).generate() == GameGenerator(seed: 9, options: options).generate())
    }

    @Test func differentSeedsGiveDifferentGames() {
        let a = GameGenerator(seed: 1).generate()
        let b = GameGenerator(seed: 2).generate()
        #expect(a.events != b.events)
        #expect(a.attributes.gameId != b.attributes.gameId)
    }

    // MARK: - Every game is a valid, complete game

    @Test(arguments: seeds)
    func everyEventIsAcceptedAndFoldsToTheFinalScore(seed: UInt64) {
        let game = GameGenerator(seed: seed).generate()
        expectCompleteValidGame(game)
    }

    @Test(arguments: seeds)
    func overtimeRequirementGivesATieAfterRegulation(seed: UInt64) {
        let game = GameGenerator(seed: seed, options: .init(requirements: [.overtime])).generate()
        expectCompleteValidGame(game)
        #expect(game.periods >= 5)
        let regulation = game.scoreAfterRegulation
        #expect(regulation.home == regulation.away)
        #expect(game.events.contains { $0.period == 5 && $0.kind == .periodStart && $0.clock == 300 })
    }

    @Test(arguments: seeds)
    func onePointRequirementGivesAOnePointMargin(seed: UInt64) {
        let game = GameGenerator(seed: seed, options: .init(requirements: [.onePointMargin])).generate()
        expectCompleteValidGame(game)
        #expect(abs(game.finalScore.home - game.finalScore.away) == 1)
    }

    @Test(arguments: seeds)
    func correctionRequirementContainsACorrection(seed: UInt64) {
        let game = GameGenerator(seed: seed, options: .init(requirements: [.scoreCorrection])).generate()
        expectCompleteValidGame(game)
        #expect(game.events.contains { if case .correction = $0.kind { true } else { false } })
    }

    @Test(arguments: [UInt64(3), 11, 27])
    func requirementsCombine(seed: UInt64) {
        let all = Set(GameGenerator.Requirement.allCases)
        let game = GameGenerator(seed: seed, options: .init(requirements: all)).generate()
        expectCompleteValidGame(game)
        for requirement in all { #expect(requirement.isSatisfied(by: game), "\(requirement)") }
    }

    // MARK: - Options and defaults

    @Test func defaultsComeFromTheSeed() throws {
        let game = GameGenerator(seed: 7).generate()
        #expect(game.attributes.gameId == "SF00000007")
        #expect(game.attributes.league == "NBA")
        #expect(game.attributes.home != game.attributes.away)
        #expect(NBATeams.all.contains(game.attributes.home) && NBATeams.all.contains(game.attributes.away))
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: game.scheduledStart)
        #expect(year.year == 2025 || (year.year == 2026 && year.month == 1 && year.day == 1))
        let tip = try #require(game.events.first).time.timeIntervalSince(game.scheduledStart)
        #expect((5 * 60...15 * 60).contains(tip))
    }

    @Test func optionsAreUsed() throws {
        let dallas = try #require(NBATeams.team(tricode: "DAL"))
        let kings = try #require(NBATeams.team(tricode: "sac"))
        #expect(dallas.id == "1610612742")
        let start = Date(timeIntervalSince1970: 1_740_000_000)
        let game = GameGenerator(
            seed: 5, options: .init(home: dallas, away: kings, gameId: "0022400762", scheduledStart: start)
        ).generate()
        #expect(game.attributes.home == dallas)
        #expect(game.attributes.away == kings)
        #expect(game.attributes.gameId == "0022400762")
        #expect(game.scheduledStart == start)
        let onlyHome = GameGenerator(seed: 5, options: .init(home: kings)).generate().attributes
        #expect(onlyHome.home == kings && onlyHome.away != kings)
    }

    @Test func thirtyTeamsWithDistinctRosters() {
        #expect(NBATeams.all.count == 30)
        #expect(Set(NBATeams.all.map(\.tricode)).count == 30)
        #expect(NBATeams.all.allSatisfy { $0.primaryColor.count == 7 && $0.primaryColor.hasPrefix("#") })
        for team in NBATeams.all {
            let roster = NBATeams.roster(for: team)
            #expect(roster.count == 13)
            #expect(Set(roster).count == 13)
            #expect(roster == NBATeams.roster(for: team))
        }
    }

    // MARK: - Fixture format

    @Test(arguments: [UInt64(1), 2, 3])
    func aGeneratedGameSurvivesTheFixtureFormat(seed: UInt64) throws {
        let game = GameGenerator(seed: seed, options: .init(requirements: [.scoreCorrection])).generate()
        let document = try FixtureFormat.decode(game.fixtureData())
        #expect(document.rejected.isEmpty)
        #expect(document.attributes == game.attributes)
        #expect(document.finalScore == game.finalScore)
        #expect(document.scheduledStart == game.scheduledStart)
        #expect(document.events == game.events)
    }

    // MARK: - Hand-made edge fixtures (Fixtures/edge)

    static let edgeFixtures = [
        "and-one", "technical-free-throws", "double-overtime", "score-correction", "bonus", "rejections",
    ]

    @Test(arguments: edgeFixtures)
    func edgeFixtureFoldsToItsStatedFinal(name: String) throws {
        let run = try EdgeRun(name)
        let final = try #require(run.document.finalScore)
        #expect(FinalScore(home: run.state.homeScore, away: run.state.awayScore) == final)
        #expect(run.state.phase == .final)
        if name != "rejections" {
            #expect(run.document.rejected.isEmpty)
            #expect(run.verdicts.allSatisfy { $0 == .accept })
        }
    }

    @Test func rejectionsFixtureHasOneOfEachProblem() throws {
        let run = try EdgeRun("rejections")
        #expect(run.document.rejected.map(\.code) == [.unknownEventType, .invalidValue])
        let problems = run.verdicts.compactMap { verdict -> ScoreFeedError.Code? in
            switch verdict {
            case .accept: nil
            case .edit: ScoreFeedError.Code(rawValue: "edit")
            case .duplicate(let error), .reject(let error): error.code
            }
        }
        #expect(problems == [
            .missingTeam, .pointsOutOfRange, .clockOutOfRange, .periodBackwards, .duplicateSequence, .afterGameEnd,
        ])
    }

    @Test func bonusFixtureReachesThePenaltyBothWays() throws {
        let run = try EdgeRun("bonus")
        func state(afterSeq seq: Int) throws -> GameState {
            try #require(run.states.first { $0.seq == seq }).state
        }
        // Three personal fouls, then an offensive and a technical foul that are not team fouls.
        #expect(try state(afterSeq: 9).homeFouls == 3)
        #expect(try state(afterSeq: 9).awayInBonus == false)
        // The loose-ball foul is the 4th team foul: the next one shoots.
        #expect(try state(afterSeq: 10).homeFouls == 4)
        #expect(try state(afterSeq: 10).awayInBonus)
        // Away: one foul before 2:00, one in the last 2:00 (no shots), then the penalty.
        #expect(try state(afterSeq: 14).awayFouls == 1 && state(afterSeq: 14).homeInBonus == false)
        #expect(try state(afterSeq: 15).homeInBonus)
        // A new quarter resets team fouls.
        #expect(try state(afterSeq: 21).homeFouls == 0 && state(afterSeq: 21).awayInBonus == false)
    }

    @Test func technicalFoulsAreNotTeamFouls() throws {
        let run = try EdgeRun("technical-free-throws")
        #expect(run.state.homeFouls == 0 && run.state.awayFouls == 0)
    }

    @Test func doubleOvertimeFixtureIsTiedTwice() throws {
        let run = try EdgeRun("double-overtime")
        let ends = run.states.filter { $0.event.kind == .periodEnd }.map(\.state)
        #expect(ends.map(\.period) == [1, 2, 3, 4, 5, 6])
        #expect(ends[3].homeScore == ends[3].awayScore)
        #expect(ends[4].homeScore == ends[4].awayScore)
        #expect(ends[5].homeScore != ends[5].awayScore)
    }

    /// An edge fixture read, validated and folded.
    private struct EdgeRun {
        var document: FeedDocument
        var verdicts: [EventValidator.Verdict] = []
        /// The state after each accepted event.
        var states: [(seq: Int, event: GameEvent, state: GameState)] = []
        var state: GameState { states.last?.state ?? GameState() }

        init(_ name: String) throws {
            let url = Make.fixtures.appendingPathComponent("edge/\(name).json")
            document = try FixtureFormat.decode(try Data(contentsOf: url), file: url.lastPathComponent)
            var validator = EventValidator()
            var board = Scoreboard()
            for (index, event) in zip(document.positions, document.events) {
                let verdict = validator.check(event, index: index)
                verdicts.append(verdict)
                guard verdict == .accept else { continue }
                board.apply(event)
                states.append((event.seq, event, board.state))
            }
        }
    }

    // MARK: - Helpers

    /// The properties every generated game must have.
    private func expectCompleteValidGame(_ game: GeneratedGame, sourceLocation: SourceLocation = #_sourceLocation) {
        var validator = EventValidator()
        var board = Scoreboard()
        var previous: GameEvent?
        var periodsStarted: [Int] = []
        var periodsEnded: [Int] = []
        for (index, event) in game.events.enumerated() {
            let verdict = validator.check(event, index: index)
            #expect(verdict == .accept, "event \(index): \(verdict)", sourceLocation: sourceLocation)
            if case .timeout(let kind) = event.kind, kind != .official, let team = event.team {
                // A team never calls a timeout it does not have (NBA limits as the fold keeps them).
                let left = team == .home ? board.state.homeTimeouts : board.state.awayTimeouts
                #expect(left > 0, "timeout without one left at event \(index)", sourceLocation: sourceLocation)
            }
            board.apply(event)
            if let previous {
                #expect(event.seq > previous.seq, sourceLocation: sourceLocation)
                #expect(event.time >= previous.time, sourceLocation: sourceLocation)
                if event.period == previous.period {
                    #expect(event.clock <= previous.clock, "clock ran backwards at \(index)", sourceLocation: sourceLocation)
                }
            }
            if event.kind == .periodStart { periodsStarted.append(event.period) }
            if event.kind == .periodEnd { periodsEnded.append(event.period) }
            previous = event
        }
        #expect(FinalScore(home: board.state.homeScore, away: board.state.awayScore) == game.finalScore,
                sourceLocation: sourceLocation)
        #expect(board.state.phase == .final, sourceLocation: sourceLocation)
        // 450–650 events for a regulation game; each overtime adds its five minutes' worth.
        let overtimes = game.periods - 4
        #expect((450...650 + 70 * overtimes).contains(game.events.count), "\(game.events.count) events, \(overtimes) OT",
                sourceLocation: sourceLocation)
        #expect(game.events.last?.kind == .gameEnd, sourceLocation: sourceLocation)
        #expect(game.events.dropLast().last?.kind == .periodEnd, sourceLocation: sourceLocation)
        #expect(periodsStarted == Array(1...game.periods), sourceLocation: sourceLocation)
        #expect(periodsEnded == Array(1...game.periods), sourceLocation: sourceLocation)
        #expect(game.finalScore.home != game.finalScore.away, sourceLocation: sourceLocation)
        #expect((70...170).contains(game.finalScore.home) && (70...170).contains(game.finalScore.away),
                sourceLocation: sourceLocation)
    }
}

import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

/// The real games in `../shared/nba-pbp` (beside the project on developer machines and in CI,
/// absent from a fresh clone: these tests are then disabled with that reason). Every check here
/// compares ScoreFeed with the file itself, read independently with `JSONSerialization`.
@Suite("Real NBA play-by-play: exact scores on every action", .enabled(if: NBAFiles.available, NBAFiles.absentReason))
struct NBAFormatRealGameTests {
    @Test func theFolderHoldsEightGamesInThreeFormats() throws {
        #expect(NBAFiles.games.count >= 8)
        let formats = try Set(NBAFiles.games.map { try FeedReader.read(path: NBAFiles.path($0)).format })
        #expect(formats == [.liveData, .statsV2, .playByPlayV3])
    }

    @Test(arguments: NBAFiles.games)
    func foldMatchesTheFeedOnEveryAction(file: String) throws {
        let document = try FeedReader.read(path: NBAFiles.path(file))
        let oracle = try NBAFiles.oracle(file)
        #expect(document.discrepancies.count == 0, "\(document.discrepancies.first?.description ?? "")")
        #expect(document.rejected.isEmpty, "\(document.rejected.first?.description ?? "")")
        #expect(document.warnings.isEmpty, "every type in the real files is mapped: \(document.warnings.first?.description ?? "")")
        #expect(!document.events.contains { if case .correction = $0.kind { true } else { false } })
        // Independently: after each action that states a score, the fold shows that score.
        var board = Scoreboard()
        var validator = EventValidator()
        var foldAt: [Int: FinalScore] = [:]
        for (index, event) in document.events.enumerated() {
            guard case .accept = validator.check(event, index: index) else { continue }
            board.apply(event)
            foldAt[event.seq] = FinalScore(home: board.state.homeScore, away: board.state.awayScore)
        }
        var checked = 0
        for entry in oracle.scores {
            guard let fold = foldAt[entry.seq] else {
                Issue.record("\(file): action \(entry.seq) with score \(entry.score) is missing from the document")
                continue
            }
            #expect(fold == entry.score, "\(file): action \(entry.seq)")
            checked += 1
        }
        #expect(checked >= 100)
    }

    @Test(arguments: NBAFiles.games)
    func finalEqualsTheBoxscoreAndScoreChangesEqualTheFeeds(file: String) throws {
        let document = try FeedReader.read(path: NBAFiles.path(file))
        let oracle = try NBAFiles.oracle(file)
        #expect(document.finalScore == oracle.final)
        let events = document.events
        #expect(events.last?.kind == .gameEnd)
        var board = Scoreboard()
        var foldChanges = 0
        for event in events {
            let before = (board.state.homeScore, board.state.awayScore)
            board.apply(event)
            if before != (board.state.homeScore, board.state.awayScore) { foldChanges += 1 }
        }
        #expect(FinalScore(home: board.state.homeScore, away: board.state.awayScore) == oracle.final)
        var feedChanges = 0
        var last = FinalScore(home: 0, away: 0)
        for entry in oracle.scores where entry.score != last {
            feedChanges += 1
            last = entry.score
        }
        #expect(foldChanges == feedChanges)
        #expect(feedChanges >= 80)
    }

    @Test(arguments: NBAFiles.games)
    func everyPushShowsAScoreTheFeedHadByItsSourceTime(file: String) async throws {
        let document = try FeedReader.read(path: NBAFiles.path(file))
        let oracle = try NBAFiles.oracle(file)
        let records = try await NBAFiles.replay(document)
        try NBAFiles.expectContract(records, file: file)
        // Feed times: liveData's own timeActual; for v2 and v3 (no exact clock) ScoreFeed's estimates.
        let eventTime = Dictionary(document.events.map { ($0.seq, $0.time.timeIntervalSince1970) }, uniquingKeysWith: min)
        let history = oracle.scores.compactMap { entry -> (time: Double, score: FinalScore)? in
            guard let time = entry.time ?? eventTime[entry.seq] else { return nil }
            return (time, entry.score)
        }
        for record in records {
            let shown = FinalScore(home: record.state.homeScore, away: record.state.awayScore)
            let source = try #require(record.sourceTime).timeIntervalSince1970
            let had = shown == FinalScore(home: 0, away: 0) || history.contains { $0.time <= source && $0.score == shown }
            #expect(had, "\(file): push \(record.seq) shows \(shown), which the feed never had by \(source)")
        }
        let end = try #require(records.last)
        #expect(end.event == .end)
        #expect(FinalScore(home: end.state.homeScore, away: end.state.awayScore) == oracle.final)
        #expect(end.state.phase == .final)
    }

    @Test(arguments: NBAFiles.games)
    func theImportedFixtureReplaysToTheSamePushes(file: String) async throws {
        let document = try FeedReader.read(path: NBAFiles.path(file))
        let fixture = FixtureFormat.encode(
            attributes: document.attributes, events: document.events, finalScore: document.finalScore,
            scheduledStart: document.scheduledStart)
        let imported = try FeedReader.decode(fixture, file: "imported.json")
        #expect(imported.format == .fixture)
        #expect(imported.events == document.events)
        #expect(imported.finalScore == document.finalScore)
        let original = try await NBAFiles.replay(document)
        let again = try await NBAFiles.replay(imported)
        #expect(original.map { $0.jsonLine() } == again.map { $0.jsonLine() })
    }

    /// Companion files alone are not games: the error says what the file is and what to use.
    @Test(arguments: NBAFiles.companions)
    func aCompanionFileAloneIsAClearError(file: String) throws {
        do {
            _ = try FeedReader.read(path: NBAFiles.path(file))
            Issue.record("\(file) read as a game")
        } catch {
            #expect(error.code == .unknownFormat)
            let id = try #require(NBAFiles.gameId(in: file))
            let instead = file.hasPrefix("boxscore_") ? "playbyplay_\(id).json" : "stats_\(id).json"
            #expect(error.message.contains(instead), "\(error)")
            #expect(error.message.contains(file.hasPrefix("boxscore_") ? "boxscore" : "summary"))
            #expect(error.location.file?.hasSuffix(file) == true)
        }
    }

    /// Truncated downloads: every prefix is a clear error (or, at the very end, the game), never a crash.
    @Test(arguments: NBAFiles.games)
    func truncatedPrefixesNeverCrash(file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file)))
        var cuts = Set([0, 1, 2, 10, 100, 1000, 4096, data.count / 2, data.count - 2, data.count - 1])
        for k in 1..<40 { cuts.insert(data.count * k / 40) }
        for cut in cuts.sorted() where cut < data.count {
            let prefix = data.prefix(cut)
            do {
                let document = try FeedReader.decode(prefix, file: "cut.json")
                #expect(cut >= data.count - 2, "a prefix of \(cut) of \(data.count) bytes decoded as \(document.format)")
            } catch {
                #expect(error.code == .malformedJSON || error.code == .missingField, "cut at \(cut): \(error)")
                #expect(error.location.file == "cut.json")
            }
        }
    }

    @Test func v2TimesAreOnTheSummarysDateInEasternTime() throws {
        let file = try #require(NBAFiles.games.first { $0.hasPrefix("stats_0021900001") })
        let document = try FeedReader.read(path: NBAFiles.path(file))
        // NOP at TOR, 2019-10-22, tip-off row "8:04 PM" Eastern daylight time = 00:04 UTC on the 23rd.
        let first = try #require(document.events.first)
        #expect(first.time == Date(timeIntervalSince1970: 1_571_789_040))
        let times = document.events.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        let span = try #require(times.last).timeIntervalSince(first.time)
        #expect(span > 2.5 * 3600 && span < 3.0 * 3600, "the last row says 10:54 PM")
    }
}

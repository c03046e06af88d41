import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// `stream | serve --clock feed --mode broadcast` on every real game in ../shared/nba-pbp, through
/// the built executable: with each game's channel in its header, and with ScoreFeed creating and
/// deleting the channels behind the webhook (the APNs test server). Every push's payload bytes
/// are token mode's for the same game.
@Suite(
    "serve in broadcast mode on the real games", .serialized, .timeLimit(.minutes(1)),
    .enabled(if: NBAFiles.available, NBAFiles.absentReason),
    .enabled(if: ScoreFeedProcess.available, ScoreFeedProcess.absentReason),
    .enabled(if: APNsTestServer.available, APNsTestServer.absentReason))
struct BroadcastServeTests {
    /// Every game, as `scorefeed stream` writes them, and each one's final.
    static let games: (documents: [FeedDocument], finals: [String: FinalScore])? = {
        guard NBAFiles.available, let documents = try? NBAFiles.games.map(RealFeedServeTests.imported) else { return nil }
        var finals: [String: FinalScore] = [:]
        for (file, document) in zip(NBAFiles.games, documents) {
            finals[document.attributes.gameId] = (try? NBAFiles.oracle(file).final) ?? document.finalScore
        }
        return (documents, finals)
    }()

    /// A header channel for `game` that no other game has.
    static func channel(of game: String) -> String { Data("backend-\(game)".utf8).base64EncodedString() }

    /// Runs `scorefeed serve --clock feed` (or `clock`) with `lines` on stdin; returns its stdout
    /// lines and stderr.
    static func serve(_ lines: [Data], _ arguments: [String], clock: String = "feed") async throws -> (lines: [String], stderr: String, status: Int32) {
        try await OffPool.run { try serveOnThisThread(lines, arguments, clock: clock) }
    }

    /// ``serve(_:_:clock:)`` waiting on the calling thread: for a value made once, where nothing
    /// can await.
    static func serveOnThisThread(_ lines: [Data], _ arguments: [String], clock: String = "feed") throws -> (lines: [String], stderr: String, status: Int32) {
        let folder = try ScoreFeedProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jsonl"), output = folder.appendingPathComponent("out.jsonl")
        let errors = folder.appendingPathComponent("err.txt")
        try Data(lines.map { $0 + Data([0x0A]) }.joined()).write(to: input)
        try Data().write(to: output)
        try Data().write(to: errors)
        let process = Process()
        process.executableURL = ScoreFeedProcess.executable
        process.arguments = ["serve", "--clock", clock, "--bundle-id", "com.acme"] + arguments
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        return (text.split(separator: "\n").map(String.init), String(decoding: try Data(contentsOf: errors), as: UTF8.self), process.terminationStatus)
    }

    /// Token mode's payloads, game by game (at broadcast's 1 s least interval: the same policy).
    static let tokenPayloads: [String: [String]]? = {
        guard let games, ScoreFeedProcess.executable != nil,
              let run = try? serveOnThisThread(RealFeedServeTests.stream(games.documents), ["--min-interval", "1"]) else { return nil }
        return BroadcastAudit.payloads(inLines: run.lines)
    }()

    @Test func headerChannelsCarryEveryPushOfTheirGameAndNoOther() async throws {
        let games = try #require(Self.games)
        let lines = games.documents.map { StreamLine.headerLine($0.attributes, channel: Self.channel(of: $0.attributes.gameId)) }
            + RealFeedServeTests.stream(games.documents).dropFirst(games.documents.count)
        let run = try await Self.serve(lines, ["--mode", "broadcast"])
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        #expect(!run.lines.contains { $0.hasPrefix("{\"kind\":\"channel\"") }, "the backend's channels are neither created nor deleted")
        var ends: [String: FinalScore] = [:]
        for line in run.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let game = try #require(object["game"] as? String)
            let headers = (object["request"] as? [String: Any])?["headers"] as? [String: String]
            #expect(headers?["apns-channel-id"] == Self.channel(of: game), "\(game)'s pushes on its own channel")
            #expect(headers?["apns-expiration"] == "0")
            if object["event"] as? String == "end" { ends[game] = try BroadcastAudit.score(inRecord: line) }
        }
        #expect(ends == games.finals, "every game ends with its exact final")
        #expect(BroadcastAudit.payloads(inLines: run.lines) == Self.tokenPayloads, "payload bytes as in token mode")
    }

    @Test func managedChannelsAreMadeUsedAndDeletedOnePerGame() async throws {
        let games = try #require(Self.games)
        let server = try APNsTestServer()
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try await Self.serve(
            RealFeedServeTests.stream(games.documents),
            ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "0", "--webhook", server.url.absoluteString,
             "--state-dir", state.path])
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        let audit = try await BroadcastAudit(server)
        try audit.check(finals: games.finals, oneChannel: true)
        #expect(audit.payloads == Self.tokenPayloads, "payload bytes as in token mode")
        #expect(run.lines.filter { $0.hasPrefix("{\"kind\":\"channel\",\"action\":\"create\"") }.count == games.documents.count)
        let directory = try ChannelDirectory.decode(
            Data(contentsOf: state.appendingPathComponent(ChannelDirectory.fileName)), file: ChannelDirectory.fileName)
        #expect(directory.games.count == games.documents.count && directory.games.values.allSatisfy { $0.state == "deleted" })
        #expect(run.stderr.contains("broadcast channel") && run.stderr.contains("deleted"))
        // Figures for the closing note, not assertions.
        let broadcasts = audit.requests.filter { $0.kind == .broadcast }
        print("broadcast figures: \(games.documents.count) games, \(audit.state.created.count) channels made, \(broadcasts.count) broadcasts (\(broadcasts.filter { $0.status == 200 }.count) accepted), \(audit.state.deleted.count) deleted, \(audit.state.open.count) open at exit, payloads equal token mode's: \(audit.payloads == Self.tokenPayloads)")
    }

    /// On the system clock, the webhook goes down for 3 s as the first end comes: each game's end
    /// waits in the webhook's sink and goes once it is back, and each channel lingers its 2 s from
    /// the end's delivery, not from its hand-over to the sink (which would delete it at once after
    /// the delivery). The whole of each game arrives at once, so its end is its first broadcast.
    @Test func aWebhookDownAcrossTheFinalsEndsEachGameAndItsChannelLingersFromTheDelivery() async throws {
        let games = try #require(Self.games)
        let two = Array(games.documents.prefix(2))
        let server = try APNsTestServer(downAfterEnd: 3)
        let linger: Double = 2
        let run = try await Self.serve(
            RealFeedServeTests.stream(two),
            ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "2", "--webhook", server.url.absoluteString], clock: "system")
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        let audit = try await BroadcastAudit(server)
        try audit.check(finals: games.finals.filter { id, _ in two.contains { $0.attributes.gameId == id } }, oneChannel: true)
        #expect(audit.requests.contains { $0.action == "down" && $0.event == "end" }, "the webhook was down as an end came")
        for game in two.map(\.attributes.gameId) {
            let ends = audit.requests.filter { $0.kind == .broadcast && $0.game == game && $0.event == "end" && $0.status == 200 }
            let delivered = try #require(ends.compactMap(\.t).max(), "\(game)'s end was delivered")
            let deleted = try #require(audit.requests.first { $0.kind == .delete && $0.game == game && $0.status == 200 }?.t, "\(game)'s channel was deleted")
            #expect(deleted - delivered >= linger, "\(game)'s channel went \(deleted - delivered) s after its end was delivered, not \(linger) s")
        }
    }

    @Test func aFailingChannelServiceHoldsTheGameAndItStillEndsOnItsOwnChannel() async throws {
        let games = try #require(Self.games)
        let two = Array(games.documents.prefix(2))
        // Creates: 503, 429 with Retry-After, a 2xx without the id; then APNs answers.
        let server = try APNsTestServer(script: ["503", "429:1", "noid"], faultOn: [.create, .delete])
        let run = try await Self.serve(
            RealFeedServeTests.stream(two),
            ["--mode", "broadcast", "--channels", "manage", "--channel-linger", "0", "--webhook", server.url.absoluteString,
             "--delete-unknown-channels"])
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        let audit = try await BroadcastAudit(server)
        try audit.check(finals: games.finals.filter { id, _ in two.contains { $0.attributes.gameId == id } }, oneChannel: false)
        #expect(audit.requests.filter { $0.kind == .create }.count == two.count + 3, "the create was retried after 503, 429 and a 2xx without an id")
        #expect(audit.madeTwice.count == 1, "the answer without an id made a channel ScoreFeed never learned")
        #expect(run.stderr.contains("no game owned"), "which the run deletes at its end: \(run.stderr.suffix(300))")
    }
}

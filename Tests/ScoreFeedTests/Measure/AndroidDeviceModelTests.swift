import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The Android device model (FCM's collapsible bucket, Doze's delay for NORMAL, the per-device
/// caps) and the Android policy measured under it.
@Suite("Android device model and the Android policy")
struct AndroidDeviceModelTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func sent(_ second: Double, priority: Int = 10, collapsible: Bool = false, home: Int) -> DeviceModel.Sent {
        let time = t0.addingTimeInterval(second)
        return DeviceModel.Sent(
            sentAt: time, priority: priority, timestamp: Int(second * 1000), score: FinalScore(home: home, away: 0),
            sourceTime: time, isEnd: false, collapsible: collapsible)
    }

    /// Delivery times of the shown messages, as seconds after t0, by score.
    static func shown(_ model: AndroidDeviceModel, _ pushes: [DeviceModel.Sent]) -> [(second: Double, home: Int)] {
        model.screen(pushes).map { ($0.time.timeIntervalSince(t0), $0.push.score.home) }
    }

    @Test func highIsAtOnceAndNormalWaitsForDoze() {
        let model = AndroidDeviceModel(normalDelay: 300)
        let result = Self.shown(model, [Self.sent(0, home: 1), Self.sent(10, priority: 5, home: 2), Self.sent(20, home: 3)])
        // The NORMAL one arrives at 310 s, older than what shows by then: ignored.
        #expect(result.map(\.second) == [0, 20] && result.map(\.home) == [1, 3])
    }

    @Test func collapsibleMessagesWaitForTheBucketAndANewerOneReplacesTheOneWaiting() {
        let model = AndroidDeviceModel(burst: 2, refill: 180)
        let pushes = (0..<5).map { Self.sent(Double($0), collapsible: true, home: $0 + 1) }
        let result = Self.shown(model, pushes)
        // Two at once; the third, fourth and fifth wait, each replacing the one before; the
        // fifth goes when a token is back: one every 180 s from the first spent (at 0 s).
        #expect(result.map(\.home) == [1, 2, 5])
        #expect(result.map(\.second) == [0, 1, 180])
        // Non-collapsible messages never wait.
        #expect(Self.shown(model, (0..<5).map { Self.sent(Double($0), home: $0 + 1) }).map(\.second) == [0, 1, 2, 3, 4])
    }

    @Test func pastTheCapsMessagesAreDropped() {
        let model = AndroidDeviceModel(perMinute: 3, perHour: 5)
        let pushes = (0..<10).map { Self.sent(Double($0) * 10, home: $0 + 1) }
        #expect(Self.shown(model, pushes).map(\.home) == [1, 2, 3, 7, 8])
    }

    /// The figure: under the model, the engine's median wrong-screen share is within 0.5 %
    /// of game time of the better of HIGH on every change with and without a collapse key, and
    /// its final is on the screen within 5 s of being sent on every game (never behind the
    /// bucket), on every real game and 20 generated ones.
    @Test func theEngineIsAsFreshAsTheBetterBaselineAndItsFinalIsNeverHeld() async throws {
        var documents = (1...20).map { GameGenerator(seed: UInt64($0)).generate().document }
        if NBAFiles.available { documents += try NBAFiles.games.map { try FeedReader.read(path: NBAFiles.path($0)) } }
        var engine: [Double] = [], best: [Double] = []
        for document in documents {
            let records = try await AndroidRecordTests.replay(document, .token)
            let report = AndroidFreshnessReport(game: document.attributes.gameId, records: records, timeline: ScoreTimeline(events: document.events))
            engine.append(report.engine.wrongShare)
            best.append(report.bestBaseline.wrongShare)
            let final = try #require(report.engine.finalLag, "\(document.attributes.gameId): the final is shown")
            #expect(final <= 5, "\(document.attributes.gameId): the final \(final) s after it was sent")
            #expect(report.rows[2].wrongShare > report.rows[1].wrongShare, "the bucket holds the collapsible sender back")
        }
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        #expect(median(engine) <= median(best) + 0.005, "engine \(median(engine)) against \(median(best))")
    }

    /// A record's collapsibility, as the device model reads it, is the renderer's rule: a NORMAL
    /// update has a collapse key, nothing else.
    @Test func theModelReadsACollapseKeyWhereTheRendererPutsOne() async throws {
        let records = try await AndroidRecordTests.replay(GameGenerator(seed: 3).generate().document, .token)
        #expect(records.contains { $0.priority == 5 })
        for record in records {
            #expect(DeviceModel.Sent(record).collapsible == (record.priority == 5 && record.event == .update))
        }
    }
}

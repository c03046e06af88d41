import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// `aps.timestamp` across a failover: an activity with no earlier timestamp starts
/// ``PushRenderer/Configuration/headStart`` seconds ahead of its send second, so an instance that
/// replaces a lost one is never below what the lost one could have sent by the same wall time;
/// the lead a run takes over the clock (its bursts) stays far below the head start.
@Suite("aps.timestamp: a head start for a game new to the instance")
struct TimestampHeadStartTests {
    static let base = Int(Make.start.timeIntervalSince1970)

    /// Stamps of pushes rendered at `times` (seconds after ``Make/start``) by a renderer with
    /// `headStart` that resumes after `last` (0: no earlier timestamp).
    static func stamps(headStart: Int?, last: Int, at times: [Double]) -> [Int] {
        stamps(headStart: headStart, last: last, at: times.map { Make.start.addingTimeInterval($0) })
    }

    static func stamps(headStart: Int?, last: Int, at times: [Date], mode: PushRenderer.Mode = .token) -> [Int] {
        var configuration = PushRenderer.Configuration(mode: mode)
        configuration.headStart = headStart
        var renderer = PushRenderer(attributes: Make.attributes, configuration: configuration)
        if last != 0 { renderer.resume(seq: 9, lastTimestamp: last, startPending: false) }
        return times.map { at in
            let outputs = renderer.outputs(
                for: Push(event: .update, priority: 5, reason: "score"), state: Make.live, diff: Diff(), coalesced: 1,
                sentAt: at, sourceTime: nil)
            guard case .push(let record) = outputs.first else { return -1 }
            return record.timestamp
        }
    }

    /// (head start, the earlier timestamp as an offset from the start second or nil for none,
    /// send times) → stamps as offsets from the start second.
    @Test(arguments: [
        (nil, nil, [0.5, 0.6, 3.0], [0, 1, 3]),  // replay, the feed clock: as before
        (60, nil, [0.5], [60]),  // new to this instance: ahead by the head start
        (60, nil, [0.5, 0.6, 10, 70, 200], [60, 61, 62, 70, 200]),  // then like any lead, melting
        (60, 3, [0.5, 0.6], [4, 5]),  // numbering known (a checkpoint): no head start
        (60, -100, [0.5], [0]),  // a known timestamp far behind: the clock
        (nil, 3, [0.5], [4]),
    ] as [(Int?, Int?, [Double], [Int])])
    func theRule(_ headStart: Int?, _ last: Int?, _ times: [Double], _ expected: [Int]) {
        let stamps = Self.stamps(headStart: headStart, last: last.map { Self.base + $0 } ?? 0, at: times)
        #expect(stamps.map { $0 - Self.base } == expected)
    }

    @Test func aServiceOnTheSystemClockGivesTheHeadStartAndTheFeedClockDoesNot() async throws {
        let system = try GameService(options: .init(clock: .system), sink: RecordingSink())
        #expect(system.options.renderer.headStart == PushRenderer.Configuration.failoverHeadStart)
        var chosen = PushRenderer.Configuration()
        chosen.headStart = 5
        let given = try GameService(options: .init(clock: .system, renderer: chosen), sink: RecordingSink())
        #expect(given.options.renderer.headStart == 5)
        let feed = try GameService(options: .init(clock: .feed), sink: RecordingSink())
        #expect(feed.options.renderer.headStart == nil, "serve --clock feed is replay")
    }

    @Test func theHeadStartIsKeptInTheCheckpointAndAnOldOneHasNone() throws {
        var configuration = PushRenderer.Configuration()
        configuration.headStart = 60
        let again = try JSONDecoder().decode(PushRenderer.Configuration.self, from: JSONEncoder().encode(configuration))
        #expect(again.headStart == 60)
        let snapshot = try Data(contentsOf: CheckpointTests.golden.appendingPathComponent("checkpoint-format4.json"))
        #expect(try GameSession.read(snapshot, file: "checkpoint-format4.json").renderer.configuration.headStart == nil)
    }

    // MARK: - Leads on recorded games

    /// Every fixture (and every real game in ../shared/nba-pbp, when it is there), replayed in
    /// token mode, with push-to-start, and in broadcast mode.
    static func replays(headStart: Int? = nil) async throws -> [(name: String, records: [PushRecord])] {
        var documents = try Make.fixtureFiles().map { ($0, try FeedReader.read(path: Make.fixtures.appendingPathComponent($0).path)) }
        if NBAFiles.available {
            documents += NBAFiles.games.compactMap { file in (try? FeedReader.read(path: NBAFiles.path(file))).map { (file, $0) } }
        }
        var replays: [(name: String, records: [PushRecord])] = []
        for (name, document) in documents {
            for mode in ["token", "start", "broadcast"] {
                var configuration = PushRenderer.Configuration(
                    mode: mode == "broadcast" ? .broadcast(channelId: "Y2gx") : .token, start: mode == "start")
                configuration.headStart = headStart
                let sink = RecordingSink()
                _ = try await Replay(renderer: configuration).run(document, sink: sink)
                replays.append(("\(name) \(mode)", await sink.records))
            }
        }
        return replays
    }

    static func lead(_ record: PushRecord) -> Int {
        record.timestamp - Int(record.sentAt.timeIntervalSince1970.rounded(.down))
    }

    @Test func everyRecordedLeadIsFarBelowTheHeadStart() async throws {
        var largest = (lead: 0, name: "")
        for (name, records) in try await Self.replays() {
            for record in records where Self.lead(record) > largest.lead { largest = (Self.lead(record), name) }
        }
        #expect(largest.lead < PushRenderer.Configuration.failoverHeadStart)
        // A figure for the closing note, not an assertion.
        print("largest lead of aps.timestamp over the send second: \(largest.lead) s (\(largest.name))")
    }

    /// A lost instance that had run long enough for its own head start to melt (its numbering
    /// known: lead 0) sends a burst of `burst` pushes in one second and is lost; a replacement
    /// with no numbering starts `gap` seconds later. Its first push (and so every one after) is
    /// at or above every timestamp the lost one sent as long as the burst led by no more than the
    /// head start and the gap: a catch-up (a push, its copy and a start) or a backlog rendered
    /// push by push (before arrivals were one moment: 40 pushes), not a join that rendered 86.
    @Test(arguments: [
        (3, 0.2, 0, false), (3, 0.2, 60, true),  // a catch-up, a restart within the second
        (40, 1, 0, false), (40, 1, 60, true),
        (86, 1, 60, false),  // past the head start: below by 24 s
        (86, 30, 60, true),
    ] as [(Int, Double, Int, Bool)])
    func aBurstIsCoveredByTheHeadStart(_ burst: Int, _ gap: Double, _ headStart: Int, _ neverBelow: Bool) {
        let lostAt = Make.start.addingTimeInterval(3600.5)
        let lost = Self.stamps(headStart: headStart, last: Self.base + 3000, at: Array(repeating: lostAt, count: burst))
        let first = Self.stamps(headStart: headStart, last: 0, at: [lostAt.addingTimeInterval(gap)])[0]
        #expect((first >= lost.max()!) == neverBelow, "first \(first - Self.base), lost up to \(lost.max()! - Self.base)")
    }

    /// At every moment a recorded game could have lost its instance (after each push), a
    /// replacement that starts a second later with no numbering stamps its first push, and so
    /// every one after, at or above every timestamp the lost instance sent, the lost one itself
    /// started with the head start. (Without the head start, 58 of the 6,981 moments of the
    /// fixtures and real games are below; a replacement within the same second is below at 18
    /// of them, by 1 s: the lost one's first burst.)
    @Test func aReplacementIsNeverBelowTheLostInstance() async throws {
        let headStart = PushRenderer.Configuration.failoverHeadStart
        var points = 0
        for (name, records) in try await Self.replays(headStart: headStart) {
            var highest = 0
            for record in records {
                highest = max(highest, record.timestamp)
                let restart = record.sentAt.addingTimeInterval(1)
                let first = Self.stamps(headStart: headStart, last: 0, at: [restart], mode: name.hasSuffix(" broadcast") ? .broadcast(channelId: "Y2gx") : .token)[0]
                #expect(first >= highest, "\(name): a replacement after seq \(record.seq) stamps \(first), below \(highest)")
                points += 1
            }
        }
        #expect(points > 1000)
    }
}

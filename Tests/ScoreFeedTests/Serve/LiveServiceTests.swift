import Foundation
import Synchronization
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// ``LiveService``, the loop `serve`, `poll` and an embedding service run, in process: the input,
/// then the shutdown in order (drain → the sink's last deliveries → channels settled →
/// compaction), a stop request or the output going away cutting the run, and a stop request
/// during the shutdown cutting it to the grace. Token and broadcast mode (channels managed), on
/// the feed clock and the system clock, on real games when `../shared` is present.
@Suite("LiveService: the live loop and its shutdown order")
struct LiveServiceTests {
    typealias Mode = RealFeedServeTests.Mode

    /// A recording sink that notes what it had each time it was finished. It can hold its
    /// finishing until the task is cancelled (`blocks`), or hold every game's `end` until it is
    /// finished (`holdsEnds`: a webhook that delivers only at the end, so a delete must wait).
    actor FinishWatchingSink: PushSink {
        let inner: RecordingSink
        let blocks: Bool
        let holdsEnds: Bool
        /// At each finish: the records and the channel requests it had.
        private(set) var finishes: [(records: Int, channelRequests: Int)] = []

        init(_ inner: RecordingSink, blocks: Bool = false, holdsEnds: Bool = false) {
            self.inner = inner
            self.blocks = blocks
            self.holdsEnds = holdsEnds
        }

        var recordsAtFinish: Int? { finishes.last?.records }

        func send(_ record: PushRecord) async throws { try await inner.send(record) }
        func refused(_ refusal: PushRefusal) async throws { try await inner.refused(refusal) }
        func manage(_ request: ChannelRequest) async throws -> ChannelAnswer? { try await inner.manage(request) }

        func pending(game: String) async -> Int {
            guard holdsEnds, finishes.isEmpty else { return 0 }
            return await inner.records.contains { $0.game == game && $0.event == .end } ? 1 : 0
        }

        func finish() async throws {
            finishes.append((await inner.records.count, await inner.channelRequests.count))
            guard blocks else { return }
            // Held until the shutdown is cut short.
            let never = AsyncStream<Void> { _ in }
            for await _ in never {}
            throw CancellationError()
        }
    }

    /// The games' lines as `serve` reads them, and their documents.
    static func lines() throws -> (documents: [FeedDocument], lines: [StreamLine]) {
        let documents = try GameServiceBatchTests.games()
        return (documents, GameServiceBatchTests.parsed(RealFeedServeTests.stream(documents)))
    }

    /// Whether every game in `state` is one snapshot: no journal holds anything.
    static func compacted(_ state: URL, games: [FeedDocument]) throws -> Bool {
        let store = try CheckpointStore(directory: state)
        return games.allSatisfy { document in
            let path = store.journalURL(for: document.attributes.gameId).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return size == 0 && FileManager.default.fileExists(atPath: store.url(for: document.attributes.gameId).path)
        }
    }

    @Test(arguments: Mode.withAndroidTopic)
    func theInputThenTheDrainThenTheSinkFinishedThenTheChannelsThenOneSnapshot(_ mode: Mode) async throws {
        let (documents, lines) = try Self.lines()
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let recording = mode.sink()
        let sink = FinishWatchingSink(recording)
        let service = try mode.service(clock: .feed, state: state, sink: sink)
        let outcome = await LiveService(service).run(input: {
            _ = await GameServiceBatchTests.handle(lines, in: 50, to: service)
        })

        #expect(outcome.stop == .inputEnded)
        #expect(outcome.finishFailure == nil)
        let records = await recording.records
        // The drain came before the sink was finished: every game's end had been handed to it.
        // The sink was finished last, after every record and channel request.
        let finishes = await sink.finishes
        #expect(finishes.first?.records == records.count)
        #expect(finishes.last?.channelRequests == (await recording.channelRequests.count))
        // With managed channels the channels settle again after the sink's last deliveries, and
        // the sink is finished again after them.
        #expect(finishes.count == (mode.hasChannels ? 2 : 1))
        for document in documents {
            #expect(records.last { $0.game == document.attributes.gameId }?.event == .end)
        }
        if mode.hasChannels {
            // Settled: every channel made was deleted, and nothing was left open.
            let requests = await recording.channelRequests
            #expect(requests.filter { $0.action == .create }.count == documents.count)
            #expect(requests.filter { $0.action == .delete }.count == documents.count)
            #expect(await recording.openChannels.isEmpty)
        }
        #expect(try Self.compacted(state, games: documents))
    }

    /// A sink that delivers each game's `end` only when it is finished (a webhook catching up at
    /// the end): the channels cannot be deleted during the drain, so they are deleted after the
    /// sink's last deliveries, and what that sends is finished too.
    @Test(arguments: Mode.withAndroidToken)
    func deletesThatWaitForTheSinkGoAfterItsLastDeliveriesAndAreFinishedToo(_ mode: Mode) async throws {
        let (documents, lines) = try Self.lines()
        let recording = mode.sink()
        let sink = FinishWatchingSink(recording, holdsEnds: true)
        let service = try mode.service(clock: .feed, sink: sink)
        // One second for the drain and the first settling, which the held ends outlast.
        let outcome = await LiveService(service, drainTimeout: 1).run(input: {
            _ = await GameServiceBatchTests.handle(lines, in: 100, to: service)
        })

        #expect(outcome.stop == .inputEnded && outcome.finishFailure == nil)
        let requests = await recording.channelRequests
        let finishes = await sink.finishes
        #expect(finishes.last?.records == (await recording.records.count))
        #expect(finishes.last?.channelRequests == requests.count, "the deletes and the list were finished too")
        if mode.hasChannels {
            #expect(finishes.first?.channelRequests == documents.count + 1, "the creates and one list, no delete before the ends went")
            #expect(requests.filter { $0.action == .delete }.count == documents.count)
            #expect(await recording.openChannels.isEmpty)
        } else {
            #expect(requests.isEmpty && finishes.count == 1)
        }
    }

    /// How a run on the system clock is stopped before its input ends.
    enum Stopped: String, CaseIterable, Sendable {
        case byRequest, byOutputGone
    }

    @Test(arguments: Mode.withAndroidTopic, Stopped.allCases)
    func aStopOnTheSystemClockEndsTheRunAndTheCheckpointsKeepTheRest(_ mode: Mode, _ stopped: Stopped) async throws {
        let (documents, lines) = try Self.lines()
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let recording = mode.sink()
        let sink = FinishWatchingSink(recording)
        let service = try mode.service(clock: .system, state: state, sink: sink)
        // The first half of the stream, as one arrival; then the input waits for more.
        let half = Array(lines.prefix(lines.count / 2))
        let (applied, announce) = AsyncStream<Void>.makeStream()
        var live = LiveService(service, drainTimeout: 600)
        live.stopGrace = 0
        let stop: @Sendable () async -> Void = {
            for await _ in applied { return }
        }
        let outcome = await live.run(
            input: {
                _ = await service.handle(batch: half, source: "stdin")
                announce.yield()
                let never = AsyncStream<Void> { _ in }
                for await _ in never {}
            },
            stopRequests: stopped == .byRequest ? stop : nil,
            outputGone: stopped == .byOutputGone ? stop : nil)

        #expect(outcome.stop == (stopped == .byRequest ? .requested : .outputGone))
        #expect(await sink.recordsAtFinish != nil)
        #expect(try Self.compacted(state, games: documents))
        // A new run on the state dir resumes every game where the first one stopped.
        let applying = await service.summaries().map { $0.statistics.accepted }
        let resumed = try mode.service(clock: .system, state: state, sink: mode.sink())
        let restoration = try await resumed.restore()
        #expect(restoration.resumedGames == documents.count)
        #expect(await resumed.summaries().map { $0.statistics.accepted } == applying)
        #expect(await resumed.summaries().allSatisfy { !$0.ended })
        #expect(applying.reduce(0, +) > 0)
    }

    @Test(arguments: Mode.withAndroidToken)
    func aStopDuringTheShutdownCutsItToTheGraceAndStillCompacts(_ mode: Mode) async throws {
        let (documents, lines) = try Self.lines()
        let state = RealFeedServeTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let sink = FinishWatchingSink(mode.sink(), blocks: true)
        let service = try mode.service(clock: .feed, state: state, sink: sink)
        let said = Mutex<[String]>([])
        let calls = Mutex(0)
        var live = LiveService(service, report: { line in said.withLock { $0.append(line) } })
        live.stopGrace = 0
        let outcome = await live.run(
            input: { _ = await GameServiceBatchTests.handle(lines, in: 100, to: service) },
            stopRequests: {
                // None while the input runs; one at once during the shutdown.
                if calls.withLock({ count in defer { count += 1 }; return count }) == 0 {
                    let never = AsyncStream<Void> { _ in }
                    for await _ in never {}
                }
            })

        #expect(outcome.stop == .inputEnded)
        #expect(outcome.finishFailure is CancellationError)
        #expect(said.withLock { $0 } == ["stopping: what is due goes out for 0 s more, the rest stays in the checkpoints"])
        #expect(try Self.compacted(state, games: documents))
    }
}

import Foundation
import Testing
import ScoreFeed
import ScoreFeedModel

@Suite("JSON lines: append-safe files, one line per push, error lines for refusals")
struct JSONLSinkTests {
    func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-\(UUID().uuidString).jsonl").path
    }

    @Test func appendsWholeLinesFromSeveralWritersAndNeverTruncates() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("existing line\n".utf8).write(to: URL(fileURLWithPath: path))
        // Two sinks on one file, as two processes appending to the same log would be.
        let first = try JSONLSink(path: path), second = try JSONLSink(path: path)
        let a = ResilientSinkTests.records("A", count: 40), b = ResilientSinkTests.records("B", count: 40)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for record in a { try? await first.send(record) } }
            group.addTask { for record in b { try? await second.send(record) } }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "existing line")
        #expect(lines.last == "", "every line ends with a newline")
        let records = lines.dropFirst().dropLast()
        #expect(records.count == 80)
        var seqs: [String: [Int]] = [:]
        for line in records {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            seqs[object["activity"] as? String ?? "?", default: []].append(object["seq"] as? Int ?? 0)
        }
        #expect(seqs["A"] == Array(1...40))
        #expect(seqs["B"] == Array(1...40))
    }

    @Test func refusalsAreErrorLinesAPushSenderCanTellApart() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try JSONLSink(path: path)
        let records = ResilientSinkTests.records("A", count: 2)
        try await sink.send(records[0])
        try await sink.refused(PushRefusal(
            activity: "A", game: "TEST1", event: .update, priority: 10, sentAt: Make.start, sourceTime: nil,
            reason: "score", bytes: 5000, limit: 4096, error: ScoreFeedError(.payloadTooLarge, "too big; not sent")))
        try await sink.send(records[1])
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        // What a sender does: send the lines that have a request.
        let requests = objects.filter { $0["request"] != nil }
        #expect(requests.map { $0["seq"] as? Int } == [1, 2])
        #expect(objects[1]["error"] != nil && objects[1]["seq"] is NSNull && objects[1]["payload"] == nil)
    }

    @Test(arguments: [JSONLSink.Writing.immediate, .background])
    func everyLineIsWrittenInOrderOnceFlushed(_ writing: JSONLSink.Writing) async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try JSONLSink(path: path, writing: writing)
        // More than the background queue holds, so a producer also waits for room.
        let records = ResilientSinkTests.records("A", count: 5_000)
        for record in records { try await sink.send(record) }
        try await sink.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == records.count)
        #expect(lines.first.map(String.init) == String(decoding: records[0].jsonLine(), as: UTF8.self))
        #expect(lines.last.map(String.init) == String(decoding: records[records.count - 1].jsonLine(), as: UTF8.self))
        let seqs = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["seq"] as? Int }
        #expect(seqs == records.map(\.seq))
    }

    @Test func aBackgroundWriteThatFailsIsThrownByTheNextCall() async throws {
        // A descriptor open for reading only: every write fails.
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        let sink = JSONLSink(handle: handle, closeOnDeinit: true, writing: .background)
        let records = ResilientSinkTests.records("A", count: 2)
        try await sink.send(records[0])
        await #expect(throws: ScoreFeedError.self) { try await sink.flush() }
        await #expect(throws: ScoreFeedError.self) { try await sink.send(records[1]) }
    }
}

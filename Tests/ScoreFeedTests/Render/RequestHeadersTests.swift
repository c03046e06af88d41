import Foundation
import Testing
@testable import ScoreFeed

/// A request keeps its headers in name order, each name once (`PushRecord.Request.fields`): the
/// renderer makes them in that order and the record's line writes them as they are, with nothing
/// hashed or sorted per push. Read and saved, they are what a dictionary of them was.
@Suite("PushRecord.Request: headers kept in name order")
struct RequestHeadersTests {
    /// The header names in the order the record's line writes them.
    static func namesInLine(_ record: PushRecord) throws -> [String] {
        let line = String(decoding: record.jsonLine(), as: UTF8.self)
        let start = try #require(line.range(of: "\"headers\":{"))
        let end = try #require(line[start.upperBound...].firstIndex(of: "}"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(("{" + line[start.upperBound..<end] + "}").utf8)) as? [String: String])
        // Each name's place in the line: they are short, distinct and quoted.
        return object.keys.sorted { line.range(of: "\"\($0)\":")!.lowerBound < line.range(of: "\"\($1)\":")!.lowerBound }
    }

    static let modes: [(String, PushRenderer.Configuration)] = {
        var android = PushRenderer.Configuration(bundleId: "com.acme.scores")
        android.platform = .android
        var bySequence = PushRenderer.Configuration(bundleId: "com.acme.scores", mode: .broadcast(channelId: "dHN0"))
        bySequence.requestIDs = .sequence
        return PayloadJSONTests.modes + [
            ("android", android),
            ("broadcast, ids by sequence", bySequence),
        ]
    }()

    @Test(arguments: Make.fixtureFiles())
    func everyRecordsHeadersAreInNameOrderAsTheLineWritesThem(file: String) async throws {
        for (name, configuration, records) in try await PayloadJSONTests.replayed(file, in: Self.modes) {
            for record in records {
                let names = record.request.fields.map(\.name)
                #expect(names == record.request.headers.keys.sorted(), "\(file) \(name) seq \(record.seq): \(names)")
                #expect(try Self.namesInLine(record) == names, "\(file) \(name) seq \(record.seq)")
                // The id the renderer wrote is the one a sender computes from the record.
                if configuration.platform == .ios, configuration.requestIDs == .record {
                    #expect(record.request[header: "apns-id"] == RequestID.uuid(for: record))
                }
            }
        }
    }

    @Test func oneHeaderSetOrRemovedKeepsTheOrder() {
        var request = PushRecord.Request(path: "/3/device/{token}", headers: ["apns-topic": "t", "apns-id": "i", "apns-priority": "10"])
        #expect(request.fields.map(\.name) == ["apns-id", "apns-priority", "apns-topic"])
        request[header: "apns-channel-id"] = "c"
        request[header: "apns-push-type"] = "liveactivity"
        request[header: "apns-zzz"] = "z"
        request[header: "apns-priority"] = "5"
        request[header: "apns-id"] = nil
        request[header: "apns-absent"] = nil
        #expect(request.fields.map(\.name) == ["apns-channel-id", "apns-priority", "apns-push-type", "apns-topic", "apns-zzz"])
        #expect(request.headers == ["apns-channel-id": "c", "apns-priority": "5", "apns-push-type": "liveactivity", "apns-topic": "t", "apns-zzz": "z"])
        #expect(request[header: "apns-priority"] == "5" && request[header: "apns-id"] == nil)
        // Set whole, as a dictionary: in order again.
        request.headers = ["b": "2", "a": "1"]
        #expect(request.fields.map(\.name) == ["a", "b"])
        // Equal requests are equal however they were made.
        #expect(request == PushRecord.Request(path: "/3/device/{token}", headers: ["a": "1", "b": "2"]))
        #expect(request.hashValue == PushRecord.Request(path: "/3/device/{token}", headers: ["a": "1", "b": "2"]).hashValue)
    }

    /// The request before its headers were kept in order, as `Codable` saved it.
    struct SavedBefore: Codable, Equatable {
        var method: String
        var path: String
        var headers: [String: String]
    }

    @Test func savedAndReadAsBefore() throws {
        let headers = ["apns-topic": "com.acme.scores.push-type.liveactivity", "apns-id": "0f", "apns-priority": "10", "apns-expiration": "1700000000"]
        let request = PushRecord.Request(path: "/3/device/{token}", headers: headers)
        let before = SavedBefore(method: "POST", path: "/3/device/{token}", headers: headers)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try encoder.encode(request) == encoder.encode(before))
        #expect(try JSONDecoder().decode(PushRecord.Request.self, from: encoder.encode(before)) == request)
        #expect(try JSONDecoder().decode(SavedBefore.self, from: encoder.encode(request)) == before)
        // The checkpoints' encoder too.
        #expect(try CheckpointEncoder.encode(request) == CheckpointEncoder.encode(before))
    }
}

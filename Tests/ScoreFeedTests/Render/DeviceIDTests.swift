import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// One record fans out to many devices in token mode; each device's request gets its own
/// `apns-id` (``RequestID/deviceID(record:token:)``, a UUIDv5 with the record's id as namespace
/// and the lower-case hex token as name), the same on a retry, and every id ScoreFeed writes is
/// in Apple's canonical lower-case form.
@Suite("apns-id per device, and ids in canonical form")
struct DeviceIDTests {
    /// Computed with Python 3 (`hashlib.sha1(...).hexdigest()`).
    static let sha1Vectors: [(String, String)] = [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        // Lengths at the padding's edges (55 fits one block, 56 and 64 need two).
        (String(repeating: "a", count: 55), "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (String(repeating: "a", count: 56), "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (String(repeating: "a", count: 64), "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
    ]

    @Test(arguments: sha1Vectors)
    func sha1GivesPythonsDigest(_ text: String, _ digest: String) {
        let hex = SHA1.digest(Array(text.utf8)).map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(hex == digest)
    }

    /// `str(uuid.uuid5(uuid.UUID(record_id), token))` in Python 3, pasted here: what a Python
    /// (or Go, `uuid.NewSHA1`) sender that follows the manual's rule computes.
    static let pythonVectors: [(String, String, String)] = [
        ("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org", "886313e1-3b8a-5372-9b90-0c9aee199e5d"),
        ("66d46580-210d-87d5-899d-b520baa4bba3", "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
         "01da5c06-c04f-5707-a0b7-1910a80d44b0"),
        ("66d46580-210d-87d5-899d-b520baa4bba3", String(repeating: "0", count: 64), "f13a4f9b-7d81-5f9e-8a38-0e8cc370dee9"),
        ("66d46580-210d-87d5-899d-b520baa4bba3", "80f3c9d2b1a4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
         "d090bee9-3b87-53dc-8ddd-5a7f99c56739"),
    ]

    @Test(arguments: pythonVectors)
    func deviceIDIsPythonsUUID5(_ recordID: String, _ token: String, _ expected: String) {
        #expect(RequestID.deviceID(recordID: recordID, token: token) == expected)
        #expect(RequestID.deviceID(recordID: recordID.uppercased(), token: token) == expected, "the record id's case does not matter")
    }

    /// Whether `id` is a UUID in Apple's canonical form: lower-case hex, 8-4-4-4-12.
    static func isCanonical(_ id: String) -> Bool {
        id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil
    }

    @Test func twoDevicesGetTwoIDsAndARetryTheSameOne() throws {
        let record = try RequestIDTests.record()
        let one = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
        let two = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f91"
        #expect(record.apnsID(forDevice: one) != record.apnsID(forDevice: two))
        #expect(record.apnsID(forDevice: one) == record.apnsID(forDevice: one), "a retry to one device")
        #expect(record.apnsID(forDevice: one.uppercased()) == record.apnsID(forDevice: one), "one device, whatever the hex case")
        #expect(record.apnsID(forDevice: one) == RequestID.deviceID(record: record, token: one))
        #expect(record.apnsID(forDevice: one) == RequestID.deviceID(recordID: record.key, token: one))
        #expect(record.apnsID(forDevice: one) != record.key, "not the record's own id")
        let again = try RequestIDTests.record()
        #expect(again.apnsID(forDevice: one) == record.apnsID(forDevice: one), "the record made again")
        let other = try RequestIDTests.record(seq: 8)
        #expect(other.apnsID(forDevice: one) != record.apnsID(forDevice: one), "another record")
        for id in [record.apnsID(forDevice: one), record.apnsID(forDevice: two)] {
            #expect(Self.isCanonical(id) && id.dropFirst(14).first == "5", "\(id)")
        }
    }

    /// Many devices, every record of a fixture: no two requests share an id.
    @Test func aFanOutNeverGivesTwoRequestsOneID() async throws {
        let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(Make.fixtureFiles()[0]).path)
        let sink = RecordingSink()
        _ = try await Replay(renderer: .init(start: true)).run(document, sink: sink)
        let records = await sink.records
        var random = SeededRandom(seed: 5)
        let tokens = (0..<50).map { _ in (0..<4).map { _ in String(format: "%016llx", random.next()) }.joined() }
        var ids: Set<String> = []
        for record in records {
            for token in tokens { ids.insert(record.apnsID(forDevice: token)) }
        }
        #expect(!records.isEmpty && ids.count == records.count * tokens.count)
    }

    @Test func anUpperCaseIDFromAnOldCheckpointIsSentLowerCased() throws {
        let (session, _) = RequestIDTests.pending()
        let waiting = RequestIDTests.ids(session.outbox)
        #expect(!waiting.isEmpty)
        // A checkpoint as written before ids were lower case.
        let old = String(decoding: try session.encoded(), as: UTF8.self)
            .replacing(/"apns-id":"([0-9a-f-]{36})"/) { "\"apns-id\":\"\($0.1.uppercased())\"" }
        #expect(old.contains(waiting[0].uppercased()))
        let restored = try GameSession.restore(Data(old.utf8), file: "game.json")
        #expect(RequestIDTests.ids(restored.outbox) == waiting, "the same UUIDs, lower case")
        #expect(restored.outbox == session.outbox, "the same records")
    }

    @Test func channelRequestIDsAreCanonical() {
        let create = ChannelRequest.create(
            game: "G", bundleId: "com.acme", storage: 0, requestID: BroadcastChannel().createRequestID(game: "G"))
        let delete = ChannelRequest.delete(game: "G", bundleId: "com.acme", channel: "Y2gx")
        for request in [create, delete] {
            #expect(Self.isCanonical(request.requestID), "\(request.requestID)")
        }
    }

    @Test func everyStartAsksForItsUpdateToken() async throws {
        for file in Make.fixtureFiles() {
            let document = try FeedReader.read(path: Make.fixtures.appendingPathComponent(file).path)
            let sink = RecordingSink()
            _ = try await Replay(renderer: .init(start: true)).run(document, sink: sink)
            let records = await sink.records
            #expect(records.contains { $0.event == .start }, "\(file)")
            for record in records {
                let aps = try #require((try JSONSerialization.jsonObject(with: record.payload) as? [String: Any])?["aps"] as? [String: Any])
                #expect((aps["input-push-token"] as? Int == 1) == (record.event == .start), "\(file) seq \(record.seq)")
            }
        }
    }
}

import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

@Suite("Validation before the fold")
struct EventValidatorTests {
    /// A rule: the events before, the event checked, and the code it must be rejected with.
    struct Rejection: CustomTestStringConvertible, Sendable {
        var name: String
        var before: [GameEvent]
        var event: GameEvent
        var code: ScoreFeedError.Code
        var testDescription: String { name }
    }

    static let rejections: [Rejection] = [
        .init(name: "field goal without a team", before: [], event: Make.event(1, .fieldGoal(points: 2, made: true)), code: .missingTeam),
        .init(name: "free throw without a team", before: [], event: Make.event(1, .freeThrow(attempt: 1, of: 1, made: true, points: 1)), code: .missingTeam),
        .init(name: "correction without a team", before: [], event: Make.event(1, .correction(points: 2)), code: .missingTeam),
        .init(name: "4-point field goal", before: [], event: Make.event(1, .fieldGoal(points: 4, made: true), team: .home), code: .pointsOutOfRange),
        .init(name: "1-point field goal", before: [], event: Make.event(1, .fieldGoal(points: 1, made: true), team: .home), code: .pointsOutOfRange),
        .init(name: "0-point free throw", before: [], event: Make.event(1, .freeThrow(attempt: 1, of: 1, made: true, points: 0), team: .home), code: .pointsOutOfRange),
        .init(name: "free throw 3 of 2", before: [], event: Make.event(1, .freeThrow(attempt: 3, of: 2, made: true, points: 1), team: .home), code: .invalidValue),
        .init(name: "zero correction", before: [], event: Make.event(1, .correction(points: 0), team: .home), code: .pointsOutOfRange),
        .init(name: "period going backwards", before: [Make.event(1, .periodStart, period: 2, clock: 720)], event: Make.event(2, .rebound(offensive: false), team: .home, period: 1), code: .periodBackwards),
        .init(name: "period 0", before: [], event: Make.event(1, .periodStart, period: 0, clock: 720), code: .invalidValue),
        .init(name: "clock over 12:00 in a quarter", before: [], event: Make.event(1, .periodStart, period: 1, clock: 780), code: .clockOutOfRange),
        .init(name: "clock over 5:00 in overtime", before: [], event: Make.event(1, .periodStart, period: 5, clock: 301), code: .clockOutOfRange),
        .init(name: "negative clock", before: [], event: Make.event(1, .block, team: .home, clock: -1), code: .clockOutOfRange),
        .init(name: "event after game end", before: [Make.event(1, .gameEnd, period: 4, clock: 0)], event: Make.event(2, .fieldGoal(points: 2, made: true), team: .home, period: 4, clock: 0), code: .afterGameEnd),
    ]

    @Test(arguments: rejections)
    func rejects(_ r: Rejection) {
        var validator = EventValidator()
        for event in r.before { #expect(validator.check(event, index: 0) == .accept) }
        guard case .reject(let error) = validator.check(r.event, index: 7) else {
            Issue.record("\(r.name) was not rejected")
            return
        }
        #expect(error.code == r.code)
        #expect(error.location.eventIndex == 7)
        #expect(error.location.sequence == r.event.seq)
        #expect(!error.message.isEmpty)
    }

    @Test func duplicatesAreIgnoredNotRejected() {
        var validator = EventValidator()
        let event = Make.event(5, .fieldGoal(points: 2, made: true), team: .home)
        #expect(validator.check(event, index: 0) == .accept)
        guard case .duplicate(let error) = validator.check(event, index: 1) else {
            Issue.record("expected a duplicate")
            return
        }
        #expect(error.code == .duplicateSequence)
        #expect(error.location.sequence == 5)
    }

    @Test func rejectedEventsDoNotAdvanceTheGame() {
        var validator = EventValidator()
        // A rejected event in period 3 must not make period 2 look like going backwards.
        _ = validator.check(Make.event(1, .fieldGoal(points: 9, made: true), team: .home, period: 3), index: 0)
        #expect(validator.check(Make.event(2, .periodStart, period: 2, clock: 720), index: 1) == .accept)
        // Nor does a rejected seq count as seen.
        #expect(validator.check(Make.event(1, .periodStart, period: 2, clock: 720), index: 2) == .accept)
    }

    @Test(arguments: [
        ("12:00", 720.0), ("0:24.3", 24.3), ("PT11M42.00S", 702.0), ("PT00M05.50S", 5.5), ("PT45.2S", 45.2), ("5:00", 300.0),
    ])
    func clockFormats(text: String, seconds: Double) {
        let parsed = GameClockText.seconds(text)
        #expect(parsed != nil)
        #expect(abs((parsed ?? -1) - seconds) < 1e-9)
    }

    @Test(arguments: ["", "12", "12:60", "-1:00", "a:bc", "PT", "PTxMS", "1:2:3", "PT-5M00S"])
    func badClocks(text: String) {
        #expect(GameClockText.seconds(text) == nil)
    }
}

@Suite("The validator in a checkpoint")
struct EventValidatorCheckpointTests {
    /// `appliedText` (written as bytes) spells every entry as the string-built form did: seq,
    /// digest in lower-case hex without leading zeros (`?` unknown), points with their sign, the
    /// team, earlier digests; by rising seq, with spaces between.
    @Test func appliedTextSpellsEveryEntryAsBefore() {
        var random = SeededRandom(seed: 21)
        var validator = EventValidator()
        let digests: [UInt64?] = [nil, 0, 1, 0xF, 0x10, 0xFFFF_FFFF_FFFF_FFFF, 0x0123_4567_89AB_CDEF]
        for seq in [-3, 0, 7, 9, 10, 99, 100, 1_000_000] + (0..<200).map({ _ in Int(random.next() % 5_000) }) {
            var event = EventValidator.AppliedEvent(unknown: ())
            event.digest = digests.indices.contains(seq % 9) ? digests[seq % 9] : random.next()
            event.points = [-3, -1, 0, 1, 2, 3, 12][abs(seq) % 7]
            event.team = [TeamSide.home, .away, nil][abs(seq) % 3]
            event.earlier = (0..<(abs(seq) % 3)).map { _ in random.next() >> (random.next() % 64) }
            validator.applied[seq] = event
        }
        var expected = ""
        for seq in validator.applied.keys.sorted() {
            let event = validator.applied[seq]!
            if !expected.isEmpty { expected += " " }
            expected += String(seq)
            expected += ":" + (event.digest.map { String($0, radix: 16) } ?? "?")
            expected += ":" + String(event.points)
            expected += event.team == .home ? ":h" : event.team == .away ? ":a" : ":-"
            for earlier in event.earlier { expected += ":" + String(earlier, radix: 16) }
        }
        #expect(validator.appliedText == expected)
    }

    /// The `applied` text read byte by byte reads what the string-splitting reader before it
    /// read, and refuses what it refused (`splitReader` is that reader): a whole game's entries
    /// as written, and each of 800 copies cut short, with a byte changed or one taken out.
    @Test func appliedTextReadsAsTheSplitReaderDid() throws {
        var random = SeededRandom(seed: 22)
        var validator = EventValidator()
        for seq in [-3, 0, 7, 100, 1_000_000] + (0..<300).map({ _ in Int(random.next() % 5_000) }) {
            var event = EventValidator.AppliedEvent(unknown: ())
            event.digest = seq % 7 == 0 ? nil : random.next() >> (random.next() % 64)
            event.points = [-3, -1, 0, 1, 2, 3, 12][abs(seq) % 7]
            event.team = [TeamSide.home, .away, nil][abs(seq) % 3]
            event.earlier = (0..<(abs(seq) % 3)).map { _ in random.next() >> (random.next() % 64) }
            validator.applied[seq] = event
        }
        let whole = Array(validator.appliedText.utf8)
        func bytewise(_ bytes: [UInt8]) -> [Int: EventValidator.AppliedEvent]? {
            var applied: [Int: EventValidator.AppliedEvent] = [:]
            return bytes.withUnsafeBufferPointer { EventValidator.read(applied: $0, into: &applied) } == nil ? applied : nil
        }
        #expect(bytewise(whole) == validator.applied)
        let alphabet = Array("  ::?-+ha0f9FgxZ".utf8)
        var refused = 0
        for _ in 0..<800 {
            var bytes = whole
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 3 {
            case 0: bytes.removeSubrange(at...)
            case 1: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            default: bytes.remove(at: at)
            }
            let read = bytewise(bytes)
            #expect(read == Self.splitReader(String(decoding: bytes, as: UTF8.self)), "\(String(decoding: bytes, as: UTF8.self))")
            if read == nil { refused += 1 }
        }
        #expect(refused > 40, "the changes made some texts unreadable")
        // And through the checkpoint's decoder: a bad entry is named in the error.
        let bad = try JSONSerialization.data(withJSONObject: ["period": 1, "ended": false, "applied": "1:ff:2:h 2:zz:0:-"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(EventValidator.self, from: bad) }
        do {
            _ = try JSONDecoder().decode(EventValidator.self, from: bad)
        } catch {
            #expect("\(error)".contains("applied event \"2:zz:0:-\" is not seq:digest:points:team"))
        }
    }

    /// The reader before the byte-by-byte one: split on spaces, then on colons.
    static func splitReader(_ text: String) -> [Int: EventValidator.AppliedEvent]? {
        var applied: [Int: EventValidator.AppliedEvent] = [:]
        for entry in text.split(separator: " ") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            func digest(_ part: Substring) -> UInt64?? { part == "?" ? .some(nil) : UInt64(part, radix: 16).map { .some($0) } }
            guard parts.count >= 4, let seq = Int(parts[0]), let first = digest(parts[1]), let points = Int(parts[2]),
                  ["h", "a", "-"].contains(parts[3])
            else { return nil }
            var event = EventValidator.AppliedEvent(unknown: ())
            event.digest = first
            event.points = points
            event.team = parts[3] == "h" ? .home : parts[3] == "a" ? .away : nil
            for part in parts.dropFirst(4) {
                guard let earlier = UInt64(part, radix: 16) else { return nil }
                event.earlier.append(earlier)
            }
            applied[seq] = event
        }
        return applied
    }
}

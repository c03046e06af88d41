import Foundation
import Testing
import ScoreFeed

/// What the APNs test server saw of a broadcast-mode run, checked against the issue's promises:
/// one channel per game made before its first broadcast, every broadcast accepted on its own
/// game's channel, each game's last broadcast its `end` with the exact final, no channel left
/// open. Used by the serve, poll and kill -9 tests.
struct BroadcastAudit {
    var requests: [APNsTestServer.Request]
    var state: APNsTestServer.State

    init(_ server: APNsTestServer) async throws {
        requests = try server.requests()
        state = try await server.state()
    }

    /// The game each channel was made for.
    var owner: [String: String] {
        Dictionary(state.created.map { ($0.channel, $0.game) }, uniquingKeysWith: { first, _ in first })
    }

    /// Games with more than one channel made (a create whose answer a kill lost), for figures.
    var madeTwice: [String: Int] { state.createsByGame.filter { $0.value > 1 } }

    /// Checks the promises for `finals` (game → final score). `oneChannel`: exactly one channel
    /// was made per game (a run without kills).
    func check(finals: [String: FinalScore], oneChannel: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let broadcasts = requests.filter { $0.kind == .broadcast }
        // Faults the server injected (503, 429, dropped connections) are not APNs refusing.
        let rejected = broadcasts.filter { $0.reason == "BadChannelId" }
        #expect(rejected.isEmpty, "no broadcast to an unknown or deleted channel: \(rejected.prefix(3).map { "\($0.game ?? "?") seq \($0.seq ?? 0): \($0.status.map(String.init) ?? "dropped") \($0.reason ?? "")" })", sourceLocation: sourceLocation)
        let owner = self.owner
        let foreign = broadcasts.filter { owner[$0.channel ?? ""] != $0.game }
        #expect(foreign.isEmpty, "every broadcast on its own game's channel: \(foreign.count) were not", sourceLocation: sourceLocation)
        #expect(state.open.isEmpty, "no channel left open: \(state.open)", sourceLocation: sourceLocation)
        // A request a kill cut before its body arrives with none; any other is a record to understand.
        #expect(requests.filter { $0.kind == .bad && !$0.body.isEmpty }.isEmpty, "every record understood", sourceLocation: sourceLocation)
        for (game, final) in finals {
            let creates = requests.filter { $0.kind == .create && $0.game == game && $0.status == 200 }
            if oneChannel {
                #expect(state.createsByGame[game] == 1, "\(game): exactly one channel made", sourceLocation: sourceLocation)
            } else {
                #expect((state.createsByGame[game] ?? 0) >= 1, "\(game): a channel made", sourceLocation: sourceLocation)
            }
            let mine = broadcasts.filter { $0.game == game && $0.status == 200 }
            let first = try #require(mine.first, "\(game) broadcast nothing", sourceLocation: sourceLocation)
            #expect(creates.contains { $0.n < first.n }, "\(game): its channel was made before its first broadcast", sourceLocation: sourceLocation)
            let last = try #require(mine.max { ($0.seq ?? 0) < ($1.seq ?? 0) })
            #expect(last.event == "end", "\(game) ends with its end", sourceLocation: sourceLocation)
            let shown = try Self.score(inRecord: last.body)
            #expect(shown == final, "\(game)'s end shows \(shown.map { "\($0.away)–\($0.home)" } ?? "nothing"), the final is \(final.away)–\(final.home)", sourceLocation: sourceLocation)
            for channel in owner.filter({ $0.value == game }).map(\.key) {
                #expect(state.deleted.contains(channel), "\(game)'s channel \(channel) deleted", sourceLocation: sourceLocation)
            }
        }
    }

    /// The payload bytes of each game's accepted broadcasts, in seq order, once per seq.
    var payloads: [String: [String]] {
        var bySeq: [String: [Int: String]] = [:]
        for request in requests where request.kind == .broadcast && request.status == 200 {
            if let game = request.game, let seq = request.seq { bySeq[game, default: [:]][seq] = Self.payload(inLine: request.body) }
        }
        return bySeq.mapValues { payloads in payloads.keys.sorted().map { payloads[$0]! } }
    }

    /// The score in a push record line's content-state.
    static func score(inRecord line: String) throws -> FinalScore? {
        RecordLine(line)?.score.map { FinalScore(home: $0.home, away: $0.away) }
    }

    /// The payload's bytes as they stand in a push record line (between `"payload":` and `,"diff":`).
    static func payload(inLine line: String) -> String {
        guard let start = line.range(of: ",\"payload\":"), let end = line.range(of: ",\"diff\":", options: .backwards) else { return "" }
        return String(line[start.upperBound..<end.lowerBound])
    }

    /// The push records among JSONL `lines` (channel requests left out), each with its channel id
    /// blanked: a run's channels have ids of their own, the rest of a record is the same.
    static func pushLines(_ lines: some Sequence<some StringProtocol>) -> [String] {
        lines.filter { !$0.hasPrefix("{\"kind\":\"channel\"") }.map { line in
            guard let range = line.range(of: "\"apns-channel-id\":\"") else { return String(line) }
            let rest = line[range.upperBound...]
            return String(line[..<range.upperBound]) + "*" + String(rest[(rest.firstIndex(of: "\"") ?? rest.endIndex)...])
        }
    }

    /// The payload bytes of each game's push records in JSONL `lines` (channel records skipped).
    static func payloads(inLines lines: [String]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for line in lines where !line.hasPrefix("{\"kind\":\"channel\"") && line.contains("\"request\"") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let game = object["game"] as? String else { continue }
            result[game, default: []].append(payload(inLine: line))
        }
        return result
    }
}

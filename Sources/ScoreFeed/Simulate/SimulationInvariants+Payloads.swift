import Foundation
import ScoreFeedModel

extension SimulationInvariants {
    /// What a device gets is what the record says: every push's request carries the record's
    /// event, timestamp, priority, score, period, phase, game clock, fouls, bonus, timeouts, ball
    /// and last scorer (an iOS start its attributes and alert), and a final's alert names its
    /// winner (read in its bytes, not by ScoreFeed's
    /// reader), with the headers and fields APNs or FCM take (`apns-push-type`, the topic or
    /// channel, a canonical `apns-id`; FCM's `android.priority`, and its `collapse_key` on a
    /// `NORMAL` update alone). The other checks read the
    /// records' fields; this one holds the rendered bytes to them, so a renderer that writes
    /// something else is caught too. `pushes`: the game's records, each once.
    mutating func checkPayloads(_ plan: SimulatedDay.Game, _ pushes: [PushRecord]) {
        for push in pushes {
            let token = day.mode.isToken
            let problems = push.platform == .android ? Self.androidProblems(push, token: token) : Self.appleProblems(push, token: token)
            check(problems.isEmpty,
                  "game \(plan.game.id): push seq \(push.seq) (\(push.event.rawValue)) is not what its record says: \(problems.joined(separator: "; "))")
            if push.event == .end {
                let wrong = Self.finalAlertProblem(push, plan.game.attributes)
                check(wrong == nil, "game \(plan.game.id): end seq \(push.seq): \(wrong ?? "")")
            } else if let wrong = Self.leadAlertProblem(push, plan.game.attributes) {
                check(false, "game \(plan.game.id): \(push.event.rawValue) seq \(push.seq): \(wrong)")
            }
        }
    }

    /// What is wrong with the words of a final's alert (its banner on every platform): its title
    /// gives the score, away team first (`"Final: <away> <points> – <home> <points>"`), and its body
    /// names the winner, `"<city> <name> win."`, read in the payload's bytes. Nil for a push that
    /// is not a final with an alert.
    static func finalAlertProblem(_ push: PushRecord, _ attributes: GameAttributes) -> String? {
        let state = push.state
        guard push.event == .end, state.phase == .final, state.homeScore != state.awayScore,
              has("\"alert\":", in: push.payload) else { return nil }
        let winner = state.homeScore > state.awayScore ? attributes.home : attributes.away
        let words = "\(winner.city) \(winner.name) win."
        let title = "Final: \(attributes.away.tricode) \(state.awayScore) – \(attributes.home.tricode) \(state.homeScore)"
        for said in [words, title] where !has(said, in: push.payload) {
            return "its final's alert does not say \"\(said)\" (\(state.awayScore)-\(state.homeScore))"
        }
        return nil
    }

    /// What is wrong with the words of a lead change's alert: its body names the side ahead in
    /// what the push shows, `"<name> lead with …"` (either side at a tie), read in the payload's
    /// bytes. Nil for a push without that alert.
    static func leadAlertProblem(_ push: PushRecord, _ attributes: GameAttributes) -> String? {
        guard has("Lead change: ", in: push.payload) else { return nil }
        let state = push.state
        let leaders = state.margin > 0 ? [attributes.home] : state.margin < 0 ? [attributes.away] : [attributes.home, attributes.away]
        guard !leaders.contains(where: { has("\"\($0.name) lead with", in: push.payload) }) else { return nil }
        return "its lead change's alert does not say \"\(leaders[0].name) lead with\" (\(state.awayScore)-\(state.homeScore))"
    }

    /// Apple: "32 lowercase hexadecimal digits, displayed in five groups separated by hyphens
    /// in the form 8-4-4-4-12."
    static func isCanonicalUUID(_ text: String) -> Bool {
        // Read byte by byte: it runs once per push of every simulated day.
        var count = 0
        for byte in text.utf8 {
            let isHyphen = count == 8 || count == 13 || count == 18 || count == 23
            guard isHyphen ? byte == UInt8(ascii: "-") : (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
            count += 1
        }
        return count == 36
    }

    /// Whether `payload` holds `"key":value` followed by `,` or `}` (`quote`: how a quote is
    /// written where the key is: `"`, or `\"` inside a JSON string). Each place the key's bytes
    /// stand is checked for the quotes, colon, value and end around it (every place the whole
    /// pair stands is one of them), without the pair made as a string first: it runs about
    /// twenty times per push of every simulated day.
    static func holds(_ key: String, _ value: String, in payload: Data, quote: String = "\"") -> Bool {
        var key = key
        return key.withUTF8 { key in
            payload.withUnsafeBytes { bytes in
                /// Whether `part`'s bytes stand at `offset`.
                func stands(_ part: String, at offset: Int) -> Bool {
                    var part = part
                    return part.withUTF8 { part in
                        offset >= 0 && offset + part.count <= bytes.count && (part.isEmpty || memcmp(bytes.baseAddress! + offset, part.baseAddress!, part.count) == 0)
                    }
                }
                var from = 0
                while !key.isEmpty, let at = ByteSearch.firstOffset(of: UnsafeRawBufferPointer(key), in: bytes, from: from) {
                    let colon = at + key.count + quote.utf8.count
                    let end = colon + 1 + value.utf8.count
                    if end < bytes.count, bytes[end] == UInt8(ascii: ",") || bytes[end] == UInt8(ascii: "}"),
                       bytes[colon] == UInt8(ascii: ":"), stands(quote, at: at - quote.utf8.count),
                       stands(quote, at: at + key.count), stands(value, at: colon + 1) {
                        return true
                    }
                    from = at + 1
                }
                return false
            }
        }
    }

    /// The number written right after the first `key` of `payload` (a key with its quotes and
    /// colon, `"endsAt":`, as ``has(_:in:)`` takes it), read by hand; nil when there is none.
    static func decimal(after key: String, in payload: Data) -> Double? {
        var key = key
        return key.withUTF8 { key in
            payload.withUnsafeBytes { bytes -> Double? in
                guard var end = ByteSearch.firstOffset(of: UnsafeRawBufferPointer(key), in: bytes) else { return nil }
                end += key.count
                let start = end
                while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
                return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            }
        }
    }

    /// A byte a JSON number is spelled with (digits, signs, point, exponent).
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// What is wrong with the game clock `payload` writes against the record's `clock` (the
    /// seconds left while it is stopped; while it runs, when the period's clock runs out, in
    /// seconds since 2001 as `Codable` writes a `Date`): nil when it is the same. A device counts
    /// the clock down from it.
    static func clockProblem(_ clock: GameClock, in payload: Data, quote: String = "\"") -> String? {
        let (key, value): (String, Double) = switch clock {
        case .stopped(let seconds): ("seconds", seconds)
        case .running(let endsAt): ("endsAt", endsAt.timeIntervalSinceReferenceDate)
        }
        guard let written = decimal(after: quote + key + quote + ":", in: payload) else { return "no clock \(key) \(value)" }
        return abs(written - value) < 0.001 ? nil : "clock \(key) \(written), not \(value)"
    }

    /// What the record's state shows on the lock screen, as a payload writes it: the score, the
    /// period, each team's fouls, bonus and timeouts left (the phase, the clock and the sides
    /// apart).
    private static func shown(_ state: GameAttributes.ContentState) -> [(key: String, value: String)] {
        [("homeScore", String(state.homeScore)), ("awayScore", String(state.awayScore)), ("period", String(state.period)),
         ("homeFouls", String(state.homeFouls)), ("awayFouls", String(state.awayFouls)),
         ("homeInBonus", String(state.homeInBonus)), ("awayInBonus", String(state.awayInBonus)),
         ("homeTimeouts", String(state.homeTimeouts)), ("awayTimeouts", String(state.awayTimeouts))]
    }

    /// What is wrong with the sides `payload` writes against the record's `state`: who has the
    /// ball and who scored last, each written when known and absent when not (`quote`: as in
    /// ``holds(_:_:in:quote:)``).
    private static func sideProblems(_ state: GameAttributes.ContentState, in payload: Data, quote: String = "\"") -> [String] {
        [("possession", state.possession), ("lastScorer", state.lastScorer)].compactMap { key, side in
            guard let side else { return has(quote + key + quote + ":", in: payload) ? "a \(key) the record has not" : nil }
            return holds(key, quote + side.rawValue + quote, in: payload, quote: quote) ? nil : "no \(key) \(side.rawValue)"
        }
    }

    /// What in an iOS push's request is not what its record says, or not what APNs takes
    /// (`token`: sent to a device's token, else to a broadcast channel); empty when nothing is.
    public static func appleProblems(_ push: PushRecord, token: Bool) -> [String] {
        var problems: [String] = []
        let request = push.request
        if request.method != "POST" { problems.append("method \(request.method)") }
        if token ? request.path != "/3/device/{token}" : !request.path.hasPrefix("/4/broadcasts/apps/") {
            problems.append("path \(request.path)")
        }
        if request[header: "apns-push-type"] != "liveactivity" { problems.append("apns-push-type \(request[header: "apns-push-type"] ?? "none")") }
        if request[header: "apns-priority"] != String(push.priority) { problems.append("apns-priority \(request[header: "apns-priority"] ?? "none")") }
        if request[header: "apns-expiration"].flatMap(Int.init) == nil { problems.append("apns-expiration \(request[header: "apns-expiration"] ?? "none")") }
        if token, request[header: "apns-topic"]?.hasSuffix(".push-type.liveactivity") != true { problems.append("apns-topic \(request[header: "apns-topic"] ?? "none")") }
        if !token, request[header: "apns-channel-id"].flatMap({ Data(base64Encoded: $0) }) == nil {
            problems.append("apns-channel-id \(request[header: "apns-channel-id"] ?? "none")")
        }
        if let id = request[header: "apns-id"], !isCanonicalUUID(id) { problems.append("apns-id \(id)") }
        let payload = push.payload
        if !holds("event", "\"\(push.event.rawValue)\"", in: payload) { problems.append("no aps.event \(push.event.rawValue)") }
        if !holds("timestamp", String(push.timestamp), in: payload) { problems.append("no aps.timestamp \(push.timestamp)") }
        if !holds("phase", "\"\(push.state.phase.rawValue)\"", in: payload) { problems.append("no phase \(push.state.phase.rawValue)") }
        for (key, value) in shown(push.state) where !holds(key, value, in: payload) { problems.append("no \(key) \(value)") }
        if let problem = clockProblem(push.state.clock, in: payload) { problems.append(problem) }
        problems += sideProblems(push.state, in: payload)
        if push.event == .start {
            // iOS starts an activity only from a push-to-start with its attributes and an alert.
            if !holds("attributes-type", "\"GameAttributes\"", in: payload) { problems.append("a start without attributes-type") }
            if !has("\"attributes\":{", in: payload) { problems.append("a start without attributes") }
            if !has("\"alert\":", in: payload) { problems.append("a start without its alert") }
        }
        return problems
    }

    /// What in an Android push's FCM message is not what its record says; empty when nothing is.
    /// `token`: the run sends to each device's token (else to the game's topic).
    public static func androidProblems(_ push: PushRecord, token: Bool) -> [String] {
        var problems: [String] = []
        if push.request.method != "POST" { problems.append("method \(push.request.method)") }
        if !(push.request.path.hasPrefix("/v1/projects/") && push.request.path.hasSuffix("/messages:send")) {
            problems.append("path \(push.request.path)")
        }
        let payload = push.payload
        for (key, value) in [("gameId", push.game), ("seq", String(push.seq)), ("event", push.event.rawValue), ("timestamp", String(push.timestamp))]
        where !holds(key, "\"\(value)\"", in: payload) {
            problems.append("no data.\(key) \(value)")
        }
        // The app makes the notification from every message's attributes.
        if !has("\"attributes\":\"", in: payload) { problems.append("no data.attributes") }
        let priority = push.priority == 10 ? "HIGH" : "NORMAL"
        if !holds("priority", "\"\(priority)\"", in: payload) { problems.append("no android.priority \(priority)") }
        // A start and an end go HIGH: FCM drops none for want of a budget, and a NORMAL one waits
        // out Doze (a final without its alert, which only HIGH messages carry).
        if push.event != .update && push.priority != 10 { problems.append("a \(push.event.rawValue) at NORMAL") }
        // A NORMAL update collapses to the game's newest in FCM (a phone in Doze gets one, not
        // each); nothing else collapses (a HIGH message would wait in the collapsible bucket).
        let topic = PushRenderer.Configuration.topic(of: push.game)
        // To the device's token, or in broadcast mode to the game's topic (its followers).
        if token != has("\"token\":\"", in: payload) || !token && !holds("topic", "\"\(topic)\"", in: payload) {
            problems.append(token ? "not sent to a token" : "not sent to the game's topic \(topic)")
        }
        let collapses = push.priority != 10 && push.event == .update
        if holds("collapse_key", "\"\(topic)\"", in: payload) != collapses {
            problems.append(collapses ? "a NORMAL update without collapse_key \(topic)" : "collapse_key on a \(priority) \(push.event.rawValue)")
        }
        // The state is a JSON string in the data: its quotes are escaped.
        let escaped = "\\\""
        if !holds("phase", escaped + push.state.phase.rawValue + escaped, in: payload, quote: escaped) { problems.append("no state phase \(push.state.phase.rawValue)") }
        for (key, value) in shown(push.state) where !holds(key, value, in: payload, quote: escaped) { problems.append("no state \(key) \(value)") }
        if let problem = clockProblem(push.state.clock, in: payload, quote: escaped) { problems.append("state " + problem) }
        problems += sideProblems(push.state, in: payload, quote: escaped).map { "state " + $0 }
        return problems
    }
}

import Foundation
import ScoreFeed

/// The rules `Tests/Support/apns_standin.py` checks on the wire, checked on a ``PushRecord`` in
/// Swift alone (no Python, no network): what a record would be answered if sent as it stands.
/// Each problem names the APNs reason the stand-in would answer with.
enum WireRules {
    /// Apple: "Canonical UUIDs are 32 lowercase hexadecimal digits, displayed in five groups
    /// separated by hyphens in the form 8-4-4-4-12."
    static var canonicalUUID: Regex<Substring> { /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/ }

    /// The headers each mode must have, and those it may have besides.
    static let required: [String: Set<String>] = [
        "token": ["apns-push-type", "apns-topic", "apns-priority", "apns-expiration"],
        "broadcast": ["apns-push-type", "apns-channel-id", "apns-priority", "apns-expiration"],
    ]
    static let optional: [String: Set<String>] = [
        "token": ["apns-id"],
        "broadcast": ["apns-id", "apns-request-id"],
    ]

    /// What is wrong with `record` for APNs, as "Reason: detail" lines; empty when nothing is.
    static func problems(_ record: PushRecord, bundleId: String) -> [String] {
        var problems: [String] = []
        let request = record.request
        let headers = request.headers
        if request.method != "POST" { problems.append("MethodNotAllowed: method \(request.method)") }
        let mode: String
        if request.path == "/3/device/{token}" {
            mode = "token"
        } else if request.path == "/4/broadcasts/apps/\(bundleId)" {
            mode = "broadcast"
        } else {
            return problems + ["BadPath: \(request.path)"]
        }
        let names = Set(headers.keys)
        for missing in (required[mode] ?? []).subtracting(names).sorted() { problems.append("Missing header: \(missing)") }
        for extra in names.subtracting(required[mode] ?? []).subtracting(optional[mode] ?? []).sorted() {
            problems.append("Unexpected header: \(extra)")
        }
        if headers["apns-push-type"] != "liveactivity" { problems.append("InvalidPushType: \(headers["apns-push-type"] ?? "none")") }
        if mode == "token", headers["apns-topic"] != "\(bundleId).push-type.liveactivity" {
            problems.append("BadTopic: \(headers["apns-topic"] ?? "none")")
        }
        if mode == "broadcast", let channel = headers["apns-channel-id"], Data(base64Encoded: channel) == nil {
            problems.append("BadChannelId: \(channel)")
        }
        if !["5", "10"].contains(headers["apns-priority"] ?? "") { problems.append("BadPriority: \(headers["apns-priority"] ?? "none")") }
        if let expiration = headers["apns-expiration"], !(expiration.allSatisfy(\.isASCII) && expiration.allSatisfy(\.isNumber) && !expiration.isEmpty) {
            problems.append("BadExpirationDate: \(expiration)")
        }
        for name in ["apns-id", "apns-request-id"] {
            if let id = headers[name], (try? canonicalUUID.wholeMatch(in: id)) == nil {
                problems.append("BadMessageId: \(name) \(id) is not a canonical lower-case UUID")
            }
        }
        let limit = mode == "token" ? 4096 : 5120
        if record.payload.isEmpty { problems.append("PayloadEmpty") }
        if let sizes = try? PythonJSON.sizes(of: record.payload) {
            for serialization in PayloadSerialization.allCases where sizes[serialization] > limit {
                problems.append("PayloadTooLarge: \(sizes[serialization]) bytes \(serialization.rawValue), limit \(limit)")
            }
        } else {
            problems.append("BadPayload: not JSON")
        }
        // Read as Python reads it (an integer is a number without a fraction or an exponent).
        guard let tree = try? PythonJSON.parse(record.payload), case .object(let top) = tree,
              case .object(let aps)? = top.first(where: { $0.0 == "aps" })?.1
        else { return problems + ["BadPayload: no aps object"] }
        func value(_ key: String) -> PythonJSON? { aps.first { $0.0 == key }?.1 }
        if case .number(let token)? = value("timestamp"), token.allSatisfy({ $0.isNumber || $0 == "-" }) {} else {
            problems.append("BadPayload: aps.timestamp is not an integer")
        }
        var event: String?
        if case .string(let text)? = value("event") { event = text }
        if !["start", "update", "end"].contains(event ?? "") { problems.append("BadPayload: aps.event \(event ?? "none")") }
        if case .object? = value("content-state") {} else { problems.append("BadPayload: no content-state object") }
        if event == "start" {
            if mode == "broadcast" { problems.append("BadPayload: a broadcast cannot start a Live Activity") }
            var complete = false
            if case .string? = value("attributes-type"), case .object? = value("attributes") { complete = true }
            if !complete { problems.append("BadPayload: a start needs attributes-type and attributes") }
        }
        return problems
    }
}

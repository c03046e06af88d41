import Foundation

/// The rules `Tests/Support/fcm_standin.py` checks on the wire, checked on one line of an Android
/// push record in Swift alone (no Python, no network): FCM HTTP v1 as Google documents it (one
/// target, string data without reserved keys, AndroidConfig's fields and types, the ttl's
/// Duration format, the data's size), ScoreFeed's data-only contract, and the record's own
/// contract (DESIGN.md 4, "platform": "android"; the data schema of `LiveUpdateMessage`).
///
/// Each problem starts with the status the stand-in answers (`INVALID_ARGUMENT`, `NOT_FOUND`) or
/// `Contract` (ScoreFeed's own rules, which FCM would not check), then a colon and what is wrong.
/// The line is read keeping its keys' order and its values' JSON types (``PythonJSON``).
enum FCMRules {
    /// The keys FCM refuses in `data`, besides any starting with ``reservedPrefixes``.
    static let reservedKeys: Set<String> = ["from", "notification", "message_type"]
    static let reservedPrefixes = ["google", "gcm"]
    /// FCM's longest `android.ttl`: 4 weeks.
    static let maximumTTL: Double = 28 * 24 * 3600

    /// The data's size limit (keys plus values, UTF-8): 4096 bytes, 2048 to a topic or condition.
    static func dataLimit(target: String) -> Int {
        target == "topic" || target == "condition" ? 2048 : 4096
    }

    /// FCM v1's `Message` fields (proto3 JSON takes both spellings), and its targets.
    static let messageFields: Set<String> = [
        "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "fcmOptions",
        "token", "topic", "condition", "fid",
    ]
    static let targets = ["token", "topic", "condition", "fid"]
    /// `AndroidConfig`'s fields.
    static let androidFields: Set<String> = [
        "collapse_key", "collapseKey", "priority", "ttl", "restricted_package_name", "restrictedPackageName", "data",
        "notification", "fcm_options", "fcmOptions", "direct_boot_ok", "directBootOk", "bandwidth_constrained_ok",
        "bandwidthConstrainedOk", "restricted_satellite_ok", "restrictedSatelliteOk",
    ]

    /// The record's keys, in order (DESIGN.md 4); `trimmed` may follow.
    static let envelope = [
        "platform", "activity", "game", "seq", "event", "priority", "sentAt", "sourceTime", "coalesced", "reason", "request",
        "payload", "diff",
    ]
    /// The data's keys (`LiveUpdateMessage`): always, and where they apply.
    static let dataKeys = ["gameId", "seq", "event", "timestamp", "state", "attributes"]
    static let optionalDataKeys: Set<String> = ["alert", "dismiss_after"]

    /// Whether FCM reserves `key` in `data`.
    static func isReserved(_ key: String) -> Bool {
        reservedKeys.contains(key) || reservedPrefixes.contains { key.lowercased().hasPrefix($0) }
    }

    /// A protobuf Duration as JSON spells it ("60s", "3.5s": digits, up to 9 fraction digits,
    /// "s"), in seconds; nil for anything else (a negative one too: a ttl cannot be).
    static func seconds(ofDuration text: String) -> Double? {
        guard text.hasSuffix("s") else { return nil }
        let parts = text.dropLast().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let whole = parts.first, !whole.isEmpty,
              whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...9).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        return Double(text.dropLast())
    }

    /// An FCM topic name: `[a-zA-Z0-9-_.~%]{1,900}`, without v1's forbidden `/topics/` prefix.
    static func isTopic(_ text: String) -> Bool {
        (1...900).contains(text.unicodeScalars.count)
            && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.~%".unicodeScalars.contains($0)) }
    }

    /// A string of ASCII digits (a Unix time in milliseconds, a seq).
    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// What is wrong with `line` (one line of `scorefeed replay --platform android --jsonl`);
    /// empty when nothing is.
    static func problems(_ line: Data) -> [String] {
        // Foundation first: PythonJSON's reader trusts its input to be JSON.
        guard (try? JSONSerialization.jsonObject(with: line)) is [String: Any], let tree = try? PythonJSON.parse(line),
              let record = members(tree)
        else { return ["Contract: the line is not a JSON object"] }
        var problems: [String] = []
        let keys = record.map(\.0)
        if keys != envelope && keys != envelope + ["trimmed"] {
            problems.append("Contract: the record's keys are \(keys), not \(envelope) (then trimmed)")
        }
        if stringOf(value(record, "platform")) != "android" { problems.append("Contract: platform is not \"android\"") }
        let game = stringOf(value(record, "game")) ?? ""
        if game.isEmpty { problems.append("Contract: no game") }
        let seq = integer(value(record, "seq"))
        if (seq ?? 0) < 1 { problems.append("Contract: seq is not a positive integer") }
        let event = stringOf(value(record, "event")) ?? ""
        if !["start", "update", "end"].contains(event) { problems.append("Contract: event \(event)") }
        let priority = integer(value(record, "priority"))
        if priority != 10 && priority != 5 { problems.append("Contract: priority \(priority.map(String.init) ?? "none") is not 10 or 5") }

        // The request: FCM v1's send.
        if let request = members(value(record, "request")) {
            if stringOf(value(request, "method")) != "POST" { problems.append("NOT_FOUND: method \(stringOf(value(request, "method")) ?? "none")") }
            let path = stringOf(value(request, "path")) ?? ""
            let project = path.hasPrefix("/v1/projects/") && path.hasSuffix("/messages:send")
                ? String(path.dropFirst("/v1/projects/".count).dropLast("/messages:send".count)) : ""
            if project.isEmpty || project.contains("/") { problems.append("NOT_FOUND: path \(path)") }
            let headers = members(value(request, "headers")) ?? []
            let type = headers.first { $0.0.lowercased() == "content-type" }.flatMap { stringOf($0.1) } ?? ""
            if type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() != "application/json" {
                problems.append("INVALID_ARGUMENT: content-type \(type) is not application/json")
            }
        } else {
            problems.append("Contract: no request object")
        }

        // The body.
        guard let body = members(value(record, "payload")) else { return problems + ["INVALID_ARGUMENT: the payload is not an object"] }
        for (key, item) in body where key != "message" {
            if key == "validate_only" || key == "validateOnly" {
                if !isBoolean(item) { problems.append("INVALID_ARGUMENT: \(key) is not a boolean") }
            } else {
                problems.append("INVALID_ARGUMENT: unknown body field \(key)")
            }
        }
        guard let message = members(value(body, "message")) else { return problems + ["INVALID_ARGUMENT: no message object"] }
        for (key, _) in message where !messageFields.contains(key) { problems.append("INVALID_ARGUMENT: unknown message field \(key)") }
        if value(message, "notification") != nil { problems.append("Contract: a notification (the records are data-only)") }
        let given = targets.filter { value(message, $0) != nil && !isNull(value(message, $0)) }
        var target = "token"
        if given.count != 1 {
            problems.append("INVALID_ARGUMENT: \(given.count) targets (\(given.joined(separator: ", "))), not one")
        } else {
            target = given[0]
            let to = stringOf(value(message, target))
            switch (target, to) {
            case (_, nil):
                problems.append("INVALID_ARGUMENT: \(target) is not a string")
            case ("token", let token?):
                if token != "{token}" { problems.append("Contract: token \(token), not the sender's \"{token}\"") }
            case ("topic", let topic?):
                if !isTopic(topic) { problems.append("INVALID_ARGUMENT: topic \(topic) is not an FCM topic name") }
                if !topic.hasPrefix("game-") { problems.append("Contract: topic \(topic) is not game-<id>") }
            default:
                problems.append("Contract: target \(target) (the records address a token or a topic)")
            }
        }

        // data: strings only, no reserved key, within the size; ScoreFeed's schema.
        var data: [String: String] = [:]
        var size = 0
        if let pairs = members(value(message, "data")) {
            for (key, item) in pairs {
                guard let string = stringOf(item) else {
                    problems.append("INVALID_ARGUMENT: data.\(key) is not a string")
                    continue
                }
                if isReserved(key) { problems.append("INVALID_ARGUMENT: data key \(key) is reserved") }
                data[key] = string
                size += key.utf8.count + string.utf8.count
            }
        } else {
            problems.append("Contract: no data object")
        }
        if size > dataLimit(target: target) {
            problems.append("INVALID_ARGUMENT: data of \(size) bytes, beyond \(dataLimit(target: target)) to a \(target)")
        }
        problems += schemaProblems(data, game: game, seq: seq, event: event, priority: priority)

        // android: AndroidConfig's fields, types and formats.
        guard let android = members(value(message, "android")) else { return problems + ["Contract: no android object"] }
        for (key, _) in android where !androidFields.contains(key) { problems.append("INVALID_ARGUMENT: unknown android field \(key)") }
        if value(android, "notification") != nil { problems.append("Contract: android.notification (the records are data-only)") }
        switch stringOf(value(android, "priority")) {
        case "HIGH"?: if priority != 10 { problems.append("Contract: android.priority HIGH on a priority \(priority ?? 0)") }
        case "NORMAL"?: if priority != 5 { problems.append("Contract: android.priority NORMAL on a priority \(priority ?? 0)") }
        case let lower? where lower == "high" || lower == "normal":
            problems.append("Contract: android.priority \(lower) (FCM reads it; the records write HIGH or NORMAL)")
        case let other: problems.append("INVALID_ARGUMENT: android.priority \(other ?? "not a string") is not HIGH or NORMAL")
        }
        if let ttl = value(android, "ttl") {
            if let text = stringOf(ttl), let duration = seconds(ofDuration: text) {
                if duration > maximumTTL { problems.append("INVALID_ARGUMENT: android.ttl \(text) is beyond 4 weeks") }
            } else {
                problems.append("INVALID_ARGUMENT: android.ttl is not a Duration string (\"60s\", \"3.5s\")")
            }
        }
        for key in ["collapse_key", "collapseKey", "restricted_package_name", "restrictedPackageName"] {
            if let item = value(android, key), stringOf(item) == nil { problems.append("INVALID_ARGUMENT: android.\(key) is not a string") }
        }
        return problems
    }

    /// ScoreFeed's data schema (`LiveUpdateMessage`): the keys, and what each holds.
    static func schemaProblems(_ data: [String: String], game: String, seq: Int?, event: String, priority: Int?) -> [String] {
        var problems: [String] = []
        for key in dataKeys where data[key] == nil { problems.append("Contract: data has no \(key)") }
        for key in data.keys.sorted() where !dataKeys.contains(key) && !optionalDataKeys.contains(key) {
            problems.append("Contract: unexpected data key \(key)")
        }
        if let gameId = data["gameId"], gameId != game { problems.append("Contract: data.gameId \(gameId), the record's game \(game)") }
        if let text = data["seq"], text != seq.map(String.init) { problems.append("Contract: data.seq \(text), the record's \(seq ?? 0)") }
        if let text = data["event"], text != event { problems.append("Contract: data.event \(text), the record's \(event)") }
        if let text = data["timestamp"], !isDigits(text) { problems.append("Contract: data.timestamp \(text) is not Unix milliseconds") }
        for key in ["state", "attributes"] {
            if let text = data[key], !((try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any]) {
                problems.append("Contract: data.\(key) is not a JSON object")
            }
        }
        if let text = data["alert"] {
            let alert = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            if alert.map({ Set($0.keys) == ["title", "body"] && $0["title"] is String && $0["body"] is String }) != true {
                problems.append("Contract: data.alert is not {\"title\",\"body\"}")
            }
        }
        switch (event, data["dismiss_after"]) {
        case ("end", nil): problems.append("Contract: an end without dismiss_after")
        case ("end", let text?): if !isDigits(text) { problems.append("Contract: dismiss_after \(text) is not Unix milliseconds") }
        case (_, _?): problems.append("Contract: dismiss_after on a \(event)")
        default: break
        }
        return problems
    }

    // Reading the tree.

    static func members(_ node: PythonJSON?) -> [(String, PythonJSON)]? {
        if case .object(let members)? = node { return members }
        return nil
    }

    static func value(_ members: [(String, PythonJSON)], _ key: String) -> PythonJSON? {
        members.first { $0.0 == key }?.1
    }

    static func stringOf(_ node: PythonJSON?) -> String? {
        if case .string(let text)? = node { return text }
        return nil
    }

    /// A JSON integer: a number without a fraction or an exponent.
    static func integer(_ node: PythonJSON?) -> Int? {
        if case .number(let token)? = node { return Int(token) }
        return nil
    }

    static func isBoolean(_ node: PythonJSON?) -> Bool {
        if case .literal(let word)? = node { return word == "true" || word == "false" }
        return false
    }

    static func isNull(_ node: PythonJSON?) -> Bool {
        if case .literal("null")? = node { return true }
        return false
    }
}

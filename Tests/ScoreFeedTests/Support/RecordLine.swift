import Foundation

/// One push record line read the same way for either platform: an APNs record (`aps` in the
/// payload, the ids in the headers) or an Android one (`{"platform":"android"`, FCM's body with the
/// content state as a JSON string in `data`). Tests that check what a run sent read records
/// through it, so each runs for iOS and Android alike.
struct RecordLine {
    var object: [String: Any]
    var isAndroid: Bool
    var game: String
    var seq: Int
    var event: String
    var priority: Int
    /// The content state the record shows.
    var state: [String: Any]?
    /// `aps.timestamp`, or the Android data's `timestamp` in seconds.
    var timestamp: Double?
    /// What names the request: its `apns-id`, or on Android (FCM has no request id) the activity,
    /// seq and timestamp, which one body always has.
    var id: String
    /// The data of an Android record's FCM message.
    var data: [String: String]?
    var headers: [String: String]

    /// Nil for a line that is not a push record (a channel request, a refusal).
    init?(_ line: some DataProtocol) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
              let request = object["request"] as? [String: Any], let headers = request["headers"] as? [String: String],
              let payload = object["payload"] as? [String: Any], let game = object["game"] as? String
        else { return nil }
        self.object = object
        self.headers = headers
        self.game = game
        seq = object["seq"] as? Int ?? 0
        event = object["event"] as? String ?? ""
        priority = object["priority"] as? Int ?? 0
        isAndroid = object["platform"] as? String == "android"
        if isAndroid {
            let data = (payload["message"] as? [String: Any])?["data"] as? [String: String]
            self.data = data
            state = data?["state"].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            timestamp = data?["timestamp"].flatMap(Double.init).map { $0 / 1000 }
            id = "\(object["activity"] as? String ?? game)#\(seq)#\(data?["timestamp"] ?? "")"
        } else {
            let aps = payload["aps"] as? [String: Any]
            state = aps?["content-state"] as? [String: Any]
            timestamp = (aps?["timestamp"] as? NSNumber)?.doubleValue
            guard let id = headers["apns-id"] else { return nil }
            self.id = id
        }
    }

    init?(_ line: String) {
        self.init(Data(line.utf8))
    }

    /// The score the record shows.
    var score: (home: Int, away: Int)? {
        guard let home = state?["homeScore"] as? Int, let away = state?["awayScore"] as? Int else { return nil }
        return (home, away)
    }

    /// The phase the record shows.
    var phase: String? { state?["phase"] as? String }

    /// The APNs `aps` object (nil on Android).
    var aps: [String: Any]? { (object["payload"] as? [String: Any])?["aps"] as? [String: Any] }
}

import Foundation

extension PushRecord {
    /// The headers that carry a request id ScoreFeed wrote.
    static let idHeaders = ["apns-id", "apns-request-id"]

    /// The record's key: its `apns-id` (``RequestID/uuid(for:)``), the same on every retry of the
    /// record and different for any other body. A sender deduplicates and retries by it; in
    /// broadcast mode it is the request's `apns-id` and `apns-request-id`; in token mode each
    /// device's request carries ``apnsID(forDevice:)`` instead.
    public var key: String {
        request[header: "apns-id"] ?? RequestID.uuid(for: self)
    }

    /// The `apns-id` of this record's request to the device whose token is `token` (token mode):
    /// ``RequestID/deviceID(record:token:)``, a UUIDv5 with the record's ``key`` as namespace and
    /// the lower-case hex token as name. Two devices get two ids; a retry to one device, the same.
    public func apnsID(forDevice token: String) -> String {
        RequestID.deviceID(record: self, token: token)
    }

    /// The record with its ids (`apns-id`, `apns-request-id`) in Apple's canonical lower-case
    /// form: the same UUIDs. Checkpoints written before ids were lower case hold upper-case ones;
    /// ``GameSession`` applies this to the records of its outbox and its kept `end`s as it decodes
    /// a checkpoint, so a restored record is sent with the lower-case id, and its key and the
    /// ids derived from it (``apnsID(forDevice:)``, the webhook's `Idempotency-Key`) are those
    /// of the record as it would be rendered today.
    public func withCanonicalIDs() -> PushRecord {
        var record = self
        for name in Self.idHeaders {
            if let id = record.request[header: name] { record.request[header: name] = id.lowercased() }
        }
        return record
    }
}

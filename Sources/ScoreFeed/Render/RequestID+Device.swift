import Foundation

extension RequestID {
    /// The `apns-id` of the request that sends `record` to the device whose token is `token`
    /// (token mode): the name-based UUID, version 5 (RFC 9562 §5.5, SHA-1), whose namespace is
    /// the record's id (its `apns-id` header, or ``uuid(for:)`` when it has none) and whose name
    /// is the UTF-8 bytes of the token as lower-case hex, in Apple's canonical lower-case form.
    /// That is, in Python, `str(uuid.uuid5(uuid.UUID(record_id), token.lower()))`; in Go,
    /// `uuid.NewSHA1(uuid.MustParse(recordID), []byte(strings.ToLower(token))).String()`.
    ///
    /// Why: one record fans out to many devices, and Apple asks for a unique `apns-id` per
    /// notification (clients such as `aioapns` match answers to requests by it, so two devices
    /// with one id lose answers). The record's id stays the record's key, for a sender's retries
    /// and deduplication; each device's id follows from it, so a retry to a device has the same
    /// id as the first try, and two devices (two tokens) never share one. The token's case does
    /// not matter (one device, one id). Broadcast has one request per record, with the record's id.
    public static func deviceID(record: PushRecord, token: String) -> String {
        let key = record.request[header: "apns-id"] ?? uuid(for: record)
        return deviceID(recordID: key, token: token)
    }

    /// ``deviceID(record:token:)`` for the record whose id is `recordID` (a UUID, in either case;
    /// a `recordID` that is not a UUID counts as its UTF-8 bytes in the namespace's place).
    public static func deviceID(recordID: String, token: String) -> String {
        var message: [UInt8]
        if let parsed = UUID(uuidString: recordID) {
            message = withUnsafeBytes(of: parsed.uuid) { Array($0) }
        } else {
            message = Array(recordID.utf8)
        }
        message += Array(token.lowercased().utf8)
        let digest = SHA1.digest(message)
        let high = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return uuid(high: high, low: low, version: 5)
    }
}

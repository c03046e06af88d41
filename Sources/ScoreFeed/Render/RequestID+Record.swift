import Foundation

extension RequestID {
    /// The `apns-id` of `record` under ``Rule/record``: the version-8 UUID of the first 16 bytes
    /// of MurmurHash3 x64 128 (seed 0) of, in order,
    ///
    /// 1. the activity, the request's method and its path (each as its UTF-8 byte count in 8
    ///    bytes, then its bytes), the number of the other headers covered (8 bytes) and each of
    ///    them in name order, name and value each counted the same way: every header but
    ///    `apns-id` and `apns-request-id` (the id itself), `apns-channel-id` (the channel a
    ///    per-game broadcast is stamped with as it leaves) and the two that follow;
    /// 2. `seq` (8 bytes), `sentAt` as the record's line writes it (Unix seconds to the
    ///    millisecond: the 8 bytes of the IEEE 754 value the line's number reads back as), the
    ///    values of `apns-priority` and `apns-expiration` (counted; empty when absent);
    /// 3. the payload (counted): the bytes that go to APNs;
    ///
    /// every number little-endian; in lower-case hex with the version and variant bits set. (The
    /// part that is the same on every push of an activity comes first, so a renderer hashes it
    /// once.) Everything it covers is in the record's JSON line, so a sender can compute it too.
    ///
    /// Why: a record retried (from the outbox, a checkpoint, or made again from a journal, which
    /// gives the same bytes) keeps its id, so a sender can deduplicate by it; a record with any
    /// other body gets another id, whatever `seq` an instance starts from. Two instances that
    /// number from 1 (a restart without a state dir, a fresh state dir after one was lost) share
    /// an id only for the same request made at the same instant of the engine's clock: on the
    /// feed clock, the same push of the same game; never, in practice, on the system clock.
    public static func uuid(for record: PushRecord) -> String {
        let request = record.request
        // The headers are kept in name order.
        let constant = request.fields.filter { !perPush.contains($0.name) && !uncovered.contains($0.name) }
        return RecordKey(activity: record.activity, method: request.method, path: request.path, headers: constant)
            .uuid(
                seq: record.seq, sentAt: record.sentAt, priority: request[header: "apns-priority"] ?? "",
                expiration: request[header: "apns-expiration"] ?? "", payload: record.payload)
    }

    /// The headers ``uuid(for:)`` leaves out: the id, and a per-game broadcast's channel.
    static let uncovered: Set<String> = ["apns-id", "apns-request-id", "apns-channel-id"]
    /// The headers ``uuid(for:)`` covers with each push's own part.
    static let perPush: Set<String> = ["apns-priority", "apns-expiration"]

    /// The hash of what every push of an activity shares (part 1 of ``uuid(for:)``): a renderer
    /// keeps it and hashes only each push's own part.
    struct RecordKey: Sendable {
        private var hash = Murmur3()

        /// `headers`: the covered headers but `apns-priority` and `apns-expiration`, in name order.
        init(activity: String, method: String, path: String, headers: [PushRecord.Request.Header]) {
            hash.add(counted: activity)
            hash.add(counted: method)
            hash.add(counted: path)
            hash.add(UInt64(headers.count))
            for header in headers {
                hash.add(counted: header.name)
                hash.add(counted: header.value)
            }
        }

        /// The id of the activity's push `seq`, made at `sentAt` with these headers and payload.
        func uuid(seq: Int, sentAt: Date, priority: String, expiration: String, payload: Data) -> String {
            var hash = self.hash
            hash.add(UInt64(bitPattern: Int64(seq)))
            hash.add(JSONText.written(sentAt.timeIntervalSince1970).bitPattern)
            hash.add(counted: priority)
            hash.add(counted: expiration)
            hash.add(UInt64(payload.count))
            payload.withUnsafeBytes { hash.add($0) }
            let (first, second) = hash.finished
            // The digest's bytes in order (each half is little-endian).
            return RequestID.uuid(high: first.byteSwapped, low: second.byteSwapped)
        }
    }
}

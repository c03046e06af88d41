import Foundation

extension RequestID {
    /// The `apns-id` of `record` under ``Rule/record``: the version-8 UUID of the first 16 bytes
    /// of MurmurHash3 x64 128 (seed 0) of
    ///
    /// - the activity (its UTF-8 byte count as 8 bytes, then the bytes),
    /// - `seq` (8 bytes), `sentAt` (the 8 bytes of its IEEE 754 value in Unix seconds),
    /// - the request's method and path (each counted as the activity), then the number of
    ///   headers covered (8 bytes) and each header in name order, name and value counted, except
    ///   `apns-id` and `apns-request-id` (the id itself) and `apns-channel-id` (the channel a
    ///   per-game broadcast is stamped with as it leaves),
    /// - the payload (counted): the bytes that go to APNs;
    ///
    /// every number little-endian, in upper-case hex, the version and variant bits set.
    ///
    /// Why: a record retried (from the outbox, a checkpoint, or made again from a journal, which
    /// gives the same bytes) keeps its id, so a sender can deduplicate by it; a record with any
    /// other body gets another id, whatever `seq` an instance starts from. Two instances that
    /// number from 1 (a restart without a state dir, a fresh state dir after one was lost) share
    /// an id only for the same request made at the same instant of the engine's clock: on the
    /// feed clock, the same push of the same game; never, in practice, on the system clock.
    public static func uuid(for record: PushRecord) -> String {
        var digest = RecordKey(activity: record.activity).digest(
            seq: record.seq, sentAt: record.sentAt, method: record.request.method, path: record.request.path,
            headers: record.request.headers.count { !uncovered.contains($0.key) })
        for (name, value) in record.request.headers.sorted(by: { $0.key < $1.key }) where !uncovered.contains(name) {
            digest.add(header: name, value)
        }
        return digest.uuid(payload: record.payload)
    }

    /// The headers ``uuid(for:)`` leaves out: the id, and a per-game broadcast's channel.
    static let uncovered: Set<String> = ["apns-id", "apns-request-id", "apns-channel-id"]

    /// The hash of an activity's name, where every ``uuid(for:)`` of the activity starts: a
    /// renderer keeps it and hashes only each push's own part.
    struct RecordKey: Sendable {
        private var hash = Murmur3()

        init(activity: String) {
            hash.add(counted: activity)
        }

        /// Starts the id of the activity's push `seq`, made at `sentAt` as `method` `path` with
        /// `headers` covered headers, which go next (``Digest/add(header:_:)``, in name order).
        func digest(seq: Int, sentAt: Date, method: String, path: String, headers: Int) -> Digest {
            var hash = self.hash
            hash.add(UInt64(bitPattern: Int64(seq)))
            hash.add(sentAt.timeIntervalSince1970.bitPattern)
            hash.add(counted: method)
            hash.add(counted: path)
            hash.add(UInt64(headers))
            return Digest(hash: hash)
        }
    }

    /// One push's id being made (``RecordKey/digest(seq:sentAt:method:path:headers:)``).
    struct Digest {
        fileprivate var hash: Murmur3

        /// Adds a covered header; headers go in name order.
        mutating func add(header name: String, _ value: String) {
            hash.add(counted: name)
            hash.add(counted: value)
        }

        /// The id, once `payload` (the last part) is added.
        func uuid(payload: Data) -> String {
            var hash = self.hash
            hash.add(UInt64(payload.count))
            payload.withUnsafeBytes { hash.add($0) }
            let (first, second) = hash.finished
            // The digest's bytes in order (each half is little-endian).
            return RequestID.uuid(high: first.byteSwapped, low: second.byteSwapped)
        }
    }
}

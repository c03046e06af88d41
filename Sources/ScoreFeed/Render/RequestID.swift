import Foundation

/// Deterministic `apns-id`s: the same (activity, seq) always gives the same UUID, so a sender
/// that retries a request can be deduplicated.
public enum RequestID {
    /// A version-8 UUID from two FNV-1a hashes of `activity` and `seq` (of the UTF-8 bytes of
    /// `"<activity>#<seq>"`), in upper-case hex.
    public static func uuid(activity: String, seq: Int) -> String {
        uuid(after: Prefix(activity: activity), seq: seq)
    }

    /// Both hashes after `"<activity>#"`, the start every request id of the activity shares: a
    /// renderer keeps it and hashes only the `seq` for each push.
    struct Prefix: Sendable {
        fileprivate var first = Hash(basis: 0xcbf2_9ce4_8422_2325)
        fileprivate var second = Hash(basis: 0x8422_2325_cbf2_9ce4)

        init(activity: String) {
            for byte in activity.utf8 {
                first.add(byte)
                second.add(byte)
            }
            first.add(UInt8(ascii: "#"))
            second.add(UInt8(ascii: "#"))
        }
    }

    /// ``uuid(activity:seq:)`` for the activity whose ``Prefix`` is `prefix`.
    static func uuid(after prefix: Prefix, seq: Int) -> String {
        var first = prefix.first, second = prefix.second
        for byte in String(seq).utf8 {
            first.add(byte)
            second.add(byte)
        }
        let high = first.finished, low = second.finished
        return String(unsafeUninitializedCapacity: 36) { text in
            let hex: StaticString = "0123456789ABCDEF"
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[at] = UInt8(ascii: "-")
                    at += 1
                }
                // Big-endian bytes of the two hashes, with the version (8) and variant bits set.
                var byte = UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (56 - 8 * UInt64(index % 8)))
                if index == 6 { byte = (byte & 0x0F) | 0x80 }
                if index == 8 { byte = (byte & 0x3F) | 0x80 }
                text[at] = hex.utf8Start[Int(byte >> 4)]
                text[at + 1] = hex.utf8Start[Int(byte & 0x0F)]
                at += 2
            }
            return at
        }
    }

    /// FNV-1a over bytes, with a final avalanche so nearby inputs differ in every byte.
    fileprivate struct Hash {
        var value: UInt64

        init(basis: UInt64) {
            value = basis
        }

        mutating func add(_ byte: UInt8) {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }

        var finished: UInt64 {
            var hash = value
            hash ^= hash >> 33
            hash &*= 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 33
            return hash
        }
    }
}

import Foundation

/// Deterministic request ids: version-8 UUIDs in Apple's canonical form, 32 lower-case hex
/// digits in groups of 8-4-4-4-12 (earlier versions wrote upper case; a record restored with one
/// is lower-cased as its checkpoint is read, see ``PushRecord/withCanonicalIDs()``).
///
/// - A push's `apns-id` (and `apns-request-id` in broadcast mode) follows ``Rule/record``:
///   ``uuid(for:)``, a hash of the activity, the `seq` and the request as APNs gets it, so a
///   record retried (the same bytes, from the outbox, a checkpoint or a journal applied again)
///   keeps its id, and any other body gets another, whatever numbering an instance starts from
///   (a restart without a state dir, a fresh state dir after one was lost).
/// - ``uuid(activity:seq:)`` is the first rule, a hash of (activity, seq) alone: still the
///   pushes' rule for a checkpoint's journal written before ``Rule/record`` (its records, made
///   again, keep the ids they had), and the rule of a channel delete's request id (derived from
///   the channel, the same for every retry).
/// - The `apns-id` of one device's request for a record (token mode) is
///   ``deviceID(record:token:)``: a UUIDv5 of the record's id and the device token, so a record
///   fanned out to many devices never gives two of them one id.
public enum RequestID {
    /// How a renderer makes its pushes' ids.
    public enum Rule: String, Hashable, Sendable, Codable {
        /// ``uuid(for:)``: the id covers the body.
        case record
        /// ``uuid(activity:seq:)``: the first rule, for journals written under it.
        case sequence
    }

    /// A version-8 UUID from two FNV-1a hashes of `activity` and `seq` (of the UTF-8 bytes of
    /// `"<activity>#<seq>"`), in lower-case hex.
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
        return uuid(high: first.finished, low: second.finished)
    }

    /// The UUID whose 16 bytes are `high` then `low`, each big-endian, with the version
    /// (`version`, 8 unless given) and variant bits set, in lower-case hex (Apple's canonical
    /// form): `xxxxxxxx-xxxx-8xxx-[89ab]xxx-xxxxxxxxxxxx`.
    static func uuid(high: UInt64, low: UInt64, version: UInt8 = 8) -> String {
        // The version in the high nibble of byte 6, the variant (0b10) in the top bits of byte 8.
        let high = (high & ~0xF000) | UInt64(version & 0x0F) << 12
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { text in
            let at = text.baseAddress!
            ASCIIDigits.writeHex(high >> 32, digits: 8, to: at)
            at[8] = UInt8(ascii: "-")
            ASCIIDigits.writeHex(high >> 16, digits: 4, to: at + 9)
            at[13] = UInt8(ascii: "-")
            ASCIIDigits.writeHex(high, digits: 4, to: at + 14)
            at[18] = UInt8(ascii: "-")
            ASCIIDigits.writeHex(low >> 48, digits: 4, to: at + 19)
            at[23] = UInt8(ascii: "-")
            ASCIIDigits.writeHex(low, digits: 12, to: at + 24)
            return 36
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

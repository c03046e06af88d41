import Foundation

/// Deterministic `apns-id`s: the same (activity, seq) always gives the same UUID, so a sender
/// that retries a request can be deduplicated.
public enum RequestID {
    /// A version-8 UUID from two FNV-1a hashes of `activity` and `seq`.
    public static func uuid(activity: String, seq: Int) -> String {
        let key = Array("\(activity)#\(seq)".utf8)
        var bytes = withUnsafeBytes(of: fnv1a(key, basis: 0xcbf2_9ce4_8422_2325).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: fnv1a(key, basis: 0x8422_2325_cbf2_9ce4).bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let c = Array(hex)
        return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]].map { String($0) }.joined(separator: "-").uppercased()
    }

    private static func fnv1a(_ bytes: [UInt8], basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        // Final avalanche so nearby inputs differ in every byte.
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }
}

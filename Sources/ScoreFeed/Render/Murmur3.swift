/// MurmurHash3 x64 128 (Austin Appleby's public-domain hash, seed 0), fed in pieces: the same
/// 128 bits as hashing the pieces' bytes joined, which is what `mmh3.hash_bytes` in Python and
/// the reference C code give. Not cryptographic: it tells apart the bodies ScoreFeed renders
/// (see ``RequestID``), 16 bytes per step, so a 5 KB payload costs well under a microsecond.
struct Murmur3: Sendable {
    private var h1: UInt64 = 0
    private var h2: UInt64 = 0
    /// The bytes of the block being filled, little-endian: bytes 0–7 in `k1`, 8–15 in `k2`.
    private var k1: UInt64 = 0
    private var k2: UInt64 = 0
    private var buffered = 0
    private var length = 0

    init() {}

    private static let c1: UInt64 = 0x87c3_7b91_1142_53d5
    private static let c2: UInt64 = 0x4cf5_ad43_2745_937f

    /// Adds `bytes`.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        length += count
        var at = 0
        while buffered != 0 && at < count {
            append(bytes[at])
            at += 1
        }
        while count - at >= 16 {
            mix(
                bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian,
                bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self).littleEndian)
            at += 16
        }
        while at < count {
            append(bytes[at])
            at += 1
        }
    }

    /// Adds the 8 bytes of `value`, little-endian.
    mutating func add(_ value: UInt64) {
        length += 8
        switch buffered {
        case 0:
            k1 = value
            buffered = 8
        case 8:
            k2 = value
            mix(k1, k2)
            k1 = 0
            k2 = 0
            buffered = 0
        default:
            for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
    }

    /// Adds the length of `text`'s UTF-8 (8 bytes) and then its bytes, so that two texts in a row
    /// cannot be read as two others.
    mutating func add(counted text: String) {
        add(UInt64(text.utf8.count))
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { add(UnsafeRawBufferPointer($0)) }
        if done == nil {
            for byte in text.utf8 {
                length += 1
                append(byte)
            }
        }
    }

    /// The hash of everything added: the digest's first and last 8 bytes, each read little-endian.
    var finished: (UInt64, UInt64) {
        var h1 = self.h1, h2 = self.h2
        if buffered > 8 {
            var k = k2 &* Self.c2
            k = k.rotated(33) &* Self.c1
            h2 ^= k
        }
        if buffered > 0 {
            var k = k1 &* Self.c1
            k = k.rotated(31) &* Self.c2
            h1 ^= k
        }
        h1 ^= UInt64(length)
        h2 ^= UInt64(length)
        h1 &+= h2
        h2 &+= h1
        h1 = Self.finalMix(h1)
        h2 = Self.finalMix(h2)
        h1 &+= h2
        h2 &+= h1
        return (h1, h2)
    }

    /// One byte into the block being filled; a full block is mixed in.
    private mutating func append(_ byte: UInt8) {
        if buffered < 8 {
            k1 |= UInt64(byte) << UInt64(8 * buffered)
        } else {
            k2 |= UInt64(byte) << UInt64(8 * (buffered - 8))
        }
        buffered += 1
        if buffered == 16 {
            mix(k1, k2)
            k1 = 0
            k2 = 0
            buffered = 0
        }
    }

    private mutating func mix(_ block1: UInt64, _ block2: UInt64) {
        var k1 = block1 &* Self.c1
        k1 = k1.rotated(31) &* Self.c2
        h1 ^= k1
        h1 = h1.rotated(27) &+ h2
        h1 = h1 &* 5 &+ 0x52dc_e729
        var k2 = block2 &* Self.c2
        k2 = k2.rotated(33) &* Self.c1
        h2 ^= k2
        h2 = h2.rotated(31) &+ h1
        h2 = h2 &* 5 &+ 0x3849_5ab5
    }

    private static func finalMix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}

extension UInt64 {
    fileprivate func rotated(_ bits: UInt64) -> UInt64 {
        (self << bits) | (self >> (64 - bits))
    }
}

/// MurmurHash3 x64 128 (Austin Appleby's public-domain hash, seed 0), fed in pieces: the same
/// 128 bits as hashing the pieces' bytes joined, which is what `mmh3.hash_bytes` in Python and
/// the reference C code give. Not cryptographic: it tells apart the bodies ScoreFeed renders
/// (see ``RequestID``), 16 bytes per step, so a 5 KB payload costs well under a microsecond.
struct Murmur3: Sendable {
    private var h1: UInt64 = 0
    private var h2: UInt64 = 0
    /// The block being filled, as bytes in memory (the rest zero); `buffered` of them are set.
    private var block: (UInt64, UInt64) = (0, 0)
    private var buffered = 0
    private var length = 0

    init() {}

    private static let c1: UInt64 = 0x87c3_7b91_1142_53d5
    private static let c2: UInt64 = 0x4cf5_ad43_2745_937f

    /// Adds `bytes`.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return }
        length += count
        var at = 0
        if buffered > 0 {
            // Fill the block begun before (one copy, not a byte at a time).
            let take = min(16 - buffered, count)
            let offset = buffered
            withUnsafeMutableBytes(of: &block) { ($0.baseAddress! + offset).copyMemory(from: base, byteCount: take) }
            buffered += take
            at = take
            guard buffered == 16 else { return }
            mixBlock()
        }
        while count - at >= 16 {
            mix(
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
            at += 16
        }
        if at < count {
            let rest = count - at
            withUnsafeMutableBytes(of: &block) { $0.baseAddress!.copyMemory(from: base + at, byteCount: rest) }
            buffered = rest
        }
    }

    /// Adds the 8 bytes of `value`, little-endian.
    mutating func add(_ value: UInt64) {
        switch buffered {
        case 0:
            length += 8
            block.0 = value.littleEndian
            buffered = 8
        case 8:
            length += 8
            block.1 = value.littleEndian
            buffered = 16
            mixBlock()
        default:
            withUnsafeBytes(of: value.littleEndian) { add($0) }
        }
    }

    /// Adds the length of `text`'s UTF-8 (8 bytes) and then its bytes, so that two texts in a row
    /// cannot be read as two others.
    mutating func add(counted text: String) {
        add(UInt64(text.utf8.count))
        text.readingUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of everything added: the digest's first and last 8 bytes, each read little-endian.
    var finished: (UInt64, UInt64) {
        var h1 = self.h1, h2 = self.h2
        let k1 = UInt64(littleEndian: block.0), k2 = UInt64(littleEndian: block.1)
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

    /// Mixes in the full block and empties it.
    private mutating func mixBlock() {
        mix(UInt64(littleEndian: block.0), UInt64(littleEndian: block.1))
        block = (0, 0)
        buffered = 0
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

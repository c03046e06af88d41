/// A small deterministic random number generator (xoshiro256**, seeded through SplitMix64).
///
/// The generator must give the same numbers for a seed on every platform and Swift version, so
/// that a seed names one game forever. Only integer arithmetic and exactly specified IEEE
/// operations are used; the standard library's `random(in:using:)` algorithms are avoided because
/// they are not documented to be stable.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole output is fixed by `seed`.
    public init(seed: UInt64) {
        var mixer = seed
        s0 = Self.splitMix(&mixer)
        s1 = Self.splitMix(&mixer)
        s2 = Self.splitMix(&mixer)
        s3 = Self.splitMix(&mixer)
    }

    /// One SplitMix64 step: advances `state` and returns a well-mixed 64-bit value.
    ///
    /// Also useful on its own to derive independent seeds from one seed.
    public static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }

    /// A uniform value in `0 ..< 1` with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform value in `0 ..< count` (multiply-high mapping; the bias is below 2⁻⁵⁰).
    public mutating func below(_ count: Int) -> Int {
        precondition(count > 0, "empty range")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(count)).high)
    }

    /// A uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform value in `range` (half-open at the top).
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// An index into `weights`, chosen with probability proportional to its weight.
    public mutating func weighted(_ weights: [Double]) -> Int {
        var total = 0.0
        for w in weights { total += max(0, w) }
        guard total > 0 else { return below(weights.count) }
        var x = unit() * total
        for (i, w) in weights.enumerated() where w > 0 {
            x -= w
            if x < 0 { return i }
        }
        return weights.lastIndex { $0 > 0 } ?? 0
    }
}

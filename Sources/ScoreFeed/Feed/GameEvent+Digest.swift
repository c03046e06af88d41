import Foundation

extension GameEvent {
    /// A digest of what the event says about the game (FNV-1a, 64 bits), the same in every
    /// process and version: an event that comes again with the same `seq` is a repeat when its
    /// digest is the same, and the feed editing it when not. The free-text description and the
    /// feed's timestamp are left out: a feed that rewords an action or re-times it (the NBA
    /// places an action without a time between its neighbours, which can move as actions are
    /// inserted) has not changed the game.
    public var digest: UInt64 {
        var hash = Digest()
        hash.add(seq)
        hash.add(period)
        hash.add(clock.bitPattern)
        hash.add(kind.typeName)
        switch kind {
        case .fieldGoal(let points, let made):
            hash.add(points)
            hash.add(made ? 1 : 0)
        case .freeThrow(let attempt, let of, let made, let points):
            hash.add(attempt)
            hash.add(of)
            hash.add(made ? 1 : 0)
            hash.add(points)
        case .rebound(let offensive): hash.add(offensive ? 1 : 0)
        case .turnover(let text), .violation(let text), .substitution(let text): hash.add(text)
        case .foul(let foul): hash.add(foul.rawValue)
        case .timeout(let timeout): hash.add(timeout.rawValue)
        case .replay(let ruling, let challenge):
            hash.add(ruling)
            hash.add(challenge ? 1 : 0)
        case .correction(let points): hash.add(points)
        case .other(let type): hash.add(type)
        case .periodStart, .periodEnd, .jumpBall, .steal, .block, .gameEnd: break
        }
        hash.add(team?.rawValue)
        hash.add(player)
        hash.add(feedScore?.home ?? -1)
        hash.add(feedScore?.away ?? -1)
        return hash.value
    }
}

/// FNV-1a over the fields, each followed by a separator so that adjacent fields cannot run into
/// each other.
private struct Digest {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// A whole word at a time (FNV-1a over 64-bit words): a quarter of the work of byte by byte.
    mutating func add(_ number: UInt64) {
        value = (value ^ number) &* 0x0000_0100_0000_01b3
        add(byte: 0x1F)
    }

    mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }

    /// The UTF-8 bytes eight at a time, each word little-endian (the first byte lowest), then
    /// the rest with its length in the top byte.
    mutating func add(_ text: String?) {
        guard let text else { return add(byte: 0x1E) }
        text.readingUTF8 { add(bytes: $0) }
    }

    private mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset + 8 <= raw.count {
            add(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var word: UInt64 = 0, filled: UInt64 = 0
        while offset < raw.count {
            word |= UInt64(raw[offset]) << (filled * 8)
            filled += 1
            offset += 1
        }
        add(word | (filled << 56))
    }
}

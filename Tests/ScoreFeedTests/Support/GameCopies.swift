import Foundation
import Synchronization
import Testing
@testable import ScoreFeed
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One real game's play-by-play, cut at any moment as the CDN would have served it then, with
/// that moment as its `meta.time`. Read once per file and shared (``of(_:)``): nothing in it
/// changes after `init`.
struct GameCopies: @unchecked Sendable {
    /// The copies of `file`, read on first use by any test.
    static func of(_ file: String) throws -> GameCopies {
        if let made = read.withLock({ $0[file] }) { return made }
        let made = try GameCopies(file: file)
        read.withLock { $0[file] = made }
        return made
    }

    private static let read = Mutex<[String: GameCopies]>([:])

    /// The game's actions and each action's time (its `timeActual`, else the one before it).
    let actions: [[String: Any]]
    let times: [Double]

    init(file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file)))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let game = try #require(root["game"] as? [String: Any])
        actions = try #require(game["actions"] as? [[String: Any]])
        var last = actions.lazy.compactMap { ($0["timeActual"] as? String).flatMap(ISOTime.seconds) }.first ?? 0
        times = actions.map { action in
            if let time = (action["timeActual"] as? String).flatMap(ISOTime.seconds) { last = time }
            return last
        }
        // The document around its actions and its time, and each action's bytes: written once, so
        // a copy is a concatenation, not a serialization of the whole game.
        var skeleton = root
        var inside = game
        inside["actions"] = [Self.actionsMark]
        skeleton["game"] = inside
        var meta = skeleton["meta"] as? [String: Any] ?? [:]
        meta["time"] = Self.timeMark
        skeleton["meta"] = meta
        document = try MarkedJSON(skeleton, marks: [Self.actionsMark, Self.timeMark])
        // As the file spells them (the byte reader finds them), else written again.
        let count = actions.count
        if let spelled = SimulatedGame.actionBytes(data), spelled.count == count {
            actionBytes = spelled.map { Data($0) }
        } else {
            actionBytes = try actions.map { try JSONSerialization.data(withJSONObject: $0) }
        }
        actionsLength = actionBytes.reduce(0) { $0 + $1.count + 1 }
    }

    private static let actionsMark = "@@scorefeed-actions@@", timeMark = "@@scorefeed-time@@"
    /// The document around its actions (in the array's brackets) and its `meta.time`, each
    /// action's bytes, and all of them with their commas.
    private let document: MarkedJSON
    private let actionBytes: [Data]
    private let actionsLength: Int

    var first: Double { times.min() ?? 0 }
    var span: Double { (times.max() ?? 0) - first }

    /// The actions visible at `fraction` of the game's span (0: its first action, 1 and more:
    /// all of it), in the file's order.
    func visible(at fraction: Double) -> [[String: Any]] {
        visibleIndices(at: fraction).map { actions[$0] }
    }

    /// The indices (of ``actions``) of the actions visible at `fraction` of the game's span.
    func visibleIndices(at fraction: Double) -> [Int] {
        let moment = first + fraction * span
        return actions.indices.filter { fraction >= 1 || times[$0] <= moment }
    }

    /// The game as it stood at `fraction` of its span, stamped with that moment: the actions at
    /// the indices in `replaced` (of ``actions``) replaced, and `added` after its actions (their
    /// bytes after the copy's, as a CDN's next copy has them).
    func copy(at fraction: Double, replacing replaced: [Int: [String: Any]] = [:], adding added: [Any] = []) throws -> Data {
        try copy(of: visibleIndices(at: fraction), replacing: replaced, adding: added, written: first + fraction * span)
    }

    /// ``copy(at:replacing:adding:)`` with the replacements already written (``written(_:)``):
    /// a test that cuts many copies with the same replacements writes them once.
    func copy(at fraction: Double, replacingBytes replaced: [Int: Data]) -> Data {
        copy(of: visibleIndices(at: fraction), replacingBytes: replaced, written: first + fraction * span)
    }

    /// The actions in `replaced`, each written as JSON.
    static func written(_ replaced: [Int: [String: Any]]) throws -> [Int: Data] {
        try replaced.mapValues { try JSONSerialization.data(withJSONObject: $0) }
    }

    /// A copy of the actions at `indices` (of ``actions``, as the file spells them), those in
    /// `replaced` replaced, then `added`, with `meta.time` set to `written` (Unix seconds): the
    /// CDN's spelling, without writing the whole document again.
    func copy(
        of indices: some Sequence<Int>, replacing replaced: [Int: [String: Any]] = [:], adding added: [Any] = [], written: Double
    ) throws -> Data {
        let extra = try added.map { try JSONSerialization.data(withJSONObject: $0, options: .fragmentsAllowed) }
        return copy(of: indices, replacingBytes: try Self.written(replaced), adding: extra, written: written)
    }

    private func copy(of indices: some Sequence<Int>, replacingBytes replaced: [Int: Data], adding added: [Data] = [], written: Double) -> Data {
        var actions = Data()
        actions.reserveCapacity(actionsLength)
        for bytes in indices.lazy.map({ replaced[$0] ?? actionBytes[$0] }) + added {
            if !actions.isEmpty { actions.append(UInt8(ascii: ",")) }
            actions.append(bytes)
        }
        return document.filled([actions, Data("\"\(Self.metaTime(written))\"".utf8)])
    }

    /// `written` (Unix seconds) as the CDN states it: Eastern wall-clock time without a zone,
    /// `2025-02-11 01:16:27.797538` for 06:16:27.797538 UTC.
    static func metaTime(_ seconds: Double) -> String {
        SimulatedGame.metaTime(EasternTime.wall(of: Date(timeIntervalSince1970: seconds)))
    }
}

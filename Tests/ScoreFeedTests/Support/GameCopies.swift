import Foundation
import Testing
@testable import ScoreFeed
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One real game's play-by-play, cut at any moment as the CDN would have served it then, with
/// that moment as its `meta.time`.
struct GameCopies {
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
        let text = String(decoding: try JSONSerialization.data(withJSONObject: skeleton), as: UTF8.self)
        parts = text.components(separatedBy: "\"\(Self.actionsMark)\"").flatMap { $0.components(separatedBy: "\"\(Self.timeMark)\"") }.map { Data($0.utf8) }
        // As the file spells them (the byte reader finds them), else written again.
        let count = actions.count
        if let spelled = SimulatedGame.actionBytes(data), spelled.count == count {
            actionBytes = spelled.map { Data($0) }
        } else {
            actionBytes = try actions.map { try JSONSerialization.data(withJSONObject: $0) }
        }
        timeFirst = text.range(of: Self.timeMark)!.lowerBound < text.range(of: Self.actionsMark)!.lowerBound
    }

    private static let actionsMark = "@@scorefeed-actions@@", timeMark = "@@scorefeed-time@@"
    /// The skeleton's bytes between the marks (three parts), whether the time comes first, and
    /// each action's bytes.
    private let parts: [Data]
    private let timeFirst: Bool
    private let actionBytes: [Data]

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

    /// A copy of the actions at `indices` (of ``actions``, as the file spells them), those in
    /// `replaced` replaced, then `added`, with `meta.time` set to `written` (Unix seconds): the
    /// CDN's spelling, without writing the whole document again.
    func copy(
        of indices: some Sequence<Int>, replacing replaced: [Int: [String: Any]] = [:], adding added: [Any] = [], written: Double
    ) throws -> Data {
        var shown: [Data] = []
        for index in indices {
            shown.append(try replaced[index].map { try JSONSerialization.data(withJSONObject: $0) } ?? actionBytes[index])
        }
        shown += try added.map { try JSONSerialization.data(withJSONObject: $0, options: .fragmentsAllowed) }
        // The skeleton holds the array's brackets.
        var actions = Data()
        for (index, bytes) in shown.enumerated() {
            if index > 0 { actions.append(UInt8(ascii: ",")) }
            actions.append(bytes)
        }
        let time = Data("\"\(Self.metaTime(written))\"".utf8)
        let (one, two) = timeFirst ? (time, actions) : (actions, time)
        return parts[0] + one + parts[1] + two + parts[2]
    }

    /// `2025-02-11 01:16:27.797538`.
    static func metaTime(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        var time = tm()
        var t = time_t(whole)
        gmtime_r(&t, &time)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d.%06d", Int(time.tm_year) + 1900, Int(time.tm_mon) + 1, Int(time.tm_mday),
            Int(time.tm_hour), Int(time.tm_min), Int(time.tm_sec), Int(((seconds - Double(whole)) * 1e6).rounded(.down)))
    }
}

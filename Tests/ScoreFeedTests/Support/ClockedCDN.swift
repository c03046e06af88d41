import Foundation
import Testing
@testable import ScoreFeed

/// A real game served live on a ``SimulatedClock``: its play-by-play holds the actions whose time
/// has come (the game's first action at the clock's start), its boxscore says live until the
/// game is over; held at a fraction of its span, the feed goes silent there while the boxscore
/// still says live. A request whose document has not changed since this source last answered it
/// is a 304, as a conditional GET would be.
actor ClockedCDN: LiveSource {
    let clock: SimulatedClock
    let copies: GameCopies
    /// The boxscore as the file has it (the game over), and while live: written once with marks
    /// where its status and scores go, cut there (five parts), so an answer is a concatenation.
    let finalBox: Data
    let liveBox: [Data]
    let start: Date
    let holdAt: Double?
    private var lastVisible: [URL: Int] = [:]
    private(set) var requests = 0

    init(file: String, clock: SimulatedClock, holdAt: Double?) throws {
        self.clock = clock
        copies = try GameCopies.of(file)
        let boxData = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file.replacingOccurrences(of: "playbyplay", with: "boxscore"))))
        var root = try #require(try JSONSerialization.jsonObject(with: boxData) as? [String: Any])
        finalBox = try JSONSerialization.data(withJSONObject: root)
        var game = root["game"] as? [String: Any] ?? [:]
        game["gameStatus"] = Self.marks[0]
        game["gameStatusText"] = Self.marks[1]
        for (side, mark) in [("homeTeam", Self.marks[2]), ("awayTeam", Self.marks[3])] {
            var team = game[side] as? [String: Any] ?? [:]
            team["score"] = mark
            game[side] = team
        }
        root["game"] = game
        // The marks, quotes included, in the order the template has them.
        var rest = String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
        var parts: [Data] = [], order: [Int] = []
        while case let (index, range)? = Self.marks.indices.compactMap({ index in rest.range(of: "\"\(Self.marks[index])\"").map { (index, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound }) {
            parts.append(Data(rest[..<range.lowerBound].utf8))
            order.append(index)
            rest = String(rest[range.upperBound...])
        }
        parts.append(Data(rest.utf8))
        try #require(order.count == Self.marks.count, "every mark once in the boxscore's template")
        liveBox = parts
        markOrder = order
        start = clock.now
        self.holdAt = holdAt
    }

    private static let marks = ["@@status@@", "@@text@@", "@@home@@", "@@away@@"]
    /// Which mark (of ``marks``) each cut of ``liveBox`` stood for.
    private let markOrder: [Int]

    /// How far into its span the game stands now.
    var fraction: Double {
        let elapsed = clock.now.timeIntervalSince(start) / max(1, copies.span)
        return min(elapsed, holdAt ?? .infinity)
    }

    func get(_ url: URL, validators: inout LiveFetcher.Validators) async -> LiveFetcher.Answer {
        requests += 1
        let fraction = fraction
        let shown = copies.visibleIndices(at: fraction)
        let visible = shown.count
        // The same document as this client's last answer: 304.
        let key = visible * 2 + (fraction >= 1 ? 1 : 0)
        if lastVisible[url] == key { return .notModified }
        lastVisible[url] = key
        do {
            if url.path.contains("boxscore") {
                guard fraction < 1 else { return .body(finalBox) }
                let last = shown.last.map { copies.actions[$0] }
                let values = [
                    visible == 0 ? "1" : "2",
                    "\"" + (visible == 0 ? "7:30 pm ET" : "Q\((last?["period"] as? Int) ?? 1)") + "\"",
                    "\(Int(last?["scoreHome"] as? String ?? "0") ?? 0)", "\(Int(last?["scoreAway"] as? String ?? "0") ?? 0)",
                ]
                var body = liveBox[0]
                for (cut, mark) in markOrder.enumerated() {
                    body.append(Data(values[mark].utf8))
                    body.append(liveBox[cut + 1])
                }
                return .body(body)
            }
            return .body(try copies.copy(at: fraction))
        } catch {
            return .failed(ScoreFeedError(.io, "\(error)"), retryAfter: nil)
        }
    }
}

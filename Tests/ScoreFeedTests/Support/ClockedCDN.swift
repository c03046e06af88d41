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
    /// The boxscore as the file has it (the game over), and while live: with marks where its
    /// status, status text and scores go.
    let finalBox: Data
    let liveBox: MarkedJSON
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
        liveBox = try MarkedJSON(root, marks: Self.marks)
        start = clock.now
        self.holdAt = holdAt
    }

    private static let marks = ["@@status@@", "@@text@@", "@@home@@", "@@away@@"]

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
                return .body(liveBox.filled(values.map { Data($0.utf8) }))
            }
            return .body(try copies.copy(at: fraction))
        } catch {
            return .failed(ScoreFeedError(.io, "\(error)"), retryAfter: nil)
        }
    }
}

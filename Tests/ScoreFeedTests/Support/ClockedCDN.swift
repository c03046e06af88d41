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
    let box: [String: Any]
    let start: Date
    let holdAt: Double?
    private var lastVisible: [URL: Int] = [:]
    private(set) var requests = 0

    init(file: String, clock: SimulatedClock, holdAt: Double?) throws {
        self.clock = clock
        copies = try GameCopies(file: file)
        let boxData = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(file.replacingOccurrences(of: "playbyplay", with: "boxscore"))))
        box = try #require(try JSONSerialization.jsonObject(with: boxData) as? [String: Any])
        start = clock.now
        self.holdAt = holdAt
    }

    /// How far into its span the game stands now.
    var fraction: Double {
        let elapsed = clock.now.timeIntervalSince(start) / max(1, copies.span)
        return min(elapsed, holdAt ?? .infinity)
    }

    func get(_ url: URL, validators: inout LiveFetcher.Validators) async -> LiveFetcher.Answer {
        requests += 1
        let fraction = fraction
        let shown = copies.visible(at: fraction)
        let visible = shown.count
        // The same document as this client's last answer: 304.
        let key = visible * 2 + (fraction >= 1 ? 1 : 0)
        if lastVisible[url] == key { return .notModified }
        lastVisible[url] = key
        do {
            if url.path.contains("boxscore") {
                var root = box
                var game = root["game"] as? [String: Any] ?? [:]
                let last = shown.last
                if fraction < 1 {
                    game["gameStatus"] = visible == 0 ? 1 : 2
                    game["gameStatusText"] = visible == 0 ? "7:30 pm ET" : "Q\((last?["period"] as? Int) ?? 1)"
                    for (side, key) in [("homeTeam", "scoreHome"), ("awayTeam", "scoreAway")] {
                        var team = game[side] as? [String: Any] ?? [:]
                        team["score"] = Int(last?[key] as? String ?? "0") ?? 0
                        game[side] = team
                    }
                }
                root["game"] = game
                return .body(try JSONSerialization.data(withJSONObject: root))
            }
            return .body(try copies.copy(at: fraction))
        } catch {
            return .failed(ScoreFeedError(.io, "\(error)"), retryAfter: nil)
        }
    }
}

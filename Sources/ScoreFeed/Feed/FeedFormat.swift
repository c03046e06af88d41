/// The kinds of game file ScoreFeed reads. ``FeedReader`` tells them apart by content, never by
/// file name, and every one of them becomes the same ``FeedDocument``.
public enum FeedFormat: String, Hashable, Sendable, CaseIterable {
    /// ScoreFeed's own fixture format (`Fixtures/README.md`).
    case fixture = "scorefeed-fixture/1"
    /// The NBA's liveData play-by-play (`{"meta", "game": {"gameId", "actions": [...]}}`), exact
    /// `timeActual` on every action.
    case liveData = "nba-livedata"
    /// stats.nba.com `playbyplayv2` (`resultSets`, `SCORE` as "away - home"), minute-precision
    /// wall clock.
    case statsV2 = "nba-stats-playbyplayv2"
    /// playbyplayv3-style action lists (an nba.com game page's `props.pageProps.playByPlay`, or
    /// the v3 endpoint's `game.actions`), no per-action wall clock.
    case playByPlayV3 = "nba-playbyplayv3"

    /// What to call the format in messages.
    public var displayName: String {
        switch self {
        case .fixture: "ScoreFeed fixture"
        case .liveData: "NBA liveData play-by-play"
        case .statsV2: "stats.nba.com playbyplayv2"
        case .playByPlayV3: "NBA playbyplayv3 actions"
        }
    }
}

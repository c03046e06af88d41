import Foundation

extension SimulatedDay {
    /// A day a test scripts instead of drawing: these games, these kills, this sender. The day
    /// starts ten minutes before its first tip-off, as a drawn one does.
    public init(
        scripted games: [Game], mode: PushRenderer.Mode, platform: PushRenderer.Platform = .ios, seed: UInt64 = 1, restarts: [Restart] = [],
        sink: SinkFaults = SinkFaults(), pollInterval: TimeInterval = 30
    ) {
        index = 0
        self.seed = seed
        self.mode = mode
        platforms = [platform]
        self.games = games
        self.restarts = restarts.sorted { $0.at < $1.at }
        self.sink = sink
        self.pollInterval = pollInterval
        start = (games.map(\.tipOff).min() ?? Date(timeIntervalSince1970: 1_735_689_600)).addingTimeInterval(-600)
    }
}

extension SimulatedDay.Game {
    /// `game` played from `tipOff` (its first action five minutes later), followed from before
    /// tip-off, with nothing going wrong; a script changes what it needs.
    public init(_ game: SimulatedGame, path: SimulatedDay.Path = .poll, tipOff: Date = Date(timeIntervalSince1970: 1_735_689_600)) {
        self.init(
            game: game, path: path, tipOff: tipOff, lead: 300, fate: .plays, join: nil, backlogBatches: 1, outages: [], timeouts: [],
            hostile: [], staleShare: 0)
    }

    /// The moment `share` of the game's timeline has been played (0: its first action, 1: its last).
    public func moment(_ share: Double) -> Date {
        firstAction.addingTimeInterval(share * game.span)
    }
}

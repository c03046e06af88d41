import Foundation

/// The broadcast channels of every game a service follows, as one pure value: what spans games.
/// Each game's session owns its channel's truth; the board keeps each channel as the game's
/// engine last reported it (what `channels.json` shows and the cap counts), the creates decided
/// and not yet reported back (counted against the cap), the games waiting for a free channel in
/// order, how long each game's unanswered channel work backs off, and which games' held pushes
/// were said. ``GameService`` tells it what happened and carries out the ``Action``s it returns.
public struct ChannelBoard: Sendable {
    /// Whether each game has its own channel (broadcast mode without a fixed channel id).
    public let perGame: Bool
    public let management: ChannelManagement
    /// Each game's channel as its engine last reported it.
    public private(set) var channels: [String: BroadcastChannel] = [:]
    /// Games whose create is decided and not yet reported back by their engine.
    public private(set) var reserved: Set<String> = []
    /// Games that wait for a free channel (past ``ChannelManagement/maxChannels``), in order.
    public private(set) var waiting: [String] = []
    /// When each game whose channel work waits on the sink is woken again, and the wait after
    /// that one.
    private var retry: [String: (at: Date, next: TimeInterval)] = [:]
    /// Games whose held pushes (no channel to send on) were reported.
    private var reportedHolds: Set<String> = []
    /// Channels ScoreFeed made for games whose checkpoints were lost, as `channels.json` still
    /// showed them at the restart (``salvage(from:)``): each game takes its own back when it
    /// starts again (its header, or a poller), and a drain deletes those no device listens to any
    /// more (``salvagedToDelete(now:)``); the others stay in `channels.json` for the next run.
    public private(set) var salvaged: [String: ChannelDirectory.Entry] = [:]

    /// What the service is to do.
    public enum Action: Hashable, Sendable {
        /// Give `game` its channel (a create goes at once), then report the engine back.
        case setUp(game: String, MatchEngine.ChannelSetup)
        /// A line for people.
        case report(String)
        /// Rewrite `channels.json` from ``channels``.
        case writeDirectory
        /// Wake `game` at `at`: its channel work waits on the sink.
        case wake(game: String, at: Date)
    }

    public init(perGame: Bool, management: ChannelManagement) {
        self.perGame = perGame
        self.management = management
    }

    /// How many channels ScoreFeed holds or is making at APNs: what the cap counts.
    public var live: Int {
        channels.values.filter(\.isLive).count + reserved.filter { channels[$0]?.isLive != true }.count + salvaged.count
    }

    /// Keeps, from the `channels.json` the last run left (`directory`), the channels ScoreFeed
    /// made for games no checkpoint restored (damaged, or removed), still open or lingering: the
    /// devices that started those games' activities subscribed to them, and a new channel would
    /// never reach them. Returns the games kept.
    public mutating func salvage(from directory: ChannelDirectory) -> [String] {
        guard perGame, management.manage else { return [] }
        for (game, entry) in directory.games.sorted(by: { $0.key < $1.key }) where channels[game] == nil && entry.origin == BroadcastChannel.Origin.scorefeed.rawValue {
            guard entry.state == "open" || entry.state == "lingering", let id = entry.channel, BroadcastChannel.problem(with: id) == nil,
                  !channels.values.contains(where: { $0.id == id }), !salvaged.values.contains(where: { $0.channel == id })
            else { continue }
            salvaged[game] = entry
        }
        return salvaged.keys.sorted()
    }

    /// How long after it opened a kept channel may still have devices listening: an activity
    /// lives 8 hours, then stays on the lock screen up to 4 more.
    public static let keptChannelLife: TimeInterval = 12 * 3600

    /// The games whose kept channel no device listens to any more at `now` (wall clock): their
    /// game ended (the channel lingered), or it opened more than ``keptChannelLife`` ago (or
    /// when is not known). A drain deletes those; the others wait for their games, run after run.
    public func salvagedToDelete(now: Date) -> [String] {
        salvaged.filter { _, entry in
            guard entry.state == "open", let created = entry.created else { return true }
            return now.timeIntervalSince1970 - created >= Self.keptChannelLife
        }.keys.sorted()
    }

    /// Forgets the salvaged channels of `games` (deleted, or gone at APNs).
    public mutating func dropSalvaged(_ games: some Sequence<String>) {
        for game in games { salvaged[game] = nil }
    }

    /// Keeps `entry` for `game` again (its delete failed), unless the game has a channel by now.
    public mutating func keep(_ game: String, _ entry: ChannelDirectory.Entry) {
        guard channels[game] == nil, !reserved.contains(game) else { return }
        salvaged[game] = entry
    }

    /// Forgets the kept channels APNs no longer lists (`listed`: all of the app's): a
    /// `channels.json` older than APNs' state (a delete answered just before a kill) must not
    /// give a game back a channel that is gone. Returns their games.
    public mutating func dropSalvaged(notIn listed: Set<String>) -> [String] {
        let gone = salvaged.filter { !listed.contains($0.value.channel ?? "") }.keys.sorted()
        dropSalvaged(gone)
        return gone
    }

    /// A game restored from its checkpoint, with the channel it had.
    public mutating func restored(_ game: String, channel: BroadcastChannel) {
        guard perGame else { return }
        channels[game] = channel
    }

    /// A game starts (its header, with your backend's `header` channel, or a poller), or a game
    /// is live again without a channel: with none yet, it gets one: the header's, or, managing,
    /// a created one within the cap (past it, the game waits for a channel to be deleted).
    public mutating func start(_ game: String, header: String?) -> [Action] {
        guard perGame, case .none = channels[game]?.phase ?? .none, !reserved.contains(game) else { return [] }
        if let header {
            if let problem = BroadcastChannel.problem(with: header) {
                return [.setUp(game: game, .refuse("its header's \"channel\" \(problem)"))]
            }
            if let other = channels.first(where: { $0.key != game && $0.value.id == header })?.key
                ?? salvaged.first(where: { $0.key != game && $0.value.channel == header })?.key {
                return [.setUp(game: game, .refuse("its header's \"channel\" \(header) is game \(other)'s; two games never share one"))]
            }
            // Your backend's channel: one kept for the game is no game's now (the reconciliation
            // finds it), and `channels.json` shows the header's.
            salvaged[game] = nil
            return [.setUp(game: game, .use(header))]
        }
        guard management.manage else { return [] }
        // The channel made for the game before its checkpoint was lost: already counted.
        if let entry = salvaged.removeValue(forKey: game), let id = entry.channel {
            waiting.removeAll { $0 == game }
            reserved.insert(game)
            return [.setUp(game: game, .adopt(id, storage: entry.storage, created: entry.created.map(Date.init(timeIntervalSince1970:))))]
        }
        if live >= management.maxChannels {
            guard !waiting.contains(game) else { return [] }
            waiting.append(game)
            return [.report("game \(game): ScoreFeed already keeps \(live) channels, the most --max-channels allows (\(management.maxChannels)); no create was sent, and the game holds its pushes until a channel is deleted")]
        }
        waiting.removeAll { $0 == game }
        reserved.insert(game)
        return [.setUp(game: game, .create)]
    }

    /// Games that waited for a free channel get one, as far as the cap now allows.
    public mutating func grantFreed() -> [Action] {
        var actions: [Action] = []
        while let game = waiting.first, live < management.maxChannels {
            waiting.removeFirst()
            actions += start(game, header: nil)
        }
        return actions
    }

    /// When `game`'s channel work, waiting on the sink, is tried again (nil: none waits).
    public func retry(of game: String) -> Date? {
        retry[game]?.at
    }

    /// The longest wait before channel work that waits on the sink is tried again.
    public static let longestRetry: TimeInterval = 60

    /// `game`'s engine reported its channel at `now` (wall clock), with what APNs' answers did to
    /// it since the last report (`news`), whether its pushes wait for want of a channel
    /// (`holding`) and whether channel work waits on the sink (`workWaits`: a request the sink did
    /// not answer, or a delete behind pushes it still holds). The board keeps the channel, says
    /// its news, backs off the work that waits, says once that its pushes are held, and gives a
    /// new channel to a game live again whose channel ScoreFeed deleted. Without a channel per
    /// game (token mode, or one channel for all) there is nothing to keep.
    public mutating func reported(
        _ game: String, _ channel: BroadcastChannel, news: [BroadcastChannel.Outcome] = [], holding: Bool = false,
        workWaits: Bool = false, now: Date
    ) -> [Action] {
        guard perGame else { return [] }
        var actions: [Action] = []
        if workWaits {
            // Woken again, backing off from 1 s to a minute: a try after each wake. Another call
            // of the game's engine before the wake (an event, a held push) keeps it: its try
            // does not grow the wait.
            if now >= retry[game]?.at ?? .distantPast {
                let delay = retry[game]?.next ?? 1
                retry[game] = (now.addingTimeInterval(delay), min(delay * 2, Self.longestRetry))
            }
            if let at = retry[game]?.at { actions.append(.wake(game: game, at: at)) }
        } else {
            retry[game] = nil
        }
        reserved.remove(game)
        if channels[game] != channel {
            channels[game] = channel
            actions.append(.writeDirectory)
        }
        for outcome in news {
            switch outcome {
            case .opened(let channel): actions.append(.report("game \(game): broadcast channel \(channel) created"))
            case .deleted(let channel, let gone):
                actions.append(.report("game \(game): broadcast channel \(channel) deleted" + (gone ? " (APNs no longer knew it: deleted before)" : "")))
            case .refused(let why): actions.append(.report("game \(game): \(why); its pushes wait"))
            case .takenBack(let channel, let why):
                actions.append(.report("game \(game): \(why); the game is live again and goes on on channel \(channel)"))
            case .unusable(let why): actions.append(.report("game \(game): \(why); the request is sent again later"))
            case .ignored: break
            }
        }
        if holding, reportedHolds.insert(game).inserted {
            let why: String
            switch channel.phase {
            case .refused(let reason, _): why = reason
            case .creating: why = "its channel is being created"
            default:
                why = management.manage ? "its channel is not open" : "its header has no \"channel\" and --channels manage is off"
            }
            actions.append(.report("game \(game): no broadcast channel to send on (\(why)); its pushes wait, the newest state only, and never go to another game's channel"))
        }
        // A game called off whose feed came back lost the channel ScoreFeed made for it: once
        // its pushes wait for one, it gets a new one.
        if management.manage, holding, case .none = channel.phase, channel.creates > 0, !waiting.contains(game) {
            actions += start(game, header: nil)
        }
        return actions
    }

    /// The channels APNs listed that no game owns, and whether they may be deleted: only when
    /// every channel of the app is this directory's (``ChannelManagement/deleteUnknown``), no
    /// create is unanswered (its answer may still hand one back) and no game uses your backend's
    /// channels. `why` says why they are kept, when they are.
    public func unknown(in listed: [String]) -> (unknown: [String], deletable: Bool, why: String?) {
        let owned = Set(channels.values.compactMap(\.id) + salvaged.values.compactMap(\.channel))
        let unknown = listed.filter { !owned.contains($0) }.sorted()
        guard !unknown.isEmpty else { return ([], false, nil) }
        let creating = channels.filter { if case .creating = $0.value.phase { true } else { false } }.keys.sorted()
        let backend = channels.values.contains { $0.origin == .header }
        guard management.deleteUnknown, creating.isEmpty, !backend else {
            let why = !management.deleteUnknown
                ? "if every channel of this app is this state directory's, --delete-unknown-channels deletes them"
                : !creating.isEmpty
                    ? "not deleted while the create of \(creating.prefix(5).joined(separator: ", ")) is unanswered (a later reconciliation deletes them)"
                    : "not deleted: games here use channels your backend made, so not every channel of this app is ScoreFeed's"
            return (unknown, false, why)
        }
        return (unknown, true, nil)
    }

    /// `channels.json`'s content.
    public var directory: ChannelDirectory {
        var directory = ChannelDirectory()
        for (id, channel) in channels { directory.games[id] = .init(channel) }
        for (id, entry) in salvaged { directory.games[id] = entry }
        return directory
    }
}

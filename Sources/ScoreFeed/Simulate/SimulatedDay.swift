import Foundation
import ScoreFeedModel

/// What one simulated live day holds and what goes wrong in it, drawn from a seed: 5–15 games
/// (polled from a CDN, or read from `serve`'s input), each with its tip-off, its fate (played,
/// postponed, silent, a comeback) and its faults, the instance's crashes and restarts, and the
/// push sender's troubles. Pure: the same seed and games give the same day.
public struct SimulatedDay: Sendable {
    public var index: Int
    public var seed: UInt64
    public var mode: PushRenderer.Mode
    /// When the day's first poller may start (10 minutes before the first tip-off).
    public var start: Date
    public var games: [Game]
    /// The instance dies (`kill -9`) at each of these moments and another starts.
    public var restarts: [Restart]
    public var sink: SinkFaults
    /// The state directory's disk is full in these windows: every write of a snapshot or a
    /// journal fails (`ENOSPC`), and the games' pushes wait until their state can be kept.
    public var diskFull: [Range<Date>] = []
    /// The state directory's disk fails in these windows (`EIO`, a device's error): every write
    /// and every sync of a snapshot or a journal fails; a journal that took lines it could not
    /// sync is not trusted again, and its game writes a snapshot once the disk works.
    public var diskErrors: [Range<Date>] = []
    /// A storm: one day in five, the faults that do most harm together come together (more games
    /// read by `serve`, more backlogs split, more stale edges, an instance lost with its state
    /// directory while games are on and replaced within a minute (and in one storm in two the new
    /// one killed in its first minute), more drawn restarts that lose it, a sender slow on every request (each takes up to 1–30 s) and down as a game ends, the
    /// instance killed before it is back). Alone each is common enough; a fault that needs them
    /// all at once would hide in days drawn one fault at a time.
    public var isStorm = false
    /// The day is the night the clocks go back (2025-11-02), its first tip-off at 11 pm Eastern
    /// daylight time: the hour from 1 a.m. comes twice in the feed's `meta.time`, and most of the
    /// day's games are live across the change (one day in twenty; the first tip-offs end before
    /// it, the last begin after it).
    public var fallsBack = false
    /// Poll games whose requests from a storm's third instance time out for its first minutes
    /// (drawn with the storm): the waits for a fresh copy it restored go on through them.
    public var hungFirstRequests = 0
    /// Restarts drawn on an empty state directory in a poll game's long break (``init(index:seed:mode:platform:pool:pollInterval:games:losingState:killsInFinalWrites:powerCuts:lossesInBreaks:)``).
    public var statesLostInBreaks = 0
    /// What the poll path waits between requests.
    public var pollInterval: TimeInterval
    /// Room for the poll that sees a comeback besides its interval (a backoff, a `Retry-After`, a
    /// stale copy), ten minutes: see ``followsComeback(_:interval:)``.
    public static let comebackMargin: TimeInterval = 600

    /// Whether a poller that polls every `interval` sees `plan`'s comeback before it gives the game
    /// up (``SimulationInvariants/expectedGiveUpAfter`` of nothing new): the silence it sees (the
    /// pause and the gap between the actions around it, a halftime's quarter of an hour, say),
    /// the feed's troubles in the give-up's span after the comeback (outages, time-outs, garbage),
    /// the interval and ``comebackMargin`` all fit in it.
    public static func followsComeback(_ plan: Game, interval: TimeInterval) -> Bool {
        guard case .comeback(let share, let pause) = plan.fate else { return false }
        let hold = share * plan.game.span
        let before = plan.game.actions.last { $0.offset <= hold }?.offset ?? 0
        let after = plan.game.actions.first { $0.offset > hold }?.offset ?? plan.game.span
        let back = plan.firstAction.addingTimeInterval(after + pause)
        let watched = back..<back.addingTimeInterval(SimulationInvariants.expectedGiveUpAfter)
        let troubles = (plan.outages + plan.timeouts + plan.hostile).filter { $0.overlaps(watched) }
            .reduce(0) { $0 + $1.upperBound.timeIntervalSince($1.lowerBound) }
        return after - before + pause + troubles + interval + comebackMargin < SimulationInvariants.expectedGiveUpAfter
    }
    /// How long a request that times out takes (the poller's `--timeout`; a drawn day's is the
    /// default, 10 s).
    public var requestTimeout: TimeInterval = 10
    /// The most channels ScoreFeed keeps at once (`--max-channels`; a drawn day's is the
    /// default): a game past it holds its pushes until another game's channel is deleted.
    public var maxChannels: Int?

    /// Whether a broadcast game may wait for its channel: APNs refuses creates, or the cap holds it.
    var channelsWait: Bool { sink.channelRefusals > 0 || maxChannels != nil }
    /// Token mode: each game's activity is started by a push (`--start`), a game that comes back
    /// after it was ended by a new one.
    public var startsActivities = false
    /// The lock screens the day's records are for: iOS (APNs), Android (FCM, whose broadcast
    /// goes to topics: no channels, so no channel faults), or both from one fold
    /// (`--platform ios,android`: each game an APNs lane and an FCM lane). With more than one,
    /// the day's drawn failure of one platform's pushes is in the sender's faults
    /// (``SinkFaults/platformFailing``).
    public var platforms: [PushRenderer.Platform] = [.ios] {
        didSet { sink.platformFailing = platforms.count > 1 ? drawnPlatformFailing : [] }
    }

    /// A window in which one platform's pushes all fail (FCM down while APNs answers, or the
    /// other way), drawn for every day and in the sender's faults only on a day with a lane for
    /// each platform (on one platform alone it would be a sink outage).
    private var drawnPlatformFailing: [SinkFaults.PlatformFailure] = []

    /// The first lane's platform (the only one's, on one platform).
    public var platform: PushRenderer.Platform {
        get { platforms[0] }
        set { platforms = [newValue] }
    }

    /// The platforms' names as the CLI spells them: `ios`, `android`, `ios,android`.
    public var platformName: String { platforms.map(\.rawValue).joined(separator: ",") }

    /// The same day as one of its platforms sees it: what that lane's records must meet. Its own
    /// platform's failure is a sink outage there; the other platform's is none of its trouble.
    public func alone(_ platform: PushRenderer.Platform) -> SimulatedDay {
        var day = self
        day.platforms = [platform]
        day.sink.failing = sink.failing(platform)
        return day
    }

    /// Whether games have channels the service makes and deletes (iOS broadcast mode).
    public var hasChannels: Bool { platform == .ios && mode == .broadcastPerGame }

    /// The policy of the day's platform.
    public var coalescer: Coalescer.Configuration {
        var configuration: Coalescer.Configuration = platform == .android ? .android : .standard
        configuration.minInterval = minInterval
        return configuration
    }

    /// The least time between two pushes of an activity (``Coalescer/Configuration/minInterval``,
    /// a library's setting: Apple asks about a second between broadcast updates); 0 on most days.
    public var minInterval: TimeInterval = 0

    /// How one game goes.
    public enum Fate: Hashable, Sendable {
        case plays
        /// Called off before tip-off: the play-by-play never appears, the boxscore says PPD.
        case postponed
        /// The feed stops at this share of the game and never comes back.
        case silent(at: Double)
        /// The feed stops at this share of the game for this many seconds, then plays on.
        case comeback(at: Double, after: TimeInterval)
    }

    /// How the game reaches the service.
    public enum Path: String, Hashable, Sendable {
        case poll, serve
    }

    public struct Game: Sendable {
        public var game: SimulatedGame
        public var path: Path
        public var tipOff: Date
        /// Seconds from tip-off to the first action.
        public var lead: TimeInterval
        public var fate: Fate
        /// The service first hears of the game at this moment (a poller started late, serve's
        /// input joined late: its backlog comes at once); nil: from before tip-off.
        public var join: Date?
        /// serve: the backlog of a join or a restart comes in this many batches.
        public var backlogBatches: Int
        /// serve: the lines that appear in these windows are held back and handed in at once at
        /// the window's end, as a relay that stalls and then flushes sends them: one arrival,
        /// mostly spanning more than a live moment, and not a join.
        public var stalls: [Range<Date>] = []
        /// poll: the CDN's endpoints answer 503 in these windows, time out in these, and answer
        /// garbage in these.
        public var outages: [Range<Date>]
        public var timeouts: [Range<Date>]
        public var hostile: [Range<Date>]
        /// poll: as ``outages``, for the boxscore alone (drawn across some played games' ends).
        public var boxscoreOutages: [Range<Date>] = []
        /// poll: the play-by-play alone answers 503 (without a `Retry-After`) in these windows,
        /// while the boxscore answers (drawn across some played games' ends).
        public var playByPlayOutages: [Range<Date>] = []
        /// poll: the boxscore answers 503 to every other request in this window (a flaky edge
        /// after the final; drawn with some play-by-play outages), and a 304 or the final between:
        /// never two failures in a row, so the final boxscore keeps deciding the game's end.
        public var flakyBoxscore: Range<Date>?
        /// poll: the `Retry-After` the 503s of ``playByPlayOutages`` say (nil: none).
        public var playByPlayRetryAfter: TimeInterval?
        /// poll: the `Retry-After` every 503 of an outage says (a test's script); nil: half of
        /// them say ``drawnRetryAfter``.
        public var outageRetryAfter: TimeInterval?
        /// poll: the `Retry-After` half of an outage's 503s say where ``outageRetryAfter`` is nil:
        /// the game's edge's setting, drawn for each game of a drawn day
        /// (``SimulatedCDN/drawnRetryAfters``), 30 s in a script.
        public var drawnRetryAfter: TimeInterval = 30
        /// poll: the share of answers that come from a stale edge (an older copy).
        public var staleShare: Double
        /// poll: the CDN stamps a copy (`meta.time`) when its document last changed, as an origin
        /// that writes a file on each change does, not when it was asked for: two copies of one
        /// content say the same time, so after a restart the first copy's stamp and highest action
        /// number are those its checkpoint holds, and in a lull a fresh copy says it is minutes
        /// old. False: each answer is stamped as it is made (an origin that writes on request).
        public var stampsWhenWritten = false
        /// poll: a postponed game's boxscore never says so: it stays scheduled at its tip-off's
        /// time (status 1, "7:00 pm ET"), so only the poller's watch calls the game off,
        /// ``SimulationInvariants/expectedGiveUpAfter`` after its tip-off.
        public var postponedUnsaid = false
        /// poll: the poller is told the game's tip-off as it starts (the scoreboard's
        /// `gameTimeUTC`); false: it learns it from the boxscore, as `poll --games` does.
        public var tipOffKnown = true
        /// poll: in these windows every answer comes from a stale edge, the copy of `lag` seconds
        /// before (a test's script; on a drawn day, a storm's new instances' first polls).
        public var staleWindows: [(during: Range<Date>, lag: TimeInterval)] = []
        /// poll: as ``staleWindows``, for the boxscore alone (its edge lags while the
        /// play-by-play's answers are fresh).
        public var staleBoxscoreWindows: [(during: Range<Date>, lag: TimeInterval)] = []
        /// poll: as ``staleWindows``, for the play-by-play alone (its edge lags while the
        /// boxscore's answers are fresh).
        public var stalePlayByPlayWindows: [(during: Range<Date>, lag: TimeInterval)] = []
        /// Whether some answers come from a stale edge (drawn or scripted).
        public var hasStaleEdge: Bool {
            staleShare > 0 || !staleWindows.isEmpty || !staleBoxscoreWindows.isEmpty || !stalePlayByPlayWindows.isEmpty
        }

        public var firstAction: Date { tipOff.addingTimeInterval(lead) }

        /// Seconds of the game's timeline played at `date` (the feed's actions with an offset
        /// up to it have appeared); negative before the first action.
        public func elapsed(at date: Date) -> Double {
            let t = date.timeIntervalSince(firstAction)
            switch fate {
            case .plays, .postponed: return t
            case .silent(let share): return min(t, share * game.span)
            case .comeback(let share, let pause):
                let hold = share * game.span
                return t < hold ? t : t < hold + pause ? hold : t - pause
            }
        }

        /// When a copy made at `date` (`elapsed` into the game's timeline then) says it was
        /// written (its `meta.time`), with the first `visible` actions: `date` itself, or, where the CDN stamps a copy when its document last
        /// changed (``stampsWhenWritten``), when it came to list what it lists (the newest of them
        /// appeared, or the deleted basket went) or, for a boxscore, went final (`final`). A
        /// document that lists nothing yet was written hours before tip-off (or as it is asked
        /// for, before that).
        func written(at date: Date, elapsed: Double, visible: Int, final: Bool = false) -> Date {
            guard stampsWhenWritten else { return date }
            let changed = game.changed(at: elapsed, visible: visible).flatMap { self.date(at: $0) }
            let ended = final ? finalAt : nil
            return [changed, ended].compactMap { $0 }.max() ?? min(date, tipOff.addingTimeInterval(-4 * 3600))
        }

        /// When the play-by-play's copy at `date` says it was written, as the CDN answers without
        /// a stale edge (nil while it lists nothing): ``written(at:elapsed:visible:final:)``.
        func playByPlayWritten(at date: Date) -> Date? {
            let elapsed = elapsed(at: date)
            let visible = elapsed < 0 ? 0 : game.visible(at: elapsed)
            return visible == 0 ? nil : written(at: date, elapsed: elapsed, visible: visible)
        }

        /// When the feed shows what it has `elapsed` seconds into the game's timeline, or nil
        /// when it never does (a postponed game, or past where a silent game stops).
        public func date(at elapsed: Double) -> Date? {
            switch fate {
            case .plays: return firstAction.addingTimeInterval(elapsed)
            case .postponed: return nil
            case .silent(let share): return elapsed <= share * game.span ? firstAction.addingTimeInterval(elapsed) : nil
            case .comeback(let share, let pause):
                return firstAction.addingTimeInterval(elapsed <= share * game.span ? elapsed : elapsed + pause)
            }
        }

        /// When the feed's last action appears, or nil when it never does.
        public var lastAction: Date? { date(at: game.span) }

        /// When the boxscore says final (two minutes after the last action appears), or nil.
        public var finalAt: Date? { lastAction?.addingTimeInterval(120) }

        /// The instance running must follow this game through its comeback to the final, and no
        /// restart is planned to take it back: set when the day is drawn
        /// (``SimulatedDay/followsComeback(_:interval:)``); false for a game made by hand.
        public var comebackIsFollowed = false
    }

    /// An instance's death and the next one's start.
    public struct Restart: Hashable, Sendable {
        public var at: Date
        /// Seconds until the next instance starts.
        public var downFor: TimeInterval
        /// The next instance starts with an empty state directory (the machine was lost).
        public var lostState: Bool
        /// A journal's last write was torn by the crash.
        public var tornJournal: Bool
        /// One game's checkpoint cannot be read by the next instance (its bytes damaged on the
        /// disk): that game starts afresh, as after a lost state directory, and knows it was lost
        /// (its hour's priority-10 budget counted as spent, its numbering past the lost file's).
        public var damagedCheckpoint = false
        /// The kill waits from ``at`` for this change to the state directory (counted from 0: a
        /// journal's lines handed to the kernel, a journal cut, a snapshot's bytes or its rename)
        /// and lands just before it, inside the commit or delivery that makes it
        /// (``DiskStepKill``); nil: at ``at``, between two steps of the work.
        public var atDiskStep: Int?
        /// Only the changes to this game's files are counted for ``atDiskStep`` (nil: every change):
        /// a kill inside one of the game's own commits or deliveries, as around its final.
        public var writesOfGame: String?
        /// The machine lost its power: the next instance finds each journal as it was at its last
        /// sync, one whose name was never synced gone (``PowerCut``), not every byte the kernel took.
        public var powerCut = false
        /// The device fails at the ``atDiskStep``th rename of a game's snapshot (of
        /// ``writesOfGame``'s when set): the rename goes through, every later write and sync fails,
        /// and a power cut comes at the second change after it (``DiskStepKill/failsTheDevice``),
        /// which undoes the rename if its directory was not synced (``PowerCut``).
        public var failsTheDevice = false
        /// Not a kill: the instance is asked to stop (SIGTERM, as a deploy does) at ``at``. It stops
        /// reading, sends what comes due within ``LiveService/stopGrace``, sees its sink's last
        /// deliveries through and compacts; killed ``signalGrace`` after the signal if it has not
        /// exited by then. The next starts ``downFor`` after the signal (or once it exited) on its
        /// state directory.
        public var signalled = false
        /// With ``signalled``: the instance this stop ends hears no input before it (its producer
        /// or the CDN not reached yet, as in a rollout right after a crash): it restores, sends
        /// what its checkpoints left, and drains, the channels it keeps for games no checkpoint
        /// restored not yet taken back.
        public var heardNothing = false

        /// How long a signalled instance has to exit before it is killed (an orchestrator's
        /// grace period, as Kubernetes' default).
        public static let signalGrace: TimeInterval = 30

        public init(
            at: Date, downFor: TimeInterval = 5, lostState: Bool = false, tornJournal: Bool = false, damagedCheckpoint: Bool = false,
            atDiskStep: Int? = nil, writesOfGame: String? = nil, powerCut: Bool = false
        ) {
            self.at = at
            self.downFor = downFor
            self.lostState = lostState
            self.tornJournal = tornJournal
            self.damagedCheckpoint = damagedCheckpoint
            self.atDiskStep = atDiskStep
            self.writesOfGame = writesOfGame
            self.powerCut = powerCut
        }
    }

    /// What the push sender does wrong.
    public struct SinkFaults: Hashable, Sendable {
        /// It fails every request in these windows.
        public var failing: [Range<Date>] = []
        /// Each request takes up to this many seconds.
        public var slowest: TimeInterval = 0
        /// Channel creates fail (the endpoint is down) in these windows.
        public var channelOutages: [Range<Date>] = []
        /// The share of channel creates APNs refuses (429).
        public var channelRefusals: Double = 0
        /// APNs refuses for good (403) every channel delete asked in these windows: the channel
        /// stays open. Scripted only (a drawn day has none).
        public var deleteRefusals: [Range<Date>] = []
        /// Its channel service answers a create whose `apns-request-id` it answered before with
        /// the channel it made then (``ChannelServiceStandIn/deduplicatesCreates``), as a webhook
        /// with an idempotency key does: drawn on half the days.
        public var deduplicatesCreates = false
        /// Each fails alone (a dropped connection) the first game's first channel create made at
        /// or after it by an instance whose channel requests failed before and were answered
        /// since, more than ``SimulationInvariants/channelRetryTail`` after the last failure: a
        /// blip, which the sink's backoff must not take for the outage before it.
        public var channelBlips: [Date] = []
        /// It fails every push of one game in a window (a body it cannot take) and takes every
        /// other game's.
        public var gameFailing: [GameFailure] = []
        /// Each fails alone (a dropped connection) the game's first push at or after its time on a
        /// lane whose pushes failed before and were delivered since, in the instance sending, once
        /// the sink delivered a push begun after its last failure: a blip, which the activity's
        /// own backoff must not take for the failures before it.
        public var pushBlips: [PushBlip] = []

        /// One push of a game failing alone.
        public struct PushBlip: Hashable, Sendable {
            public var game: String
            public var at: Date
            /// It fails the game's first push at or after `at`, once the sink delivered a push
            /// begun after its last failure, on a lane that is not failing (one that never failed,
            /// or was delivered since); else only on a lane whose pushes failed before and were
            /// delivered since.
            public var anyLane: Bool

            public init(game: String, at: Date, anyLane: Bool = false) {
                self.game = game
                self.at = at
                self.anyLane = anyLane
            }
        }

        /// It fails every push of one platform in a window and takes the other's, on a day with
        /// a lane for each (``SimulatedDay/platforms``): one game's iOS and Android pushes must not
        /// wait on each other.
        public var platformFailing: [PlatformFailure] = []

        /// One platform's pushes failing for a while.
        public struct PlatformFailure: Hashable, Sendable {
            public var platform: PushRenderer.Platform
            public var during: Range<Date>

            public init(platform: PushRenderer.Platform, during: Range<Date>) {
                self.platform = platform
                self.during = during
            }
        }

        /// Every window in which `platform`'s pushes fail (any platform's, for nil), the
        /// sender's outages with them.
        func failing(_ platform: PushRenderer.Platform?) -> [Range<Date>] {
            failing + platformFailing.filter { platform == nil || $0.platform == platform }.map(\.during)
        }

        /// One game's pushes failing for a while.
        public struct GameFailure: Hashable, Sendable {
            public var game: String
            public var during: Range<Date>

            public init(game: String, during: Range<Date>) {
                self.game = game
                self.during = during
            }
        }

        public init(failing: [Range<Date>] = [], slowest: TimeInterval = 0, channelOutages: [Range<Date>] = [], channelRefusals: Double = 0) {
            self.failing = failing
            self.slowest = slowest
            self.channelOutages = channelOutages
            self.channelRefusals = channelRefusals
        }
    }

    /// A day drawn from `seed` over `pool` (games are drawn from it; real games among them are
    /// used as they are), with a number of games in `games`; with `losingState`, some restarts
    /// come without their state directory; with `killsInFinalWrites`, a kill may come inside a
    /// game's final's writes (off: the day as drawn before that draw came); with `powerCuts`,
    /// some kills are power cuts (off: none is, as before that draw came); with `lossesInBreaks`,
    /// some state directories are lost in a game's long break (off: none, as before that draw came).
    public init(
        index: Int, seed: UInt64, mode: PushRenderer.Mode, platform: PushRenderer.Platform = .ios, pool: SimulatedGamePool,
        pollInterval: TimeInterval = 30, games gameCount: ClosedRange<Int> = 5...15, losingState: Bool = true, killsInFinalWrites: Bool = true,
        powerCuts: Bool = true, lossesInBreaks: Bool = true
    ) {
        let daySeed = seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
        var random = SeededRandom(seed: daySeed)
        // Drawn apart, so the other days are drawn as before storms were.
        var weather = SeededRandom(seed: daySeed ^ 0x5707_3D47)
        let storm = weather.chance(0.2)
        isStorm = storm
        self.index = index
        self.seed = seed
        self.mode = mode
        platforms = [platform]
        self.pollInterval = pollInterval
        // A day in the 2025 season, the first tip-off at 7 pm Eastern (00:00 UTC); on one day in
        // twenty the night the clocks go back, from 11 pm (03:00 UTC; 2 a.m. daylight time is
        // 06:00 UTC). Drawn apart, so the other days are drawn as before.
        var calendar = SeededRandom(seed: daySeed ^ 0xFA11_BAC0)
        fallsBack = calendar.chance(0.05)
        let day = fallsBack ? Date(timeIntervalSince1970: 1_762_052_400) : Date(timeIntervalSince1970: 1_735_689_600 + Double(index % 180) * 86_400)
        var games: [Game] = []
        let count = random.int(in: gameCount)
        var ids: Set<String> = []
        for _ in 0..<count {
            let tipOff = day.addingTimeInterval(Double(random.int(in: 0...6)) * 1800)
            var game = pool.game(random.next())
            while !ids.insert(game.id).inserted { game = pool.game(random.next()) }
            var plan = Game(
                game: game, path: random.chance(storm ? 0.5 : 0.25) ? .serve : .poll, tipOff: tipOff, lead: random.double(in: 180...600),
                fate: .plays, join: nil, backlogBatches: 1, outages: [], timeouts: [], hostile: [], staleShare: 0)
            let first = plan.firstAction
            func window(_ longest: TimeInterval) -> Range<Date> {
                let from = first.addingTimeInterval(random.double(in: 0...max(1, game.span)))
                return from..<from.addingTimeInterval(random.double(in: 10...longest))
            }
            if random.chance(0.2) { plan.join = first.addingTimeInterval(random.double(in: 0...(game.span * 1.1))) }
            if random.chance(storm ? 0.6 : 0.3) { plan.backlogBatches = random.int(in: 2...4) }
            if plan.path == .poll {
                switch random.below(10) {
                case 0: plan.fate = .postponed
                case 1: plan.fate = .silent(at: random.double(in: 0.1...0.95))
                case 2: plan.fate = .comeback(at: random.double(in: 0.1...0.9), after: random.double(in: 600...9000))
                default: break
                }
                if random.chance(0.3) { plan.outages = (0..<random.int(in: 1...3)).map { _ in window(1200) } }
                if random.chance(0.2) { plan.timeouts = (0..<random.int(in: 1...2)).map { _ in window(600) } }
                if random.chance(0.2) { plan.hostile = (0..<random.int(in: 1...2)).map { _ in window(300) } }
                if random.chance(storm ? 0.6 : 0.3) { plan.staleShare = random.double(in: 0.05...0.4) }
            }
            plan.comebackIsFollowed = Self.followsComeback(plan, interval: pollInterval)
            games.append(plan)
        }
        self.games = games
        // One played poll game in eight loses its boxscore alone across its end: from up to two
        // and a half poll intervals before its last action (its third failure then mostly comes
        // after the play-by-play's last new copy) to five to twenty minutes past the boxscore's
        // final. The poller's boxscore gives up after a few failures and the play-by-play, whose
        // copy lists the end, decides it (``SimulationInvariants/checkEndWithoutTheBoxscore(_:_:)``).
        // Drawn apart, so the other draws stay as they were.
        var boxscoreDown = SeededRandom(seed: daySeed ^ 0xB0C5_0FF5)
        for index in self.games.indices where self.games[index].path == .poll {
            guard case .plays = self.games[index].fate, boxscoreDown.chance(0.125), let last = self.games[index].lastAction,
                  let final = self.games[index].finalAt
            else { continue }
            let from = last.addingTimeInterval(boxscoreDown.double(in: -2.5...1) * pollInterval)
            self.games[index].boxscoreOutages.append(from..<final.addingTimeInterval(boxscoreDown.double(in: 300...1200)))
        }
        // One played poll game in eight whose boxscore stays up loses its play-by-play alone
        // across its end: from one to two poll intervals before its last action to one and a half to
        // four and a half intervals past the boxscore's final (so the play-by-play fails at least
        // once after the poller has read that final). The final boxscore decides the end only after the
        // play-by-play has failed three times since (``LivePoller``'s few tries for the last
        // actions); an outage over sooner ends the game on the copy that lists them
        // (``SimulationInvariants/checkEndAfterThePlayByPlaysTries(_:_:)``). Drawn apart, so the
        // other draws stay as they were.
        var playByPlayDown = SeededRandom(seed: daySeed ^ 0x9B9_D0E5)
        for index in self.games.indices where self.games[index].path == .poll && self.games[index].boxscoreOutages.isEmpty {
            guard case .plays = self.games[index].fate, playByPlayDown.chance(0.125), let last = self.games[index].lastAction,
                  let final = self.games[index].finalAt
            else { continue }
            let from = last.addingTimeInterval(-playByPlayDown.double(in: 1...2) * pollInterval)
            self.games[index].playByPlayOutages.append(from..<final.addingTimeInterval(playByPlayDown.double(in: 1.5...4.5) * pollInterval))
        }
        // Half the games whose play-by-play fails alone across their end ask for four to six poll
        // intervals between its tries (a `Retry-After`), while their boxscore, final, fails every
        // other request: a 304 between each two failures, so it never fails three times in a row
        // and keeps deciding. The play-by-play's third failure since the final then ends the game
        // on the final boxscore, long before the outage is over (it lasts three of those waits and
        // four intervals more past the final)
        // (``SimulationInvariants/checkEndByThePlayByPlaysTries(_:_:)``). Drawn apart, so the
        // other draws stay as they were.
        var flaky = SeededRandom(seed: daySeed ^ 0xF1A4_B0C5)
        for index in self.games.indices where !self.games[index].playByPlayOutages.isEmpty {
            guard flaky.chance(0.5), let final = self.games[index].finalAt else { continue }
            let retryAfter = (flaky.double(in: 4...6) * pollInterval).rounded()
            let outage = self.games[index].playByPlayOutages[0]
            let until = final.addingTimeInterval(3 * retryAfter + 4 * pollInterval)
            self.games[index].playByPlayOutages[0] = outage.lowerBound..<max(outage.upperBound, until)
            self.games[index].playByPlayRetryAfter = retryAfter
            self.games[index].flakyBoxscore = final..<until
        }
        // One postponed poll game in two is called off without its boxscore saying so, and one
        // poll game in three is followed without its tip-off (``Game/postponedUnsaid``,
        // ``Game/tipOffKnown``): the watch must hear the tip-off from the boxscore and give such a
        // game up on time. Drawn apart, so the other draws stay as they were.
        var unlisted = SeededRandom(seed: daySeed ^ 0x71B0_FF00)
        for index in self.games.indices where self.games[index].path == .poll {
            if self.games[index].fate == .postponed, unlisted.chance(0.5) { self.games[index].postponedUnsaid = true }
            if unlisted.chance(1.0 / 3) { self.games[index].tipOffKnown = false }
        }
        // One played poll game in eight (a generated one) lists a basket for half a minute to
        // three minutes, then deletes it, as the NBA's play-by-play does when a review overturns
        // one (``SimulatedGame/withDeletedBasket(after:shownFor:home:)``): the feed's score goes
        // up, then back down, and the lock screen must follow it both ways. Drawn apart, so the
        // other draws stay as they were.
        var overturned = SeededRandom(seed: daySeed ^ 0x0DE1_E7ED)
        for index in self.games.indices where self.games[index].path == .poll {
            guard case .plays = self.games[index].fate, overturned.chance(0.125) else { continue }
            let count = self.games[index].game.actions.count
            let after = overturned.int(in: max(1, count / 10)...max(1, count * 85 / 100))
            let shownFor = overturned.double(in: 30...180), home = overturned.chance(0.5)
            if let game = self.games[index].game.withDeletedBasket(after: after, shownFor: shownFor, home: home) {
                self.games[index].game = game
            }
        }
        // One played serve game in eight (a generated one whose lines do not state the feed's
        // score) has a made basket of its first three periods sent again 10 s to 3 minutes later,
        // edited as a scorer's review does: credited to the other team, or its points changed
        // between 2 and 3 (``SimulatedGame/withEditedBasket(at:after:toOtherTeam:)``). The fold
        // moves the points, and the lock screen follows the score down and up. Drawn apart, so
        // the other draws stay as they were.
        var reviewed = SeededRandom(seed: daySeed ^ 0xED17_BA5E)
        for index in self.games.indices where self.games[index].path == .serve {
            guard case .plays = self.games[index].fate, reviewed.chance(0.125) else { continue }
            let game = self.games[index].game
            let baskets = game.madeBaskets(before: 4)
            guard !baskets.isEmpty else { continue }
            let basket = baskets[reviewed.below(baskets.count)]
            let delay = reviewed.double(in: 10...180), otherTeam = reviewed.chance(0.5)
            if let edited = game.withEditedBasket(at: basket, after: delay, toOtherTeam: otherTeam) { self.games[index].game = edited }
        }
        // The CDN of half the poll games stamps a copy when its document last changed
        // (``Game/stampsWhenWritten``). Drawn apart, so the other draws stay as they were.
        var stamps = SeededRandom(seed: daySeed ^ 0x57A3_9ED0)
        for index in self.games.indices where self.games[index].path == .poll {
            self.games[index].stampsWhenWritten = stamps.chance(0.5)
        }
        let start = (games.map(\.tipOff).min() ?? day).addingTimeInterval(-600)
        self.start = start
        let end = games.map { $0.firstAction.addingTimeInterval($0.game.span) }.max() ?? day
        var restarts: [Restart] = []
        // Restarts a storm times to the second (a failover and the kill in its first minute, whose
        // first polls meet a stale edge; the kill before the sender is back): they land at their moments.
        var timed: Set<Int> = []
        for _ in 0..<random.weighted([2, 2, 1]) {
            restarts.append(Restart(
                at: start.addingTimeInterval(random.double(in: 60...max(61, end.timeIntervalSince(start)))),
                downFor: random.double(in: 1...900), lostState: random.chance(storm ? 0.5 : 0.15) && losingState, tornJournal: random.chance(0.5)))
        }
        // A storm's instance is lost with its state directory while games are on, and another
        // takes over within a minute (a failover): what the lost one showed is still recent.
        if storm {
            let failover = Restart(
                at: start.addingTimeInterval(weather.double(in: 0.2...0.8) * end.timeIntervalSince(start)),
                downFor: weather.double(in: 1...60), lostState: losingState, tornJournal: weather.chance(0.5))
            timed.insert(restarts.count)
            restarts.append(failover)
            // In one storm in two the new instance is killed in its first minute, while its first
            // catch-ups may still wait for a fresh copy of the feed: the next one, on its state
            // directory, goes on waiting. Drawn apart, so the other draws stay as they were.
            var again = SeededRandom(seed: daySeed ^ 0xFA11_0E12)
            // On one such day in two, for one poll game in two, the second instance's first copy is
            // older still (older than what the lost one last showed) and the third's requests time
            // out for its first minutes: the wait it restores goes on through them until a fresh
            // copy comes. Decided at the restart (a wait restored only for the restart's window),
            // the old copy takes back what the lost instance showed. Drawn apart, so the other
            // draws stay as they were.
            var hung = SeededRandom(seed: daySeed ^ 0x7105_E0F7)
            let hangs = hung.chance(0.5)
            if again.chance(0.5) {
                let kill = Restart(
                    at: failover.at.addingTimeInterval(failover.downFor + again.double(in: 2...45)), downFor: again.double(in: 1...30),
                    lostState: false, tornJournal: again.chance(0.5))
                timed.insert(restarts.count)
                restarts.append(kill)
                // The CDN's edge answers both new instances' first polls with a copy older than
                // what the lost instance showed: 1.2 to 4 poll intervals old, each game's drawn
                // (a copy more than an interval old is not trusted as the present).
                let firstPolls = [failover.at.addingTimeInterval(failover.downFor), kill.at.addingTimeInterval(kill.downFor)]
                for index in self.games.indices where self.games[index].path == .poll {
                    let lag = again.double(in: 1.2...4) * pollInterval
                    var lags = [lag, lag]
                    if hangs, hung.chance(0.5) {
                        // 4 to 8 intervals old; the third's requests time out for one to three minutes.
                        lags[0] = hung.double(in: 4...8) * pollInterval
                        self.games[index].timeouts.append(firstPolls[1]..<firstPolls[1].addingTimeInterval(hung.double(in: 60...180)))
                        hungFirstRequests += 1
                    }
                    self.games[index].staleWindows += zip(firstPolls, lags).map { ($0..<$0.addingTimeInterval(1), $1) }
                }
            }
        }
        // A game's last seconds are where a stop costs most (its last period's end is held for
        // the final a few seconds later): on one day in three a kill lands between a played
        // game's last two actions.
        let played = games.filter { if case .plays = $0.fate { true } else { false } }
        if !played.isEmpty, random.chance(0.35) {
            let plan = played[random.below(played.count)]
            let actions = plan.game.actions
            let last = plan.game.span, before = actions.count > 1 ? min(last, actions[actions.count - 2].offset) : last
            restarts.append(Restart(
                at: plan.firstAction.addingTimeInterval(before + random.double(in: 0...1) * (last - before)),
                downFor: random.double(in: 1...900), lostState: false, tornJournal: random.chance(0.5)))
        }
        // A comeback after a silence longer than a poller waits is seen by an instance that
        // starts after the feed is back, as an operator's next run would. A sooner one is the
        // running instance's to follow (``Game/comebackIsFollowed``): a restart would hide a
        // poller that gave the game up too soon.
        for plan in games {
            if case .comeback(let share, let pause) = plan.fate, !plan.comebackIsFollowed {
                restarts.append(Restart(
                    at: plan.firstAction.addingTimeInterval(share * plan.game.span + pause + random.double(in: 60...1800)),
                    downFor: random.double(in: 1...120), lostState: false, tornJournal: random.chance(0.5)))
            }
        }
        // A storm's sender is down as a played game ends, and the instance dies before it is
        // back: the game's end waits in the sender's queue, in memory, and in its checkpoint.
        var senderDown: Range<Date>?
        if storm, !played.isEmpty {
            let plan = played[weather.below(played.count)]
            let ends = plan.firstAction.addingTimeInterval(plan.game.span)
            senderDown = ends.addingTimeInterval(-weather.double(in: 5...60))..<ends.addingTimeInterval(weather.double(in: 400...900))
            timed.insert(restarts.count)
            restarts.append(Restart(
                at: ends.addingTimeInterval(weather.double(in: 130...360)), downFor: weather.double(in: 1...300),
                lostState: false, tornJournal: weather.chance(0.5)))
        }
        // One restart in six that keeps its state directory finds a game's checkpoint damaged.
        // Drawn apart, so the other draws stay as they were.
        var damage = SeededRandom(seed: daySeed ^ 0xDA4A_6ED5)
        for index in restarts.indices where !restarts[index].lostState { restarts[index].damagedCheckpoint = damage.chance(1.0 / 6) }
        // One kill in two (of those not timed by a storm) lands inside a change to the disk, one of
        // the next dozen after its moment (a kill at a moment lands between two jobs). Drawn
        // apart too.
        var midWrite = SeededRandom(seed: daySeed ^ 0xD15C_5EED)
        for index in restarts.indices where midWrite.chance(0.5) && !timed.contains(index) {
            restarts[index].atDiskStep = midWrite.int(in: 0...11)
        }
        // On one day in three a played game's final comes while the sender is down, and the
        // instance dies inside one of the game's own first writes from just before it: its end
        // may wait in the sender's queue, in memory, while its priority-5 copy waits in the outbox
        // or the journal has not yet said it left. Drawn apart, so the other draws stay as they
        // were (the run differs all the same: a stop more, the sender down more; tests that
        // replay a day found before it turn it off).
        var finalWrite = SeededRandom(seed: daySeed ^ 0xF1_4A1_0D15)
        var finalDown: Range<Date>?
        let finalPlan = killsInFinalWrites && !played.isEmpty && finalWrite.chance(1.0 / 3) ? played[finalWrite.below(played.count)] : nil
        if let plan = finalPlan, let final = plan.finalAt {
            finalDown = final.addingTimeInterval(-finalWrite.double(in: 5...60))..<final.addingTimeInterval(finalWrite.double(in: 300...900))
            restarts.append(Restart(
                at: final.addingTimeInterval(-finalWrite.double(in: 1...20)), downFor: finalWrite.double(in: 1...60),
                lostState: false, tornJournal: finalWrite.chance(0.5), atDiskStep: finalWrite.int(in: 0...5), writesOfGame: plan.game.id))
        }
        // On one day in two the state directory is lost in a break of 5 minutes or more (a
        // halftime) of a poll game whose copies are stamped when written, and the fresh instance
        // starts a minute or two into it: new to the game, it meets copies older than a poll's
        // interval, and waits through a few of them, not the whole break, before it shows the
        // score it missed. Drawn apart, so the other draws stay as they were.
        var inBreak = SeededRandom(seed: daySeed ^ 0xB4EA_C105)
        let stamped = self.games.filter { $0.path == .poll && $0.stampsWhenWritten && !$0.hasStaleEdge && $0.fate == .plays }
        if losingState, lossesInBreaks, !stamped.isEmpty, inBreak.chance(0.5) {
            let plan = stamped[inBreak.below(stamped.count)]
            let times = plan.game.actions.compactMap { plan.date(at: $0.offset) }
            let breaks = zip(times, times.dropFirst()).filter { $0.1.timeIntervalSince($0.0) >= 300 }
            if !breaks.isEmpty {
                let pause = breaks[inBreak.below(breaks.count)].0
                let kill = pause.addingTimeInterval(inBreak.double(in: 5...55))
                restarts.append(Restart(
                    at: kill, downFor: pause.addingTimeInterval(inBreak.double(in: 60...150)).timeIntervalSince(kill), lostState: true,
                    tornJournal: inBreak.chance(0.5)))
                statesLostInBreaks += 1
            }
        }
        self.restarts = restarts.sorted { $0.at < $1.at }
        // One stop in four that keeps its state directory is a power cut: the next instance finds
        // only what was synced. Drawn apart, so the other draws stay as they were.
        var power = SeededRandom(seed: daySeed ^ 0x90E4_C077)
        for index in self.restarts.indices where powerCuts && !self.restarts[index].lostState {
            self.restarts[index].powerCut = power.chance(0.25)
        }
        // On one day in four a snapshot is renamed into place as the device fails, its directory
        // never synced, and the power goes: the rename may be undone, so the game's journal must
        // still hold what the snapshot did. Renames come where games fold their journals into a
        // snapshot: at a restored game's first write after a restart that kept the directory, and
        // once a game has ended and sent everything. So the device fails at the first rename from
        // a few seconds after such a restart, during play, or else from just before a played
        // game's final, when no other stop falls within the 15 minutes it may wait. Drawn apart,
        // and after the other draws, so they stay as they were.
        var failing = SeededRandom(seed: daySeed ^ 0xDE71_CEFA)
        if powerCuts, killsInFinalWrites, !played.isEmpty, failing.chance(0.25) {
            let stops = self.restarts
            /// A second after the instance that follows `stop` starts.
            func started(_ stop: Restart) -> Date { stop.at.addingTimeInterval(stop.downFor + 1) }
            // An instance runs at `at` (no stop's downtime covers it), and no stop comes in the wait.
            func clear(_ at: Date) -> Bool {
                let wait = at..<at.addingTimeInterval(DiskStepKill.defaultWithinForARename + 60)
                return !stops.contains { wait.contains($0.at) || ($0.at <= at && started($0) > at) }
            }
            let restarted = stops.filter { !$0.lostState }.map(started).filter { start in
                clear(start) && played.contains { plan in
                    start > plan.firstAction && start < plan.firstAction.addingTimeInterval(plan.game.span - 60)
                }
            }
            let finals = played.compactMap(\.finalAt).filter { clear($0.addingTimeInterval(-20)) }
            let at = !restarted.isEmpty
                ? restarted[failing.below(restarted.count)].addingTimeInterval(failing.double(in: 1...10))
                : finals.isEmpty ? nil : finals[failing.below(finals.count)].addingTimeInterval(-failing.double(in: 1...20))
            if let at {
                var restart = Restart(at: at, downFor: failing.double(in: 1...60), atDiskStep: 0, powerCut: true)
                restart.failsTheDevice = true
                self.restarts.append(restart)
                self.restarts.sort { $0.at < $1.at }
            }
        }
        // On one day in three the service is deployed again mid-day: asked to stop (SIGTERM) at
        // a moment while games are on, it sends what comes due within its grace and exits, and
        // the next instance starts on its state directory 1–60 s later. And one restart in two
        // that finds a game's checkpoint damaged is followed within seconds by such a stop (an
        // operator's restart after a crash, a rollout): its game's channel, kept from
        // `channels.json`, is often not yet taken back when that instance drains. Drawn apart, so
        // the draws before it stay as they were.
        var deploy = SeededRandom(seed: daySeed ^ 0xDE9_1075)
        var deploys: [Restart] = []
        if deploy.chance(1.0 / 3) {
            var stop = Restart(at: start.addingTimeInterval(deploy.double(in: 0...max(1, end.timeIntervalSince(start)))), downFor: deploy.double(in: 1...60))
            stop.signalled = true
            deploys.append(stop)
        }
        for restart in self.restarts where restart.damagedCheckpoint && deploy.chance(0.5) {
            var stop = Restart(at: restart.at.addingTimeInterval(restart.downFor + deploy.double(in: 0.5...20)), downFor: deploy.double(in: 1...60))
            stop.signalled = true
            stop.heardNothing = deploy.chance(0.5)
            deploys.append(stop)
        }
        if !deploys.isEmpty {
            self.restarts = (self.restarts + deploys).sorted { $0.at < $1.at }
        }
        var sink = SinkFaults()
        if random.chance(0.3) {
            sink.failing = (0..<random.int(in: 1...3)).map { _ in
                let from = start.addingTimeInterval(random.double(in: 0...max(1, end.timeIntervalSince(start))))
                return from..<from.addingTimeInterval(random.double(in: 5...900))
            }
        }
        if let senderDown { sink.failing.append(senderDown) }
        if let finalDown { sink.failing.append(finalDown) }
        if random.chance(0.3) { sink.slowest = random.double(in: 0.1...5) }
        if storm { sink.slowest = max(sink.slowest, 1 + weather.double(in: 0...29)) }
        if mode == .broadcastPerGame {
            if random.chance(0.3) {
                let from = start.addingTimeInterval(random.double(in: 0...3600))
                sink.channelOutages = [from..<from.addingTimeInterval(random.double(in: 30...1800))]
            }
            if random.chance(0.3) { sink.channelRefusals = random.double(in: 0.1...0.5) }
            // Drawn all the same (the day's other draws stay as iOS's), and none on Android.
            if platform == .android { (sink.channelOutages, sink.channelRefusals) = ([], 0) }
        }
        // On half the days the channel service deduplicates creates by their request id. Drawn
        // apart, so the other draws stay as they were.
        var idempotent = SeededRandom(seed: daySeed ^ 0x1DE4_907E)
        sink.deduplicatesCreates = idempotent.chance(0.5)
        // On one day in five the sender fails every push of one played game for up to twenty
        // minutes before its end, and takes the others': that game waits alone. Drawn apart, so
        // the other days are drawn as before.
        var choking = SeededRandom(seed: daySeed ^ 0x0C40_CE5E)
        if !played.isEmpty, choking.chance(0.2) {
            let plan = played[choking.below(played.count)]
            let from = plan.firstAction.addingTimeInterval(choking.double(in: 0.05...0.6) * plan.game.span)
            let length = choking.double(in: 60...max(61, min(1200, 0.3 * plan.game.span)))
            sink.gameFailing = [SinkFaults.GameFailure(game: plan.game.id, during: from..<from.addingTimeInterval(length))]
            // Later, one to three of its pushes fail alone: the activity, whose own backoff the
            // window grew and its deliveries since forgot, must back off from each as from a first.
            for _ in 0..<choking.int(in: 1...3) {
                sink.pushBlips.append(SinkFaults.PushBlip(game: plan.game.id, at: from.addingTimeInterval(length + choking.double(in: 30...1800))))
            }
            // And while it fails, one push of another game fails alone: tried again on its own
            // first wait, not when the failing game's longer backoff is over. Drawn apart.
            var beside = SeededRandom(seed: daySeed ^ 0xB1D5_1DE5)
            let others = played.filter { $0.game.id != plan.game.id }
            if !others.isEmpty {
                let other = others[beside.below(others.count)]
                sink.pushBlips.append(SinkFaults.PushBlip(game: other.game.id, at: from.addingTimeInterval(beside.double(in: 0...max(1, length - 60))), anyLane: true))
            }
        }
        // On one iOS broadcast day in two APNs' channel service is also down across a played
        // game's channel delete (its end, then the linger), long enough for the game's own
        // backoff to reach its longest wait: once the service is back, the delete must come soon.
        // Drawn apart.
        var channelService = SeededRandom(seed: daySeed ^ 0xC4A7_DE1E)
        if mode == .broadcastPerGame, platform == .ios, !played.isEmpty, channelService.chance(0.5) {
            let plan = played[channelService.below(played.count)]
            let from = plan.firstAction.addingTimeInterval(plan.game.span + channelService.double(in: 0...180))
            sink.channelOutages.append(from..<from.addingTimeInterval(channelService.double(in: 240...1500)))
        }
        // After each outage of the channel service, one to three channel creates fail alone: the
        // sink, whose failures the outage counted up and an answer since forgot, must back off
        // from each as from a first.
        for outage in sink.channelOutages {
            for _ in 0..<channelService.int(in: 1...3) {
                sink.channelBlips.append(outage.upperBound.addingTimeInterval(channelService.double(in: 60...2400)))
            }
        }
        self.sink = sink
        // On one day in two, one platform's pushes fail for one to twenty minutes while a played
        // game is on (in effect on a day with both platforms' lanes). Drawn apart.
        var provider = SeededRandom(seed: daySeed ^ 0x9FC3_A11E)
        if !played.isEmpty, provider.chance(0.5) {
            let plan = played[provider.below(played.count)]
            let from = plan.firstAction.addingTimeInterval(provider.double(in: 0.05...0.9) * plan.game.span)
            let length = provider.double(in: 60...1200)
            drawnPlatformFailing = [
                SinkFaults.PlatformFailure(platform: provider.chance(0.5) ? .android : .ios, during: from..<from.addingTimeInterval(length))
            ]
        }
        // On one day in five the disk is full for up to twenty minutes: half the time as a played
        // game ends (its final waits for the disk; half of those the day's last played game, so
        // the disk may still be full when the input ends and the drain must wait for it), else
        // anywhere in the day. Drawn apart, so the other days are drawn as before.
        var disk = SeededRandom(seed: daySeed ^ 0xD15C_F011)
        if disk.chance(0.2) {
            if !played.isEmpty, disk.chance(0.5) {
                let drawn = played[disk.below(played.count)]
                let last = played.max { $0.firstAction.addingTimeInterval($0.game.span) < $1.firstAction.addingTimeInterval($1.game.span) }
                let plan = disk.chance(0.5) ? last ?? drawn : drawn
                let at = plan.firstAction.addingTimeInterval(plan.game.span)
                diskFull = [at.addingTimeInterval(-disk.double(in: 5...120))..<at.addingTimeInterval(disk.double(in: 10...1200))]
            } else {
                let from = start.addingTimeInterval(disk.double(in: 0...max(1, end.timeIntervalSince(start))))
                diskFull = [from..<from.addingTimeInterval(disk.double(in: 10...1200))]
            }
        }
        // A played game whose names fill a push meets a full disk at one of its decisive moments
        // (a late lead change or tie): its alerted priority 10, trimmed more than its copy,
        // waits with the copy, and the disk has room again before the next play. Drawn apart.
        var decisive = SeededRandom(seed: daySeed ^ 0xDEC1_5173)
        for plan in played where plan.game.hasLongName && !plan.game.decisiveMoments.isEmpty {
            let moment = plan.game.decisiveMoments[decisive.below(plan.game.decisiveMoments.count)]
            let at = plan.firstAction.addingTimeInterval(moment)
            let window = at.addingTimeInterval(-decisive.double(in: 0.5...5))..<at.addingTimeInterval(decisive.double(in: 5...45))
            if !diskFull.contains(where: { $0.overlaps(window) }) { diskFull.append(window) }
        }
        // On one day in eight the disk fails every write and sync (`EIO`) for ten seconds to ten
        // minutes, away from its full spells: half the time as a played game ends, else anywhere
        // in the day. Drawn apart.
        var device = SeededRandom(seed: daySeed ^ 0xE10D_15C0)
        if device.chance(0.125) {
            let at: Date
            if !played.isEmpty, device.chance(0.5) {
                let plan = played[device.below(played.count)]
                at = plan.firstAction.addingTimeInterval(plan.game.span - device.double(in: 5...120))
            } else {
                at = start.addingTimeInterval(device.double(in: 0...max(1, end.timeIntervalSince(start))))
            }
            let window = at..<at.addingTimeInterval(device.double(in: 10...600))
            if !diskFull.contains(where: { $0.overlaps(window) }) { diskErrors = [window] }
        }
        // On one day in four the disk fills twice for one `serve` game in one instance: for a
        // minute or two some minutes before the game's last line, then for a few seconds as that
        // line comes. Its checkpoint fails in both, with writes that succeed between, so its
        // retries in the second wait from a first failure, not from where the first spell left
        // them, and its end goes within the few seconds the second spell's failures earn.
        // Drawn apart.
        var refill = SeededRandom(seed: daySeed ^ 0x2ED5_F111)
        if refill.chance(0.25) {
            let serving = played.compactMap { plan in plan.path == .serve ? plan.lastAction.map { (plan, $0) } : nil }
            if !serving.isEmpty {
                let (plan, last) = serving[refill.below(serving.count)]
                let gap = refill.double(in: 120...600)
                let first = last.addingTimeInterval(-gap - refill.double(in: 40...120))..<last.addingTimeInterval(-gap)
                let second = last.addingTimeInterval(-0.5)..<last.addingTimeInterval(refill.double(in: 1.5...5))
                let oneInstance = first.lowerBound.addingTimeInterval(-1)..<second.upperBound.addingTimeInterval(60)
                if first.lowerBound > plan.firstAction, !self.restarts.contains(where: { oneInstance.contains($0.at) }),
                   !(diskFull + diskErrors).contains(where: { $0.overlaps(oneInstance) }) {
                    diskFull += [first, second]
                }
            }
        }
        // Each game's edge asks for a `Retry-After` of its own in half its 503s: drawn apart too.
        var retry = SeededRandom(seed: daySeed ^ 0x5E77_A1E5)
        for index in self.games.indices { self.games[index].drawnRetryAfter = TimeInterval(retry.int(in: SimulatedCDN.drawnRetryAfters)) }
        // On half the token days each game's activity is started by a push (`--start`; Android's
        // always are), and on one iOS broadcast day in four `--max-channels` is a few short of the
        // day's games: the last games wait for an earlier one's channel to be deleted. Drawn apart.
        var activities = SeededRandom(seed: daySeed ^ 0x57A7_7C4A)
        startsActivities = mode.isToken && activities.chance(0.5)
        if mode == .broadcastPerGame, platform == .ios, activities.chance(0.25) {
            maxChannels = max(1, games.count - activities.int(in: 1...3))
        }
        // On one day in four the policy keeps one to five seconds between an activity's pushes
        // (a library's ``Coalescer/Configuration/minInterval``): a held push goes when the wait is
        // over, also after a restart that restored it. Drawn apart.
        var pacing = SeededRandom(seed: daySeed ^ 0x1417_E2A1)
        if pacing.chance(0.25) { minInterval = pacing.double(in: 1...5).rounded() }
        // On a `serve` game in two the input stalls across one of the game's decisive moments
        // (a late lead change or tie) and flushes 35 s to three minutes after it: the catch-up
        // holds the moment and, mostly, plays more than 30 s of feed time after it, so its alert
        // is news no more (where none is that late, the alert is still news). Drawn apart.
        var relay = SeededRandom(seed: daySeed ^ 0x57A1_1ED0)
        for index in self.games.indices where self.games[index].path == .serve {
            let plan = self.games[index]
            guard relay.chance(0.5), !plan.game.decisiveMoments.isEmpty else { continue }
            let moment = plan.firstAction.addingTimeInterval(plan.game.decisiveMoments[relay.below(plan.game.decisiveMoments.count)])
            self.games[index].stalls = [moment.addingTimeInterval(-relay.double(in: 0...20))..<moment.addingTimeInterval(relay.double(in: 35...180))]
        }
        // On a day whose input ends with a `serve` game's last line (every other game done well
        // before it, as far as its plan says), the disk fills as that line comes and
        // has room again only 5–25 s before the day's drain gives up (the input's end and
        // ``Simulation/drainTimeout``): the checkpoints' next retry may fall past it, and the
        // drain's last try writes what the disk kept and sends the final it held. No restart
        // from a few minutes before the line. Drawn apart.
        var lastTry = SeededRandom(seed: daySeed ^ 0x1A57_7E1)
        let lines = self.games.filter { plan in plan.fate == .plays && plan.path == .serve && plan.stalls.isEmpty }
            .compactMap { plan in plan.lastAction.map { (plan, $0) } }
        if let (last, line) = lines.max(by: { $0.1 < $1.1 }) {
            let restarted = self.restarts.map(\.at).max() ?? .distantPast
            let others = self.games.filter { $0.game.id != last.game.id }.map { Self.inputDone($0, interval: pollInterval, restarted: restarted) }
            if others.allSatisfy({ $0 < line.addingTimeInterval(-60) }), !self.restarts.contains(where: { $0.at > line.addingTimeInterval(-300) }) {
                let window = line.addingTimeInterval(-lastTry.double(in: 5...60))..<line.addingTimeInterval(Simulation.drainTimeout - lastTry.double(in: 5...25))
                if !(diskFull + diskErrors).contains(where: { $0.overlaps(window) }) { diskFull.append(window) }
            }
        }
    }

    /// By when `plan`'s part of the input is surely over, by its plan: a `serve` game's last
    /// line, a polled game's final and a few polls; a silent game's give-up and a postponed
    /// game's call-off, with room to spare, counted from the day's last restart too (a new
    /// instance's poller waits afresh).
    static func inputDone(_ plan: Game, interval: TimeInterval, restarted: Date) -> Date {
        // The feed's last line (serve), or the final and a few polls (poll).
        let played = (plan.path == .serve ? plan.lastAction : plan.finalAt?.addingTimeInterval(3 * interval)) ?? .distantFuture
        // A give-up after the feed went quiet, counted from a restart after it too.
        func givenUp(quiet share: Double) -> Date {
            max(plan.firstAction.addingTimeInterval(share * plan.game.span), restarted).addingTimeInterval(2 * 3600)
        }
        switch plan.fate {
        case .plays: return played
        case .comeback(let share, _): return max(played, givenUp(quiet: share))
        case .silent(let share): return givenUp(quiet: share)
        case .postponed: return max(plan.tipOff, restarted).addingTimeInterval(3 * 3600)
        }
    }

    /// Faults of this day, by kind.
    public var faults: [String: Int] {
        var counts: [String: Int] = [:]
        func count(_ kind: String, _ n: Int = 1) { if n > 0 { counts[kind, default: 0] += n } }
        if isStorm { count("storm") }
        if fallsBack { count("clocks go back") }
        count("first request hung after a restart", hungFirstRequests)
        count("lost state dir in a break", statesLostInBreaks)
        for plan in games {
            count("game via \(plan.path.rawValue)")
            if plan.join != nil { count("join") }
            if plan.backlogBatches > 1 && plan.path == .serve { count("split backlog") }
            count("stalled input", plan.stalls.count)
            switch plan.fate {
            case .plays: break
            case .postponed: count(plan.postponedUnsaid ? "postponed, the boxscore silent" : "postponed")
            case .silent: count("silent")
            case .comeback: count("comeback")
            }
            count("outage", plan.outages.count)
            count("boxscore outage", plan.boxscoreOutages.count)
            count("play-by-play outage", plan.playByPlayOutages.count)
            if plan.flakyBoxscore != nil { count("flaky boxscore") }
            count("timeouts", plan.timeouts.count)
            count("hostile answers", plan.hostile.count)
            if plan.staleShare > 0 { count("stale edge") }
            if plan.stampsWhenWritten { count("copies stamped when written") }
            if !plan.tipOffKnown { count("tip-off unknown") }
            if plan.game.editedBasket != nil { count("edited basket") }
            if plan.game.deletedBasket != nil { count("deleted basket") } else if plan.game.corrects { count("feed correction") }
        }
        for restart in restarts {
            if restart.signalled {
                count("stop asked for (SIGTERM)")
                if restart.heardNothing { count("stop asked for before any input") }
                continue
            }
            count("kill -9")
            if restart.lostState { count("lost state dir") }
            if restart.tornJournal { count("torn journal") }
            if restart.damagedCheckpoint { count("damaged checkpoint") }
            if restart.atDiskStep != nil, !restart.failsTheDevice { count("kill -9 waiting for a write") }
            if restart.writesOfGame != nil, !restart.failsTheDevice { count("kill -9 in a final's writes") }
            if restart.powerCut { count("power cut") }
            if restart.failsTheDevice { count("device failing at a snapshot's rename") }
        }
        count("full disk", diskFull.count)
        count("disk errors", diskErrors.count)
        count("sink outage", sink.failing.count)
        count("one game's pushes failing", sink.gameFailing.count)
        count("one platform's pushes failing", sink.platformFailing.count)
        count("push blip", sink.pushBlips.count)
        if sink.slowest > 0 { count("slow sink") }
        count("channel outage", sink.channelOutages.count)
        count("channel blip", sink.channelBlips.count)
        if sink.channelRefusals > 0 { count("channel refusals") }
        if sink.deduplicatesCreates && hasChannels { count("idempotent channel creates") }
        if maxChannels != nil { count("channel cap") }
        if startsActivities { count("push-to-start") }
        if minInterval > 0 { count("least time between pushes") }
        return counts
    }
}

extension SimulatedDay {
    /// When the sender is back and the disk works, if either was in trouble at `date` (nil:
    /// neither was): when an operator runs again a service whose drain gave up then.
    func troublesOver(at date: Date) -> Date? {
        [sink.failing(nil), diskFaults].compactMap { $0.first(where: { $0.contains(date) })?.upperBound }.max()
    }

    /// The windows in which the state directory's disk fails: full (``diskFull``) or failing
    /// (``diskErrors``).
    var diskFaults: [Range<Date>] { diskFull + diskErrors }

    /// What every write to the state directory's disk fails with at `date`
    /// (``CheckpointStore/DiskFault``): `ENOSPC` while it is full, `EIO` while it fails; nil while
    /// it works.
    func diskFault(at date: Date) -> Int32? {
        diskFull.contains { $0.contains(date) } ? ENOSPC : diskErrors.contains { $0.contains(date) } ? EIO : nil
    }

    /// The `errno`s the day's disk faults fail with: `ENOSPC`, and `EIO` on a day with
    /// ``diskErrors`` or a device that fails at a rename (``Restart/failsTheDevice``).
    var diskFaultCodes: [Int32] { diskErrors.isEmpty && !restarts.contains(where: \.failsTheDevice) ? [ENOSPC] : [ENOSPC, EIO] }
}

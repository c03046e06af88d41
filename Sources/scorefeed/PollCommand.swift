import Foundation
import ScoreFeed
import ScoreFeedModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `scorefeed poll`: follow live NBA games from the liveData endpoints into the push sender.
enum PollCommand {
    static let playByPlayTemplate = "https://cdn.nba.com/static/json/liveData/playbyplay/playbyplay_{gameId}.json"
    static let boxscoreTemplate = "https://cdn.nba.com/static/json/liveData/boxscore/boxscore_{gameId}.json"
    static let scoreboardURL = "https://cdn.nba.com/static/json/liveData/scoreboard/todaysScoreboard_00.json"

    static let help = """
        OVERVIEW: Follow live NBA games: poll each game's liveData play-by-play and boxscore
        (conditional GETs, backoff on failure), hand every snapshot to the game's engine (new,
        edited and deleted actions by the identity rules; the feed's score corrects the screen)
        and write pushes to the sink, as serve does. Ends each game with its final once the
        feed says it is over, and exits 0 when every game it follows has ended (75 when pushes
        are left withheld: a checkpoint that cannot be written, a webhook down past its
        give-up; as serve). Every game ends: one the scoreboard or boxscore calls postponed or
        cancelled, or whose play-by-play has not appeared --give-up-after past tip-off, ends
        postponed (a game never started here is not followed: nothing was shown of it); one
        whose feed says nothing new for --give-up-after while under way ends suspended, with
        the score it had. Game ids follow serve's rule (1 to 64 bytes, no control character,
        no whitespace at either end); one state dir is held by one serve or poll at a time.

        USAGE: scorefeed poll (--games <id,id,…> | --today) [--interval <s>] [options]

        OPTIONS:
          --games <ids>           The games to follow, by NBA game id (0022400762,…).
          --today                 Follow every game on today's scoreboard, each from shortly
                                  before its tip-off (games already over are skipped unless
                                  the state directory has them).
          --scoreboard-url <url>  With --today: today's scoreboard (default the NBA's liveData
                                  todaysScoreboard_00.json).
          --url-template <url>    Play-by-play URL with {gameId} (default the NBA's liveData).
          --boxscore-template <url>
                                  Boxscore URL with {gameId} (default the NBA's liveData);
                                  "none": the play-by-play's end action says the game is over.
          --interval <s>          Seconds between two polls of a game (3).
          --timeout <s>           Seconds a whole request may take, connection to last byte,
                                  before it is given up (10).
          --give-up-after <s>     Seconds without news after which a game is given up (5400:
                                  an hour and a half, longer than any stoppage a game came
                                  back from): suspended if it was under way, postponed if its
                                  play-by-play never appeared. A game given up whose feed
                                  brings new actions later (a run on the same state dir, a
                                  suspended game completed another day) is followed again:
                                  with --start a new activity starts; broadcast makes a new
                                  channel if ScoreFeed deleted the old one.
          --max-body <bytes>      The most bytes of one answer, counted unpacked (4194304:
                                  4 MiB; a real play-by-play is 0.4-0.65 MB, overtime games
                                  too, so a triple overtime still fits twice). A longer answer
                                  is dropped as it streams in: a failed request, backed off.
        \(LiveRun.help)
          -h, --help              Show help information.

        \(LiveRun.channelsHelp)

        Failures (timeouts, 429 and 503 with their Retry-After, 5xx, cut, empty, garbled or
        too large bodies) are one line on stderr each, naming the game, the URL and what was
        wrong; the game backs off with jitter and tries again. Nothing of a bad answer is folded.
        Before a game is known, a 403 or 404 is not said (the NBA's endpoints do not have a game
        before tip-off): a 404 is asked again at the interval, a 403 backed off from.
        With --state-dir a killed poll resumes where it stopped: what each game has applied is
        in its checkpoint, and the first poll after a restart repeats it harmlessly.

        EXAMPLES:
          scorefeed poll --today --state-dir /var/lib/scorefeed --webhook https://push.example/live
          scorefeed poll --games 0022400762 --url-template http://127.0.0.1:8080/static/json/liveData/playbyplay/playbyplay_{gameId}.json --clock feed

        """

    /// Everything the command line says, read and checked before anything is opened.
    struct Options {
        var gameList: String?
        var today: Bool
        var scoreboard: String
        var playByPlayTemplate: String
        var boxscoreTemplate: String
        var interval: Double
        var timeout: Double
        var maxBody: Int
        var giveUpAfter: Double
        var live: LiveRun.Options

        init(_ arguments: inout Arguments) throws(ScoreFeedError) {
            gameList = try arguments.option("--games")
            today = arguments.flag("--today")
            let scoreboardGiven = try arguments.option("--scoreboard-url")
            scoreboard = scoreboardGiven ?? scoreboardURL
            playByPlayTemplate = try arguments.option("--url-template") ?? PollCommand.playByPlayTemplate
            boxscoreTemplate = try arguments.option("--boxscore-template") ?? PollCommand.boxscoreTemplate
            interval = try arguments.number("--interval", in: 0.05...3600) ?? 3
            timeout = try arguments.number("--timeout", in: 0.1...600) ?? 10
            maxBody = try arguments.number("--max-body", in: 1024...(1 << 30)) ?? LiveFetcher.defaultMaxBody
            giveUpAfter = try arguments.number("--give-up-after", in: 1...(7 * 86_400)) ?? FeedWatch.defaultGiveUpAfter
            live = try LiveRun.Options(&arguments)
            _ = try arguments.positionals(max: 0)
            guard today || gameList != nil else { throw ScoreFeedError(.usage, "poll needs --games <id,…> or --today") }
            if scoreboardGiven != nil, !today { throw ScoreFeedError(.usage, "--scoreboard-url is for --today") }
            for id in Self.ids(gameList) {
                if let problem = GameID.problem(with: id) { throw ScoreFeedError(.usage, "--games: the game id \(problem); \(GameID.rule)") }
            }
            guard playByPlayTemplate.contains("{gameId}") else { throw ScoreFeedError(.usage, "--url-template must contain {gameId}") }
            guard boxscoreTemplate == "none" || boxscoreTemplate.contains("{gameId}") else {
                throw ScoreFeedError(.usage, "--boxscore-template must contain {gameId}, or be none")
            }
            if live.push.isBroadcast && live.push.platform == .ios && !live.channels.manage {
                throw ScoreFeedError(
                    .usage,
                    "poll --mode broadcast needs --channels manage: the NBA's feed has no game headers to carry a channel, so ScoreFeed makes each game's channel (with --webhook)")
            }
        }

        /// The ids `--games` lists, trimmed, empty ones dropped.
        static func ids(_ list: String?) -> [String] {
            (list ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let options = try Options(&arguments)
        let (gameList, today, scoreboard) = (options.gameList, options.today, options.scoreboard)
        let (pbpTemplate, boxTemplate) = (options.playByPlayTemplate, options.boxscoreTemplate)
        let (interval, timeout) = (options.interval, options.timeout)
        let live = try LiveRun("poll", options: options.live)
        try await live.restore()
        let fetcher = LiveFetcher(timeout: timeout, maxBody: options.maxBody)

        var games = Options.ids(gameList).map { (id: $0, tipOff: Date?.none, attributes: GameAttributes?.none) }
        var postponed: [String] = []
        if today {
            guard let url = URL(string: scoreboard) else { throw ScoreFeedError(.usage, "--scoreboard-url is not a URL") }
            let day = await todaysGames(url, fetcher: fetcher, interval: interval, service: live.service, metrics: live.metrics?.recorder)
            games += day.followed
            postponed = day.postponed
        }
        var seen = Set<String>()
        let pollers = try games.filter { seen.insert($0.id).inserted }.map { game throws(ScoreFeedError) -> LivePoller in
            guard let pbp = URL(string: pbpTemplate.replacingOccurrences(of: "{gameId}", with: urlSafe(game.id))) else {
                throw ScoreFeedError(.usage, "--url-template does not make a URL for game \(game.id)")
            }
            let box = boxTemplate == "none" ? nil : URL(string: boxTemplate.replacingOccurrences(of: "{gameId}", with: urlSafe(game.id)))
            // Start ten minutes before tip-off: pregame polls cost little, a late start costs pushes.
            return LivePoller(
                gameId: game.id, playByPlay: pbp, boxscore: box, interval: interval,
                notBefore: game.tipOff.map { $0.addingTimeInterval(-600) }, announced: game.attributes, tipOff: game.tipOff,
                giveUpAfter: options.giveUpAfter)
        }
        Console.error("poll: following \(pollers.count) game\(pollers.count == 1 ? "" : "s") every \(interval) s")
        let (service, recorder) = (live.service, live.metrics?.recorder)
        let status = try await live.run {
            await withTaskGroup(of: Void.self) { group in
                for poller in pollers {
                    group.addTask {
                        await poller.run(service: service, fetcher: fetcher, metrics: recorder) { report in
                            switch report {
                            // A request cut short by the stop (SIGINT, SIGTERM) is no problem to tell.
                            // (A reader of stdout gone is said once, with the summaries.)
                            case .problem(let error): if !Task.isCancelled, error.code != .readerGone { Console.error("\(error)") }
                            case .started(let a): Console.error("poll: game \(a.gameId): \(a.away.tricode) at \(a.home.tricode), following")
                            case .ended(let id): Console.error("poll: game \(id): the feed says it is over")
                            case .calledOff(let id, let phase, let why, let ended):
                                Console.error("poll: game \(id): \(phase.rawValue) (\(why)); "
                                    + (ended ? "its activity ends \(phase.rawValue)" : "nothing was shown of it: no push"))
                            case .stillCalledOff(let id, let phase, let why):
                                Console.error("poll: game \(id): still \(phase.rawValue) (\(why)); it was \(phase.rawValue) already, so it is not ended again")
                            case .back(let id, let phase):
                                Console.error("poll: game \(id): its feed is back after it was \(phase.rawValue); following it again")
                            }
                        }
                    }
                }
            }
        }
        Console.error(await dayText(live.service, followed: pollers.map(\.gameId), postponed: postponed))
        return status
    }

    /// The run's last line: how the games it followed ended, and today's postponed games it did
    /// not follow, by id (not the games of earlier days the state dir holds).
    static func dayText(_ service: GameService, followed: [String], postponed unfollowed: [String]) async -> String {
        var ended: [GamePhase: [String]] = [:]
        var open: [String] = []
        let today = Set(followed)
        for game in await service.summaries() where today.contains(game.attributes.gameId) {
            let id = game.attributes.gameId
            if game.ended { ended[game.state.phase.isCalledOff ? game.state.phase : .final, default: []].append(id) } else { open.append(id) }
        }
        let postponed = (ended[.postponed] ?? []) + unfollowed.filter { !today.contains($0) }
        func list(_ ids: [String]) -> String { ids.isEmpty ? "" : " (\(ids.joined(separator: ", ")))" }
        var text = "poll: \(ended[.final]?.count ?? 0) final, \(postponed.count) postponed\(list(postponed)), "
            + "\(ended[.suspended]?.count ?? 0) suspended\(list(ended[.suspended] ?? []))"
        if !open.isEmpty { text += ", \(open.count) not ended\(list(open))" }
        return text
    }

    /// A game id as it goes into a URL: percent-encoded outside the unreserved characters, so an
    /// id cannot add a path segment or a query (the NBA's ten digits are unchanged).
    static func urlSafe(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? id
    }

    /// Today's games from the scoreboard, retried until it answers (none if the task is cancelled):
    /// those to follow, and the postponed or cancelled ones, which are not followed (one started
    /// here before gets its `end`, postponed, at once).
    static func todaysGames(
        _ url: URL, fetcher: LiveFetcher, interval: Double, service: GameService, metrics: MetricsRecorder? = nil
    ) async -> (followed: [(id: String, tipOff: Date?, attributes: GameAttributes?)], postponed: [String]) {
        var schedule = PollSchedule(interval: interval)
        var due: Date? = Date()
        var games: [(id: String, tipOff: Date?, attributes: GameAttributes?)] = []
        var postponed: [String] = []
        await DeadlineLoop().run(next: { due }) { _ in
            var validators = LiveFetcher.Validators()
            let problem: ScoreFeedError
            var retryAfter: TimeInterval?
            let answer = await fetcher.get(url, validators: &validators)
            var unreadable: ScoreFeedError?
            defer {
                let outcome: String
                switch answer {
                case .body: outcome = unreadable.map(MetricsRecorder.pollOutcome) ?? "200"
                case .notModified: outcome = "304"
                case .failed(let error, _): outcome = MetricsRecorder.pollOutcome(of: error)
                }
                metrics?.countPollRequest(endpoint: "scoreboard", outcome: outcome)
            }
            switch answer {
            case .body(let data):
                do throws(ScoreFeedError) {
                    let board = try LiveScoreboard.decode(data, url: url.absoluteString)
                    for game in board.games {
                        if let problem = GameID.problem(with: game.gameId) {
                            Console.error("poll: today's scoreboard: game id \(problem); that game is not followed")
                            continue
                        }
                        let known = await service.knows(game.gameId)
                        if game.isCalledOff {
                            let who = game.attributes.map { " (\($0.away.tricode) at \($0.home.tricode))" } ?? ""
                            let why = "today's scoreboard says \"\(game.statusText ?? "")\""
                            if known, await service.ending(of: game.gameId) == nil {
                                if let problem = await service.callOff(.postponed, why: why, game: game.gameId) { Console.error("\(problem)") }
                                Console.error("poll: game \(game.gameId)\(who): postponed (\(why)); its activity ends postponed")
                            } else if !known {
                                Console.error("poll: game \(game.gameId)\(who): postponed (\(why)); not followed")
                                postponed.append(game.gameId)
                                metrics?.countPostponedUnfollowed()
                            }
                            continue
                        }
                        if game.status != .final || known { games.append((game.gameId, game.tipOff, game.attributes)) }
                    }
                    due = nil
                    return
                } catch {
                    problem = error
                    unreadable = error
                }
            case .notModified:
                problem = ScoreFeedError(.io, "304 without a cached scoreboard", at: .init(file: url.absoluteString))
            case .failed(let error, let after):
                problem = error
                retryAfter = after
            }
            Console.error("poll: today's scoreboard: \(problem)")
            due = schedule.next(after: .failed(retryAfter: retryAfter), now: Date(), random: Double.random(in: 0..<1))
        }
        return (games, postponed)
    }
}

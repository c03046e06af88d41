import Foundation
import ScoreFeedModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One game of a simulated day as its feeds serve it: the liveData play-by-play's actions (each
/// with when it appears, seconds after the game's first action) for `poll`, and the same game as
/// event lines for `serve`. Made from a generated game, or from a real recorded one.
public struct SimulatedGame: Sendable {
    public var attributes: GameAttributes
    /// The feed's score at the end.
    public var final: FinalScore
    /// Seconds from the game's first action to its last.
    public var span: Double
    /// Whether the feed's own score ever goes down (a correction or a deleted basket): a push may
    /// then show a lower score than one before it.
    public var corrects: Bool
    /// When the lead changes hands or the score is tied in the last two minutes of the fourth
    /// period or an overtime (seconds after the first action): the moments that get an alert,
    /// where a fault costs most.
    public var decisiveMoments: [Double]
    /// The feed times of the moments an update may alert for: the decisive moments
    /// (``decisiveMoments``) and the start of each overtime, and those a deleted basket's listing
    /// makes (``withDeletedBasket(after:shownFor:home:)``). An alert says what just happened:
    /// ``Coalescer/arrivalAlertWindow`` of feed time before the newest event a push shows, at most.
    private(set) var alertMoments: [(time: Date, overtime: Bool)]
    /// The feed times of the events that change the score, in order.
    let scoreChanges: [Date]
    /// The period that ended the game decided (the fourth or an overtime, its score not tied) and
    /// when its end and the game's end appear (seconds after the first action); nil for a game
    /// whose events never end it so.
    private(set) var decidedEnd: DecidedEnd?

    /// See ``decidedEnd``.
    struct DecidedEnd: Sendable {
        var period: Int
        var periodEnd: Double
        var gameEnd: Double
    }
    /// Whether a player's name fills a push (`SimulatedGamePool.withALongName(_:player:)`): the size
    /// guard trims their plays, an alerted priority 10 more than its priority-5 copy.
    public internal(set) var hasLongName = false
    /// Whether the game's `serve` lines state the feed's running score (`score`, as a feed
    /// adapter passing each action's score writes them), its score corrections given by the score
    /// alone: the fold follows the feed's score, down as well as up.
    public internal(set) var statesScores = false
    private(set) var actions: [Action]
    /// The event lines for `serve`, each ending in its newline, with when each appears (seconds
    /// after the first action).
    private(set) var lines: [(offset: Double, line: Data)]

    /// The actions' JSON objects in order, joined by commas: a copy's `actions` array is a
    /// prefix of it, up to ``ends``' entry for its last action.
    private var body: [UInt8]
    /// Where each action's JSON ends in ``body``.
    private var ends: [Int]
    /// A generated game's events (one per action) and the time of its first: what a deleted
    /// basket is made from (``withDeletedBasket(after:shownFor:home:)``). Empty for a real game.
    private var events: [GameEvent] = []
    /// A made basket the `serve` lines send again later, edited: see
    /// ``withEditedBasket(at:after:toOtherTeam:)``. Nil for most games.
    public private(set) var editedBasket: EditedBasket?

    /// A made basket sent again, edited (``withEditedBasket(at:after:toOtherTeam:)``): its `seq`,
    /// when its line first appears and when the edit's does (seconds after the first action).
    public struct EditedBasket: Sendable {
        public var seq: Int
        public var appears: Double
        public var edited: Double
        /// Credited to the other team; false: its points changed between 2 and 3.
        public var toOtherTeam: Bool
    }

    /// A basket the play-by-play lists for a while, then deletes (a review overturned it): see
    /// ``withDeletedBasket(after:shownFor:home:)``. Nil for most games.
    public private(set) var deletedBasket: DeletedBasket?

    /// A basket the play-by-play lists, then deletes, as the NBA's does when a review overturns
    /// one: its copies from ``appears`` to ``deleted`` (seconds after the first action) list it
    /// after the game's first ``after`` actions, and every action after it states its points;
    /// later copies list the game as it was played, the actions after it keeping their numbers
    /// (the deleted basket's number is not given again).
    public struct DeletedBasket: Sendable {
        public var after: Int
        public var appears: Double
        public var deleted: Double
        /// The points it adds while listed.
        public var points: FinalScore
        /// Whether its deletion makes or takes away a late lead change or tie: news when a poll
        /// sees it, which may be minutes of feed time after the last event before it (seed 109,
        /// day 41: a deletion in overtime tied the game, seen 97 s after).
        public var deletionMoves: Bool
        /// The copies' actions while it is listed, joined as the game's own, and where each ends.
        var body: [UInt8]
        var ends: [Int]
    }

    /// One liveData action: when it appears, its period and the score it states.
    struct Action: Sendable {
        var offset: Double
        var number: Int
        var period: Int
        var score: FinalScore?
    }
    /// For each action, the latest offset up to it: actions appear in the file's order, one
    /// inserted late with the action before it, so the first `k` appear once `reach[k - 1]` has.
    private let reach: [Double]
    /// Each new score the play-by-play states (`poll`) and the event lines make (`serve`), with
    /// when it appears (seconds after the first action), in order: the news a push must bring.
    private(set) var pollScores: [Scored]
    private(set) var serveScores: [Scored]

    /// A score and when the feed starts to show it.
    struct Scored: Sendable {
        var offset: Double
        var score: FinalScore
    }

    public var id: String { attributes.gameId }

    /// A generated game; with `statingScores`, its event lines state the feed's running score
    /// (``statesScores``).
    public init(generated game: GeneratedGame, statingScores: Bool = false) {
        let attributes = game.attributes
        let id = attributes.gameId
        self.attributes = attributes
        final = game.finalScore
        let first = game.events.first?.time ?? Date(timeIntervalSince1970: 0)
        var fold = GameFold()
        var actions: [Action] = []
        var json: [[UInt8]] = []
        var lines: [(Double, Data)] = []
        var corrects = false
        var last = FinalScore(home: 0, away: 0)
        for (index, event) in game.events.enumerated() {
            fold.apply(event, index: index, now: event.time)
            let score = FinalScore(home: fold.state.homeScore, away: fold.state.awayScore)
            if score.home < last.home || score.away < last.away { corrects = true }
            last = score
            let offset = event.time.timeIntervalSince(first)
            json.append(Self.liveData(event, score: score, attributes: attributes))
            actions.append(Action(offset: offset, number: event.seq, period: event.period, score: score))
            lines.append((offset, StreamLine.eventLine(statingScores ? Self.stating(score, event) : event, game: id) + Self.newline))
        }
        events = game.events
        statesScores = statingScores
        self.actions = actions
        (body, ends) = Self.joined(json)
        reach = Self.reach(actions)
        self.lines = [(0, StreamLine.headerLine(attributes) + Self.newline)] + lines
        span = actions.last?.offset ?? 0
        self.corrects = corrects
        pollScores = Self.stated(actions, reach: reach)
        // Each line is one event, folded as it comes: the same scores, as the feed states them.
        serveScores = pollScores
        let folded = Self.folded(game.events, start: first)
        decisiveMoments = folded.decisive.map { max(0, game.events[$0].time.timeIntervalSince(first)) }
        alertMoments = Self.alertMoments(game.events, folded)
        scoreChanges = folded.changes.map { game.events[$0].time }
        decidedEnd = folded.decidedEnd
    }

    /// `event` as a line stating the feed's `score` after it: a score correction becomes a
    /// stoppage whose stated score alone moves the score (as liveData's
    /// `stoppage`/`scorecorrection` action does; a basket the feed deletes lowers the next line's
    /// score in the same way).
    static func stating(_ score: FinalScore, _ event: GameEvent) -> GameEvent {
        var line = event
        line.feedScore = score
        if case .correction = event.kind {
            line.kind = NBAFeed.other(type: "stoppage", sub: "scorecorrection")
            line.description = "score correction (the feed's score says it)"
        }
        return line
    }

    /// A real game: its liveData play-by-play and boxscore.
    public init(playByPlay: Data, boxscore: Data?, file: String) throws(ScoreFeedError) {
        let document = try LiveDataFormat.decode(playByPlay, file: file, boxscore: boxscore)
        let attributes = document.attributes
        let id = attributes.gameId
        self.attributes = attributes
        final = document.finalScore ?? FinalScore(home: 0, away: 0)
        guard let root = try? JSONSerialization.jsonObject(with: playByPlay) as? [String: Any],
            let game = root["game"] as? [String: Any], let raw = game["actions"] as? [[String: Any]]
        else { throw ScoreFeedError(.missingField, "no \"game\".\"actions\"", at: .init(file: file)) }
        var actions: [Action] = []
        var json: [[UInt8]] = []
        var time: Double?
        // Each action as the file spells it, where the byte reader finds them all.
        let spelled = Self.actionBytes(playByPlay).flatMap { $0.count == raw.count ? $0 : nil }
        for (index, action) in raw.enumerated() {
            if let stated = (action["timeActual"] as? String).flatMap(ISOTime.seconds) { time = max(time ?? stated, stated) }
            json.append(spelled?[index]
                ?? (try? JSONSerialization.data(withJSONObject: action, options: [.sortedKeys])).map { [UInt8]($0) } ?? [])
            let home = (action["scoreHome"] as? String).flatMap(Int.init)
            let away = (action["scoreAway"] as? String).flatMap(Int.init)
            actions.append(Action(
                offset: time ?? 0, number: action["actionNumber"] as? Int ?? 0, period: action["period"] as? Int ?? 1,
                score: home.flatMap { home in away.map { FinalScore(home: home, away: $0) } }))
        }
        let first = actions.lazy.map(\.offset).first { $0 > 0 } ?? 0
        for index in actions.indices { actions[index].offset = max(0, actions[index].offset - first) }
        var corrects = false
        var high = FinalScore(home: 0, away: 0)
        for score in actions.compactMap(\.score) {
            if score.home < high.home || score.away < high.away { corrects = true }
            high = FinalScore(home: max(high.home, score.home), away: max(high.away, score.away))
        }
        self.corrects = corrects
        self.actions = actions
        (body, ends) = Self.joined(json)
        reach = Self.reach(actions)
        span = actions.map(\.offset).max() ?? 0
        let start = document.events.first?.time ?? Date(timeIntervalSince1970: 0)
        lines = [(0, StreamLine.headerLine(attributes) + Self.newline)]
            + document.events.map { (max(0, $0.time.timeIntervalSince(start)), StreamLine.eventLine($0, game: id) + Self.newline) }
        pollScores = Self.stated(actions, reach: reach)
        let folded = Self.folded(document.events, start: start)
        serveScores = folded.scores
        decisiveMoments = folded.decisive.map { max(0, document.events[$0].time.timeIntervalSince(start)) }
        alertMoments = Self.alertMoments(document.events, folded)
        scoreChanges = folded.changes.map { document.events[$0].time }
        decidedEnd = folded.decidedEnd
    }

    /// The new scores the play-by-play states as its actions appear.
    private static func stated(_ actions: [Action], reach: [Double]) -> [Scored] {
        var scores: [Scored] = []
        for (action, appears) in zip(actions, reach) {
            if let score = action.score { scores.appendIfNew(Scored(offset: appears, score: score)) }
        }
        return scores
    }

    /// The new scores `events` make as they are read, each when its line appears (the lines come
    /// in the order of their times), the places in `events` where the lead changes hands or
    /// the score becomes tied in the last two minutes of the fourth period or later, and those
    /// where an overtime goes live, those that change the score, and the game's decided end.
    private static func folded(_ events: [GameEvent], start: Date) -> Folded {
        folded(events, appearing: events.map { $0.time.timeIntervalSince(start) })
    }

    /// ``folded(_:start:)`` of lines that appear out of their events' order: each event's line
    /// `appearing` that many seconds after the first action (an edit sent again later).
    private static func folded(_ events: [GameEvent], appearing: [Double]) -> Folded {
        var fold = GameFold()
        var scores: [Scored] = []
        var changes: [Int] = []
        var decisive: [Int] = []
        var overtimes: [Int] = []
        var leader = 0
        var decided: (period: Int, at: Double)?
        var decidedEnd: DecidedEnd?
        let order = events.indices.sorted { (appearing[$0], $0) < (appearing[$1], $1) }
        for (index, place) in order.enumerated() {
            let event = events[place]
            let wasLive = fold.state.phase == .live
            fold.apply(event, index: index, now: event.time)
            let score = FinalScore(home: fold.state.homeScore, away: fold.state.awayScore)
            // (Only a game end right after it: an event between may end the policy's settle.)
            switch event.kind {
            case .periodEnd where event.period >= 4 && score.home != score.away: decided = (event.period, max(0, appearing[place]))
            case .gameEnd: decidedEnd = decided.map { DecidedEnd(period: $0.period, periodEnd: $0.at, gameEnd: max(0, appearing[place])) }
            default: decided = nil
            }
            if scores.appendIfNew(Scored(offset: max(0, appearing[place]), score: score)) { changes.append(place) }
            let leading = score.home > score.away ? 1 : score.home < score.away ? -1 : 0
            if leading != leader, leader != 0 || leading != 0, event.period >= 4, event.clock <= 120 { decisive.append(place) }
            if !wasLive, fold.state.phase == .live, fold.state.period >= 5 { overtimes.append(place) }
            leader = leading
        }
        return (scores, decisive, overtimes, changes, decidedEnd)
    }

    /// The places in `events` where the lead changes hands or the score becomes tied in the last
    /// two minutes of the fourth period or later (``folded(_:start:)``'s).
    static func decisive(_ events: [GameEvent]) -> [Int] {
        folded(events, start: .distantPast).decisive
    }

    /// What ``folded(_:start:)`` finds in a game's events.
    private typealias Folded = (scores: [Scored], decisive: [Int], overtimes: [Int], changes: [Int], decidedEnd: DecidedEnd?)

    /// ``alertMoments`` of `events`, from their fold.
    private static func alertMoments(_ events: [GameEvent], _ folded: Folded) -> [(time: Date, overtime: Bool)] {
        (folded.decisive.map { (events[$0].time, false) } + folded.overtimes.map { (events[$0].time, true) }).sorted { $0.time < $1.time }
    }

    private static let newline = Data([UInt8(ascii: "\n")])

    /// The bytes of each element of `game.actions` in a play-by-play document, as written there;
    /// nil when the byte reader declines the document.
    static func actionBytes(_ document: Data) -> [[UInt8]]? {
        JSONScanner.reading(document) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) -> [[UInt8]]? in
            var found: [[UInt8]]?
            if try scanner.beginObject() {
                repeat {
                    guard try scanner.key().is("game") else {
                        try scanner.skipValue(depth: 1)
                        continue
                    }
                    if try scanner.beginObject() {
                        repeat {
                            guard try scanner.key().is("actions"), found == nil else {
                                try scanner.skipValue(depth: 2)
                                continue
                            }
                            var elements: [[UInt8]] = []
                            if try scanner.beginArray() {
                                repeat {
                                    scanner.skipWhitespace()
                                    let start = scanner.index
                                    try scanner.skipValue(depth: 3)
                                    elements.append(Array(scanner.bytes[start..<scanner.index]))
                                } while try scanner.nextElement()
                            }
                            found = elements
                        } while try scanner.nextMember()
                    }
                } while try scanner.nextMember()
            }
            try scanner.end()
            return found
        } ?? nil
    }

    /// How many actions have appeared `elapsed` seconds after the first.
    func visible(at elapsed: Double) -> Int {
        if elapsed >= span { return actions.count }
        // The first action whose reach is past `elapsed` (reach never falls).
        var low = 0, high = reach.count
        while low < high {
            let middle = (low + high) / 2
            if reach[middle] > elapsed { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// How far into the timeline (seconds after the first action) a copy `elapsed` seconds in,
    /// listing the first `visible` actions, came to list what it lists: when the newest of them
    /// appeared, or the deleted basket went (``deletedBasket``); nil while it lists nothing.
    func changed(at elapsed: Double, visible: Int) -> Double? {
        let appeared = visible > 0 ? reach[visible - 1] : nil
        guard let basket = deletedBasket, visible >= basket.after, basket.deleted <= elapsed else { return appeared }
        return max(appeared ?? basket.deleted, basket.deleted)
    }

    /// The running latest offset of `actions`.
    private static func reach(_ actions: [Action]) -> [Double] {
        var latest = -Double.infinity
        return actions.map { action in
            latest = max(latest, action.offset)
            return latest
        }
    }

    /// The period of the newest of the first `count` actions.
    func period(after count: Int) -> Int {
        count > 0 ? actions[count - 1].period : 1
    }

    /// The score the feed states after its first `count` actions.
    func score(after count: Int) -> FinalScore {
        actions.prefix(count).last { $0.score != nil }?.score ?? FinalScore(home: 0, away: 0)
    }

    /// Whether a copy `elapsed` seconds after the first action, listing the first `visible`
    /// actions, lists the deleted basket (``deletedBasket``).
    func listsDeletedBasket(at elapsed: Double, visible: Int) -> Bool {
        deletedBasket.map { visible >= $0.after && elapsed < $0.deleted } ?? false
    }

    /// The scores the feed states while it lists the deleted basket (none without one).
    var scoresListingTheBasket: Set<FinalScore> {
        guard let basket = deletedBasket else { return [] }
        return Set(pollScores.filter { $0.offset >= basket.appears && $0.offset < basket.deleted }.map(\.score))
    }

    /// The score a copy states after its first `count` actions, with the deleted basket's points
    /// while it `lists` it.
    func score(after count: Int, listing lists: Bool) -> FinalScore {
        let score = score(after: count)
        guard lists, let points = deletedBasket?.points else { return score }
        return Self.adding(points, to: score)
    }

    /// This game with a basket of `home` or away its play-by-play lists after its first `after`
    /// actions, for `shownFor` seconds from when they appear, then deletes (``DeletedBasket``);
    /// nil for a real game (its actions' bytes are the file's) or an `after` out of range. Its
    /// actions are numbered anew: the basket takes the number after the one before it, and
    /// each later action one more than its event's. The late lead changes and ties its listing
    /// makes join the game's alert moments; one its deletion makes is news when a poll sees it
    /// (``DeletedBasket/deletionMoves``).
    public func withDeletedBasket(after: Int, shownFor: Double, home: Bool) -> SimulatedGame? {
        guard events.count == actions.count, after > 0, after < actions.count else { return nil }
        let points = home ? FinalScore(home: 2, away: 0) : FinalScore(home: 0, away: 2)
        let before = events[after - 1]
        let basket = GameEvent(
            seq: before.seq + 1, time: before.time, period: before.period, clock: before.clock, kind: .fieldGoal(points: 2, made: true),
            team: home ? .home : .away, player: "Overturned Basket", description: "made 2-pt shot (overturned on review)")
        var game = self
        var listed: [[UInt8]] = [], played: [[UInt8]] = []
        for (index, (event, action)) in zip(events, actions).enumerated() {
            let number = event.seq + (index >= after ? 1 : 0)
            game.actions[index].number = number
            let score = action.score ?? FinalScore(home: 0, away: 0)
            if index == after { listed.append(Self.liveData(basket, score: Self.adding(points, to: game.score(after: after)), attributes: attributes)) }
            played.append(Self.liveData(event, score: score, attributes: attributes, number: number))
            listed.append(index < after ? played[index] : Self.liveData(event, score: Self.adding(points, to: score), attributes: attributes, number: number))
        }
        (game.body, game.ends) = Self.joined(played)
        let (body, ends) = Self.joined(listed)
        let appears = reach[after - 1]
        let listing = Self.alertMoments(events, listing: basket, at: after, goneAfter: visible(at: appears + shownFor))
        game.deletedBasket = DeletedBasket(
            after: after, appears: appears, deleted: appears + shownFor, points: points, deletionMoves: listing.deletionMoves, body: body, ends: ends)
        game.alertMoments = (alertMoments + listing.moments.filter { moment in !alertMoments.contains { $0.time == moment.time && $0.overtime == moment.overtime } })
            .sorted { $0.time < $1.time }
        game.corrects = true
        // The news a push must bring: the basket's points from when it appears, gone once deleted.
        let moments = Set(reach + [appears, appears + shownFor]).sorted()
        var scores: [Scored] = []
        for moment in moments {
            let visible = game.visible(at: moment)
            scores.appendIfNew(Scored(offset: moment, score: game.score(after: visible, listing: game.listsDeletedBasket(at: moment, visible: visible))))
        }
        game.pollScores = scores
        return game
    }

    /// ``alertMoments`` of `events` with `basket` listed before the event at `place` until a poll
    /// sees it deleted after the first `shown` events, and whether the deletion is one of them:
    /// its points are taken back at the time and in the period of the last of those, on a clock
    /// run out (a deletion seen with no new event is folded at the clock then running, which
    /// may be late in the period).
    private static func alertMoments(
        _ events: [GameEvent], listing basket: GameEvent, at place: Int, goneAfter shown: Int
    ) -> (moments: [(time: Date, overtime: Bool)], deletionMoves: Bool) {
        guard let start = events.first?.time, place <= shown, shown <= events.count else { return ([], false) }
        let seq = (events.map(\.seq).max() ?? 0) + 1
        let last = events[shown - 1]
        var listed = basket
        listed.seq = seq
        let deletion = GameEvent(
            seq: seq + 1, time: last.time, period: last.period, clock: 0, kind: .correction(points: -basket.kind.points),
            team: basket.team, description: "the overturned basket deleted")
        let all = Array(events[..<place]) + [listed] + events[place..<shown] + [deletion] + events[shown...]
        let folded = folded(all, appearing: all.map { $0.time.timeIntervalSince(start) })
        return (alertMoments(all, folded), folded.decisive.contains(shown + 1))
    }

    /// The places in a generated game's events of its made field goals before `period`.
    func madeBaskets(before period: Int) -> [Int] {
        events.indices.filter { index in
            guard case .fieldGoal(_, true) = events[index].kind else { return false }
            return events[index].team != nil && events[index].period < period
        }
    }

    /// This game's `serve` lines with the made basket at `index` of its events sent again `delay`
    /// seconds after it, edited as a scorer's review does: credited to the other team
    /// (`toOtherTeam`), or its points changed between 2 and 3. The same `seq` with other
    /// content: the fold takes the old version's points back and gives the new one's, so the
    /// feed's score moves down for one team (``corrects``), and the final is the edited game's.
    /// Nil for a real game, for one whose lines state the feed's score (the score carries edits
    /// there), when the event is not a made field goal, when the edit would come after the last
    /// line, when it would change the game's late lead changes or overtimes (the moments an
    /// alert is checked at), or when it would leave the final tied.
    public func withEditedBasket(at index: Int, after delay: Double, toOtherTeam: Bool) -> SimulatedGame? {
        guard !statesScores, events.count == actions.count, events.indices.contains(index), let start = events.first?.time,
              case .fieldGoal(let points, true) = events[index].kind, let team = events[index].team
        else { return nil }
        var edit = events[index]
        if toOtherTeam {
            edit.team = team.opponent
            edit.description = "made \(points)-pt shot (credited to the other team on review)"
        } else {
            edit.kind = .fieldGoal(points: points == 3 ? 2 : 3, made: true)
            edit.description = "made \(5 - points)-pt shot (changed on review)"
        }
        let appearing = events.map { $0.time.timeIntervalSince(start) }
        let at = appearing[index] + delay
        guard at < span else { return nil }
        let arrivals = appearing + [at], all = events + [edit]
        let after = Self.folded(all, appearing: arrivals)
        guard after.decisive.map({ max(0, arrivals[$0]) }) == decisiveMoments,
              Self.alertMoments(all, after).map(\.time) == alertMoments.map(\.time)
        else { return nil }
        // The news, counted apart from the fold (which the checks hold to it): from the edit on,
        // the old version's points taken from its team and the new one's given to its own.
        var moved = FinalScore(home: 0, away: 0)
        for (side, change) in [(team, -points), (edit.team ?? team, edit.kind.points)] {
            if side == .home { moved.home += change } else { moved.away += change }
        }
        // (The edit's line goes after the lines of its moment, as it is inserted.)
        var scores = serveScores.filter { $0.offset <= at }
        scores.appendIfNew(Scored(offset: at, score: Self.adding(moved, to: scores.last?.score ?? FinalScore(home: 0, away: 0))))
        for one in serveScores where one.offset > at { scores.appendIfNew(Scored(offset: one.offset, score: Self.adding(moved, to: one.score))) }
        // A game never ends tied.
        let edited = Self.adding(moved, to: final)
        guard edited.home != edited.away else { return nil }
        var game = self
        let place = game.lines.firstIndex { $0.offset > at } ?? game.lines.endIndex
        game.lines.insert((at, StreamLine.eventLine(edit, game: id) + Self.newline), at: place)
        game.serveScores = scores
        game.final = edited
        game.corrects = true
        game.editedBasket = EditedBasket(seq: edit.seq, appears: appearing[index], edited: at, toOtherTeam: toOtherTeam)
        return game
    }

    private static func adding(_ points: FinalScore, to score: FinalScore) -> FinalScore {
        FinalScore(home: score.home + points.home, away: score.away + points.away)
    }

    /// The play-by-play with its first `count` actions, written at `written` (`meta.time`, in
    /// Eastern wall-clock time as the NBA's says it: ``EasternTime/wall(of:)``), and
    /// the deleted basket among them when it `lists` it (``listsDeletedBasket(at:visible:)``).
    func playByPlay(actions count: Int, written: Date, listing lists: Bool = false) -> Data {
        let head = Array("{\"meta\":{\"time\":\"\(Self.metaTime(EasternTime.wall(of: written)))\"},\"game\":{\"gameId\":\"\(id)\",\"actions\":[".utf8)
        let (body, ends, count) = lists ? deletedBasket.map { ($0.body, $0.ends, count + 1) } ?? (body, ends, count) : (body, ends, count)
        let length = count > 0 && !ends.isEmpty ? ends[min(count, ends.count) - 1] : 0
        var out = Data(capacity: head.count + length + 3)
        out.append(contentsOf: head)
        body.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[..<length])) }
        out.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "}")])
        return out
    }

    /// `objects` joined by commas, and where each ends.
    private static func joined(_ objects: [[UInt8]]) -> (body: [UInt8], ends: [Int]) {
        var body: [UInt8] = []
        body.reserveCapacity(objects.reduce(0) { $0 + $1.count + 1 })
        var ends: [Int] = []
        ends.reserveCapacity(objects.count)
        for object in objects {
            if !body.isEmpty { body.append(UInt8(ascii: ",")) }
            body += object
            ends.append(body.count)
        }
        return (body, ends)
    }

    /// The boxscore: `status` 1 (scheduled, `text` saying PPD for a postponed game), 2 or 3 with
    /// `score`, tip-off at `tipOff`, written at `written` (in Eastern wall-clock time, as the
    /// play-by-play's).
    func boxscore(status: Int, text: String, score: FinalScore, tipOff: Date, written: Date) -> Data {
        func team(_ team: Team, _ points: Int) -> String {
            "{\"teamId\":\(Int(team.id) ?? 0),\"teamTricode\":\"\(team.tricode)\",\"teamName\":\"\(team.name)\",\"teamCity\":\"\(team.city)\",\"score\":\(points)}"
        }
        return Data("""
            {"meta":{"time":"\(Self.metaTime(EasternTime.wall(of: written)))"},"game":{"gameId":"\(id)","gameStatus":\(status),"gameStatusText":"\(text)",\
            "gameTimeUTC":"\(Self.iso(tipOff))","homeTeam":\(team(attributes.home, score.home)),"awayTeam":\(team(attributes.away, score.away))}}
            """.utf8)
    }

    /// `meta.time` as the CDN writes it: `2025-02-11 01:16:27.797538`.
    static func metaTime(_ date: Date) -> String {
        stamp(date, between: UInt8(ascii: " "), zone: false)
    }

    /// An ISO 8601 time in UTC, as `timeActual` and `gameTimeUTC` write it:
    /// `2025-02-11T01:16:27.797538Z`.
    static func iso(_ date: Date) -> String {
        stamp(date, between: UInt8(ascii: "T"), zone: true)
    }

    /// `date` in UTC to the microsecond, the date and the time `between` them, then `Z` when
    /// `zone`. Written digit by digit from the calendar's arithmetic (``EasternTime/Day``), with no
    /// `gmtime_r`: a day's CDN writes one for every answer and every action.
    private static func stamp(_ date: Date, between: UInt8, zone: Bool) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let total = Int(whole)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let second = total - days * 86_400
        let calendar = EasternTime.Day(daysSinceEpoch: days)
        return String(unsafeUninitializedCapacity: 27) { text in
            var at = 0
            func digits(_ value: Int, _ count: Int) {
                ASCIIDigits.writeDecimal(value, digits: count, to: text.baseAddress! + at)
                at += count
            }
            func byte(_ byte: UInt8) {
                text[at] = byte
                at += 1
            }
            digits(calendar.year, 4)
            byte(UInt8(ascii: "-"))
            digits(calendar.month, 2)
            byte(UInt8(ascii: "-"))
            digits(calendar.day, 2)
            byte(between)
            digits(second / 3_600, 2)
            byte(UInt8(ascii: ":"))
            digits(second / 60 % 60, 2)
            byte(UInt8(ascii: ":"))
            digits(second % 60, 2)
            byte(UInt8(ascii: "."))
            digits(Int(((seconds - whole) * 1e6).rounded(.down)), 6)
            if zone { byte(UInt8(ascii: "Z")) }
            return at
        }
    }

    /// A liveData action for `event`, stating `score` after it.
    static func liveData(_ event: GameEvent, score: FinalScore, attributes: GameAttributes, number: Int? = nil) -> [UInt8] {
        var type = "", sub = "", descriptor = "", result = ""
        switch event.kind {
        case .periodStart: (type, sub) = ("period", "start")
        case .periodEnd: (type, sub) = ("period", "end")
        case .gameEnd: (type, sub) = ("game", "end")
        case .jumpBall: type = "jumpball"
        case .fieldGoal(let points, let made): (type, result) = (points == 3 ? "3pt" : "2pt", made ? "Made" : "Missed")
        case .freeThrow(let attempt, let of, let made, _): (type, sub, result) = ("freethrow", "\(attempt) of \(of)", made ? "Made" : "Missed")
        case .rebound(let offensive): (type, sub) = ("rebound", offensive ? "offensive" : "defensive")
        case .turnover(let kind): (type, sub) = ("turnover", kind ?? "")
        case .steal: type = "steal"
        case .block: type = "block"
        case .foul(let kind):
            switch kind {
            case .shooting: (type, sub, descriptor) = ("foul", "personal", "shooting")
            case .looseBall: (type, sub, descriptor) = ("foul", "personal", "loose ball")
            default: (type, sub) = ("foul", kind.rawValue)
            }
        case .violation(let kind): (type, sub) = ("violation", kind ?? "")
        case .timeout(let kind): (type, sub) = ("timeout", kind == .official ? "mandatory" : kind.rawValue)
        case .substitution(let out): (type, sub) = ("substitution", out == nil ? "in" : "out")
        case .replay(let ruling, let challenge): (type, sub, descriptor) = ("instantreplay", challenge ? "challenge" : "request", ruling ?? "")
        case .correction: (type, sub) = ("stoppage", "scorecorrection")
        case .other(let name): type = name.split(separator: " ").first.map(String.init) ?? "stoppage"
        }
        let team = event.team.map { $0 == .home ? attributes.home : attributes.away }
        var out = JSONBytes(capacity: 320)
        out.raw("{\"actionNumber\":"); out.int(number ?? event.seq)
        out.raw(",\"orderNumber\":"); out.int(number ?? event.seq)
        out.raw(",\"clock\":"); out.string(GameClockText.exact(event.clock))
        out.raw(",\"timeActual\":"); out.string(Self.iso(event.time))
        out.raw(",\"period\":"); out.int(event.period)
        out.raw(",\"teamId\":"); out.int(team.flatMap { Int($0.id) } ?? 0)
        out.raw(",\"teamTricode\":"); out.string(team?.tricode ?? "")
        out.raw(",\"actionType\":"); out.string(type)
        out.raw(",\"subType\":"); out.string(sub)
        out.raw(",\"descriptor\":"); out.string(descriptor)
        out.raw(",\"playerNameI\":"); out.string(event.player ?? "")
        if !result.isEmpty { out.raw(",\"shotResult\":"); out.string(result) }
        out.raw(",\"scoreHome\":"); out.string(String(score.home))
        out.raw(",\"scoreAway\":"); out.string(String(score.away))
        out.raw(",\"description\":"); out.string(event.description ?? "")
        out.raw("}")
        return [UInt8](out.data())
    }
}

extension [SimulatedGame.Scored] {
    /// Appends `one` when its score is news: not the last one's (0–0 before the first). Returns
    /// whether it did.
    @discardableResult
    mutating func appendIfNew(_ one: SimulatedGame.Scored) -> Bool {
        guard one.score != last?.score ?? FinalScore(home: 0, away: 0) else { return false }
        append(one)
        return true
    }
}

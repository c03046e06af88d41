import Foundation
import ScoreFeedModel

/// The session's own saved form: what `serve` writes to disk after every change, one versioned
/// JSON object per game holding everything the game has applied, spent and sent, including the
/// pushes rendered but not yet confirmed by the sink (sent again, byte for byte, after a restart).
///
/// Format 4 is this form: format 3 plus what a journal needs to be applied to it (the number of
/// inputs journaled so far, and the options they were applied under: the renderer's, with the
/// channel linger, which earlier versions saved beside it; the coalescer's own are in its
/// state). A format-4 file is a snapshot, and the game's journal holds the inputs since
/// (``restore(_:journal:file:renderer:policy:)``). Format 3
/// (format 2 plus the game's broadcast channel) and format 2 load as games whose journal is empty,
/// and format 1 (before checkpoints had a number) still loads. Any other format is refused with a
/// clear error, never read as a game with a fresh budget. The options given at restart apply to
/// the resumed game once its journal is applied, and what the hour has spent stays spent.
///
/// Format 5 is format 4 for a game pushed to several platforms: the first lane's fields stay at
/// the top, and `lanes` holds each other lane's (``PlatformLane``). A game with one lane is
/// written as format 4, as before lanes existed.
extension GameSession: Codable {
    /// The newest format this version of ScoreFeed writes and reads.
    public static let checkpointFormat = 5

    /// The format of a game with one lane.
    static let oneLaneFormat = 4

    enum CodingKeys: String, CodingKey {
        case format, attributes, validator, board, newestSourceTime, newestCopyAt, lastEventAt, followsFeedScore, statistics, now
        /// ``GameSession/newestCopy`` as a ScoreFeed that did not read `meta.time` as a moment saved
        /// it: Eastern wall-clock time read as if it were UTC (read back by daylight saving's rules).
        case newestCopy
        case channel, endRecords, journaled, arrival, arrivalSpan, settling, lanes
        /// The first lane's numbering, at the top (as a lane saves it): what a file too
        /// broken to restore still says (``salvageNumbering(_:)``).
        case seq, lastTimestamp
    }

    /// Refusals waiting in the outbox are not kept: they are reports, not pushes.
    public func encode(to encoder: any Encoder) throws {
        // The first lane's fields at the top, by the names a lane is saved with (a format-4 file's).
        try lanes[0].encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lanes.count > 1 ? Self.checkpointFormat : Self.oneLaneFormat, forKey: .format)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(fold.validator, forKey: .validator)
        try c.encode(fold.board, forKey: .board)
        try c.encodeIfPresent(newestSourceTime, forKey: .newestSourceTime)
        try c.encodeIfPresent(newestCopy, forKey: .newestCopyAt)
        try c.encodeIfPresent(lastEventAt, forKey: .lastEventAt)
        try c.encode(fold.followsFeedScore, forKey: .followsFeedScore)
        try c.encode(statistics, forKey: .statistics)
        try c.encode(now, forKey: .now)
        try c.encode(channel, forKey: .channel)
        try c.encode(keptRecords, forKey: .endRecords)
        try c.encode(journaled, forKey: .journaled)
        if lanes.count > 1 { try c.encode(Array(lanes.dropFirst()), forKey: .lanes) }
        // A catch-up waiting for the rest of its backlog: its open arrival (absent otherwise, so
        // every other snapshot reads as before).
        if let settling {
            try c.encode(settling, forKey: .settling)
            try c.encodeIfPresent(arrival, forKey: .arrival)
            try c.encodeIfPresent(arrivalSpan, forKey: .arrivalSpan)
        }
    }

    /// Reads formats 2 to 5 (``restore(_:journal:file:renderer:policy:)`` checks the format first;
    /// format 1 has a reader of its own); what a format lacks takes its default. The
    /// records of the outbox and the kept `end`s are read with their ids lower-cased
    /// (``PushRecord/withCanonicalIDs()``): an old checkpoint's upper-case id goes out as the same
    /// UUID in Apple's canonical form. The
    /// policy's state is read leniently: one absent, null or unreadable (written by another
    /// version) leaves ``policyWasReset`` set, for `resume(renderer:policy:)` to replace.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let attributes = try c.decode(GameAttributes.self, forKey: .attributes)
        self.init(attributes: attributes, now: try c.decode(Date.self, forKey: .now))
        fold = GameFold(
            validator: try c.decode(EventValidator.self, forKey: .validator), board: try c.decode(Scoreboard.self, forKey: .board),
            followsFeedScore: try c.decodeIfPresent(Bool.self, forKey: .followsFeedScore) ?? false)
        newestSourceTime = try c.decodeIfPresent(Date.self, forKey: .newestSourceTime)
        newestCopy = try c.decodeIfPresent(Date.self, forKey: .newestCopyAt)
            ?? c.decodeIfPresent(Date.self, forKey: .newestCopy).map(EasternTime.instant(wall:))
        lastEventAt = try c.decodeIfPresent(Date.self, forKey: .lastEventAt)
        statistics = try c.decode(Statistics.self, forKey: .statistics)
        channel = try c.decodeIfPresent(BroadcastChannel.self, forKey: .channel) ?? BroadcastChannel()
        keptRecords = (try c.decodeIfPresent([PushRecord].self, forKey: .endRecords) ?? []).map { $0.withCanonicalIDs() }
        journaled = try c.decodeIfPresent(Int.self, forKey: .journaled) ?? 0
        // The first lane's fields are at the top, by the names the other lanes are saved with.
        let saved = [try PlatformLane.Saved(from: decoder)] + (try c.decodeIfPresent([PlatformLane.Saved].self, forKey: .lanes) ?? [])
        lanes = saved.map { PlatformLane($0, attributes: attributes) }
        for (lane, one) in saved.enumerated() where one.coalescer == nil { takeOverPolicy(lane: lane, ended: one.ended) }
        if let waiting = try c.decodeIfPresent(Settling.self, forKey: .settling) {
            settling = waiting
            // Absent while a restart waits for the first arrival (``restart(now:window:)``).
            arrival = try c.decodeIfPresent(Int.self, forKey: .arrival)
            arrivalSpan = try c.decodeIfPresent(ClosedRange<Date>.self, forKey: .arrivalSpan)
        }
    }

    /// The snapshot's bytes (sorted keys: the same game state always writes the same bytes),
    /// as `JSONEncoder` with `.sortedKeys` writes them on Linux (written by a lighter encoder of its own).
    public func encoded() throws -> Data {
        try CheckpointEncoder.encode(self)
    }

    /// Continues the game saved in `data` (a snapshot file's bytes, nil when its journal starts
    /// with its base; `file` names it in errors) under today's options.
    /// `journal`: the bytes of the game's journal, applied to the snapshot under the options it
    /// was written with before today's apply (a torn last line is dropped).
    public static func restore(
        _ data: Data?, journal: Data? = nil, file: String, renderer: PushRenderer.Configuration = .init(),
        policy configuration: Coalescer.Configuration = .standard
    ) throws(ScoreFeedError) -> GameSession {
        var session = try read(data, journal: journal, file: file)
        session.resume(renderer: renderer, policy: configuration)
        return session
    }

    /// ``restore(_:journal:file:renderer:policy:)`` for a game with several lanes: each lane
    /// takes the options of its platform in `lanes`.
    public static func restore(
        _ data: Data?, journal: Data? = nil, file: String, lanes: [PlatformLane.Options]
    ) throws(ScoreFeedError) -> GameSession {
        var session = try read(data, journal: journal, file: file)
        session.resume(lanes: lanes)
        return session
    }

    /// The game saved in `data` and its `journal`, under the options they were written with:
    /// what it was at its last sync, to look at (`scorefeed status`), not to continue.
    /// `data` is nil for a game whose journal starts with its base
    /// (``Journal/begin(_:first:seq:lastTimestamp:to:)``) and that has no snapshot yet.
    public static func read(_ data: Data?, journal: Data? = nil, file: String) throws(ScoreFeedError) -> GameSession {
        try read(data, reading: Journal.reading(of: journal), file: file)
    }

    /// The game saved in `data` and its journal as ``Journal/read(_:)`` read it (nil: no journal,
    /// or an empty one).
    static func read(_ data: Data?, reading: Journal.Reading?, file: String) throws(ScoreFeedError) -> GameSession {
        // What holds the game: the snapshot, or the journal's base.
        let holder = data == nil ? CheckpointStore.journalURL(of: URL(fileURLWithPath: file)).path : file
        guard let snapshot = data ?? reading?.base else {
            throw ScoreFeedError(.invalidValue, "no snapshot, and the journal does not start with the game's base", at: .init(file: holder))
        }
        var session = try decode(snapshot, file: holder)
        if let reading { try session.replay(reading, file: file) }
        return session
    }

    /// Applies the journal's inputs that follow the snapshot's, in order.
    mutating func replay(_ reading: Journal.Reading, file: String) throws(ScoreFeedError) {
        if let line = reading.unreadableLine {
            throw ScoreFeedError(
                .unknownFormat,
                "its journal's line \(line) was written whole but holds an input this version cannot read (written by a newer ScoreFeed?); "
                    + "the inputs from there on would be lost",
                at: .init(file: CheckpointStore.journalURL(of: URL(fileURLWithPath: file)).path, line: line))
        }
        guard let first = reading.first else { return }
        guard first <= journaled + 1 else {
            throw ScoreFeedError(
                .invalidValue,
                "the journal starts at input \(first) but the checkpoint holds only \(journaled): inputs are missing",
                at: .init(file: file))
        }
        for input in reading.inputs.dropFirst(journaled + 1 - first) { apply(input) }
        journaled = max(journaled, first + reading.inputs.count - 1)
    }

    /// The numbering a snapshot file still shows (`seq`, `lastTimestamp`) when it cannot be
    /// restored: a game that starts afresh numbers on from there, so its `seq` and timestamps
    /// keep rising. Nil when the file shows no `seq`.
    public static func salvageNumbering(_ data: Data?) -> (seq: Int, lastTimestamp: Int)? {
        struct Numbering: Decodable {
            var seq: Int?
            var lastTimestamp: Int?
            /// A format-5 file's other lanes, each numbered as the top.
            var lanes: [Numbering]?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                seq = try? c.decodeIfPresent(Int.self, forKey: .seq)
                lastTimestamp = try? c.decodeIfPresent(Int.self, forKey: .lastTimestamp)
                lanes = try? c.decodeIfPresent([Numbering].self, forKey: .lanes)
            }
        }
        guard let read = data.flatMap({ try? JSONDecoder().decode(Numbering.self, from: $0) }), let seq = read.seq, seq >= 0
        else { return nil }
        let others = (read.lanes ?? []).filter { ($0.seq ?? -1) >= 0 }
        guard !others.isEmpty else { return (seq, read.lastTimestamp ?? 0) }
        // Several lanes: every lane numbers on past the highest seq and the latest timestamp
        // (in milliseconds: ``continueNumbering(after:lastTimestamp:)`` takes it in each lane's unit).
        let all = [read] + others
        return (
            all.compactMap(\.seq).max() ?? seq,
            all.map { PushRenderer.timestamp($0.lastTimestamp ?? 0, for: .android) }.max() ?? 0)
    }

    /// A snapshot's top-level `format` as the byte reader reads it: `.some(nil)` when the object
    /// has none (format 1), nil when the reader declines the bytes (not an object, a `format`
    /// that is not an integer or comes twice, anything it does not read as strictly as
    /// `JSONDecoder`).
    static func format(of data: Data) -> Int?? {
        JSONScanner.reading(data) { (scanner: inout JSONScanner) throws(JSONScanner.Declined) -> Int? in
            var format: Int?
            var seen = false
            if try scanner.beginObject() {
                repeat {
                    if try scanner.key().is("format") {
                        guard !seen else { throw JSONScanner.Declined() }
                        seen = true
                        format = try scanner.optionalInt()
                    } else {
                        try scanner.skipValue(depth: 1)
                    }
                } while try scanner.nextMember()
            }
            try scanner.end()
            return format
        }
    }

    /// Reads a snapshot of any format this version knows, options not yet applied.
    static func decode(_ data: Data, file: String) throws(ScoreFeedError) -> GameSession {
        let place = ScoreFeedError.Location(file: file)
        struct Header: Decodable { var format: Int? }
        // The byte reader first (one pass that builds nothing); what it declines, `JSONDecoder` decides.
        let read: Int?
        if let format = Self.format(of: data) {
            read = format
        } else {
            do {
                read = try JSONDecoder().decode(Header.self, from: data).format
            } catch {
                throw ScoreFeedError(.malformedJSON, "not a checkpoint: the file is not a JSON object (torn or overwritten)", at: place)
            }
        }
        guard let format = read else { return try decodeFormat1(data, file: file) }
        guard (2...checkpointFormat).contains(format) else {
            throw ScoreFeedError(
                .unknownFormat,
                "checkpoint format \(format), written by \(format > checkpointFormat ? "a newer" : "an earlier") ScoreFeed; "
                    + "this version reads formats 1 to \(checkpointFormat)",
                at: place)
        }
        // The checkpoint reader first; what it declines, `JSONDecoder` reads (and words the error).
        if let session = CheckpointDecoder.decode(GameSession.self, from: data) { return session }
        do {
            return try JSONDecoder().decode(GameSession.self, from: data)
        } catch let error as DecodingError {
            throw DecodingErrorText.error(error, data: data, file: file)
        } catch {
            throw ScoreFeedError(.invalidValue, "\(error)", at: place)
        }
    }

    /// Applies today's options to a decoded game: its coalescer takes `configuration` (a game
    /// without a readable one gets a fresh coalescer that knows the score it takes over and
    /// counts the hour's budget as spent), its renderer `renderer`. A crash while the channel
    /// lingered or waited for the sink to deliver the end (``lingerWaitsForTheSink``), before the
    /// sink confirmed the start or the end (``keptRecordsWaitForTheSink``), or after the end was
    /// handed to the sink while its priority-5 copy still waited, may have lost it in the sink: it
    /// goes out again, the same bytes, before anything else (before the channel is deleted: no
    /// delete was sent while lingering). What then waits in each outbox is its lane's
    /// ``PlatformLane/mayHaveLeft``.
    mutating func resume(renderer configuration: PushRenderer.Configuration, policy: Coalescer.Configuration) {
        resume(lanes: [PlatformLane.Options(renderer: configuration, policy: policy)])
    }

    /// ``resume(renderer:policy:)`` for each lane, with the options of the same platform in
    /// `options` (a lane that has none keeps its own). A `start` or `end` kept goes back to its own
    /// lane.
    mutating func resume(lanes options: [PlatformLane.Options]) {
        for lane in lanes.indices {
            let platform = lanes[lane].platform
            guard let option = options.first(where: { $0.renderer.platform == platform }) ?? (lanes.count == 1 ? options.first : nil)
            else { continue }
            if lanes[lane].policyWasReset {
                takeOverPolicy(lane: lane, ended: lanes[lane].policy.hasEnded, configuration: option.policy)
            } else if var coalescer = lanes[lane].policy as? Coalescer {
                coalescer.reconfigure(option.policy)
                lanes[lane].policy = coalescer
            }
            lanes[lane].renderer = lanes[lane].renderer.reconfigured(option.renderer)
        }
        let lingering = channel.isLingering
        // An end the sink held when the instance stopped may be lost with it, as may a start or an
        // end kept for it.
        let waiting = lingerWaitsForTheSink
        // So may an end handed to the sink while its priority-5 copy still waited in the outbox
        // (the linger, which would send it again, had not begun): without it, only the copy goes.
        let again = keptRecords.filter { lingering || waiting || keptForTheSink($0) || handedBeforeItsCopy($0) }
        if !again.isEmpty {
            for lane in lanes.indices {
                let platform = lanes[lane].platform
                let kept = lanes.count == 1 ? again : again.filter { $0.platform == platform }
                lanes[lane].outbox = kept.map { .push($0) } + lanes[lane].outbox
            }
            if lingering { channel.reopen() }
        }
        // What waits now may have been handed to the last instance's sink: given back by no
        // supersede, in the outbox or in this instance's sink (``PlatformLane/mayHaveLeft``).
        for lane in lanes.indices {
            lanes[lane].mayHaveLeft = Set(lanes[lane].outboxPushes.map(\.seq))
        }
    }

    /// Whether `end` left for the sink while its lane's outbox still holds a push (its copy), and
    /// is not there itself: a crash may have lost it in the sink before the linger began.
    private func handedBeforeItsCopy(_ end: PushRecord) -> Bool {
        guard let lane = lanes.first(where: { $0.platform == end.platform }), lane.outboxHoldsAPush else { return false }
        return !lane.outbox.contains { if case .push(let record) = $0 { record.seq == end.seq } else { false } }
    }

    /// Replaces a lane's policy whose state is lost with a fresh coalescer that knows the score
    /// it takes over, whether the game's end went out, and on iOS counts the hour's budget as
    /// spent (Apple drops what goes past it; FCM has none to drop for).
    mutating func takeOverPolicy(lane: Int, ended: Bool, configuration: Coalescer.Configuration = .standard) {
        var fresh = Coalescer(configuration: configuration)
        fresh.resume(state: fold.state, shown: lanes[lane].lastPushed, at: now, ended: ended)
        if lanes[lane].platform == .ios { fresh.assumeBudgetSpent(at: now) }
        lanes[lane].policy = fresh
        lanes[lane].policyWasReset = true
    }
}

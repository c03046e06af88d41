import Foundation
import ScoreFeed
import ScoreFeedModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `scorefeed stream`: recorded games turned into the JSON lines `scorefeed serve` reads, merged
/// by feed time as they would arrive live, at once or paced on the real clock.
enum StreamCommand {
    static let help = """
        OVERVIEW: Write recorded games as the stream of JSON lines 'scorefeed serve' reads: every
        game's header first, then the events of all games merged by feed time, each game's events
        in its own order. Pipe it into serve to run a night of games live.

        USAGE: scorefeed stream <file> ... [--speed <x>] [--out <path>]

        ARGUMENTS:
          <file>                  Game files in any format replay reads (fixture, NBA liveData,
                                  stats playbyplayv2, v3 actions), told by content. Two files of
                                  the same game are refused. Of events with the same time, the
                                  game named first goes first.

        OPTIONS:
          --speed <x>             Pace the events on the real clock, x times faster than the
                                  feed (60: a 2.5-hour game in 2.5 minutes), every game
                                  tipping off at once, as on a busy night (recorded games are
                                  often days apart); lines keep their recorded times. Default:
                                  write everything at once, merged by feed time.
          -o, --out <path>        Write the lines to <path>, replacing what it held, instead of
                                  writing them on stdout (- means stdout).
          -h, --help              Show help information.

        A summary goes to standard error. When the reader closes the stream, stream stops and
        exits 0.

        EXAMPLES:
          scorefeed stream Fixtures/overtime.json Fixtures/one-point.json | scorefeed serve --clock feed
          scorefeed stream ../shared/nba-pbp/playbyplay_*.json --speed 60 | scorefeed serve

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        let speed: Double? = try arguments.number("--speed", in: 0.001...1_000_000)
        let out = try arguments.option("-o", "--out")
        let files = try arguments.positionals(max: .max)
        guard !files.isEmpty else { throw ScoreFeedError(.usage, "stream needs at least one game file") }
        if let out, out.isEmpty { throw ScoreFeedError(.usage, "--out needs a file name") }
        try OutputGuard.refuse(out, inputs: files, writing: "the stream")

        let documents = try read(files)
        let writer = try out.flatMap { $0 == "-" ? nil : $0 }.map { path throws(ScoreFeedError) in try LineWriter(path: path) }
            ?? LineWriter()
        signal(SIGPIPE, SIG_IGN)
        let written = try await write(documents, to: writer, speed: speed)
        if let written {
            Console.error("stream: \(documents.count) game\(documents.count == 1 ? "" : "s"), \(written) events")
        }
        return 0
    }

    /// Reads every file; a file that cannot be read is an error naming it, and two files of one
    /// game are a usage error naming both.
    static func read(_ files: [String]) throws(ScoreFeedError) -> [FeedDocument] {
        var documents: [FeedDocument] = []
        var fileOfGame: [String: String] = [:]
        for file in files {
            let document: FeedDocument
            do {
                document = try FeedReader.read(path: file)
            } catch var error {
                if error.location.file == nil { error.location.file = file }
                throw error
            }
            let game = document.attributes.gameId
            if let earlier = fileOfGame[game] {
                throw ScoreFeedError(.usage, "\(earlier) and \(file) are both game \(game); stream each game once")
            }
            fileOfGame[game] = file
            if !document.rejected.isEmpty {
                Console.error("stream: \(file): \(document.rejected.count) events rejected and left out; first: \(document.rejected[0])")
            }
            documents.append(document)
        }
        return documents
    }

    /// Writes the headers, then the merged events, paced when `speed` is given. Paced, every game
    /// tips off at the first one's moment (as on a busy night: recorded games are often days
    /// apart), and the games are merged on that shared clock; the lines keep their recorded times.
    /// Returns how many events were written, or nil when the reader went away first.
    static func write(_ documents: [FeedDocument], to writer: LineWriter, speed: Double?) async throws -> Int? {
        for document in documents {
            try writer.append(StreamLine.headerLine(document.attributes))
        }
        guard try writer.flush() else { return nil }
        let firsts = documents.compactMap { $0.events.first?.time }
        let start = firsts.min() ?? Date(timeIntervalSince1970: 0)
        let shifted = documents.map { document -> [GameEvent] in
            guard speed != nil, let first = document.events.first?.time else { return document.events }
            let offset = start.timeIntervalSince(first)
            return document.events.map { event in
                var moved = event
                moved.time = event.time.addingTimeInterval(offset)
                return moved
            }
        }
        var merge = FeedMerge(shifted)
        var written = Array(repeating: 0, count: documents.count)
        var pacer: Pacer?
        var count = 0
        while let (game, paced) = merge.next() {
            let event = documents[game].events[written[game]]
            written[game] += 1
            let line = StreamLine.eventLine(event, game: documents[game].attributes.gameId)
            if let speed {
                let current = pacer ?? Pacer(speed: speed, virtualStart: paced.time)
                pacer = current
                await current.wait(until: paced.time)
                guard try writer.append(line), try writer.flush() else { return nil }
            } else {
                guard try writer.append(line) else { return nil }
            }
            count += 1
        }
        guard try writer.flush() else { return nil }
        return count
    }
}

import Foundation
import ScoreFeed

/// `scorefeed generate`: a realistic, seeded NBA game written in the fixture format.
enum GenerateCommand {
    static let help = """
        OVERVIEW: Write a realistic generated game in the fixture format. The same seed always
        gives the same game, on every platform.

        USAGE: scorefeed generate [--seed <n>] [--overtime] [--one-point] [--correction] [-o <path>]

        OPTIONS:
          --seed <n>              Seed of the generator, 0…18446744073709551615 (default 1).
          --overtime              Make the game tied after regulation (one overtime or more).
          --one-point             Make the game decided by exactly one point.
          --correction            Make the game contain a score correction after a review.
          -o, --out <path>        Write the fixture to <path>, replacing what it held, instead
                                  of writing it on stdout (- means stdout).
          -h, --help              Show help information.

        EXAMPLES:
          scorefeed generate --seed 7 -o Fixtures/x.json
          scorefeed generate --seed 3 --overtime --one-point > close-overtime.json

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        var requirements: Set<GameGenerator.Requirement> = []
        if arguments.flag("--overtime") { requirements.insert(.overtime) }
        if arguments.flag("--one-point") { requirements.insert(.onePointMargin) }
        if arguments.flag("--correction") { requirements.insert(.scoreCorrection) }
        let seed: UInt64 = try arguments.number("--seed", in: 0...UInt64.max) ?? 1
        let out = try arguments.option("-o", "--out")
        _ = try arguments.positionals(max: 0)
        try FixtureOutput.check(out)

        let game = GameGenerator(seed: seed, options: .init(requirements: requirements)).generate()
        guard let file = try FixtureOutput.write(game.fixtureData(), to: out) else { return 0 }
        let a = game.attributes
        let overtimes = game.periods - 4
        Console.error("""
            Wrote \(file): \(a.gameId) \(a.away.tricode) \(game.finalScore.away) @ \(a.home.tricode) \
            \(game.finalScore.home)\(overtimes > 0 ? " (\(overtimes == 1 ? "" : "\(overtimes)")OT)" : ""), \
            \(game.events.count) events
            """)
        return 0
    }
}

import ScoreFeedModel

/// The 30 NBA teams with their real feed identifiers, and a made-up but stable roster for each.
///
/// The generator picks its two teams from here, so generated games look like real ones on the
/// lock screen (tricode, city, color) without shipping any real play-by-play.
public enum NBATeams {
    /// All 30 teams, ordered by their NBA team id.
    public static let all: [Team] = [
        team(1610612737, "ATL", "Hawks", "Atlanta", "#E03A3E"),
        team(1610612738, "BOS", "Celtics", "Boston", "#007A33"),
        team(1610612739, "CLE", "Cavaliers", "Cleveland", "#860038"),
        team(1610612740, "NOP", "Pelicans", "New Orleans", "#0C2340"),
        team(1610612741, "CHI", "Bulls", "Chicago", "#CE1141"),
        team(1610612742, "DAL", "Mavericks", "Dallas", "#00538C"),
        team(1610612743, "DEN", "Nuggets", "Denver", "#0E2240"),
        team(1610612744, "GSW", "Warriors", "Golden State", "#1D428A"),
        team(1610612745, "HOU", "Rockets", "Houston", "#CE1141"),
        team(1610612746, "LAC", "Clippers", "LA", "#C8102E"),
        team(1610612747, "LAL", "Lakers", "Los Angeles", "#552583"),
        team(1610612748, "MIA", "Heat", "Miami", "#98002E"),
        team(1610612749, "MIL", "Bucks", "Milwaukee", "#00471B"),
        team(1610612750, "MIN", "Timberwolves", "Minnesota", "#0C2340"),
        team(1610612751, "BKN", "Nets", "Brooklyn", "#000000"),
        team(1610612752, "NYK", "Knicks", "New York", "#006BB6"),
        team(1610612753, "ORL", "Magic", "Orlando", "#0077C0"),
        team(1610612754, "IND", "Pacers", "Indiana", "#002D62"),
        team(1610612755, "PHI", "76ers", "Philadelphia", "#006BB6"),
        team(1610612756, "PHX", "Suns", "Phoenix", "#1D1160"),
        team(1610612757, "POR", "Trail Blazers", "Portland", "#E03A3E"),
        team(1610612758, "SAC", "Kings", "Sacramento", "#5A2D81"),
        team(1610612759, "SAS", "Spurs", "San Antonio", "#C4CED4"),
        team(1610612760, "OKC", "Thunder", "Oklahoma City", "#007AC1"),
        team(1610612761, "TOR", "Raptors", "Toronto", "#CE1141"),
        team(1610612762, "UTA", "Jazz", "Utah", "#002B5C"),
        team(1610612763, "MEM", "Grizzlies", "Memphis", "#5D76A9"),
        team(1610612764, "WAS", "Wizards", "Washington", "#002B5C"),
        team(1610612765, "DET", "Pistons", "Detroit", "#C8102E"),
        team(1610612766, "CHA", "Hornets", "Charlotte", "#1D1160"),
    ]

    /// The team with this tricode (case-insensitive), if it is one of the 30.
    public static func team(tricode: String) -> Team? {
        let code = tricode.uppercased()
        return all.first { $0.tricode == code }
    }

    private static func team(_ id: Int, _ tricode: String, _ name: String, _ city: String, _ color: String) -> Team {
        Team(id: String(id), tricode: tricode, name: name, city: city, primaryColor: color)
    }

    /// Thirteen invented player names ("D. Fox" style) for `team`, the same for every game.
    ///
    /// The first five are the starters, the next five the rotation, the last three the end of
    /// the bench. Surnames never repeat within a team, nor with the players in `avoiding` (the
    /// opponent's roster), so a surname identifies one player in a game.
    public static func roster(for team: Team, avoiding taken: [String] = []) -> [String] {
        var state = UInt64(team.id) ?? team.tricode.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }
        var names: [String] = []
        var used = Set(taken.map { $0.split(separator: " ").last.map(String.init) ?? $0 })
        while names.count < 13 {
            let a = SeededRandom.splitMix(&state)
            let initial = initials[Int(a % UInt64(initials.count))]
            let surname = surnames[Int((a >> 20) % UInt64(surnames.count))]
            guard !used.contains(surname) else { continue }
            used.insert(surname)
            names.append("\(initial). \(surname)")
        }
        return names
    }

    private static let initials: [Character] = Array("AABCCDDEGJJJKKLMMNRSSTTW")

    private static let surnames = [
        "Adeyemi", "Allen", "Barnes", "Bell", "Bennett", "Booker", "Bridges", "Brooks", "Carter",
        "Chambers", "Coleman", "Collins", "Cooper", "Dawson", "Diallo", "Dixon", "Doumbia", "Ellis",
        "Fleming", "Ford", "Foster", "Gibson", "Graham", "Grant", "Hampton", "Harper", "Hayes",
        "Holmes", "Hughes", "Ivey", "Jackson", "Jensen", "Johnson", "Kessler", "Knox", "Lambert",
        "Lewis", "Lindqvist", "Lopez", "Marshall", "Mbaye", "McBride", "Mitchell", "Morris", "Nash",
        "Nowak", "Okafor", "Owens", "Parker", "Perry", "Porter", "Pritchard", "Reed", "Reeves",
        "Richards", "Rivers", "Robinson", "Sanders", "Sato", "Sexton", "Simmons", "Stewart", "Sutton",
        "Tate", "Thompson", "Turner", "Vasquez", "Walker", "Wallace", "Warren", "Watson", "Webb",
        "Wells", "Whitmore", "Williams", "Wright", "Young", "Zeller",
    ]
}

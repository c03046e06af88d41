import ScoreFeed

/// The coalescer's command-line knobs, shared by `replay`, `serve`, `poll`, `report` and
/// `freshness`.
enum CoalescerOptions {
    static let help = """
          --budget <n>            Priority-10 pushes allowed per rolling hour. Given, the
                                  policy plans for exactly this budget; without it, it assumes
                                  15 (60 with --frequent) and hedges up to --largest-budget.
          --largest-budget <n>    The largest budget the policy hedges for: with its hour
                                  spent, moments worth the price still go at priority 10 with
                                  a priority-5 copy, up to this many an hour (twice the
                                  budget; equal to --budget when that is given).
          --frequent              The profile for apps with
                                  NSSupportsLiveActivitiesFrequentUpdates (budget 60).
          --p5-delay <s>          Seconds a priority-5 push is late, for the policy and the
                                  freshness report. Given, the policy plans for exactly this
                                  delay; without it, it assumes 60 and hedges down to
                                  --p5-shortest.
          --p5-shortest <s>       The earliest a priority-5 push may arrive, which the policy
                                  hedges for (15; equal to --p5-delay when that is given).
          --keep-uses-share <x>   While hedging, the share (0…1) of the priority-10 pushes that
                                  would lose a use of the hour the moments before then may take
                                  (0.3; 0: none).
          --reserve <n>           Priority-10 pushes that moments other than pauses leave
                                  for timeouts and period ends before the 4th (0).
          --crunch-reserve <n>    Priority-10 pushes kept for the last 2:00 (0).
          --final-reserve <n>     Priority-10 pushes kept for the final from the 4th period
                                  (0: its priority-5 copy brings it within the delay).
          --threshold <s>         Seconds of correct screen a priority 10 must likely buy
                                  (default: priced from the game left and the budget left).
          --paced <n>             The pace spending is measured against, per hour (the
                                  budget).
          --burst <n>             How far spending may fall behind the pace before the
                                  budget is to spare (budget / 4, at least 4; budget / 2
                                  from a budget of 50).
          --spare-share <x>       With budget to spare, the share of the price a moment must
                                  be worth (0.7).
          --no-copies             No priority-5 copy behind a priority 10.
          --run <n>               Unanswered points that make a timeout likely (8).
          --min-interval <s>      Least time between two pushes (0; 1 with --mode broadcast).
          --alerts <list>         Alerts to send: final,overtime,lead-change (default all) or none.
        """

    /// Takes the coalescer's options out of `arguments`; `budget`, when given, replaces `--budget`
    /// (the knobs that follow the budget follow it, and explicit knobs still win).
    /// `android`: the pushes are Android's, whose policy starts from ``Coalescer/Configuration/android``.
    static func parse(
        _ arguments: inout Arguments, budget: Int? = nil, broadcast: Bool = false, android: Bool = false
    ) throws(ScoreFeedError) -> Coalescer.Configuration {
        let frequent = arguments.flag("--frequent")
        if android, frequent { throw ScoreFeedError(.usage, "--frequent is iOS's profile (NSSupportsLiveActivitiesFrequentUpdates); Android's policy plans for FCM") }
        var configuration: Coalescer.Configuration = android ? .android : frequent ? .frequentUpdates : .standard
        let asked: Int? = try arguments.number("--budget", in: 0...10_000)
        if let budget = budget ?? asked { configuration = configuration.withBudget(budget) }
        let largest: Int? = try arguments.number("--largest-budget", in: 0...10_000)
        if let largest { configuration.largestBudget = max(configuration.budget, largest) }
        if let delay: Double = try arguments.number("--p5-delay", in: 0...86_400) { configuration = configuration.knowingDelay(delay) }
        if let shortest: Double = try arguments.number("--p5-shortest", in: 0...86_400) { configuration.shortestPriority5Delay = shortest }
        if let share: Double = try arguments.number("--keep-uses-share", in: 0...1) { configuration.keepUsesShare = share }
        if let reserve: Int = try arguments.number("--reserve", in: 0...1000) { configuration.reserve = reserve }
        if let crunch: Int = try arguments.number("--crunch-reserve", in: 0...1000) { configuration.crunchReserve = crunch }
        if let final: Int = try arguments.number("--final-reserve", in: 0...1000) { configuration.finalReserve = final }
        if let share: Double = try arguments.number("--spare-share", in: 0...1) { configuration.spareShare = share }
        if let threshold: Double = try arguments.number("--threshold", in: 0...3600) { configuration.threshold = threshold }
        if let rate: Double = try arguments.number("--paced", in: 0...10_000) { configuration.pacedPerHour = rate }
        if let burst: Double = try arguments.number("--burst", in: 1...1000) { configuration.pacedBurst = burst }
        if let run: Int = try arguments.number("--run", in: 1...100) { configuration.runLength = run }
        configuration.minInterval = try arguments.number("--min-interval", in: 0...3600) ?? (broadcast ? 1 : 0)
        if arguments.flag("--no-copies") {
            guard largest == nil else {
                throw ScoreFeedError(.usage, "--largest-budget needs the priority-5 copies: a push beyond the budget without one may never show; drop --no-copies")
            }
            configuration.copies = false
        }
        if let alerts = try arguments.option("--alerts") { configuration.alerts = try alertRules(alerts) }
        return configuration
    }

    /// The knobs only the coalescer reads: with `--policy every-change` they do nothing (the
    /// freshness report's device reads the budget and the priority-5 delay, so `--budget`,
    /// `--frequent` and `--p5-delay` still count).
    static let coalescerOnly = [
        "--largest-budget", "--p5-shortest", "--keep-uses-share", "--reserve", "--crunch-reserve", "--final-reserve",
        "--threshold", "--paced", "--burst", "--spare-share", "--no-copies", "--run", "--min-interval", "--alerts",
    ]

    /// The knobs that a budget and a priority-5 delay told to the engine replace
    /// (``Coalescer/Configuration/withBudget(_:)``, ``Coalescer/Configuration/knowingDelay(_:)``).
    static let replacedByTelling = ["--budget", "--frequent", "--largest-budget", "--paced", "--burst", "--p5-delay", "--p5-shortest"]

    /// Refuses each of `names` given in `arguments`: "<name> does nothing <why>".
    static func refuse(_ names: [String], in arguments: inout Arguments, _ why: String) throws(ScoreFeedError) {
        for name in names { try arguments.refuse(name, "\(name) does nothing \(why)") }
    }

    /// `final,overtime,lead-change` or `none`.
    static func alertRules(_ text: String) throws(ScoreFeedError) -> AlertRules {
        var rules = AlertRules.none
        guard text != "none" else { return rules }
        for name in text.split(separator: ",") {
            switch name {
            case "final": rules.final = true
            case "overtime": rules.overtime = true
            case "lead-change": rules.lateLeadChange = true
            default: throw ScoreFeedError(.usage, "--alerts takes final, overtime, lead-change or none; not \(name)")
            }
        }
        return rules
    }
}

import Foundation

extension Metrics {
    /// One metric family: its name, help, type and samples (a name suffix, labels, a value).
    struct Family {
        var name: String
        var help: String
        var type: String
        var samples: [(suffix: String, labels: [(String, String)], value: String)] = []
    }

    /// The figures in the Prometheus text exposition format, version 0.0.4: every family with its
    /// `# HELP` and `# TYPE` lines before its samples, label values escaped, series in a stable
    /// order.
    public func exposition() -> String {
        var text = ""
        for family in families() {
            text += "# HELP \(family.name) \(Self.escapeHelp(family.help))\n# TYPE \(family.name) \(family.type)\n"
            for sample in family.samples {
                text += family.name + sample.suffix
                if !sample.labels.isEmpty {
                    text += "{" + sample.labels.map { "\($0.0)=\"\(Self.escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
                }
                text += " \(sample.value)\n"
            }
        }
        return text
    }

    /// A label value as the format wants it: backslash, double quote and newline escaped.
    public static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Help text as the format wants it: backslash and newline escaped.
    static func escapeHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A sample value: integers as integers, others as Go's float parser reads them.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    func families() -> [Family] {
        let sortedGames = games.sorted { $0.id < $1.id }
        var events = Family(name: "scorefeed_events_total", help: "Events by game and verdict (applied, duplicate, edit, rejected).", type: "counter")
        var pushes = Family(
            name: "scorefeed_pushes_total",
            help: "Push records handed to the sink, by game, platform (when not iOS), priority and event; their sum is the records written.", type: "counter")
        var budget = Family(
            name: "scorefeed_priority10_budget_used", help: "Priority-10 pushes in the rolling hour, by game (and platform, for a second one).", type: "gauge")
        var beyond = Family(name: "scorefeed_beyond_budget_total", help: "Priority-10 pushes sent beyond the assumed budget, by game.", type: "counter")
        var corrections = Family(
            name: "scorefeed_score_corrections_total", help: "Times the feed's running score corrected the game's, by game.", type: "counter")
        var stale = Family(
            name: "scorefeed_stale_copies_total",
            help: "Copies of the game's feed ignored as older than one already seen (a stale CDN edge's), by game.", type: "counter")
        for game in sortedGames {
            for verdict in ["applied", "duplicate", "edit", "rejected"] {
                events.samples.append(("", [("game", game.id), ("verdict", verdict)], String(game.events[verdict] ?? 0)))
            }
            for (kind, count) in game.pushes.sorted(by: { $0.key < $1.key }) {
                let platform = kind.platform.map { [("platform", $0)] } ?? []
                pushes.samples.append(("", [("game", game.id)] + platform + [("priority", String(kind.priority)), ("event", kind.event)], String(count)))
            }
            budget.samples.append(("", [("game", game.id)], String(game.budgetUsed)))
            for (platform, used) in game.otherLanesBudgetUsed.sorted(by: { $0.key < $1.key }) {
                budget.samples.append(("", [("game", game.id), ("platform", platform)], String(used)))
            }
            beyond.samples.append(("", [("game", game.id)], String(game.beyondBudget)))
            corrections.samples.append(("", [("game", game.id)], String(game.corrections)))
            stale.samples.append(("", [("game", game.id)], String(game.staleCopies)))
        }
        var sinkErrors = Family(name: "scorefeed_sink_errors_total", help: "Sink errors by kind.", type: "counter")
        for (kind, count) in self.sinkErrors.sorted(by: { $0.key < $1.key }) { sinkErrors.samples.append(("", [("kind", kind)], String(count))) }
        var requests = Family(name: "scorefeed_poll_requests_total", help: "Poll requests by endpoint and outcome (200, 304 or the error).", type: "counter")
        for (request, count) in pollRequests.sorted(by: { $0.key < $1.key }) {
            requests.samples.append(("", [("endpoint", request.endpoint), ("outcome", request.outcome)], String(count)))
        }
        var states = Family(name: "scorefeed_games", help: "Games by state.", type: "gauge")
        for state in Self.gameStates { states.samples.append(("", [("state", state)], String(gamesByState[state] ?? 0))) }
        var endings = Family(name: "scorefeed_games_ended", help: "Ended games by how they ended: final, postponed or suspended.", type: "gauge")
        for how in Self.endings { endings.samples.append(("", [("how", how)], String(gamesEnded[how] ?? 0))) }
        var families = [events, pushes, budget, beyond, corrections, stale]
        families.append(Self.histogram(
            "scorefeed_feed_to_push_seconds", "Seconds from the feed time of the newest event to the push handed to the sink.", feedToPush))
        families.append(sinkErrors)
        families.append(Family(
            name: "scorefeed_sink_backlog", help: "Records rendered and not yet delivered (the games' outboxes and the webhook's queue).",
            type: "gauge", samples: [("", [], String(sinkBacklog))]))
        families.append(Family(
            name: "scorefeed_withheld_pushes",
            help: "Pushes rendered and not delivered, by cause: checkpoint (cannot be written), channel (none yet) or sink (failed or not yet taken).",
            type: "gauge", samples: Self.withholdingCauses.map { ("", [("cause", $0)], String(withheld[$0] ?? 0)) }))
        families.append(Self.histogram(
            "scorefeed_deadline_lateness_seconds",
            "Seconds after it came due that a game's deadline (a held push, a catch-up's decision, a channel's linger) was acted on.",
            deadlineLateness))
        families.append(Self.histogram("scorefeed_checkpoint_write_seconds", "Seconds per checkpoint write (snapshot, journal append or sync).", checkpointWrite))
        families.append(Family(
            name: "scorefeed_checkpoint_errors_total", help: "Checkpoint writes that failed.", type: "counter",
            samples: [("", [], String(checkpointErrors))]))
        families.append(requests)
        if let pollLag {
            families.append(Family(
                name: "scorefeed_poll_lag_seconds", help: "Longest time, across the games polled, since a game's play-by-play last answered.",
                type: "gauge", samples: [("", [], Self.number(pollLag))]))
        }
        families.append(states)
        families.append(endings)
        families.append(Family(name: "scorefeed_build_info", help: "The build, by version.", type: "gauge", samples: [("", [("version", version)], "1")]))
        return families
    }

    /// A histogram family: cumulative buckets up to `+Inf`, then `_sum` and `_count`.
    static func histogram(_ name: String, _ help: String, _ histogram: Histogram) -> Family {
        var family = Family(name: name, help: help, type: "histogram")
        var cumulative = 0
        for (index, bound) in histogram.bounds.enumerated() {
            cumulative += histogram.counts[index]
            family.samples.append(("_bucket", [("le", number(bound))], String(cumulative)))
        }
        family.samples.append(("_bucket", [("le", "+Inf")], String(histogram.count)))
        family.samples.append(("_sum", [], number(histogram.sum)))
        family.samples.append(("_count", [], String(histogram.count)))
        return family
    }
}

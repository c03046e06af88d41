import Foundation
import ScoreFeed
import ScoreFeedModel

/// Prints each push as a row people can read: game time, score, priority, event, why.
actor TableSink: PushSink {
    private let attributes: GameAttributes
    private let console: LiveConsole?
    /// A replay against the real clock: its records' game clocks run on the wall clock.
    private let pacing: PushRenderer.Pacing?
    private var printedHeader = false

    /// Rows go to `console` when given (the live view), else straight to stdout.
    init(attributes: GameAttributes, console: LiveConsole? = nil, pacing: PushRenderer.Pacing? = nil) {
        self.attributes = attributes
        self.console = console
        self.pacing = pacing
    }

    private func emit(_ line: String, priority: Int? = nil) async {
        if let console { await console.row(line, priority: priority) } else { print(line) }
    }

    func send(_ record: PushRecord) async throws {
        if !printedHeader {
            printedHeader = true
            let a = attributes
            await emit("\(a.away.city) \(a.away.name) (\(a.away.tricode)) at \(a.home.city) \(a.home.name) (\(a.home.tricode)), game \(a.gameId)")
            await emit(row("seq", "time", "game", "score", "pri", "event", "why"))
        }
        let state = record.state
        let sent = Self.wallClock(record.sentAt)
        // The clock as the record's dates count it: paced, on the wall clock.
        let moment = pacing?.wall(record.sentAt) ?? record.sentAt
        let game = state.phase == .final ? "Final" : state.phase.isCalledOff ? state.phase.rawValue.capitalized
            : "\(state.periodLabel) \(state.clockText(at: moment))"
        let score = "\(attributes.away.tricode) \(state.awayScore) – \(state.homeScore) \(attributes.home.tricode)"
        await emit(row(String(record.seq), sent, game, score, String(record.priority), record.event.rawValue, record.reason), priority: record.priority)
    }

    private func row(_ seq: String, _ sent: String, _ game: String, _ score: String, _ pri: String, _ event: String, _ why: String) -> String {
        pad(seq, 4, right: true) + "  " + pad(sent, 8) + "  " + pad(game, 9) + "  " + pad(score, 17) + "  "
            + pad(pri, 3, right: true) + "  " + pad(event, 6) + "  " + why
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }

    /// `HH:MM:SS` UTC of the (virtual) send time.
    static func wallClock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = ((seconds % 86_400) + 86_400) % 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(day / 3600)):\(two(day / 60 % 60)):\(two(day % 60))"
    }
}

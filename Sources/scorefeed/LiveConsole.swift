import Foundation
import ScoreFeed
import ScoreFeedModel

/// The terminal view of `replay --speed`: push rows scroll by while a progress bar over game
/// time and a live scoreboard line update in place at the bottom. Without a terminal (or with
/// `--no-color` / `NO_COLOR`) it prints plain lines only.
actor LiveConsole {
    private let attributes: GameAttributes
    private let start: Date
    private let end: Date
    private let inPlace: Bool
    private var state = GameState()
    private var now: Date
    private var pushes = 0
    private var priority10 = 0
    private var statusShown = false

    init(attributes: GameAttributes, start: Date, end: Date, inPlace: Bool) {
        self.attributes = attributes
        self.start = start
        self.end = end
        self.now = start
        self.inPlace = inPlace
    }

    /// Whether stdout is a terminal and color is allowed.
    static func terminalAllowsColor(noColorFlag: Bool) -> Bool {
        isatty(STDOUT_FILENO) != 0 && !noColorFlag && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Prints a row above the status line.
    func row(_ line: String, priority: Int? = nil) {
        if let priority {
            pushes += 1
            if priority == 10 { priority10 += 1 }
        }
        write((inPlace && statusShown ? "\r\u{1B}[2K" : "") + line + "\n")
        statusShown = false
        drawStatus()
    }

    func update(time: Date, state: GameState) {
        now = max(now, time)
        self.state = state
        drawStatus()
    }

    func tick(_ time: Date) {
        now = max(now, time)
        drawStatus()
    }

    func finish() {
        if inPlace && statusShown { write("\r\u{1B}[2K") }
        statusShown = false
    }

    private func drawStatus() {
        guard inPlace else { return }
        let span = max(1, end.timeIntervalSince(start))
        let fraction = min(1, max(0, now.timeIntervalSince(start) / span))
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let game = state.phase == .final ? "Final" : "\(state.periodLabel) \(state.clockText(at: now))"
        let score = "\(attributes.away.tricode) \(state.awayScore) – \(state.homeScore) \(attributes.home.tricode)"
        let line = "\u{1B}[2m\(bar)\u{1B}[0m \(Int(fraction * 100))%  \u{1B}[1m\(score)\u{1B}[0m  \(game)  pushes \(pushes) (p10 \(priority10))"
        write("\r\u{1B}[2K" + line)
        statusShown = true
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// Waits so that virtual time advances at `speed` times the real clock.
actor Pacer {
    private let speed: Double
    private let virtualStart: Date
    private let realStart = ContinuousClock.now

    init(speed: Double, virtualStart: Date) {
        self.speed = speed
        self.virtualStart = virtualStart
    }

    func wait(until date: Date) async {
        let offset = max(0, date.timeIntervalSince(virtualStart)) / speed
        let target = realStart + .seconds(offset)
        if target > .now { try? await Task.sleep(until: target, clock: .continuous) }
    }
}

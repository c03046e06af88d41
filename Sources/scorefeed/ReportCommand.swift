import Foundation
import ScoreFeed
import ScoreFeedModel

/// `scorefeed report`: one self-contained HTML page to look at a replayed game.
enum ReportCommand {
    static let help = """
        OVERVIEW: Replay a game and write one self-contained HTML page: the score worm with every
        push, budget use, the freshness figures beside the baselines, and a scrubber that shows
        the Live Activity (lock screen and Dynamic Island) as the device would have at any moment.

        USAGE: scorefeed report <file> -o <report.html> [--platform ios|android] [options]

        ARGUMENTS:
          <file>                  A game file, in any format replay reads.

        OPTIONS:
          -o, --out <path>        Write the page to <path>, replacing what it held (required).
          --platform <platform>   ios (default): the Live Activity under Apple's budget;
                                  android: the engine's FCM messages under the Android device
                                  model, the Live Update notification, Android's senders.
        \(CoalescerOptions.help)
          -h, --help              Show help information.

        EXAMPLES:
          scorefeed report Fixtures/overtime.json -o .build/overtime.html

        """

    static func run(_ argv: [String]) async throws -> Int32 {
        var arguments = Arguments(argv)
        guard let out = try arguments.option("-o", "--out") else {
            throw ScoreFeedError(.usage, "name the page to write with -o <report.html>")
        }
        let platform = try arguments.choice("--platform", of: PushRenderer.Platform.self) ?? .ios
        let configuration = try CoalescerOptions.parse(&arguments, android: platform == .android)
        let files = try arguments.positionals(max: 1)
        guard let path = files.first else { throw ScoreFeedError(.usage, "name a game file") }
        try OutputGuard.refuse(out, inputs: [path], writing: "the report")
        let document = try FeedReader.read(path: path)
        var renderer = PushRenderer.Configuration()
        renderer.platform = platform
        let records = try await Replay(policy: Coalescer(configuration: configuration), renderer: renderer).records(document)
        let data = platform == .android
            ? ReportData(document: document, records: records, android: AndroidDeviceModel())
            : ReportData(document: document, records: records, model: DeviceModel(configuration))
        let html = HTMLReport.render(data)
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw ScoreFeedError(.io, "cannot write the report: \(error.localizedDescription)", at: .init(file: out))
        }
        Console.error("wrote \(out) (\(html.utf8.count / 1024) KB): \(data.pushes.count) pushes, wrong share \(String(format: "%.3f", data.engine.wrongShare))")
        return 0
    }
}

import Foundation
import Testing
@testable import ScoreFeed
import ScoreFeedModel

/// The HTML report: self-contained, and correct in a real browser where one is installed.
@Suite("HTML report", .serialized)
struct HTMLReportTests {
    /// Every shipped fixture, plus the real games in ../shared/nba-pbp when that folder is there.
    static let games: [String] = Make.fixtureFiles().map { Make.fixtures.appendingPathComponent($0).path }
        + (NBAFiles.available ? NBAFiles.games.map(NBAFiles.path) : [])

    /// The report of `path` for `platform` and its page, made once per test run (the checks in
    /// process and the browser's read the same pages).
    static func report(_ path: String, platform: PushRenderer.Platform = .ios) async throws -> (ReportData, String) {
        try await reports.value("\(platform.rawValue) \(path)") { try await making(path, platform: platform) }
    }

    private static let reports = RunMemo<String, (ReportData, String)>()

    private static func making(_ path: String, platform: PushRenderer.Platform) async throws -> (ReportData, String) {
        let document = try FeedReader.read(path: path)
        let records = try await RealFeedServeTests.replay(document, mode: platform == .ios ? .token : .androidToken)
        let data = platform == .android
            ? ReportData(document: document, records: records, android: AndroidDeviceModel())
            : ReportData(document: document, records: records, model: DeviceModel(budget: 15))
        return (data, HTMLReport.render(data))
    }

    @Test(arguments: games, PushRenderer.Platform.allCases)
    func isSelfContained(path: String, platform: PushRenderer.Platform) async throws {
        let (data, html) = try await Self.report(path, platform: platform)
        #expect(html.contains("<svg id=\"worm\""))
        #expect(html.contains("<script id=\"report-data\" type=\"application/json\">"))
        for external in ["http://", "https://", "<link", " src=", "@import", "url("] {
            #expect(!html.contains(external), "\(path) references \(external)")
        }
        #expect(data.pushes.last?.event == "end")
        #expect(data.screen.last.map { ($0.state.homeScore, $0.state.awayScore) } ?? (-1, -1) == (data.truth.last?.home ?? 0, data.truth.last?.away ?? 0))
        // The shaded spans are the wrong share, one rect each.
        let shaded = data.wrongSpans.reduce(0) { $0 + $1[1] - $1[0] }
        #expect(abs(shaded / (data.end - data.start) - data.engine.wrongShare) < 0.01, "\(path)")
        #expect(html.components(separatedBy: "<rect class=\"wrong\"").count - 1 == data.wrongSpans.count)
        if platform == .android {
            #expect(data.platform == .android && data.androidFreshness?.rows.map(\.policy) == ["engine", "HIGH every change", "HIGH collapsible", "NORMAL collapsible"])
            #expect(html.contains("Live Update") && !html.contains("Dynamic Island, compact") && !html.contains("id=\"budget\""), "Android's notification, no budget chart")
        } else {
            #expect(html.contains("Dynamic Island, compact") && html.contains("id=\"budget\""))
        }
    }

    @Test func theWormShadesWhereTheScreenWasWrong() {
        // A basket at 100 s sent at priority 5 (shown at 220 s), one at 400 s at priority 10.
        let timeline = ScoreTimeline(
            changes: [.init(time: Make.start.addingTimeInterval(100), score: FinalScore(home: 2, away: 0)),
                      .init(time: Make.start.addingTimeInterval(400), score: FinalScore(home: 2, away: 3))],
            start: Make.start, end: Make.start.addingTimeInterval(1000), gameEnd: nil)
        let sent = [
            DeviceModel.Sent(sentAt: Make.start.addingTimeInterval(100), priority: 5, timestamp: 1, score: FinalScore(home: 2, away: 0), sourceTime: Make.start.addingTimeInterval(100), isEnd: false),
            DeviceModel.Sent(sentAt: Make.start.addingTimeInterval(400), priority: 10, timestamp: 2, score: FinalScore(home: 2, away: 3), sourceTime: Make.start.addingTimeInterval(400), isEnd: false),
        ]
        let spans = Freshness.wrongSpans(screen: DeviceModel(budget: 15, priority5Delay: 120).screen(sent), timeline: timeline)
        #expect(spans.map { [$0.start.timeIntervalSince(Make.start), $0.end.timeIntervalSince(Make.start)] } == [[100, 220]])
    }

    @Test func escapesWhatTheFeedWrites() {
        #expect(HTMLReport.escape("<script>\"&'") == "&lt;script&gt;&quot;&amp;&#39;")
        #expect(HTMLReport.color("#12ab9F") == "#12ab9F")
        #expect(HTMLReport.color("red;} body{") == "#555555")
    }

    /// Chromium from Debian's `chromium` package; the browser checks skip without it.
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        .enabled(if: chromium != nil, "headless Chromium is not installed (apt-get install chromium); browser check skipped"),
        arguments: games)
    func showsTheFinalInABrowser(path: String) async throws {
        try await Self.expectTheFinalInABrowser(path: path, platform: .ios)
        // One screenshot to look at.
        guard path == Self.games.last else { return }
        let folder = Self.browser.folder, name = Self.pageName(path)
        let url = folder.appendingPathComponent("\(name).html").absoluteString + "#end"
        _ = try Self.chrome(["--hide-scrollbars", "--window-size=1100,1900", "--screenshot=\(folder.appendingPathComponent("\(name).png").path)", url])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(name).png").path))
    }

    @Test(
        .enabled(if: chromium != nil, "headless Chromium is not installed (apt-get install chromium); browser check skipped"),
        arguments: games)
    func showsTheFinalOnAndroidInABrowser(path: String) async throws {
        try await Self.expectTheFinalInABrowser(path: path, platform: .android)
    }

    /// The page of `path`'s report for `platform`, scrubbed to its end in Chromium: no console
    /// error, the worm drawn, and the preview showing the final score.
    static func expectTheFinalInABrowser(path: String, platform: PushRenderer.Platform) async throws {
        let pages = try await Self.browser.pages()
        let name = Self.pageName(path, platform: platform)
        let page = try #require(pages[name], "the report of \(path) among \(pages.keys.sorted())")
        let said = try #require(page.selfTest, "the browser's result for \(path)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(said.utf8)) as? [String: Any], "\(said)")
        let final = page.final
        #expect(result["ok"] as? Bool == true, "console errors: \(result["errors"] ?? "?")")
        #expect(result["svg"] as? Bool == true)
        #expect(result["shown"] as? String == final, "the scrubbed-to-the-end lock screen shows the final score")
        #expect(result["truth"] as? String == final)
        #expect(result["phase"] as? String == "final")
    }

    static func pageName(_ path: String, platform: PushRenderer.Platform = .ios) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + (platform == .ios ? "" : "-android")
    }

    static let browser = BrowserRun()

    /// Every game's report opened in one Chromium (a browser start costs more than a report's
    /// check): a page frames each report scrubbed to its end (`#end`) and gathers what each one's
    /// self-test says, by page name.
    actor BrowserRun {
        let folder = Make.packageRoot.appendingPathComponent(".build/reports")
        private var run: Task<[String: Page], any Error>?

        /// One game's report: the final its data says (away-home), and its self-test's JSON text
        /// as the browser left it (nil: none came back).
        struct Page: Sendable {
            var final: String
            var selfTest: String?
        }

        func pages() async throws -> [String: Page] {
            if run == nil {
                let folder = folder
                run = Task { try await Self.open(HTMLReportTests.games, in: folder) }
            }
            return try await run!.value
        }

        private static func open(_ paths: [String], in folder: URL) async throws -> [String: Page] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var names: [String] = []
            var pages: [String: Page] = [:]
            for path in paths {
                for platform in PushRenderer.Platform.allCases {
                    let (data, html) = try await HTMLReportTests.report(path, platform: platform)
                    let name = HTMLReportTests.pageName(path, platform: platform)
                    try Data(html.utf8).write(to: folder.appendingPathComponent("\(name).html"))
                    names.append(name)
                    pages[name] = Page(final: "\(data.truth.last?.away ?? 0)-\(data.truth.last?.home ?? 0)")
                }
            }
            let list = String(decoding: try JSONSerialization.data(withJSONObject: names), as: UTF8.self)
            let page = folder.appendingPathComponent("all-reports.html")
            try Data("""
                <!doctype html><meta charset="utf-8"><body><pre id="results"></pre><script>
                var names = \(list), results = {}, left = names.length;
                names.forEach(function (name) {
                  var frame = document.createElement("iframe");
                  frame.onload = function () {
                    var test = frame.contentDocument && frame.contentDocument.getElementById("selftest");
                    results[name] = test ? test.textContent : JSON.stringify({ errors: ["no self-test"] });
                    if (--left === 0) { document.getElementById("results").textContent = JSON.stringify(results); }
                  };
                  frame.src = encodeURIComponent(name) + ".html#end";
                  document.body.appendChild(frame);
                });
                </script>
                """.utf8).write(to: page)
            let dom = try HTMLReportTests.chrome(["--allow-file-access-from-files", "--dump-dom", page.absoluteString], budget: 30000)
            let text = dom.range(of: "<pre id=\"results\">").map { dom[$0.upperBound...].prefix { $0 != "<" } } ?? ""
            let json = text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
            let said = (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]) ?? [:]
            for (name, selfTest) in said { pages[name]?.selfTest = selfTest }
            return pages
        }
    }

    /// Runs headless Chromium with a private profile and a time limit; returns its stdout.
    static func chrome(_ arguments: [String], budget: Int = 3000) throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-chrome-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium!)
        process.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=\(budget)", "--timeout=\(budget * 2)",
        ] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
